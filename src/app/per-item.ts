/**
 * The `--per-item` file of `score`: one CSV row per model and pair, in the columns of
 * `decision/table.ts`, rendered by the one table renderer.
 */
import { perItemColumns, type PerItemRow } from "../decision/table.js";
import type { TwinCompletion } from "../official/aligned.js";
import type { OfficialVerdict } from "../bfcl/scores.js";
import { renderTable } from "../report/printout.js";

/**
 * The rows as CSV text with a header line. The twins' completions add `base_completed` and `miss_completed`,
 * BFCL's verdicts add `base_official` and `miss_official` (0/1, empty where unknown). More in this folder's
 * README.md.
 */
export function perItemCsv(
  rows: readonly PerItemRow[],
  completions: ReadonlyMap<string, ReadonlyMap<string, TwinCompletion>> | null = null,
  verdicts: ReadonlyMap<string, ReadonlyMap<string, OfficialVerdict>> | null = null,
): string {
  const bit = (v: boolean | undefined) => (v === undefined ? null : v ? 1 : 0);
  const extra = [
    ...(verdicts === null ? [] : ["base_official", "miss_official"]),
    ...(completions === null ? [] : ["base_completed", "miss_completed"]),
  ];
  return renderTable(
    {
      id: "per-item",
      columns: [...perItemColumns, ...extra].map((header) => ({ header })),
      rows: rows.map((r) => {
        const cells: (string | number | null)[] = perItemColumns.map((k) => r[k]);
        if (verdicts !== null) {
          const v = verdicts.get(r.model);
          cells.push(bit(v?.get(r.base_id)?.pass), bit(v?.get(r.miss_id)?.pass));
        }
        if (completions !== null) {
          const c = completions.get(r.model)?.get(r.miss_id);
          cells.push(bit(c?.baseCompleted), bit(c?.missCompleted));
        }
        return cells;
      }),
    },
    "csv",
  );
}
