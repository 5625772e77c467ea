/**
 * `numpy.percentile` with its default (linear) method, bit for bit, so that interval
 * ends computed here equal a NumPy script's to the last digit.
 */

/**
 * The q-th percentile (0 ≤ q ≤ 100) of ascending-sorted values: virtual index
 * (n − 1)·q/100, then NumPy's `_lerp`, which interpolates from the upper neighbour when
 * the fraction is at least one half (the two forms round differently).
 */
export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const quantile = q / 100;
  const virtual = (n - 1) * quantile;
  const previousIndex = Math.min(Math.max(Math.floor(virtual), 0), n - 1);
  const nextIndex = Math.min(previousIndex + 1, n - 1);
  const gamma = virtual - Math.floor(virtual);
  const a = sorted[previousIndex];
  const b = sorted[nextIndex];
  const diff = b - a;
  return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
}

/** Percentiles of unsorted values (copied and sorted numerically first). */
export function percentiles(values: ArrayLike<number>, qs: readonly number[]): number[] {
  const sorted = Float64Array.from(values as ArrayLike<number>).sort();
  return qs.map((q) => percentileSorted(sorted, q));
}
