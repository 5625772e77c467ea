/**
 * The manifest-only counts on both committed manifests: every certification verdict is
 * counted, `uncertified` included (the BFCL v3 pairs no hand ruling covers), so the
 * verdicts add up to the candidates put through certification.
 */
import { describe, expect, it } from "vitest";
import { committedManifestPath, loadManifest } from "../io/manifest.js";
import { countsByName } from "./metric-names.js";
import { manifestCounts } from "./metrics.js";

function counts(version: "v3" | "v4") {
  const m = loadManifest(committedManifestPath(version));
  if (!m.ok) throw new Error(`the ${version} manifest does not load`);
  return { manifest: m.value, counts: manifestCounts(m.value) };
}

describe("manifest counts: certification verdicts", () => {
  it("v4: the paper's 196 valid, 27 compound, 8 construction of 231, none uncertified", () => {
    const { counts: c } = counts("v4");
    expect([c.certifiedPairs, c.certificationVerdicts]).toEqual([231, { valid: 196, compound: 27, construction: 8, uncertified: 0 }]);
    expect(countsByName(c).get("counts.certification_verdicts.uncertified")).toBe(0);
  });

  it("v3: the funnel's uncertified pairs are counted, and the verdicts sum to the candidates", () => {
    const { manifest, counts: c } = counts("v3");
    const v = c.certificationVerdicts;
    expect(v.uncertified).toBe(manifest.funnel.uncertified);
    expect(v.uncertified).toBe(121);
    expect(v.valid + v.compound + v.construction + v.uncertified).toBe(c.certifiedPairs);
    expect(c.certifiedPairs).toBe(manifest.funnel.candidates);
    expect(countsByName(c).get("counts.certification_verdicts.uncertified")).toBe(121);
  });
});

describe("the pair counts --help states per BFCL version", () => {
  it("are the committed manifests' (sensitivity readings and score's pair-set flags)", async () => {
    const { sensitivityReadings } = await import("./readings.js");
    const { readFileSync } = await import("node:fs");
    const { projectRoot } = await import("../testing/shared.js");
    const v4 = counts("v4").counts;
    const v3 = counts("v3").counts;
    const meaning = (reading: string) => sensitivityReadings.find((r) => r.reading === reading)?.meaning;
    expect(meaning("table-1")).toBe(
      `Table 1: the certified pairs (BFCL v4: ${v4.scoredPairs}; v3: ${v3.scoredPairs}, ${v3.certificationVerdicts.uncertified} of them uncertified)`,
    );
    expect(meaning("logins")).toBe(`logins counted as world-changing (BFCL v4: ${v4.scoredPairsLogin} pairs; v3: ${v3.scoredPairsLogin})`);
    expect(meaning("uncertified")).toBe(
      `the gold world-changing pairs before certification (BFCL v4: ${v4.certifiedPairs}; v3: ${v3.certifiedPairs})`,
    );
    expect(meaning("all-pairs")).toBe(
      `all content-verified pairs, read-only anchors included (BFCL v4: ${v4.contentVerifiedPairs}; v3: ${v3.contentVerifiedPairs})`,
    );
    expect(meaning("bad-keys-restored")).toBe(
      `the bad keys restored (BFCL v4: +${v4.badKeyRestoredAdded} pairs; v3: +${v3.badKeyRestoredAdded})`,
    );
    const scoreCommand = readFileSync(`${projectRoot}/src/cli/option-groups.ts`, "utf8");
    expect(scoreCommand).toContain(
      `(${v4.scoredPairs} -> ${v4.scoredPairsLogin} on BFCL v4, ${v3.scoredPairs} -> ${v3.scoredPairsLogin} on v3)`,
    );
    expect(scoreCommand).toContain(`(${v4.certifiedPairs} on BFCL v4, ${v3.certifiedPairs} on v3)`);
    expect(scoreCommand).toContain(`(${v4.contentVerifiedPairs} on BFCL v4, ${v3.contentVerifiedPairs} on v3)`);
  });
});
