/**
 * The 95% cluster-bootstrap interval `score` prints beside each model's decision, and the
 * rank-1 frequencies of the models scored together. Both resample base twins (every pair
 * belongs to the cluster of its base twin) with NumPy's `default_rng`, as the paper's
 * scorer does, so the numbers equal its to the last digit.
 */
import type { PairRecord } from "../decision/types.js";
import { bootstrapIntervals, clusterOrder, clusterTotals, rankOneFrequencies, type BootstrapOptions, type Interval } from "../stats/index.js";

/** The decision interval of one model's records (null when resamples = 0 or no pair). */
export function decisionInterval(records: readonly PairRecord[], bootstrap: BootstrapOptions): Interval | null {
  if (bootstrap.resamples === 0 || records.length === 0) return null;
  const totals = clusterTotals(records.map((r) => ({ cluster: r.baseId, act: r.actedOnBase, hold: r.heldBack })));
  return bootstrapIntervals(totals, bootstrap).decision;
}

/**
 * Rank-1 frequencies (% of resamples in which each model has the highest decision) of
 * models scored on the same pairs, from one shared stream; null when resamples = 0 or a
 * model has no pair.
 */
export function rankOneOf(models: readonly (readonly PairRecord[])[], bootstrap: BootstrapOptions): number[] | null {
  if (bootstrap.resamples === 0 || models.some((rs) => rs.length === 0)) return null;
  const outcomes = models.map((rs) => rs.map((r) => ({ cluster: r.baseId, act: r.actedOnBase, hold: r.heldBack })));
  const keys = clusterOrder(outcomes.flat());
  return rankOneFrequencies(outcomes.map((o) => clusterTotals(o, keys)), bootstrap);
}
