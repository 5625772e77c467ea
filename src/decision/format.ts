/**
 * One way to print a percentage, so every output (table, CSV, Markdown, report) shows
 * the same decimal as the paper's Python scorer (`'%.1f' % x`, `round(x, 1)`).
 */

/**
 * `x` to one decimal the way Python's `'%.1f'` does: correctly rounded from the exact
 * binary value, ties to even. `toFixed` also rounds the exact value but breaks exact ties
 * upward; a tie at the second decimal is only possible when `4x` is an odd integer
 * (x = k + .25 or k + .75, both exact in binary), so only those are handled apart.
 */
export function formatDecimal1(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const quarter = x * 4; // exact
  if (Number.isInteger(quarter) && quarter % 2 !== 0) {
    const tenths = x * 10; // exact for k + .25 / k + .75 at these magnitudes
    const low = Math.floor(tenths);
    const even = low % 2 === 0 ? low : low + 1;
    return (even / 10).toFixed(1);
  }
  const s = x.toFixed(1);
  return s === "-0.0" ? "0.0" : s;
}

/** A percentage for tables: one decimal, or an empty cell when there is none (null, or NaN from no pair). */
export function formatPercent(x: number | null): string {
  return x === null || !Number.isFinite(x) ? "" : formatDecimal1(x);
}
