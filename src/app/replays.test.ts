import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readingPairs } from "../decision/readings.js";
import { defaultScoreOptions } from "../decision/types.js";
import { bfclDataDir, rolloutRunDir, rolloutRuns, sharedPath } from "../testing/shared.js";
import { readForTest } from "../testing/read-models.js";
import { committedManifestPath, loadManifest } from "../io/manifest.js";
import { readScoredData } from "./bfcl-inputs.js";
import { table1Numbers } from "../testing/numbers.js";
import { workaroundOf } from "./replays.js";
import { nodeHost } from "../io/host.js";

/** One model read as `score --bfcl-data` reads it: the pairs of the default reading, with the result texts. */
const readOne = (dir: string) => {
  const read = readForTest([dir], { pairs: { headline: defaultScoreOptions }, needs: { texts: true } });
  expect(read.models).toHaveLength(1);
  return read.models[0];
};

describe("workaround credit (Table F1) on the real gpt-oss runs", () => {
  const manifest = loadManifest();
  if (!manifest.ok) throw new Error(JSON.stringify(manifest.problems));
  const pairs = readingPairs(manifest.value, defaultScoreOptions);
  const data = readScoredData(bfclDataDir(), nodeHost());
  if (!data.ok) throw new Error(JSON.stringify(data.problems));

  for (const run of rolloutRuns) {
    for (const model of ["openai_gpt-oss-120b", "openai_gpt-oss-20b"]) {
      it(`${run} ${model}: counts nest, strict accuracy equals the scorer's, credits only raise it`, () => {
        const scored = readOne(join(rolloutRunDir(run), "result", model));
        if (!scored.score) throw new Error(JSON.stringify(scored.problems));
        const r = workaroundOf(scored, scored.score.records, pairs, data.value);
        if (!r.ok) throw new Error(JSON.stringify(r.problems));
        const s = r.value;
        expect(s.pairs).toBe(223);
        expect(s.missFuncPairs).toBe(116);
        expect(s.attempts).toBe(scored.score.records.filter((x) => x.category === "miss_func" && x.actedOnMiss).length);
        expect(s.aligned).toBeLessThanOrEqual(s.attempts);
        expect(s.workarounds).toBeLessThanOrEqual(s.aligned - s.noOpExcluded);
        expect(s.workarounds).toBeGreaterThan(0);
        // every record replayed, error and short sides as no call: the release reading's numbers
        const numbers = table1Numbers(scored.score.records, manifest.value, "release");
        expect(s.acc).toBeCloseTo(numbers.decision, 10);
        expect(s.accWorkaround).toBeCloseTo(s.acc + (100 * s.workarounds) / s.pairs / 2, 10);
        expect(s.accCredited).toBeGreaterThanOrEqual(numbers.decisionCredited);
        for (const o of s.outcomes) if (o.workaround) expect(o.aligned && o.attempt && !o.referenceNoOp && !o.calledRemoved).toBe(true);
      });
    }
  }

  it("credits gpt-oss-120b's cp + rm route around the withheld mv on multi_turn_miss_func_1 (2025-11-12-main)", () => {
    const scored = readOne(join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b"));
    if (!scored.score) throw new Error("not scored");
    const r = workaroundOf(scored, scored.score.records, pairs, data.value);
    if (!r.ok) throw new Error("replay failed");
    const o = r.value.outcomes.find((x) => x.missId === "multi_turn_miss_func_1");
    expect(o).toMatchObject({ attempt: true, calledRemoved: false, aligned: true, referenceNoOp: false, workaround: true });
  });
});

describe("workaround credit (Table F1) on the real xLAM run, BFCL v3", () => {
  it("replays with the evaluator of the data's version: v3's TradingBot executes the references v4's leaves as no-ops", () => {
    const manifest = loadManifest(committedManifestPath("v3"));
    if (!manifest.ok) throw new Error(JSON.stringify(manifest.problems));
    const pairs = readingPairs(manifest.value, defaultScoreOptions);
    const data = readScoredData(sharedPath("bfcl-v3"), nodeHost());
    if (!data.ok) throw new Error(JSON.stringify(data.problems));
    expect(data.value.version).toBe("v3");
    const model = "Salesforce_Llama-xLAM-2-8b-fc-r";
    const scored = readOne(sharedPath("rollouts", "xlam-v3", "result", model));
    if (!scored.score) throw new Error(JSON.stringify(scored.problems));
    expect(scored.decoder?.name).toBe("xlam");
    const replay = (version: "v3" | "v4") => {
      const r = workaroundOf(scored, scored.score!.records, pairs, { ...data.value, version });
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      return r.value;
    };
    const v3 = replay("v3");
    expect([v3.pairs, v3.missFuncPairs, v3.attempts, v3.aligned, v3.workarounds]).toEqual([234, 119, 115, 108, 1]);
    expect(v3.acc).toBeCloseTo(table1Numbers(scored.score.records, manifest.value, "release").decision, 10);
    // the same replay on v4's classes: references whose place_order / cancel_order change v3's state do nothing there
    const noOps = (s: typeof v3) => s.outcomes.filter((o) => o.referenceNoOp).map((o) => o.missId);
    const onlyUnderV4 = noOps(replay("v4")).filter((id) => !noOps(v3).includes(id));
    expect(onlyUnderV4).toEqual([
      "multi_turn_miss_func_102",
      "multi_turn_miss_func_122",
      "multi_turn_miss_func_123",
      "multi_turn_miss_func_138",
      "multi_turn_miss_func_146",
    ]);
  });
});
