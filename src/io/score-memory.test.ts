// What `score` keeps and reads to stay fast and flat in memory: the package's manifests
// read without the schema check, pair records dropped as each model ends, and the
// first-turn data check streamed. Each must give exactly what the full path gives.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rankOneOf } from "../official/intervals.js";
import { outcomesOf, readingById, readingRates, selectUnder } from "../decision/readings.js";
import { table1Numbers } from "../testing/numbers.js";

const table1 = readingById("table-1")!;
import { checkRolloutData, dataCandidate } from "../pairs/rollout-data.js";
import { bfclVersionInfo } from "../bfcl/versions.js";
import { rolloutRunDir, sharedPath } from "../testing/shared.js";
import { committedManifestPath, loadCommittedManifest, loadManifest } from "./manifest.js";
import { candidatesOf, scoreModelFiles, scoreResultDirs } from "./results.js";
import { checkRecordedFirstTurns, readRecordedFirstTurns } from "./rollout-data.js";
import { walkBfclTree } from "./tree.js";
import { defaultScoreOptions } from "../decision/types.js";
import { readingPairs } from "../decision/readings.js";

const versions = Object.values(bfclVersionInfo).map((v) => v.version);

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
  const manifest = (() => {
    const m = loadCommittedManifest("v4");
    if (!m.ok) throw new Error("committed manifest does not load");
    return m.value;
  })();
  const score = (records: "all" | "outcomes") =>
    scoreResultDirs({ resultDirs: [join(rolloutRunDir("2025-11-12-main"), "result")], models: [], manifest, options: defaultScoreOptions, cwd: process.cwd(), threads: 1, records });

  it("outcomes give the same numbers, counts, intervals and rank-1 shares as all", async () => {
    const [all, outcomes] = await Promise.all([score("all"), score("outcomes")]);
    expect(all.runs.map((r) => r.model)).toEqual(["openai_gpt-oss-120b", "openai_gpt-oss-20b"]);
    for (const other of [outcomes]) {
      expect(other.runs.map((r) => table1Numbers(r.score!.records, manifest))).toEqual(all.runs.map((r) => table1Numbers(r.score!.records, manifest)));
      expect(other.runs.map((r) => r.score?.counts)).toEqual(all.runs.map((r) => r.score?.counts));
      expect(other.runs.map((r) => r.problems)).toEqual(all.runs.map((r) => r.problems));
    }
    expect(all.runs[0].score!.records.length).toBe(223);
    const boot = { resamples: 2000, seed: 20260612 };
    for (let i = 0; i < 2; i++) {
      expect(outcomes.runs[i].score!.records.map((r) => [r.missId, r.actedOnBase, r.heldBack])).toEqual(all.runs[i].score!.records.map((r) => [r.missId, r.actedOnBase, r.heldBack]));
      expect(outcomes.runs[i].score!.records.every((r) => r.base.anchorCalls.length === 0 && r.miss.anchorCalls.length === 0)).toBe(true);
      expect(readingRates(outcomes.runs[i].score!.records, manifest, table1, "decided", boot).ci95).toEqual(readingRates(all.runs[i].score!.records, manifest, table1, "decided", boot).ci95);
    }
    const shares = (o: typeof all) => rankOneOf(o.runs.map((r) => outcomesOf(selectUnder(r.score!.records, manifest, table1, "decided"))), boot);
    expect(shares(outcomes)).toEqual(shares(all));
  });
});

describe("the first-turn data check, streamed", () => {
  const candidates = versions.map((v) => {
    const m = loadCommittedManifest(v);
    if (!m.ok) throw new Error(`committed ${v} manifest does not load`);
    return dataCandidate(m.value);
  });
  it.each([
    ["gpt-oss (v4)", join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b")],
    ["xLAM (v3)", sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r")],
  ])("%s: the same check as reading every first turn, then comparing", (_, dir) => {
    const model = walkBfclTree([dir], process.cwd(), "result").models[0];
    const streamed = checkRecordedFirstTurns(model, candidates);
    expect(streamed).toEqual(checkRolloutData(readRecordedFirstTurns(model).items, candidates, "first"));
    expect(streamed.lines).toBe(600);
    expect(streamed.looksLike).not.toBeNull();
  });
});

describe("the first-turn data check in the scoring pass", () => {
  const v4 = (() => {
    const m = loadCommittedManifest("v4");
    if (!m.ok) throw new Error("committed manifest does not load");
    return m.value;
  })();
  const pairs = readingPairs(v4, defaultScoreOptions);
  const sameAsAlone = (dir: string) => {
    const model = walkBfclTree([dir], process.cwd(), "result").models[0];
    const run = scoreModelFiles(candidatesOf(model), pairs, defaultScoreOptions, null, { dataCheck: dataCandidate(v4) });
    expect(run.dataCheck).toEqual(checkRecordedFirstTurns(model, [dataCandidate(v4)]));
    return run.dataCheck!;
  };
  it("gives the check made alone: a v4 run (matches), the v3 xLAM run (does not)", () => {
    expect(sameAsAlone(join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-20b")).byVersion[0].matches).toBe(true);
    expect(sameAsAlone(sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r")).byVersion[0].matches).toBe(false);
  });
  it("gives the check made alone when a category has two copies (flat and multi_turn/, the shorter first)", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "twinscore-check-pass-")), "openai_gpt-oss-120b");
    const real = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
    mkdirSync(join(dir, "multi_turn"), { recursive: true });
    for (const c of ["base", "miss_func", "miss_param"]) symlinkSync(join(real, `BFCL_v4_multi_turn_${c}_result.json`), join(dir, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`));
    // a flat copy of base with every other line, in reverse order: other first lines for half the ids
    const lines = readFileSync(join(real, "BFCL_v4_multi_turn_base_result.json"), "utf8").split("\n").filter((l) => l !== "");
    writeFileSync(join(dir, "BFCL_v4_multi_turn_base_result.json"), lines.filter((_, i) => i % 2 === 0).reverse().join("\n") + "\n");
    const check = sameAsAlone(dir);
    expect(check.lines).toBe(600);
  });
});
