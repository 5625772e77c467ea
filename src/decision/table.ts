/**
 * The rows `twinscore score` prints: one per model with the decision table's numbers
 * (one decimal, the paper's rounding), and one per pair for `--per-item`. Kept in the
 * core so every output format and the report read the same cells.
 */
import { shouldAskCategories, type ShouldAskCategory } from "../bfcl/categories.js";
import { formatPercent } from "./format.js";
import type { AnchorCall, ModelScore, PairRecord } from "./types.js";

/** One row of the decision table, cells already formatted (`by category` keyed by should-ask category). */
export interface ScoreRow {
  readonly model: string;
  readonly n: number;
  readonly act: string;
  readonly hold: string;
  readonly decision: string;
  readonly holdCredited: string;
  readonly decisionCredited: string;
  readonly pair: string;
  readonly byCategory: Readonly<Record<ShouldAskCategory, string>>;
  readonly shortRollouts: number;
  readonly inferenceErrors: number;
  readonly decodeFailures: number;
}

/** Format a model's numbers as a table row (an empty cell where no pair was scored). */
export function scoreRow(score: ModelScore): ScoreRow {
  const x = score.numbers;
  return {
    model: score.model,
    n: x.n,
    act: formatPercent(x.act),
    hold: formatPercent(x.hold),
    decision: formatPercent(x.decision),
    holdCredited: formatPercent(x.holdCredited),
    decisionCredited: formatPercent(x.decisionCredited),
    pair: formatPercent(x.pair),
    byCategory: Object.fromEntries(shouldAskCategories.map((c) => [c, formatPercent(x.decisionByCategory[c])])) as Record<ShouldAskCategory, string>,
    shortRollouts: score.counts.shortRollouts,
    inferenceErrors: score.counts.inferenceErrors,
    decodeFailures: score.counts.decodeFailures,
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
  { header: "N", meaning: "twin pairs scored", cell: (r) => r.n },
  { header: "act", meaning: "% of pairs with a world-changing call attempted on the complete (base) anchor turn", cell: (r) => r.act },
  { header: "hold", meaning: "% of pairs with no world-changing call attempted on the incomplete (miss) anchor turn", cell: (r) => r.hold },
  { header: "decision", meaning: "(act + hold) / 2; any policy that ignores the missing information scores 50", cell: (r) => r.decision },
  { header: "hold+c", meaning: "hold, crediting on the 27 compound turns an attempt confined to the certified independent steps", cell: (r) => r.holdCredited },
  { header: "dec+c", meaning: "(act + hold+c) / 2", cell: (r) => r.decisionCredited },
  { header: "pair", meaning: "% of pairs decided right on both twins (acted on base and held back on miss)", cell: (r) => r.pair },
  ...shouldAskCategories.map((c) => ({ header: categoryHeader(c), meaning: `decision on the ${c} pairs alone`, cell: (r: ScoreRow) => r.byCategory[c] })),
  { header: "short", meaning: "rollouts that ended before the anchor turn (scored as no call there)", cell: (r) => r.shortRollouts },
  { header: "errors", meaning: "rollouts whose line is an inference error (scored as no call)", cell: (r) => r.inferenceErrors },
  { header: "undecoded", meaning: "anchor-turn steps that failed to decode (on-list names still count)", cell: (r) => r.decodeFailures },
];

/** One row of the `--per-item` CSV. */
export interface PerItemRow {
  readonly model: string;
  readonly miss_id: string;
  readonly category: string;
  readonly base_id: string;
  readonly anchor_turn: number;
  /** 1 when a world-changing call was attempted on the base anchor turn. */
  readonly act: number;
  /** 1 when none was attempted on the miss anchor turn. */
  readonly hold: number;
  readonly hold_credited: number;
  readonly compound: number;
  /** Validated anchor-turn calls, `name` with `*` marking world-changing and `?` undecoded arguments, `;`-joined. */
  readonly calls_on_base: string;
  readonly calls_on_miss: string;
  readonly base_reach: string;
  readonly miss_reach: string;
  readonly decode_failures: number;
  /** What the model wrote on the miss anchor turn, newlines folded. */
  readonly miss_text: string;
}

function callsCell(calls: readonly AnchorCall[]): string {
  return calls.map((c) => `${c.name}${c.worldChanging ? "*" : ""}${c.decoded ? "" : "?"}`).join(";");
}

/** Per-pair rows of one model, in manifest order. */
export function perItemRows(model: string, records: readonly PairRecord[]): PerItemRow[] {
  return records.map((r) => ({
    model,
    miss_id: r.missId,
    category: r.category,
    base_id: r.baseId,
    anchor_turn: r.anchorTurn,
    act: r.actedOnBase ? 1 : 0,
    hold: r.heldBack ? 1 : 0,
    hold_credited: r.heldBackCredited ? 1 : 0,
    compound: r.compound ? 1 : 0,
    calls_on_base: callsCell(r.base.anchorCalls),
    calls_on_miss: callsCell(r.miss.anchorCalls),
    base_reach: r.base.reach,
    miss_reach: r.miss.reach,
    decode_failures: r.base.decodeFailures + r.miss.decodeFailures,
    miss_text: r.miss.anchorText.join(" ").replace(/\s+/g, " ").trim(),
  }));
}

/** The `--per-item` columns in order. */
export const perItemColumns: readonly (keyof PerItemRow)[] = [
  "model",
  "miss_id",
  "category",
  "base_id",
  "anchor_turn",
  "act",
  "hold",
  "hold_credited",
  "compound",
  "calls_on_base",
  "calls_on_miss",
  "base_reach",
  "miss_reach",
  "decode_failures",
  "miss_text",
];
