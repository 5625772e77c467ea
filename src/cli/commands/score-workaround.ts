/**
 * The Table F1 section `twinscore score` adds when BFCL data is available (`--bfcl-data`,
 * `BFCL_DATA_DIR`, or a bfcl_eval installation): per model, the miss_func attempts on
 * the withheld turn replayed on the simulated classes (`io/workaround-run.ts`). Kept out
 * of `score.ts` so that command only gains a few lines.
 */
import { resolveBfclDataDir } from "../../io/bfcl-data.js";
import type { ModelRun } from "../../io/results.js";
import { readWorkaroundData, workaroundForModel } from "../../io/workaround-run.js";
import { selectPairs } from "../../decision/score.js";
import type { ScoreOptions } from "../../decision/types.js";
import type { Problem } from "../../messages/index.js";
import type { Manifest } from "../../pairs/types.js";
import { renderRows, type Column, type OutputFormat } from "../format.js";
import type { CliIo } from "../io.js";

/** One Table F1 row. Accuracies in percent. */
export interface WorkaroundRow {
  readonly model: string;
  readonly attempts: number;
  readonly removed: number;
  readonly aligned: number;
  readonly workaround: number;
  readonly acc: number;
  readonly accWorkaround: number;
  readonly credited: number;
}

const columns: Column<WorkaroundRow>[] = [
  { header: "model", value: (r) => r.model },
  { header: "attempts", value: (r) => r.attempts, align: "right" },
  { header: "removed", value: (r) => r.removed, align: "right" },
  { header: "aligned", value: (r) => r.aligned, align: "right" },
  { header: "workaround", value: (r) => r.workaround, align: "right" },
  { header: "acc", value: (r) => r.acc.toFixed(1), align: "right" },
  { header: "acc_prime", value: (r) => r.accWorkaround.toFixed(1), align: "right" },
  { header: "credited", value: (r) => r.credited.toFixed(1), align: "right" },
];

/**
 * Table F1 rows for the scored models, or null when no BFCL data is found (the section
 * is then omitted). Problems (unreadable data) are appended to `problems`.
 */
export function workaroundRows(
  io: CliIo,
  scored: readonly ModelRun[],
  manifest: Manifest,
  options: ScoreOptions,
  bfclDataFlag: string | undefined,
  problems: Problem[],
): WorkaroundRow[] | null {
  const location = resolveBfclDataDir({ flag: bfclDataFlag, env: io.env, cwd: io.cwd });
  if (!location) return null;
  const data = readWorkaroundData(location.dir);
  if (!data.ok) {
    problems.push(...data.problems);
    return null;
  }
  const pairs = selectPairs(manifest, options);
  const rows: WorkaroundRow[] = [];
  for (const run of scored) {
    const file = run.filesUsed.miss_func?.file;
    if (!run.score || !file) continue;
    const r = workaroundForModel(run.score, pairs, file, data.value);
    if (!r.ok) {
      problems.push(...r.problems);
      continue;
    }
    const s = r.value;
    rows.push({ model: run.model, attempts: s.attempts, removed: s.removed, aligned: s.aligned, workaround: s.workarounds, acc: s.acc, accWorkaround: s.accWorkaround, credited: s.accCredited });
  }
  return rows;
}

/** The section as text in a table/csv/markdown output. */
export function workaroundText(rows: readonly WorkaroundRow[], format: OutputFormat): string {
  const title =
    "\nTable F1 - miss_func attempts on the withheld turn, replayed on the simulated BFCL classes.\n" +
    "removed: called the removed function; aligned: reached the anchor in the reference's state;\n" +
    "workaround: aligned and reached the reference's post-call state by other functions (no-op references excluded);\n" +
    "acc: strict decision; acc_prime: workarounds counted as holding back; credited: also the compound turns.\n\n";
  return (format === "table" ? title : "\n") + renderRows(rows, columns, format);
}
