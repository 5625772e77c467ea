import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bootstrapIntervals, clusterOrder, clusterTotals, pairedDifferenceInterval, resampleSeries } from "./bootstrap.js";
import {
  pairFlipRate,
  pairedTwoLevelDifference,
  trialClusters,
  trialMeans,
  trialStability,
  twoLevelIntervals,
  twoLevelSeries,
  type TrialPair,
} from "./trials.js";

type Num = string | null;
interface Expected {
  means: { act: string; hold: string; decision: string };
  flipRates: Num[];
  meanFlipRate: Num;
  stableShare: Num;
  decisionByTrial: string[];
  decisionSpread: Num;
  decision95: string[];
  act95: string[];
  hold95: string[];
  decisionFirst5: string[];
}
interface Case {
  name: string;
  B: number;
  seed: number;
  pairs: TrialPair[];
  expected: Expected;
}
const vectorsPath = new URL("./testdata/trial-vectors.json", import.meta.url);
const vectors = JSON.parse(readFileSync(vectorsPath, "utf8")) as {
  cases: Case[];
  paired: { B: number; seed: number; a: TrialPair[]; b: TrialPair[]; difference95: string[] };
};
const num = (s: Num) => (s === null ? null : Number(s));

describe("repeated-trial statistics equal the independent stdlib-Python implementation", () => {
  for (const c of vectors.cases) {
    it(`${c.name}: means over trials, flip rates, stable share, per-trial decisions and spread`, () => {
      const m = trialMeans(c.pairs);
      expect([m.act, m.hold, m.decision]).toEqual([c.expected.means.act, c.expected.means.hold, c.expected.means.decision].map(num));
      expect(c.pairs.map(pairFlipRate)).toEqual(c.expected.flipRates.map(num));
      const s = trialStability(c.pairs);
      expect(s.meanFlipRate).toEqual(num(c.expected.meanFlipRate));
      expect(s.stableShare).toEqual(num(c.expected.stableShare));
      expect(s.decisionByTrial).toEqual(c.expected.decisionByTrial.map(num));
      expect(s.decisionSpread).toEqual(num(c.expected.decisionSpread));
    });
    it(`${c.name}: two-level bootstrap intervals and first resamples (B=${c.B}, seed ${c.seed})`, () => {
      const clusters = trialClusters(c.pairs);
      const got = twoLevelIntervals(clusters, { resamples: c.B, seed: c.seed });
      expect(got.decision).toEqual(c.expected.decision95.map(num));
      expect(got.act).toEqual(c.expected.act95.map(num));
      expect(got.hold).toEqual(c.expected.hold95.map(num));
      expect(Array.from(twoLevelSeries(clusters, { resamples: 5, seed: c.seed }).decision)).toEqual(c.expected.decisionFirst5.map(num));
    });
  }
  it("paired two-level difference between two arms", () => {
    const { a, b, B, seed, difference95 } = vectors.paired;
    expect(pairedTwoLevelDifference(trialClusters(a), trialClusters(b), { resamples: B, seed })).toEqual(difference95.map(num));
  });
  it("with one trial per pair, the two-level bootstrap is the single-run cluster bootstrap, bit for bit", () => {
    const one = vectors.cases.find((c) => c.pairs.every((p) => p.act.length === 1));
    expect(one).toBeDefined();
    const pairs = one!.pairs.map((p) => ({ cluster: p.cluster, act: p.act[0], hold: p.hold[0] }));
    const totals = clusterTotals(pairs, clusterOrder(pairs));
    const options = { resamples: one!.B, seed: one!.seed };
    expect(twoLevelIntervals(trialClusters(one!.pairs), options)).toEqual(bootstrapIntervals(totals, options));
    expect(Array.from(twoLevelSeries(trialClusters(one!.pairs), options).act)).toEqual(Array.from(resampleSeries(totals, options).act));
    const flipped = one!.pairs.map((p) => ({ ...p, hold: p.hold.map((h) => !h) }));
    const other = clusterTotals(
      flipped.map((p) => ({ cluster: p.cluster, act: p.act[0], hold: p.hold[0] })),
      clusterOrder(pairs),
    );
    expect(pairedTwoLevelDifference(trialClusters(one!.pairs), trialClusters(flipped), options)).toEqual(
      pairedDifferenceInterval(totals, other, options),
    );
    expect(trialStability(one!.pairs).meanFlipRate).toBeNull();
  });
  it("refuses a pair whose act and hold trials differ in number, and arms on different pairs", () => {
    expect(() => trialMeans([{ cluster: "b", id: "m", act: [true, false], hold: [true] }])).toThrow(
      "pair m: act and hold need the same number of trials",
    );
    const a = trialClusters([{ cluster: "b", id: "m1", act: [true], hold: [true] }]);
    const b = trialClusters([{ cluster: "b", id: "m2", act: [true], hold: [true] }]);
    expect(() => pairedTwoLevelDifference(a, b, { resamples: 10, seed: 1 })).toThrow("same pairs");
  });
  it("tools/gen-trial-vectors.py regenerates the committed vectors", () => {
    const tool = fileURLToPath(new URL("../../tools/gen-trial-vectors.py", import.meta.url));
    expect(() => execFileSync("python3", [tool, "--check"], { stdio: ["ignore", "pipe", "pipe"] })).not.toThrow();
  }, 120_000);
});
