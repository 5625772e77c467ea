import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  bootstrapIntervals,
  MAX_BOOTSTRAP_RESAMPLES,
  clusterOrder,
  clusterTotals,
  pairedDifferenceInterval,
  rankOneFrequencies,
  resampleSeries,
  type PairOutcome,
} from "./bootstrap.js";
import { percentiles } from "./percentile.js";

interface BootModel {
  act: number[];
  hold: number[];
  decision95: string[];
  act95: string[];
  hold95: string[];
  decisionFirst5: string[];
}
interface BootCase {
  B: number;
  seed: number;
  clusters: string[];
  models: BootModel[];
  rank1: string[];
  paired95: string[];
}
const vectors = JSON.parse(readFileSync(new URL("./testdata/vectors.json", import.meta.url), "utf8")) as {
  percentile: { values: string[]; q: number[]; expected: string[] }[];
  bootstrap: BootCase[];
};

const num = (s: string) => Number(s);

describe("numpy.percentile (linear) re-implemented", () => {
  for (const v of vectors.percentile) {
    it(`n=${v.values.length}: equals NumPy to the last bit`, () => {
      expect(percentiles(v.values.map(num), v.q)).toEqual(v.expected.map(num));
    });
  }
});

describe("cluster bootstrap equals the plain NumPy gather-and-mean script", () => {
  for (const c of vectors.bootstrap) {
    const pairsOf = (m: BootModel): PairOutcome[] =>
      c.clusters.map((cluster, i) => ({ cluster, act: m.act[i] === 1, hold: m.hold[i] === 1 }));
    const keys = clusterOrder(pairsOf(c.models[0]));
    it(`${keys.length} clusters, B=${c.B}, seed ${c.seed}: clusters ordered as strings`, () => {
      expect(keys).toEqual([...new Set(c.clusters)].sort());
      if (keys.length > 10) expect(keys.findIndex((k) => k.endsWith("_10"))).not.toBe(10);
    });
    it(`${keys.length} clusters, B=${c.B}: decision, act and hold intervals of each model (fresh stream each)`, () => {
      for (const m of c.models) {
        const totals = clusterTotals(pairsOf(m), keys);
        const got = bootstrapIntervals(totals, { resamples: c.B, seed: c.seed });
        expect(got.decision).toEqual(m.decision95.map(num));
        expect(got.act).toEqual(m.act95.map(num));
        expect(got.hold).toEqual(m.hold95.map(num));
        expect(Array.from(resampleSeries(totals, { resamples: 5, seed: c.seed }).decision)).toEqual(m.decisionFirst5.map(num));
      }
    });
    it(`${keys.length} clusters, B=${c.B}: rank-1 frequencies from one shared stream`, () => {
      const totals = c.models.map((m) => clusterTotals(pairsOf(m), keys));
      expect(rankOneFrequencies(totals, { resamples: c.B, seed: c.seed })).toEqual(c.rank1.map(num));
    });
    it(`${keys.length} clusters, B=${c.B}: paired difference interval`, () => {
      const a = clusterTotals(pairsOf(c.models[0]), keys);
      const b = clusterTotals(pairsOf(c.models[1]), keys);
      expect(pairedDifferenceInterval(a, b, { resamples: c.B, seed: c.seed })).toEqual(c.paired95.map(num));
    });
  }
  it("refuses models on different clusters and a non-positive resample count", () => {
    const a = clusterTotals([{ cluster: "x", act: true, hold: true }]);
    const b = clusterTotals([{ cluster: "y", act: true, hold: false }]);
    expect(() => rankOneFrequencies([a, b], { resamples: 10, seed: 1 })).toThrow(RangeError);
    expect(() => pairedDifferenceInterval(a, b, { resamples: 10, seed: 1 })).toThrow(RangeError);
    expect(() => bootstrapIntervals(a, { resamples: 0, seed: 1 })).toThrow(RangeError);
  });
  it("refuses more resamples than the bound before drawing any", () => {
    const a = clusterTotals([{ cluster: "x", act: true, hold: true }]);
    expect(() => bootstrapIntervals(a, { resamples: MAX_BOOTSTRAP_RESAMPLES + 1, seed: 1 })).toThrow(
      `resamples must be an integer from 1 to ${MAX_BOOTSTRAP_RESAMPLES}, got ${MAX_BOOTSTRAP_RESAMPLES + 1}`,
    );
    expect(() => rankOneFrequencies([a, a], { resamples: 1e8, seed: 1 })).toThrow(RangeError);
    expect(bootstrapIntervals(a, { resamples: MAX_BOOTSTRAP_RESAMPLES, seed: 1 }).decision).toEqual([100, 100]);
  });
});
