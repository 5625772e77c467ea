import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bfclVersionInfo } from "../bfcl/versions.js";
import { buildManifest, itemContents } from "../pairs/build.js";
import { renderCertifiedContent } from "../pairs/certification.js";
import { bfclDataDir, projectRoot, sharedPath } from "../testing/shared.js";
import { readBfclDataDir } from "./bfcl-data.js";
import { parsePackedManifest, renderPackedManifest } from "../pairs/manifest-json.js";
import type { Manifest } from "../pairs/types.js";
import { recordMismatch, withRevisions } from "../pairs/revisions.js";
import { requireFreshBuild } from "../testing/build.js";
import {
  committedCertificationPath,
  committedManifestPath,
  loadCommittedManifest,
  loadCommittedRevisions,
  loadManifest,
  packedManifestPath,
  parseManifest,
  readPackedManifest,
  renderManifest,
  writeManifest,
} from "./manifest.js";

describe("committed manifests", () => {
  const cert = (name: string) => ({ file: name, text: readFileSync(sharedPath("certification", name), "utf8") });
  const certifiedContent = () => ({
    file: "certified-content.tsv",
    text: readFileSync(committedCertificationPath("certified-content.tsv"), "utf8"),
  });
  for (const { version } of Object.values(bfclVersionInfo)) {
    it(`${version}: ${bfclVersionInfo[version].manifestFile} is byte-identical to a rebuild from ../shared/bfcl-${version}, the certification files and revisions-${version}.json`, () => {
      const data = readBfclDataDir(sharedPath(`bfcl-${version}`), ["base", "miss_func", "miss_param"]);
      if (!data.ok) throw new Error(data.problems[0].message);
      const built = buildManifest({
        data: data.value,
        badKeys: cert("bad-keys.tsv"),
        rulings: cert("rulings.tsv"),
        certifiedContent: certifiedContent(),
      });
      if (!built.ok) throw new Error(built.problems[0].message);
      expect(built.value.source.bfclVersion).toBe(version);
      const record = loadCommittedRevisions(version);
      if (record === null || !record.ok) throw new Error(`no valid revisions-${version}.json`);
      expect(recordMismatch(built.value, record.value)).toBeNull();
      expect(renderManifest(withRevisions(built.value, record.value)) === readFileSync(committedManifestPath(version), "utf8")).toBe(true);
    });
  }
  it("certified-content.tsv records the content of ../shared/bfcl-v4's items, the ones the rulings were made on", () => {
    const data = readBfclDataDir(bfclDataDir(), ["base", "miss_func", "miss_param"]);
    if (!data.ok) throw new Error(data.problems[0].message);
    const text = renderCertifiedContent(itemContents(data.value));
    expect(text.split("\n")).toHaveLength(602);
    expect(text === certifiedContent().text).toBe(true);
  });
  it("ships certification files identical to the paper's rulings in ../shared/certification", () => {
    for (const name of ["bad-keys.tsv", "rulings.tsv"] as const) {
      expect(readFileSync(committedCertificationPath(name), "utf8")).toBe(readFileSync(sharedPath("certification", name), "utf8"));
    }
  });
  it("loads from the package's data/ folder with the 223 scored pairs (v4, the default) or the 234 of v3", () => {
    expect(committedManifestPath()).toBe(join(projectRoot, "data", "manifest.json"));
    expect(committedManifestPath("v3")).toBe(join(projectRoot, "data", "manifest-v3.json"));
    const v3 = loadManifest(committedManifestPath("v3"));
    expect(v3.ok && [v3.value.source.bfclVersion, v3.value.funnel.scored]).toEqual(["v3", 234]);
    const m = loadManifest();
    expect(m.ok).toBe(true);
    if (m.ok) {
      expect(m.value.funnel.scored).toBe(223);
      expect(m.value.pairs.filter((p) => p.status === "scored")).toHaveLength(223);
      expect(m.value.source.bfclVersion).toBe("v4");
    }
  });
});

describe("parseManifest", () => {
  const text = readFileSync(committedManifestPath(), "utf8");
  it("round-trips the committed file through parse and render", () => {
    const m = parseManifest(text);
    expect(m.ok && renderManifest(m.value) === text).toBe(true);
  });
  it("reports a truncated file, another version and a wrong field as one problem each", () => {
    const cut = parseManifest(text.slice(0, 1000), "m.json");
    expect(!cut.ok && cut.problems[0]).toMatchObject({ code: "json-malformed", file: "m.json" });
    const v2 = parseManifest(text.replace('"version": 3', '"version": 2'), "m.json");
    expect(!v2.ok && v2.problems[0].message).toBe(
      "unsupported manifest version 2 (this twinscore reads version 3; rebuild it with twinscore pairs)",
    );
    const bad = parseManifest(text.replace('"anchorTurn": 2', '"anchorTurn": "2"'), "m.json");
    expect(!bad.ok && bad.problems[0]).toMatchObject({ code: "manifest-schema" });
    expect(!bad.ok && bad.problems[0].message).toMatch(/^invalid manifest at pairs\.0\.anchorTurn: /);
  });
  it("refuses a manifest listing a pair twice: every pair doubled, one pair repeated, a pair also dropped", () => {
    const m = JSON.parse(text) as { pairs: { missId: string }[]; dropped: { missId: string }[] };
    const doubled = parseManifest(JSON.stringify({ ...m, pairs: [...m.pairs, ...m.pairs] }), "m.json");
    expect(!doubled.ok && doubled.problems).toEqual([
      {
        code: "manifest-pair-repeated",
        severity: "error",
        file: "m.json",
        message: `invalid manifest: ${m.pairs[0].missId} is listed twice (pairs.0 and pairs.${m.pairs.length}); each should-ask item is one pair (a pair counted twice doubles its weight in every number)`,
      },
    ]);
    const once = parseManifest(JSON.stringify({ ...m, pairs: [...m.pairs, m.pairs[100]] }), "m.json");
    expect(!once.ok && once.problems[0].message).toContain(
      `${m.pairs[100].missId} is listed twice (pairs.100 and pairs.${m.pairs.length})`,
    );
    const alsoDropped = parseManifest(
      JSON.stringify({ ...m, dropped: [...m.dropped, { ...m.dropped[0], missId: m.pairs[3].missId }] }),
      "m.json",
    );
    expect(!alsoDropped.ok && alsoDropped.problems[0].message).toContain(
      `${m.pairs[3].missId} is both a pair (pairs.3) and dropped (dropped.${m.dropped.length})`,
    );
  });
  it("reports a missing file", () => {
    const r = loadManifest("/nonexistent/manifest.json");
    expect(!r.ok && r.problems[0]).toMatchObject({ code: "file-missing", file: "/nonexistent/manifest.json" });
  });
});

describe("packed manifests", () => {
  const committed = (version: "v3" | "v4"): { text: string; bytes: number; manifest: Manifest } => {
    const bytes = readFileSync(committedManifestPath(version));
    const parsed = parseManifest(bytes.toString("utf8"));
    if (!parsed.ok) throw new Error(parsed.problems[0].message);
    return { text: bytes.toString("utf8"), bytes: bytes.length, manifest: parsed.value };
  };
  for (const version of ["v4", "v3"] as const) {
    it(`${version}: packing keeps every value, key order included, in ASCII, each distinct tool list once`, () => {
      const { text, bytes, manifest } = committed(version);
      const packedText = renderPackedManifest(manifest, bytes);
      expect(/^[\x00-\x7f]*$/.test(packedText)).toBe(true);
      expect(/[^\x00-\x7f]/.test(text)).toBe(true); // the committed file does hold other characters
      const unpacked = parsePackedManifest(packedText, "p.json");
      if (!unpacked.ok) throw new Error(unpacked.problems[0].message);
      expect(unpacked.value.sourceBytes).toBe(bytes);
      expect(renderManifest(unpacked.value.manifest) === text).toBe(true);
      const lists = new Set([...unpacked.value.manifest.pairs, ...unpacked.value.manifest.restoredPairs].map((p) => p.tools));
      const distinct = new Set([...manifest.pairs, ...manifest.restoredPairs].map((p) => p.tools.join(",")));
      expect(lists.size).toBe(distinct.size);
      expect(lists.size).toBeLessThan(manifest.pairs.length / 10);
      expect(packedText.length).toBeLessThan(text.length * 0.7);
    });
  }
  it("reports a packed file that is malformed, of another format or points at a tool list it does not have", () => {
    const { bytes, manifest } = committed("v4");
    const packedText = renderPackedManifest(manifest, bytes);
    expect(parsePackedManifest(packedText.slice(0, 500), "p.json")).toMatchObject({
      ok: false,
      problems: [{ code: "json-malformed", file: "p.json" }],
    });
    expect(parsePackedManifest(packedText.replace('{"packed":1,', '{"packed":2,'), "p.json")).toMatchObject({
      ok: false,
      problems: [{ code: "manifest-version" }],
    });
    expect(parsePackedManifest(packedText.replace('"tools":0,', '"tools":999,'), "p.json")).toMatchObject({
      ok: false,
      problems: [{ code: "manifest-schema", message: "packed manifest: tool list 999 does not exist" }],
    });
  });
  it("is used only when it was packed from the committed file as it is now (not older than it, its byte length), else null", () => {
    const { text, bytes, manifest } = committed("v4");
    const dir = mkdtempSync(join(tmpdir(), "twinscore-packed-"));
    const source = join(dir, "manifest.json");
    const packed = join(dir, "packed.json");
    const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);
    writeFileSync(source, text);
    writeFileSync(packed, renderPackedManifest(manifest, bytes));
    at(source, 1_000_000);
    at(packed, 1_000_000); // an installed package: every file has the same time
    const loaded = readPackedManifest(packed, source);
    expect(loaded !== null && renderManifest(loaded) === text).toBe(true);
    // edited after the build, keeping its length (another anchor turn): newer than the packed file
    writeFileSync(source, text.replace('"anchorTurn": 2', '"anchorTurn": 3'));
    expect(readFileSync(source).length).toBe(bytes);
    at(source, 1_000_100);
    expect(readPackedManifest(packed, source)).toBeNull();
    // packed afterwards from another file of another length
    at(packed, 1_000_200);
    writeFileSync(source, text + "\n");
    at(source, 1_000_100);
    expect(readPackedManifest(packed, source)).toBeNull();
    expect(readPackedManifest(join(dir, "none.json"), committedManifestPath("v4"))).toBeNull();
    writeFileSync(join(dir, "bad.json"), "{");
    expect(readPackedManifest(join(dir, "bad.json"), committedManifestPath("v4"))).toBeNull();
  });
  it("the build packs both committed manifests into dist/data, and the package's loader reads them as the committed files", () => {
    requireFreshBuild("data/manifest.json");
    for (const version of ["v4", "v3"] as const) {
      const { text } = committed(version);
      expect(packedManifestPath(version)).toBe(join(projectRoot, "dist", "data", bfclVersionInfo[version].manifestFile));
      const fromBuild = readPackedManifest(packedManifestPath(version), committedManifestPath(version));
      expect(fromBuild !== null && renderManifest(fromBuild) === text).toBe(true);
      const loaded = loadCommittedManifest(version);
      expect(loaded.ok && renderManifest(loaded.value) === text).toBe(true);
    }
  });
});

describe("writeManifest", () => {
  it("writes through a temporary file and leaves nothing else behind", () => {
    const dir = mkdtempSync(join(tmpdir(), "twinscore-manifest-"));
    const m = parseManifest(readFileSync(committedManifestPath(), "utf8"));
    if (!m.ok) throw new Error("committed manifest invalid");
    const target = join(dir, "manifest.json");
    writeFileSync(target, "old");
    expect(writeManifest(target, m.value).ok).toBe(true);
    expect(readdirSync(dir)).toEqual(["manifest.json"]);
    expect(readFileSync(target, "utf8")).toBe(readFileSync(committedManifestPath(), "utf8"));
  });
  it("fails cleanly when the folder does not exist, writing nothing", () => {
    const m = parseManifest(readFileSync(committedManifestPath(), "utf8"));
    if (!m.ok) throw new Error("committed manifest invalid");
    const r = writeManifest("/nonexistent-dir/x/manifest.json", m.value);
    expect(!r.ok && r.problems[0].code).toBe("file-missing");
    expect(existsSync("/nonexistent-dir/x/manifest.json")).toBe(false);
  });
});
