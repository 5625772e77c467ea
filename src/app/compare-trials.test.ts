import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { compareTrials, commonTrialPairs } from "./compare-trials.js";
import { scoreRuns } from "./score.js";
import { rolloutRunDir, rolloutRuns } from "../testing/shared.js";
import { referencePairedDifference } from "../testing/trial-reference.js";

const foldersOf = (model: string) => rolloutRuns.map((r) => join(rolloutRunDir(r), "result", model));
const bootstrap = { resamples: 2000, seed: 20260612 };
// gpt-oss-20b's main run leaves 10.3 % of its pairs undecided: above the default bound of 10 %
const maxUndecided = 15;

describe("compare over trials: two real models, each over its two gpt-oss runs as trials", () => {
  it("the change is read over the pairs both arms decided, with the paired two-level interval of the stdlib-Python reference", async () => {
    const doc = await compareTrials({ a: foldersOf("openai_gpt-oss-120b"), b: foldersOf("openai_gpt-oss-20b"), bootstrap, maxUndecided });
    expect(doc.exitCode).toBe(0);
    const alone = await scoreRuns({ results: [], trialsOf: foldersOf("openai_gpt-oss-120b"), bootstrap, maxUndecided });
    expect(doc.a).toEqual(alone.trials);
    const common = commonTrialPairs(doc.a!, doc.b!);
    expect(doc.pairs).toBe(common.a.length);
    expect(doc.pairs).toBeLessThanOrEqual(Math.min(doc.a!.pairs, doc.b!.pairs));
    expect(common.a.map((p) => p.id)).toEqual(common.b.map((p) => p.id));
    expect(doc.change).toBe(doc.decisionB! - doc.decisionA!);
    expect(doc.ci95).toEqual(referencePairedDifference(common.a, common.b, bootstrap.resamples, bootstrap.seed));
    expect(doc.ci95![0]).toBeLessThan(doc.change!);
    expect(doc.ci95![1]).toBeGreaterThan(doc.change!);
  }, 240_000);
  it("an arm whose trials cannot be combined stops the comparison, naming the arm", async () => {
    const doc = await compareTrials({
      a: foldersOf("openai_gpt-oss-120b"),
      b: foldersOf("openai_gpt-oss-20b"),
      bootstrap: { resamples: 0 },
    });
    expect(doc.exitCode).toBe(2);
    expect(doc.ci95).toBeNull();
    expect(doc.problems.map((p) => p.message)).toContain(
      "arm B: --trials-of: no decision for 2025-11-12-main/openai_gpt-oss-20b, so the trials cannot be combined",
    );
  }, 240_000);
});
