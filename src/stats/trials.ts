/**
 * Statistics of a model measured over repeated trials: each pair was run K times, and
 * trial t of a pair is the outcome of its two twins in that trial (acted on the base
 * twin, held back on the should-ask twin). Act and hold are means over trials, then over
 * pairs; the decision's interval comes from a two-level bootstrap that resamples base
 * twins (clusters) and then, inside each drawn pair, the pair's trials, so an interval
 * counts both the items' and the sampling's variation. With one trial per pair every
 * number here equals the single-run cluster bootstrap's (`bootstrap.ts`), bit for bit:
 * `integers(0, 1)` draws nothing from NumPy's stream.
 */
import { defaultRng, type NumpyGenerator } from "./pcg64.js";
import {
  checkResamples,
  emptySeries,
  percentileInterval,
  recordResample,
  type BootstrapOptions,
  type Interval,
  type ModelIntervals,
  type ResampleSeries,
} from "./bootstrap.js";

/** One pair of one model across its trials: trial t is (`act[t]`, `hold[t]`). */
export interface TrialPair {
  /** The cluster key: the base twin's id. */
  readonly cluster: string;
  /** The pair's own key (its should-ask id); orders pairs inside a cluster. */
  readonly id: string;
  /** Acted on the base twin's anchor turn, per trial. */
  readonly act: readonly boolean[];
  /** Held back on the should-ask twin's anchor turn, per trial (as long as `act`). */
  readonly hold: readonly boolean[];
}

/** Act, hold and decision (0–100) as means over each pair's trials, then over pairs (decision = (act + hold) / 2). */
export interface TrialMeans {
  readonly pairs: number;
  readonly act: number;
  readonly hold: number;
  readonly decision: number;
}

/** How stable a model's decisions are from trial to trial. */
export interface TrialStability {
  /** Pairs with at least two trials: the only ones a flip can be seen on. */
  readonly pairsWithTrials: number;
  /** Mean over those pairs of their flip rate, 0–100 (null without such pairs). */
  readonly meanFlipRate: number | null;
  /** Share of those pairs whose outcome is the same in every trial, 0–100 (null without such pairs). */
  readonly stableShare: number | null;
  /** The decision (0–100) of each trial over the pairs that have that trial. */
  readonly decisionByTrial: readonly number[];
  /** Sample standard deviation (n − 1) of `decisionByTrial` (null with fewer than two trials). */
  readonly decisionSpread: number | null;
}

function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function trialCount(p: TrialPair): number {
  if (p.act.length !== p.hold.length || p.act.length === 0)
    throw new RangeError(`pair ${p.id}: act and hold need the same number of trials, at least one`);
  return p.act.length;
}

/**
 * The share (0–100) of a pair's trial pairs (t < t′) whose outcomes differ (in act or
 * in hold); null for a pair with a single trial.
 */
export function pairFlipRate(p: TrialPair): number | null {
  const k = trialCount(p);
  if (k < 2) return null;
  let differ = 0;
  for (let s = 0; s < k; s++) {
    for (let t = s + 1; t < k; t++) if (p.act[s] !== p.act[t] || p.hold[s] !== p.hold[t]) differ++;
  }
  return (differ / ((k * (k - 1)) / 2)) * 100;
}

/** Act, hold and decision as means over trials, then over pairs. */
export function trialMeans(pairs: readonly TrialPair[]): TrialMeans {
  let sa = 0;
  let sh = 0;
  for (const p of pairs) {
    const k = trialCount(p);
    sa += count(p.act) / k;
    sh += count(p.hold) / k;
  }
  const n = pairs.length;
  // percentages formed as score forms a run's (100 · count / n, then their mean), so one trial reads as today
  const act = (100 * sa) / n;
  const hold = (100 * sh) / n;
  return { pairs: n, act, hold, decision: (act + hold) / 2 };
}

function count(values: readonly boolean[]): number {
  let n = 0;
  for (const v of values) if (v) n++;
  return n;
}

/** Flip rates, the stable share, each trial's decision and their spread. */
export function trialStability(pairs: readonly TrialPair[]): TrialStability {
  let withTrials = 0;
  let flipSum = 0;
  let stable = 0;
  let maxTrials = 0;
  for (const p of pairs) {
    maxTrials = Math.max(maxTrials, trialCount(p));
    const rate = pairFlipRate(p);
    if (rate === null) continue;
    withTrials++;
    flipSum += rate;
    if (rate === 0) stable++;
  }
  const decisionByTrial: number[] = [];
  for (let t = 0; t < maxTrials; t++) {
    let n = 0;
    let a = 0;
    let h = 0;
    for (const p of pairs) {
      if (t >= p.act.length) continue;
      n++;
      if (p.act[t]) a++;
      if (p.hold[t]) h++;
    }
    decisionByTrial.push(((100 * a) / n + (100 * h) / n) / 2);
  }
  return {
    pairsWithTrials: withTrials,
    meanFlipRate: withTrials === 0 ? null : flipSum / withTrials,
    stableShare: withTrials === 0 ? null : (stable / withTrials) * 100,
    decisionByTrial,
    decisionSpread: sampleStandardDeviation(decisionByTrial),
  };
}

/** The n − 1 standard deviation (two-pass mean, then squared deviations in order); null below two values. */
export function sampleStandardDeviation(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let squares = 0;
  for (const v of values) squares += (v - mean) * (v - mean);
  return Math.sqrt(squares / (values.length - 1));
}

/** Pairs grouped by cluster in bootstrap order: clusters and, inside each, pairs by id as strings. */
export interface TrialClusters {
  readonly keys: readonly string[];
  readonly members: readonly (readonly TrialPair[])[];
}

/** Group pairs by cluster along `keys` (default: their own clusters in string order); a key with no pair is an empty cluster. */
export function trialClusters(
  pairs: readonly TrialPair[],
  keys: readonly string[] = [...new Set(pairs.map((p) => p.cluster))].sort(byString),
): TrialClusters {
  const index = new Map(keys.map((k, i) => [k, i]));
  const members: TrialPair[][] = keys.map(() => []);
  for (const p of pairs) {
    trialCount(p);
    const i = index.get(p.cluster);
    if (i === undefined) throw new RangeError(`pair cluster ${p.cluster} is not in the cluster order`);
    members[i].push(p);
  }
  for (const m of members) m.sort((x, y) => byString(x.id, y.id));
  return { keys, members };
}

/**
 * One pair's resampled act and hold (fractions): `integers(0, T, size=T)` trial indices
 * from the shared stream, the drawn trials' outcomes counted and divided by T.
 */
function resamplePair(p: TrialPair, rng: NumpyGenerator, scratch: Int32Array): { act: number; hold: number } {
  const k = p.act.length;
  rng.integersInto(k, k, scratch);
  let a = 0;
  let h = 0;
  for (let i = 0; i < k; i++) {
    const t = scratch[i];
    if (p.act[t]) a++;
    if (p.hold[t]) h++;
  }
  return { act: a / k, hold: h / k };
}

function scratchFor(clusters: TrialClusters): Int32Array {
  let most = 1;
  for (const m of clusters.members) for (const p of m) most = Math.max(most, p.act.length);
  return new Int32Array(Math.max(most, clusters.keys.length));
}

/**
 * The two-level bootstrap of one model on a fresh `default_rng(seed)`: per resample,
 * `integers(0, C, size=C)` clusters, then for each drawn cluster in draw order and each
 * of its pairs in id order, `integers(0, T, size=T)` of that pair's trials; act and hold
 * are the means over the gathered pairs of their resampled trial means.
 */
export function twoLevelSeries(clusters: TrialClusters, options: BootstrapOptions): ResampleSeries {
  checkResamples(options.resamples);
  const c = clusters.keys.length;
  const rng = defaultRng(options.seed);
  const picks = new Int32Array(c);
  const scratch = scratchFor(clusters);
  const series = emptySeries(options.resamples);
  for (let b = 0; b < options.resamples; b++) {
    rng.integersInto(c, c, picks);
    let n = 0;
    let sa = 0;
    let sh = 0;
    for (let i = 0; i < c; i++) {
      for (const p of clusters.members[picks[i]]) {
        const r = resamplePair(p, rng, scratch);
        n += 1;
        sa += r.act;
        sh += r.hold;
      }
    }
    recordResample(series, b, n, sa, sh);
  }
  return series;
}

/** The 95% percentile intervals of decision, act and hold from the two-level bootstrap. */
export function twoLevelIntervals(clusters: TrialClusters, options: BootstrapOptions): ModelIntervals {
  const s = twoLevelSeries(clusters, options);
  return { decision: percentileInterval(s.decision), act: percentileInterval(s.act), hold: percentileInterval(s.hold) };
}

/**
 * The paired two-level bootstrap of decision(b) − decision(a) for two arms on the same
 * pairs: one stream; per resample the same clusters for both arms, then inside each
 * drawn pair arm a's trials and then arm b's, drawn independently (trial t of one arm
 * has nothing to do with trial t of the other). Pairs are matched by id; both arms must
 * hold the same pairs in the same cluster order.
 */
export function pairedTwoLevelDifference(a: TrialClusters, b: TrialClusters, options: BootstrapOptions): Interval {
  checkResamples(options.resamples);
  const c = a.keys.length;
  if (b.keys.length !== c || b.keys.some((key, i) => key !== a.keys[i]))
    throw new RangeError("paired bootstrap needs both arms on the same clusters");
  for (let i = 0; i < c; i++) {
    const ma = a.members[i];
    const mb = b.members[i];
    if (ma.length !== mb.length || ma.some((p, j) => p.id !== mb[j].id))
      throw new RangeError(`paired bootstrap needs both arms on the same pairs (cluster ${a.keys[i]})`);
  }
  const rng = defaultRng(options.seed);
  const picks = new Int32Array(c);
  const scratch = new Int32Array(Math.max(scratchFor(a).length, scratchFor(b).length));
  const diffs = new Float64Array(options.resamples);
  for (let r = 0; r < options.resamples; r++) {
    rng.integersInto(c, c, picks);
    let n = 0,
      aa = 0,
      ha = 0,
      ab = 0,
      hb = 0;
    for (let i = 0; i < c; i++) {
      const ma = a.members[picks[i]];
      const mb = b.members[picks[i]];
      for (let j = 0; j < ma.length; j++) {
        const ra = resamplePair(ma[j], rng, scratch);
        const rb = resamplePair(mb[j], rng, scratch);
        n += 1;
        aa += ra.act;
        ha += ra.hold;
        ab += rb.act;
        hb += rb.hold;
      }
    }
    diffs[r] = ((ab / n + hb / n) / 2) * 100 - ((aa / n + ha / n) / 2) * 100;
  }
  return percentileInterval(diffs);
}
