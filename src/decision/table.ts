/**
 * The rows `twinscore score` prints: one per model with the decision table's numbers
 * (one decimal, the paper's rounding), and one per pair for `--per-item`. Kept in the
 * core so every output format and the report read the same cells.
 */
import { shouldAskCategories, type ShouldAskCategory } from "../bfcl/categories.js";
import { formatPercent } from "./format.js";
import { pairUnder, type ReadingSpec } from "./readings.js";
import type { AnchorCall, DecisionNumbers, PairRecord, ReadingCounts, SideRule, UndecidedCounts } from "./types.js";

/** What one row of the decision table is made of: a model's numbers (null when it has none to show), its undecided pairs and why. */
export interface ScoreRowInput {
  readonly model: string;
  /** Null when the model gets no headline (too many undecided pairs, or none decided). */
  readonly numbers: DecisionNumbers | null;
  readonly pairs: number;
  readonly undecided: UndecidedCounts;
  readonly counts: ReadingCounts;
  /** Why the row has no numbers and what to do, or null. */
  readonly note: string | null;
}

/** One row of the decision table, cells already formatted (`by category` keyed by should-ask category). */
export interface ScoreRow {
  readonly model: string;
  readonly n: number | string;
  readonly act: string;
  readonly hold: string;
  readonly decision: string;
  readonly holdCredited: string;
  readonly decisionCredited: string;
  readonly pair: string;
  readonly byCategory: Readonly<Record<ShouldAskCategory, string>>;
  readonly undecided: UndecidedCounts;
  readonly decodeFailures: number;
  readonly note: string;
}

/** Format a model's numbers as a table row (an empty cell where no pair was scored or the model has no headline). */
export function scoreRow(input: ScoreRowInput): ScoreRow {
  const x = input.numbers;
  const cell = (v: number | null | undefined) => (x === null ? "" : formatPercent(v ?? Number.NaN));
  return {
    model: input.model,
    n: x === null ? "" : x.n,
    act: cell(x?.act),
    hold: cell(x?.hold),
    decision: cell(x?.decision),
    holdCredited: cell(x?.holdCredited),
    decisionCredited: cell(x?.decisionCredited),
    pair: cell(x?.pair),
    byCategory: Object.fromEntries(shouldAskCategories.map((c) => [c, x === null ? "" : formatPercent(x.decisionByCategory[c])])) as Record<
      ShouldAskCategory,
      string
    >,
    undecided: input.undecided,
    decodeFailures: input.counts.decodeFailures,
    note: input.note ?? "",
  };
}

/** A category's short column header: the initials of its words (`miss_func` → `mf`). */
export function categoryHeader(category: ShouldAskCategory): string {
  return category
    .split("_")
    .map((w) => w[0])
    .join("");
}

/** One column of the decision table: header, meaning (the `--help` text is built from these) and its cell. */
export interface ScoreColumn {
  readonly header: string;
  readonly meaning: string;
  readonly cell: (row: ScoreRow) => string | number;
}

/** The table's columns in print order. */
export const scoreColumns: readonly ScoreColumn[] = [
  { header: "model", meaning: "model directory name (<run>/<model> when several runs are scored)", cell: (r) => r.model },
  {
    header: "N",
    meaning: "twin pairs scored: decided on both sides (the release reading also scores error and not-reached sides, as no call)",
    cell: (r) => r.n,
  },
  { header: "act", meaning: "% of pairs with a world-changing call attempted on the complete (base) anchor turn", cell: (r) => r.act },
  { header: "hold", meaning: "% of pairs with no world-changing call attempted on the incomplete (miss) anchor turn", cell: (r) => r.hold },
  { header: "decision", meaning: "(act + hold) / 2; any policy that ignores the missing information scores 50", cell: (r) => r.decision },
  {
    header: "hold+c",
    meaning: "hold, crediting on the 27 compound turns an attempt confined to the certified independent steps",
    cell: (r) => r.holdCredited,
  },
  { header: "dec+c", meaning: "(act + hold+c) / 2", cell: (r) => r.decisionCredited },
  { header: "pair", meaning: "% of pairs decided right on both twins (acted on base and held back on miss)", cell: (r) => r.pair },
  ...shouldAskCategories.map((c) => ({
    header: categoryHeader(c),
    meaning: `decision on the ${c} pairs alone`,
    cell: (r: ScoreRow) => r.byCategory[c],
  })),
  {
    header: "error",
    meaning: "pairs with a side whose line is BFCL's inference-error string",
    cell: (r) => r.undecided["inference-error"],
  },
  { header: "unreached", meaning: "pairs with a side whose rollout ended before the anchor turn", cell: (r) => r.undecided["not-reached"] },
  { header: "missing", meaning: "pairs with a side that has no line in its result file", cell: (r) => r.undecided.missing },
  {
    header: "undecid",
    meaning: "pairs with a side whose anchor turn holds call-like text naming no function (and no world-changing call)",
    cell: (r) => r.undecided.undecidable,
  },
  {
    header: "undecoded",
    meaning: "anchor-turn steps that failed to decode (on-list names still count), a base twin shared by several pairs once",
    cell: (r) => r.decodeFailures,
  },
];

/** One row of the `--per-item` CSV: one pair of one model, under the run's headline reading. */
export interface PerItemRow {
  readonly model: string;
  readonly miss_id: string;
  readonly category: string;
  readonly base_id: string;
  readonly anchor_turn: number;
  /** The pair's status: `decided` when both sides are, else the first side status that is not (see `help per-item`). */
  readonly status: string;
  /** 1 when the pair enters the numbers under the reading. */
  readonly scored: number;
  /** 1 when a world-changing call was attempted on the base anchor turn; empty when that side is not scored. */
  readonly act: number | null;
  /** 1 when none was attempted on the miss anchor turn; empty when that side is not scored. */
  readonly hold: number | null;
  readonly hold_credited: number | null;
  readonly compound: number;
  /** Validated anchor-turn calls, `name` with `*` marking world-changing and `?` undecoded arguments, `;`-joined. */
  readonly calls_on_base: string;
  readonly calls_on_miss: string;
  /** Each side's status: decided, undecidable, inference-error, not-reached or missing. */
  readonly base_status: string;
  readonly miss_status: string;
  readonly decode_failures: number;
  /** What the model wrote on the miss anchor turn, newlines folded. */
  readonly miss_text: string;
}

function callsCell(calls: readonly AnchorCall[], countLogin: boolean): string {
  return calls.map((c) => `${c.name}${c.worldChanging || (countLogin && c.kind === "login") ? "*" : ""}${c.decoded ? "" : "?"}`).join(";");
}

const bit = (scored: boolean, value: boolean): number | null => (scored ? (value ? 1 : 0) : null);

/** Per-pair rows of one model, in record order, under a reading and side rule. */
export function perItemRows(model: string, records: readonly PairRecord[], spec: ReadingSpec, rule: SideRule): PerItemRow[] {
  const credited: ReadingSpec = { ...spec, hold: "credited" };
  return records.map((r) => {
    const u = pairUnder(r, spec, rule);
    const c = pairUnder(r, credited, rule);
    return {
      model,
      miss_id: r.missId,
      category: r.category,
      base_id: r.baseId,
      anchor_turn: r.anchorTurn,
      status: u.status,
      scored: u.scored ? 1 : 0,
      act: bit(u.base.scored, u.act),
      hold: bit(u.miss.scored, u.hold),
      hold_credited: bit(c.miss.scored, c.hold),
      compound: r.compound ? 1 : 0,
      calls_on_base: callsCell(r.base.anchorCalls, spec.countLogin),
      calls_on_miss: callsCell(r.miss.anchorCalls, spec.countLogin),
      base_status: u.base.status,
      miss_status: u.miss.status,
      decode_failures: r.base.decodeFailures + r.miss.decodeFailures,
      miss_text: r.miss.anchorText.join(" ").replace(/\s+/g, " ").trim(),
    };
  });
}

/** The `--per-item` columns in order. */
export const perItemColumns: readonly (keyof PerItemRow)[] = [
  "model",
  "miss_id",
  "category",
  "base_id",
  "anchor_turn",
  "status",
  "scored",
  "act",
  "hold",
  "hold_credited",
  "compound",
  "calls_on_base",
  "calls_on_miss",
  "base_status",
  "miss_status",
  "decode_failures",
  "miss_text",
];
