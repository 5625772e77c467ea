/**
 * HTML building blocks. Every piece of text that came from a model, a data file or a
 * path goes through `escapeHtml` — model output is data, and a report must never run it.
 */
import { formatDecimal1 } from "../decision/format.js";

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A percentage with one decimal as every other output prints it (`formatDecimal1`), or a dash when absent. */
export function fmt1(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "–" : formatDecimal1(x);
}

/** A change in points with its sign (+1.2, −0.4), or a dash. */
export function fmtSigned(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  const s = formatDecimal1(x);
  return s.startsWith("-") ? `−${s.slice(1)}` : s === "0.0" ? "±0.0" : `+${s}`;
}

/**
 * A p-value as HTML, the way the paper prints it: two significant digits, and below
 * 0.001 as m×10<sup>e</sup> (the CLI's plain-text `5.7e-6` would read as a typo in prose).
 */
export function fmtP(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return "–";
  if (p >= 0.001)
    return p >= 0.995
      ? "1"
      : p
          .toPrecision(2)
          .replace(/(\.\d*?)0+$/, "$1")
          .replace(/\.$/, "");
  const [m, e] = p.toExponential(1).split("e");
  return `${m}×10<sup>−${-Number(e)}</sup>`;
}

/** A plain table; cells are escaped unless given as `{ html }`. */
export function table(headers: readonly string[], rows: readonly (readonly (string | { html: string })[])[], attrs = ""): string {
  const cell = (c: string | { html: string }, tag: string) => `<${tag}>${typeof c === "string" ? escapeHtml(c) : c.html}</${tag}>`;
  return (
    `<table${attrs ? " " + attrs : ""}><thead><tr>${headers.map((h) => cell(h, "th")).join("")}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((c) => cell(c, "td")).join("")}</tr>`).join("")}</tbody></table>`
  );
}
