/**
 * HTML building blocks. Every piece of text that came from a model, a data file or a
 * path goes through `escapeHtml` — model output is data, and a report must never run it.
 */

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A number with one decimal, as the paper prints rates (round half to even on the binary value, like Python). */
export function fmt1(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  return pyRound1(x);
}

/** Python's `'%.1f' % x`: exact decimal expansion of the double, then round half to even. */
function pyRound1(x: number): string {
  const neg = x < 0 || Object.is(x, -0);
  const abs = Math.abs(x);
  // toFixed(20) gives enough exact digits for any rate in [0, 1000] to decide the tie.
  const exact = abs.toFixed(20);
  const [intPart, frac] = exact.split(".");
  const first = Number(frac[0]);
  const rest = frac.slice(1);
  let tenths = BigInt(intPart) * 10n + BigInt(first);
  const restIsZero = /^0*$/.test(rest);
  const half = rest[0] === "5" && /^0*$/.test(rest.slice(1));
  if (rest[0] > "5" || (rest[0] === "5" && !half)) tenths += 1n;
  else if (half && tenths % 2n === 1n) tenths += 1n;
  void restIsZero;
  const s = `${tenths / 10n}.${tenths % 10n}`;
  return neg && tenths !== 0n ? `-${s}` : s;
}

/** A p-value the way papers print it: 3 significant digits, scientific below 0.001. */
export function fmtP(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return "–";
  if (p >= 0.001) return p >= 0.995 ? "1" : p.toPrecision(2).replace(/\.?0+$/, "");
  const [m, e] = p.toExponential(1).split("e");
  return `${m}×10^${Number(e)}`;
}

/** A plain table; cells are escaped unless given as `{ html }`. */
export function table(headers: readonly string[], rows: readonly (readonly (string | { html: string })[])[], attrs = ""): string {
  const cell = (c: string | { html: string }, tag: string) => `<${tag}>${typeof c === "string" ? escapeHtml(c) : c.html}</${tag}>`;
  return (
    `<table${attrs ? " " + attrs : ""}><thead><tr>${headers.map((h) => cell(h, "th")).join("")}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((c) => cell(c, "td")).join("")}</tr>`).join("")}</tbody></table>`
  );
}
