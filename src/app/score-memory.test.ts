// What `score` keeps and reads to stay fast and flat in memory: the package's manifests
// read without the schema check, pair records dropped as each model is read, and the
// first-turn data check made in the reading pass. Each must give exactly what the full path gives.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rankOneOf } from "../official/intervals.js";
import { outcomesOf, readingById, readingRates, selectUnder } from "../decision/readings.js";
import { table1Numbers } from "../testing/numbers.js";
import { checkRolloutData, dataCandidate } from "../pairs/rollout-data.js";
import { bfclVersionInfo } from "../bfcl/versions.js";
import { rolloutRunDir, sharedPath } from "../testing/shared.js";
import { readForTest } from "../testing/read-models.js";
import { committedManifestPath, loadCommittedManifest, loadManifest } from "../io/manifest.js";
import { checkRecordedTurns, readRecordedTurns } from "./recorded-turns.js";
import { walkBfclTree } from "../io/tree.js";
import { nodeHost } from "../io/host.js";
import type { RecordsKept } from "./pipeline.js";
import { defaultScoreOptions } from "../decision/types.js";

const table1 = readingById("table-1")!;
const versions = Object.values(bfclVersionInfo).map((v) => v.version);
const committed = (version: string) => {
  const m = loadCommittedManifest(version as never);
  if (!m.ok) throw new Error(`committed ${version} manifest does not load`);
  return m.value;
};

describe("the package's manifests, read without the schema check", () => {
  it.each(versions)("%s: equal to the validated reading", (version) => {
    const checked = loadManifest(committedManifestPath(version));
    const trusted = loadCommittedManifest(version);
    expect(checked.ok && trusted.ok).toBe(true);
    if (!checked.ok || !trusted.ok) return;
    expect(trusted.value).toEqual(checked.value);
    expect(trusted.value.pairs.length).toBeGreaterThan(300);
  });
});

describe("pair records kept after scoring (real 2025-11-12-main run, both models)", () => {
  const manifest = committed("v4");
  const read = (keep: RecordsKept) =>
    readForTest([join(rolloutRunDir("2025-11-12-main"), "result")], { keep, pairs: { headline: defaultScoreOptions } }).models;

  it("outcomes give the same numbers, counts, problems, intervals and rank-1 shares as all", () => {
    const all = read("all");
    const outcomes = read("outcomes");
    expect(all.map((r) => r.model)).toEqual(["openai_gpt-oss-120b", "openai_gpt-oss-20b"]);
    expect(outcomes.map((r) => table1Numbers(r.score!.records, manifest))).toEqual(
      all.map((r) => table1Numbers(r.score!.records, manifest)),
    );
    expect(outcomes.map((r) => r.score?.counts)).toEqual(all.map((r) => r.score?.counts));
    expect(outcomes.map((r) => r.problems)).toEqual(all.map((r) => r.problems));
    expect(all[0].score!.records.length).toBe(223);
    const boot = { resamples: 2000, seed: 20260612 };
    for (let i = 0; i < 2; i++) {
      const [o, a] = [outcomes[i].score!.records, all[i].score!.records];
      expect(o.map((r) => [r.missId, r.status, r.actedOnBase, r.heldBack])).toEqual(
        a.map((r) => [r.missId, r.status, r.actedOnBase, r.heldBack]),
      );
      expect(o.every((r) => r.base.anchorCalls.length === 0 && r.miss.anchorCalls.length === 0)).toBe(true);
      expect(a.some((r) => r.base.anchorCalls.length > 0)).toBe(true);
      expect(readingRates(o, manifest, table1, "decided", boot).ci95).toEqual(readingRates(a, manifest, table1, "decided", boot).ci95);
    }
    const shares = (models: typeof all) =>
      rankOneOf(
        models.map((r) => outcomesOf(selectUnder(r.score!.records, manifest, table1, "decided"))),
        boot,
      );
    expect(shares(outcomes)).toEqual(shares(all));
  });
});

describe("the data check of every recorded turn, streamed", () => {
  const candidates = versions.map((v) => dataCandidate(committed(v)));
  it.each([
    ["gpt-oss (v4)", join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b")],
    ["xLAM (v3)", sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r")],
  ])("%s: the same check as reading every recorded turn, then comparing", (_, dir) => {
    const model = walkBfclTree([dir], process.cwd(), "result").models[0];
    const streamed = checkRecordedTurns(model, candidates, nodeHost());
    expect(streamed).toEqual(checkRolloutData(readRecordedTurns(model, nodeHost()).items, candidates));
    expect(streamed.lines).toBe(600);
    expect(streamed.looksLike).not.toBeNull();
  });
});

describe("the data check of every recorded turn in the reading pass", () => {
  const sameAsAlone = (dir: string, version: string) => {
    const read = readForTest([dir]).models[0];
    const found = walkBfclTree([dir], process.cwd(), "result").models[0];
    expect(read.dataCheck).toEqual(checkRecordedTurns(found, [dataCandidate(committed(version))], nodeHost()));
    return read.dataCheck;
  };
  it("gives the check made alone, on the manifest of each run's version: a v4 run, the v3 xLAM run", () => {
    expect(sameAsAlone(join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-20b"), "v4").byVersion[0].matches).toBe(true);
    expect(sameAsAlone(sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r"), "v3").byVersion[0].matches).toBe(
      true,
    );
    // and the same check can fail: the v3 run against v4's data does not fit it as it is now
    // (its differing items match v4's data as it was before e5148abe, which only another version's fit can rule on)
    const xlam = walkBfclTree([sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r")], process.cwd(), "result")
      .models[0];
    const againstV4 = checkRecordedTurns(xlam, [dataCandidate(committed("v4"))], nodeHost()).byVersion[0];
    expect(againstV4.fitsAsNow).toBe(false);
    expect(againstV4.differing.length).toBeGreaterThan(100);
  });
  it("gives the check made alone when a category has two copies (flat and multi_turn/, the shorter first)", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "twinscore-check-pass-")), "openai_gpt-oss-120b");
    const real = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
    mkdirSync(join(dir, "multi_turn"), { recursive: true });
    for (const c of ["base", "miss_func", "miss_param"])
      symlinkSync(join(real, `BFCL_v4_multi_turn_${c}_result.json`), join(dir, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`));
    // a flat copy of base with every other line, in reverse order: other first lines for half the ids
    const lines = readFileSync(join(real, "BFCL_v4_multi_turn_base_result.json"), "utf8")
      .split("\n")
      .filter((l) => l !== "");
    writeFileSync(
      join(dir, "BFCL_v4_multi_turn_base_result.json"),
      lines
        .filter((_, i) => i % 2 === 0)
        .reverse()
        .join("\n") + "\n",
    );
    const read = readForTest([dir]).models[0];
    expect(read.filesUsed.base!.file).toBe(join(dir, "multi_turn", "BFCL_v4_multi_turn_base_result.json"));
    expect(sameAsAlone(dir, "v4").lines).toBe(600);
  });
});
