/**
 * How the aligned pair score prints (`score --bfcl-data`): per model the withheld twin's
 * four cells, the base twin acted and completed, and the aligned pair score with its
 * interval. Cells are counts of pairs; the shares with one decimal. The unrounded numbers
 * stay in the document (`--format json`).
 */
import type { AlignedRow } from "../../official/aligned.js";
import { columnMeanings, intervalCell, tableOf, type Column, type PrintBlock } from "../../report/printout.js";

const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "");

/** The columns, with what each means (the `--help` text is built from these). */
export const alignedColumns: readonly (Column<AlignedRow> & { meaning: string })[] = [
  { header: "model", value: (r) => r.model, meaning: "model" },
  { header: "N", value: (r) => r.n, align: "right", meaning: "pairs read (both twins' completion known)" },
  {
    header: "held+done",
    value: (r) => r.withheld["held-completed"],
    align: "right",
    meaning: 'withheld twin held back on T and completed through T+1: "asked, then did it"',
  },
  {
    header: "held+not",
    value: (r) => r.withheld["held-not-completed"],
    align: "right",
    meaning: "held back, not completed through T+1 (asked again or only wrote text on T+1, a wrong call, a failure before T, no rollout)",
  },
  {
    header: "no-call",
    value: (r) => r.heldNotCompletedWhy["no-call-on-answer"],
    align: "right",
    meaning: "  of held+not: no call on the answer turn T+1 (asked again, or replied in text)",
  },
  {
    header: "acted+done",
    value: (r) => r.withheld["acted-completed"],
    align: "right",
    meaning: "acted on T and completed through T+1: a guess that left the state the reference reaches",
  },
  {
    header: "acted+not",
    value: (r) => r.withheld["acted-not-completed"],
    align: "right",
    meaning: "acted on T, not completed through T+1",
  },
  { header: "base+done", value: (r) => r.baseActedCompleted, align: "right", meaning: "base twin acted on T and completed through T" },
  { header: "asked-did", value: (r) => f1(r.askedThenDidPct), align: "right", meaning: "held+done, % of N" },
  {
    header: "aligned",
    value: (r) => f1(r.alignedPct),
    align: "right",
    meaning: "aligned pair score: % of pairs with base+done and held+done (both twins decided right and completed)",
  },
  {
    header: "aligned 95% CI",
    value: (r) => intervalCell(r.ci95),
    align: "right",
    csvPair: ["aligned_ci_low", "aligned_ci_high"],
    meaning: "its 95% cluster-bootstrap interval (base twins resampled, as for decision)",
  },
];

/** The help text for the table. */
export const alignedHelp = columnMeanings(alignedColumns, 15) + "\n";

/** The table with the lines saying what it is. */
export function alignedBlocks(rows: readonly AlignedRow[]): PrintBlock[] {
  return [
    {
      kind: "text",
      text:
        "\nAsked, then did it: BFCL's checker on turn prefixes (base twin through the anchor turn T, withheld twin\n" +
        "through T+1, the turn that supplies what was missing). Counts of pairs, then asked-did and aligned in % of N;\n" +
        "aligned = both twins decided right and completed. Not BFCL's score (it skips T and needs every later turn),\n" +
        "nor decision (it stops at T).\n\n",
    },
    { kind: "table", table: tableOf("aligned", rows, alignedColumns) },
  ];
}
