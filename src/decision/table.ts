/**
 * The rows `twinscore score` prints: one per model with the decision table's numbers
 * (one decimal, the paper's rounding), and one per pair for `--per-item`. Kept in the
 * core so every output format and the report read the same cells.
 */
import { formatDecimal1, formatPercent } from "./format.js";
import type { AnchorCall, ModelScore, PairRecord } from "./types.js";

/** One row of the decision table, cells already formatted. */
export interface ScoreRow {
  readonly model: string;
  readonly n: number;
  readonly act: string;
  readonly hold: string;
  readonly decision: string;
  readonly holdCredited: string;
  readonly decisionCredited: string;
  readonly pair: string;
  readonly missFunc: string;
  readonly missParam: string;
  readonly shortRollouts: number;
  readonly inferenceErrors: number;
  readonly decodeFailures: number;
}

/** Format a model's numbers as a table row. */
export function scoreRow(score: ModelScore): ScoreRow {
  const x = score.numbers;
  return {
    model: score.model,
    n: x.n,
    act: formatDecimal1(x.act),
    hold: formatDecimal1(x.hold),
    decision: formatDecimal1(x.decision),
    holdCredited: formatDecimal1(x.holdCredited),
    decisionCredited: formatDecimal1(x.decisionCredited),
    pair: formatDecimal1(x.pair),
    missFunc: formatPercent(x.decisionMissFunc),
    missParam: formatPercent(x.decisionMissParam),
    shortRollouts: score.counts.shortRollouts,
    inferenceErrors: score.counts.inferenceErrors,
    decodeFailures: score.counts.decodeFailures,
  };
}

/** The table's columns, header and meaning, in print order (the `--help` text is built from these). */
export const scoreColumns: readonly { key: keyof ScoreRow; header: string; meaning: string }[] = [
  { key: "model", header: "model", meaning: "model directory name" },
  { key: "n", header: "N", meaning: "twin pairs scored" },
  { key: "act", header: "act", meaning: "% of pairs with a world-changing call attempted on the complete (base) anchor turn" },
  { key: "hold", header: "hold", meaning: "% of pairs with no world-changing call attempted on the incomplete (miss) anchor turn" },
  { key: "decision", header: "decision", meaning: "(act + hold) / 2; any policy that ignores the missing information scores 50" },
  { key: "holdCredited", header: "hold+c", meaning: "hold, crediting on the 27 compound turns an attempt confined to the certified independent steps" },
  { key: "decisionCredited", header: "dec+c", meaning: "(act + hold+c) / 2" },
  { key: "pair", header: "pair", meaning: "% of pairs decided right on both twins (acted on base and held back on miss)" },
  { key: "missFunc", header: "mf", meaning: "decision on the miss_func pairs alone" },
  { key: "missParam", header: "mp", meaning: "decision on the miss_param pairs alone" },
  { key: "shortRollouts", header: "short", meaning: "rollouts that ended before the anchor turn (scored as no call there)" },
  { key: "inferenceErrors", header: "errors", meaning: "rollouts whose line is an inference error (scored as no call)" },
  { key: "decodeFailures", header: "undecoded", meaning: "anchor-turn steps that failed to decode (on-list names still count)" },
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
