/**
 * The cluster bootstrap of the paper (§5.2, Table 1): pairs that share a base twin are not independent, so
 * whole base twins are resampled. More in this folder's README.md.
 */
import { defaultRng } from "./pcg64.js";
import { percentileSorted } from "./percentile.js";

/** The paper's defaults. */
export const DEFAULT_BOOTSTRAP = { resamples: 10000, seed: 20260612 } as const;

/**
 * The most resamples a bootstrap runs: ten times the paper's 10,000, whose percentile
 * intervals already move by less than a tenth of a point from seed to seed. The draws of
 * one bootstrap are held as 4·K·B bytes (K clusters, 151 for the certified pairs: 60 MB at
 * this bound, and a few such matrices are cached); 10^7 resamples took 6.3 GB and 87 s.
 */
export const MAX_BOOTSTRAP_RESAMPLES = 100_000;

/** How many resamples and which seed; `resamples: 0` turns intervals off. */
export interface BootstrapOptions {
  readonly resamples: number;
  readonly seed: number | bigint;
}

/** One scored pair as the bootstrap sees it: its cluster (base twin) and its two outcomes. */
export interface PairOutcome {
  /** The cluster key: the base twin's id. */
  readonly cluster: string;
  /** The model attempted a world-changing call on the base twin's anchor turn. */
  readonly act: boolean;
  /** The model made no world-changing call on the should-ask twin's anchor turn. */
  readonly hold: boolean;
}

/** Per-cluster totals over one cluster order: the only thing a resample needs. */
export interface ClusterTotals {
  /** Cluster keys in bootstrap order (ascending string order). */
  readonly keys: readonly string[];
  readonly pairs: Float64Array;
  readonly act: Float64Array;
  readonly hold: Float64Array;
}

/** A percentile interval [lo, hi] on the 0–100 scale. */
export type Interval = readonly [number, number];

/** Intervals of one model's decision, act and hold. */
export interface ModelIntervals {
  readonly decision: Interval;
  readonly act: Interval;
  readonly hold: Interval;
}

/** Ascending order by UTF-16 code units (Python's order for ASCII ids), never locale order. */
function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The distinct cluster keys of a set of pairs, in bootstrap order. */
export function clusterOrder(pairs: readonly PairOutcome[]): string[] {
  return [...new Set(pairs.map((p) => p.cluster))].sort(byString);
}

/**
 * Sum the pairs of each cluster along `keys` (default: the pairs' own clusters in
 * bootstrap order). A key with no pair gets zero totals, so models can share one order.
 */
export function clusterTotals(pairs: readonly PairOutcome[], keys: readonly string[] = clusterOrder(pairs)): ClusterTotals {
  const index = new Map(keys.map((k, i) => [k, i]));
  const n = new Float64Array(keys.length);
  const act = new Float64Array(keys.length);
  const hold = new Float64Array(keys.length);
  for (const p of pairs) {
    const i = index.get(p.cluster);
    if (i === undefined) throw new RangeError(`pair cluster ${p.cluster} is not in the cluster order`);
    n[i] += 1;
    if (p.act) act[i] += 1;
    if (p.hold) hold[i] += 1;
  }
  return { keys, pairs: n, act, hold };
}

/** Decision accuracy (0–100) from act and hold counts over n pairs: the paper's Equation 1. */
export function decisionFromCounts(actCount: number, holdCount: number, n: number): number {
  return ((actCount / n + holdCount / n) / 2) * 100;
}

/** The three statistics of every resample, kept so callers can derive more than intervals. */
export interface ResampleSeries {
  readonly decision: Float64Array;
  readonly act: Float64Array;
  readonly hold: Float64Array;
}

function sortedInterval(values: Float64Array): Interval {
  const sorted = Float64Array.from(values).sort();
  return [percentileSorted(sorted, 2.5), percentileSorted(sorted, 97.5)];
}

/**
 * The cluster draws of a whole bootstrap: `resamples` rows of `integers(0, k, size=k)` from a fresh
 * `default_rng(seed)`. They depend only on (seed, k, resamples), so they are drawn once and shared by every
 * model of a run. More in this folder's README.md.
 */
export function clusterDraws(seed: number | bigint, k: number, resamples: number): Int32Array {
  const key = `${String(seed)}:${k}:${resamples}`;
  const hit = drawCache.get(key);
  if (hit !== undefined) {
    drawCache.delete(key);
    drawCache.set(key, hit);
    return hit;
  }
  const draws = new Int32Array(k * resamples);
  const rng = defaultRng(seed);
  for (let b = 0; b < resamples; b++) rng.integersInto(k, k, draws.subarray(b * k, (b + 1) * k));
  drawCache.set(key, draws);
  while (drawCache.size > DRAW_CACHE_ENTRIES) drawCache.delete(drawCache.keys().next().value as string);
  return draws;
}

const DRAW_CACHE_ENTRIES = 4;
const drawCache = new Map<string, Int32Array>();

export function checkResamples(resamples: number): void {
  if (!Number.isInteger(resamples) || resamples < 1 || resamples > MAX_BOOTSTRAP_RESAMPLES) {
    throw new RangeError(`resamples must be an integer from 1 to ${MAX_BOOTSTRAP_RESAMPLES}, got ${resamples}`);
  }
}

/**
 * Run the resamples of one model on a fresh stream: per resample, the drawn clusters'
 * totals are summed and act, hold (fractions ×100) and decision recorded.
 */
export function resampleSeries(totals: ClusterTotals, options: BootstrapOptions): ResampleSeries {
  checkResamples(options.resamples);
  const resamples = options.resamples;
  const k = totals.keys.length;
  const draws = clusterDraws(options.seed, k, resamples);
  const series = emptySeries(resamples);
  const { pairs, act: a, hold: h } = totals;
  for (let b = 0, row = 0; b < resamples; b++, row += k) {
    let n = 0;
    let sa = 0;
    let sh = 0;
    for (let i = 0; i < k; i++) {
      const c = draws[row + i];
      n += pairs[c];
      sa += a[c];
      sh += h[c];
    }
    recordResample(series, b, n, sa, sh);
  }
  return series;
}

/** A series of `resamples` zeroed rows. */
export function emptySeries(resamples: number): ResampleSeries {
  return { decision: new Float64Array(resamples), act: new Float64Array(resamples), hold: new Float64Array(resamples) };
}

/** Row b of a series from one resample's sums over its n pairs: act and hold as fractions ×100, decision their mean. */
export function recordResample(series: ResampleSeries, b: number, n: number, actSum: number, holdSum: number): void {
  const fa = actSum / n;
  const fh = holdSum / n;
  series.act[b] = fa * 100;
  series.hold[b] = fh * 100;
  series.decision[b] = ((fa + fh) / 2) * 100;
}

/** The 95% percentile intervals of decision, act and hold for one model (fresh stream). */
export function bootstrapIntervals(totals: ClusterTotals, options: BootstrapOptions): ModelIntervals {
  const series = resampleSeries(totals, options);
  return { decision: sortedInterval(series.decision), act: sortedInterval(series.act), hold: sortedInterval(series.hold) };
}

/** The 95% interval of a series of resampled values. */
export function percentileInterval(values: Float64Array): Interval {
  return sortedInterval(values);
}

/**
 * Rank-1 frequencies (percent of resamples in which each model has the highest decision
 * accuracy) from ONE shared stream: every resample draws one set of clusters and scores
 * all models on it. Ties go to the model listed first. All totals must share one order.
 */
export function rankOneFrequencies(models: readonly ClusterTotals[], options: BootstrapOptions): number[] {
  checkResamples(options.resamples);
  if (models.length === 0) return [];
  const k = models[0].keys.length;
  for (const m of models) {
    if (m.keys.length !== k || m.keys.some((key, i) => key !== models[0].keys[i])) {
      throw new RangeError("rank-1 frequencies need every model on the same clusters");
    }
  }
  const draws = clusterDraws(options.seed, k, options.resamples);
  const wins = new Float64Array(models.length);
  for (let b = 0, row = 0; b < options.resamples; b++, row += k) {
    let best = -Infinity;
    let bestModel = 0;
    for (let m = 0; m < models.length; m++) {
      const { pairs, act, hold } = models[m];
      let n = 0;
      let sa = 0;
      let sh = 0;
      for (let i = 0; i < k; i++) {
        const c = draws[row + i];
        n += pairs[c];
        sa += act[c];
        sh += hold[c];
      }
      const d = ((sa / n + sh / n) / 2) * 100;
      if (d > best) {
        best = d;
        bestModel = m;
      }
    }
    wins[bestModel] += 1;
  }
  return Array.from(wins, (w) => (w / options.resamples) * 100);
}

/**
 * Paired cluster bootstrap of the change in decision accuracy between two arms scored
 * on the same pairs: one stream, the same clusters for both arms, the interval of
 * decision(b) − decision(a). Both totals must share one cluster order.
 */
export function pairedDifferenceInterval(a: ClusterTotals, b: ClusterTotals, options: BootstrapOptions): Interval {
  checkResamples(options.resamples);
  const k = a.keys.length;
  if (b.keys.length !== k || b.keys.some((key, i) => key !== a.keys[i]))
    throw new RangeError("paired bootstrap needs both arms on the same clusters");
  const draws = clusterDraws(options.seed, k, options.resamples);
  const diffs = new Float64Array(options.resamples);
  for (let r = 0, row = 0; r < options.resamples; r++, row += k) {
    let na = 0,
      aa = 0,
      ha = 0,
      nb = 0,
      ab = 0,
      hb = 0;
    for (let i = 0; i < k; i++) {
      const c = draws[row + i];
      na += a.pairs[c];
      aa += a.act[c];
      ha += a.hold[c];
      nb += b.pairs[c];
      ab += b.act[c];
      hb += b.hold[c];
    }
    diffs[r] = ((ab / nb + hb / nb) / 2) * 100 - ((aa / na + ha / na) / 2) * 100;
  }
  return sortedInterval(diffs);
}
