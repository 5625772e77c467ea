/**
 * How the empty-turn table prints (`check --score-empty-turns`, `score --bfcl-data`):
 * per category and model, BFCL's score, the strict and the world-changing counterfactual,
 * each with the models' rank under it. Accuracies with one decimal; the counts and
 * unrounded shares stay in the document (`--format json`).
 */
import { emptyTurnScoreMeaning, type EmptyTurnCell, type EmptyTurnRow } from "../../official/empty-turns.js";
import { columnMeanings, tableOf, type Column, type PrintBlock } from "../../report/printout.js";

const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "");
const cellOf = (c: EmptyTurnCell) => f1(c.accuracy);

/** The columns, with what each means (the `--help` texts are built from these). */
export const emptyTurnColumns: readonly (Column<EmptyTurnRow> & { meaning: string })[] = [
  { header: "model", value: (r) => r.model, meaning: "model (<run>/<model> when several runs are read)" },
  { header: "category", value: (r) => r.category, meaning: "BFCL category; mean = the unweighted mean of the model's categories" },
  { header: "entries", value: (r) => r.entries, align: "right", meaning: "entries of the result file(s)" },
  { header: "bfcl", value: (r) => cellOf(r.bfcl), align: "right", meaning: `% passing: ${emptyTurnScoreMeaning.bfcl}` },
  {
    header: "bfcl_rank",
    value: (r) => r.bfcl.rank,
    align: "right",
    meaning: "the model's rank in the category under bfcl (1 = best; ties share; shown from two models on)",
  },
  { header: "strict", value: (r) => cellOf(r.strict), align: "right", meaning: `% passing: ${emptyTurnScoreMeaning.strict}` },
  { header: "strict_rank", value: (r) => r.strict.rank, align: "right", meaning: "rank under strict" },
  {
    header: "world_changing",
    value: (r) => cellOf(r.worldChanging),
    align: "right",
    meaning: `% passing: ${emptyTurnScoreMeaning.worldChanging}`,
  },
  { header: "wc_rank", value: (r) => r.worldChanging.rank, align: "right", meaning: "rank under world_changing" },
];

/** The help text for the table. */
export const emptyTurnHelp = columnMeanings(emptyTurnColumns, 15) + "\n";

/** The table with a line saying what it is; the rank columns only when there are models to rank (two or more). */
export function emptyTurnBlocks(rows: readonly EmptyTurnRow[]): PrintBlock[] {
  const ranked = new Set(rows.map((r) => r.model)).size >= 2;
  const columns = ranked ? emptyTurnColumns : emptyTurnColumns.filter((c) => !c.header.endsWith("_rank"));
  return [
    {
      kind: "text",
      text:
        "\nThe skipped turn, scored (BFCL's checker never scores a turn whose reference is empty): BFCL's score,\n" +
        "the strict counterfactual (BFCL's own multi_turn_irrelevance_checker: any call there fails the entry)\n" +
        `and the world-changing one (only a world-changing attempt there fails it), % passing${ranked ? ", with each ranking" : ""}:\n\n`,
    },
    { kind: "table", table: tableOf("empty-turns", rows, columns) },
  ];
}
