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
