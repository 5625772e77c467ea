/**
 * The `--per-item` file of `score`: one CSV row per model and pair, in the columns of
 * `decision/table.ts`, rendered by the one table renderer.
 */
import { perItemColumns, type PerItemRow } from "../decision/table.js";
import { renderTable } from "../report/printout.js";

/** The rows as CSV text with a header line. */
export function perItemCsv(rows: readonly PerItemRow[]): string {
  return renderTable({ id: "per-item", columns: perItemColumns.map((header) => ({ header })), rows: rows.map((r) => perItemColumns.map((k) => r[k])) }, "csv");
}
