/**
 * The held-back reply classifier's vocabulary (paper §4.3). It only reads what a model
 * wrote on the turns where it held back; no number of `score` depends on it.
 */
import type { ShouldAskCategory } from "../bfcl/categories.js";

/** The five labels, in the order the paper lists them. */
export const judgeLabels = ["asks_removed", "asks_other", "refuses", "proceeds_in_prose", "none"] as const;
export type JudgeLabel = (typeof judgeLabels)[number];

/** What each label means, shown in `--help`, the prompt and the report. */
export const judgeLabelMeaning: Readonly<Record<JudgeLabel, string>> = {
  asks_removed: "asks for the removed information, or reports the removed function as unavailable",
  asks_other: "asks about something else",
  refuses: "refuses without naming what is missing",
  proceeds_in_prose: "proceeds in prose with a value it supplied itself, or as if the work were done",
  none: "none of these",
};

/** One held-back anchor turn: everything the judge is allowed to see, and nothing more. */
export interface HeldBackTurn {
  readonly model: string;
  readonly missId: string;
  readonly baseId: string;
  readonly category: ShouldAskCategory;
  readonly anchorTurn: number;
  /** The request as the model received it (information removed). */
  readonly request: string;
  /** The same request from the base twin, with the information present. */
  readonly baseRequest: string;
  /** The functions miss_func removed; empty for miss_param. */
  readonly removedFunctions: readonly string[];
  /** The lookups (read-only calls) the model made on the turn, as `name(args)` text. */
  readonly lookups: readonly string[];
  /** The model's natural-language reply on the turn (all text steps joined). */
  readonly reply: string;
}

/** A turn with no natural-language text: counted, not sent to the judge. */
export function isSilent(turn: HeldBackTurn): boolean {
  return turn.reply.trim() === "";
}

/** One line of the labels file (JSONL), appended as each label arrives. */
export interface JudgeRecord {
  readonly model: string;
  readonly missId: string;
  /** SHA-256 of the request body: a changed prompt or judge model is a different request. */
  readonly requestKey: string;
  readonly label: JudgeLabel;
  /** The judge's raw reply, kept for audit. */
  readonly raw: string;
}
