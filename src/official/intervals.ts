/**
 * The rank-1 frequencies of the models scored together: % of resamples in which each has
 * the highest decision, resampling base twins (every pair belongs to the cluster of its
 * base twin) with NumPy's `default_rng` on one shared stream, as the paper's scorer does,
 * so the numbers equal its to the last digit. (Each model's own interval is its reading's:
 * `decision/readings.ts` `ratesOf`.)
 */
import { clusterOrder, clusterTotals, rankOneFrequencies, type BootstrapOptions, type PairOutcome } from "../stats/index.js";

/**
 * Rank-1 frequencies of models scored on the same pairs (each model's scored pairs as
 * bootstrap outcomes, `outcomesOf`); null when resamples = 0 or a model has no pair.
 */
export function rankOneOf(models: readonly (readonly PairOutcome[])[], bootstrap: BootstrapOptions): number[] | null {
  if (bootstrap.resamples === 0 || models.some((o) => o.length === 0)) return null;
  const keys = clusterOrder(models.flat());
  return rankOneFrequencies(
    models.map((o) => clusterTotals(o, keys)),
    bootstrap,
  );
}
