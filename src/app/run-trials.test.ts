/**
 * Repeated trials end to end on the real BFCL v4 data: a scripted model that acts with
 * probability p on each side, run K = 5 times with exact twins (`run --history
 * reference`) against a 127.0.0.1 endpoint, scored with `--trials-of`; its flip rates,
 * means, spread and two-level interval equal the stdlib-Python reference's, which flips
 * the same coins itself (tools/gen-trial-vectors.py). The oracle never flips.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scriptedResponder, startPolicyServer } from "../testing/policies.js";
import { realV4RunInputs, serverPool, inProcessRun } from "../testing/run-fixtures.js";
import { trialPolicyScript, type TrialPolicy } from "../testing/trial-policy.js";
import { comparable, type ReferenceTrialNumbers } from "../testing/trial-reference.js";
import { runModel } from "./run/index.js";
import { scoreRuns } from "./score.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-trials-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();
const { manifest, entries, references, paramNames } = realV4RunInputs();

interface PolicyVectors {
  seed: number;
  trials: number;
  pBase: number;
  pMiss: number;
  B: number;
  bootstrapSeed: number;
  pairs: { cluster: string; id: string }[];
  expected: ReferenceTrialNumbers;
  oracle: ReferenceTrialNumbers;
}
const vectors = (JSON.parse(readFileSync(new URL("../stats/testdata/trial-vectors.json", import.meta.url), "utf8")) as { policy: PolicyVectors }).policy;

/** K trials of the policy, each its own run folder made by its own endpoint; the model folders in trial order. */
async function trialRuns(name: string, policy: Omit<TrialPolicy, "trial">, trials: number, temperature = 0.001): Promise<string[]> {
  const folders: string[] = [];
  for (let trial = 0; trial < trials; trial++) {
    const script = trialPolicyScript(references, manifest.pairs, { ...policy, trial });
    const srv = await serve(startPolicyServer(scriptedResponder(script, { paramNames }), { maxRequests: 2_000 }));
    const out = join(tmp, `${name}-${trial}`);
    const doc = await runModel(inProcessRun({ model: "scripted/policy", outDir: out, items: "pairs", manifest, endpoint: srv.url, chat: undefined, concurrency: 8, history: "reference", temperature }));
    if (!doc.ok) throw new Error(doc.problems.map((p) => p.message).join("; "));
    folders.push(join(out, "scripted_policy"));
  }
  return folders;
}

describe("K = 5 trials of a policy that acts with probability p on each side, exact twins, over Table 1's pairs", () => {
  it(`p = ${vectors.pBase} on the base twins, ${vectors.pMiss} on the withheld ones: flip rates, means, spread and interval equal the reference's`, async () => {
    const folders = await trialRuns("sampled", { seed: vectors.seed, pBase: vectors.pBase, pMiss: vectors.pMiss }, vectors.trials);
    const doc = await scoreRuns({ results: [], trialsOf: folders, bootstrap: { resamples: vectors.B, seed: vectors.bootstrapSeed } });
    expect(doc.exitCode).toBe(0);
    const t = doc.trials!;
    expect(t.trials).toBe(5);
    expect(t.pairRows.map((p) => ({ cluster: p.baseId, id: p.missId }))).toEqual(vectors.pairs);
    expect(t.pairRows.every((p) => p.trials === 5)).toBe(true);
    const { ours, reference } = comparable(t, vectors.expected);
    expect(ours).toEqual(reference);
    // the sampling shows: pairs flip, and the interval is wider than a point
    expect(t.meanFlipRate!).toBeGreaterThan(30);
    expect(t.ci95![1] - t.ci95![0]).toBeGreaterThan(1);
  }, 600_000);

  it("the oracle (p = 1 on the base twins, 0 on the withheld ones) never flips: flip rate 0, every pair stable, act = hold = 100", async () => {
    const folders = await trialRuns("oracle", { seed: vectors.seed, pBase: 1, pMiss: 0 }, 3);
    const doc = await scoreRuns({ results: [], trialsOf: folders, bootstrap: { resamples: vectors.B, seed: vectors.bootstrapSeed } });
    const t = doc.trials!;
    expect([t.meanFlipRate, t.stableShare, t.act, t.hold, t.decision, t.decisionSpread]).toEqual([0, 100, 100, 100, 100, 0]);
    expect(t.ci95).toEqual([100, 100]);
    expect([vectors.oracle.meanFlipRate, vectors.oracle.decision95]).toEqual(["0.0", ["100.0", "100.0"]]);
    // a "trial" made with another temperature is no trial of the same thing: its run.json says so
    const warmer = await trialRuns("oracle-warmer", { seed: vectors.seed, pBase: 1, pMiss: 0 }, 1, 0.7);
    const mixed = await scoreRuns({ results: [], trialsOf: [...folders.slice(0, 2), ...warmer], bootstrap: { resamples: 0 } });
    expect(mixed.exitCode).toBe(2);
    expect(mixed.trials).toBeNull();
    expect(mixed.problems.map((p) => p.message).join("\n")).toMatch(/--trials-of: .*oracle-warmer-0\/scripted_policy was made with other settings than .*: --temperature \(first trial: temperature 0\.001; now: temperature 0\.7\)/);
  }, 600_000);
});
