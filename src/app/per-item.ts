/**
 * The `--per-item` file of `score`: one CSV row per model and pair, in the columns of
 * `decision/table.ts`, rendered by the one table renderer.
 */
import { perItemColumns, type PerItemRow } from "../decision/table.js";
import type { TwinCompletion } from "../official/aligned.js";
import type { OfficialVerdict } from "../bfcl/scores.js";
import { renderTable } from "../report/printout.js";

/**
 * The rows as CSV text with a header line. With the twins' completions (by model, then
 * should-ask id), two more columns: `base_completed` (BFCL's checker passes the base twin
 * through the anchor turn T) and `miss_completed` (the should-ask twin through T+1), 0/1,
 * empty where a pair's completion is unknown. With BFCL's verdicts (by model, then item id),
 * `base_official` and `miss_official`: BFCL's own pass (1) or fail (0) of each twin, empty
 * where the item has none.
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
