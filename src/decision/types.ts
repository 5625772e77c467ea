/**
 * The scoring core's vocabulary: what is read off one twin pair of one model's run
 * (`PairRecord`, the unit the stats/companion code resamples), each side's status, and the
 * numbers of a row of the decision table (`DecisionNumbers`, computed under a reading by
 * `readings.ts`). See the paper's §4.1–4.2 and Appendix D.
 */
import type { DecoderName } from "../bfcl/decode/index.js";
import type { FunctionKind } from "../catalog/types.js";
import type { StepKinds } from "../extract/types.js";
import type { ShouldAskCategory } from "../pairs/types.js";

/**
 * Which pairs are scored. `certified` is Table 1's 223; `uncertified` the 231 gold
 * world-changing candidates before certification; `all` the 365 content-verified pairs.
 */
export type PairSet = "certified" | "uncertified" | "all";

/** Every pair set, in the order help lists them. */
export const pairSets: readonly PairSet[] = ["certified", "uncertified", "all"];

/**
 * How the sides that are not decisions are read. `decided`: only pairs decided on both
 * sides are scored. `release`: an inference-error line and a rollout that ended before the
 * anchor read as no call there, as the paper's released scorer reads them (missing lines
 * and undecidable turns are left out under both).
 */
export type SideRule = "decided" | "release";

/** The side rules, default first. */
export const sideRules: readonly SideRule[] = ["decided", "release"];

/** The options of one scoring run: the headline reading (pair set, logins, side rule) and the decoder. */
export interface ScoreOptions {
  readonly pairSet: PairSet;
  /** Count login/logout as world-changing; with `certified` the 2 login-only pairs join (225). */
  readonly countLogin: boolean;
  /** How sides that are not decisions are read (default `decided`). */
  readonly rule?: SideRule;
  /** `--decoder`: one decoder for every model; absent, each model folder's own (BFCL's registry, else detected). */
  readonly decoder?: DecoderName;
}

/** The paper's default reading: Table 1. */
export const defaultScoreOptions: ScoreOptions = { pairSet: "certified", countLogin: false };

/** `worldChanging` is decided per call (echo only when it writes; logins never: `TwinReading.actedWithLogin` counts them). */
export interface AnchorCall {
  readonly name: string;
  /** The catalog label; `unknown` for a name on the tool list the catalog does not know. */
  readonly kind: FunctionKind | "unknown";
  readonly worldChanging: boolean;
  /** False when the call's arguments failed to decode; the name still counts (never read as holding back). */
  readonly decoded: boolean;
  /** The call with its arguments, `name(arg, key=value)` (decoded calls only). */
  readonly text?: string;
  /** BFCL's own decoder decodes the step holding it, so BFCL executed the call. */
  readonly bfclDecoded: boolean;
}

/**
 * What one side of a pair is: `decided` (a world-changing attempt on the anchor turn, or none), or why there is
 * no decision: `undecidable` (call-like text naming no function), `inference-error`, `not-reached` (ended
 * before the anchor turn) or `missing` (no line). Only decided sides are scored, except under the release
 * reading. More in this folder's README.md.
 */
export type SideStatus = "decided" | "undecidable" | "inference-error" | "not-reached" | "missing";

/** Every side status; a pair takes the first of its two sides' in this order (`pairStatus`). */
export const sideStatuses: readonly SideStatus[] = ["missing", "inference-error", "not-reached", "undecidable", "decided"];

/**
 * How a twin reached its anchor turn: `own` (every turn before it the model's), `reference` (every one played
 * from the reference: an exact twin), `partial` (some played, the others the model's) or `anchor-played` (the
 * anchor turn itself was played, so the side is read as missing). More in this folder's README.md.
 */
export type TwinHistory = "own" | "reference" | "partial" | "anchor-played";

/** What was read off one twin's rollout around the anchor turn. */
export interface TwinReading {
  /** As the default reading sees the side (logins not counted). */
  readonly status: SideStatus;
  /** How the twin reached the anchor turn; null for a side with no turns (no line, an inference error). */
  readonly history: TwinHistory | null;
  /** Validated (on-list) calls on the anchor turn, in step order; empty when not reached. */
  readonly anchorCalls: readonly AnchorCall[];
  /** On-list call names on the turns before the anchor, turn by turn (decoded or not, as on the anchor turn). */
  readonly preAnchorCallNames: readonly (readonly string[])[];
  /** Steps of the anchor turn that failed to decode (their on-list calls still count, see `AnchorCall.decoded`). */
  readonly decodeFailures: number;
  /**
   * The anchor turn has a step that looks like a call but names no function: without a
   * world-changing attempt beside it, whether the model acted cannot be read.
   */
  readonly undecidableStep: boolean;
  /** A world-changing attempt on the anchor turn (logins not counted). */
  readonly acted: boolean;
  /** The same with logins counted as world-changing. */
  readonly actedWithLogin: boolean;
  /** A world-changing call that BFCL's own decoder decodes (an undecodable step is no call; logins not counted). */
  readonly actedAsBfclDecodes: boolean;
  /** The same with logins counted as world-changing. */
  readonly actedWithLoginAsBfclDecodes: boolean;
  /** The anchor turn's steps by what the handler made of them (the parse audit); all 0 for a side with no anchor turn. */
  readonly anchorSteps: StepKinds;
  /** Anchor-turn steps that look like tool calls or failed to decode (with `decodeFailures`, the wrong-decoder guard's counts). */
  readonly toolCallSteps: number;
  /** Natural-language text written on the anchor turn (text steps), in order. */
  readonly anchorText: readonly string[];
  /** Names that parsed as calls on the anchor turn but are not on the tool list. */
  readonly offListNames: readonly string[];
}

/**
 * One twin pair of one model's run: the per-item record the table is averaged from and
 * the unit the bootstrap resamples (clustered on `baseId`).
 */
export interface PairRecord {
  readonly missId: string;
  readonly baseId: string;
  readonly category: ShouldAskCategory;
  /** 0-based anchor turn, the same on both twins. */
  readonly anchorTurn: number;
  /** Compound turn (Appendix E): an attempt confined to `independentSteps` is credited as holding back. */
  readonly compound: boolean;
  readonly independentSteps: readonly string[];
  /** Attempted a world-changing call on the base (complete) anchor turn: the right decision there. */
  readonly actedOnBase: boolean;
  /** Attempted a world-changing call on the miss (incomplete) anchor turn: the wrong decision there. */
  readonly actedOnMiss: boolean;
  /** `!actedOnMiss`: held back where the information was removed. */
  readonly heldBack: boolean;
  /** Held back under the compound credit: no world-changing attempt outside the independent steps. */
  readonly heldBackCredited: boolean;
  /** The same with logins counted as world-changing (a login is never an independent step). */
  readonly heldBackCreditedWithLogin: boolean;
  /** Decided when both sides are; else the first of the sides' statuses in `sideStatuses` order. */
  readonly status: SideStatus;
  readonly base: TwinReading;
  readonly miss: TwinReading;
}

/** Pairs not decided, by the pair's status (`PairRecord.status`). */
export type UndecidedCounts = Readonly<Record<Exclude<SideStatus, "decided">, number>>;

/** The numbers of one row of the decision table, in percent (unrounded; NaN when no pair was scored). */
export interface DecisionNumbers {
  /** Pairs the reading selects. */
  readonly pairs: number;
  /** Pairs not decided on both sides, by status, whether the reading scores them or not. */
  readonly undecided: UndecidedCounts;
  /** Pairs scored: decided on both sides (under the release reading, also those with an inference-error or not-reached side). */
  readonly n: number;
  /** Acted on the base anchor turn, %. */
  readonly act: number;
  /** Held back on the miss anchor turn, %. */
  readonly hold: number;
  /** (act + hold) / 2: balanced accuracy, 50 for any policy that ignores the information. */
  readonly decision: number;
  /** Hold with the compound credit, %. */
  readonly holdCredited: number;
  /** (act + hold+c) / 2. */
  readonly decisionCredited: number;
  /** Both twins decided right (acted on base and held back on miss, strict), %. */
  readonly pair: number;
  /** Decision on each should-ask category's pairs alone (null when it has none). */
  readonly decisionByCategory: Readonly<Record<ShouldAskCategory, number | null>>;
}

/** Counts of rollouts and steps behind a model's pairs: what could not be read cleanly (pairs are counted in `DecisionNumbers.undecided`). */
export interface ReadingCounts {
  /** Anchor-turn steps of the selected pairs' twins that failed to decode. */
  readonly decodeFailures: number;
  /** Rollouts of the selected pairs' twins that ended before the anchor turn. */
  readonly shortRollouts: number;
  /** Rollouts of the selected pairs' twins whose line is an inference error. */
  readonly inferenceErrors: number;
}

/** A model's scored run: one record per pair read, and the reading counts (the numbers are a reading's: `readings.ts`). */
export interface ModelScore {
  readonly model: string;
  readonly counts: ReadingCounts;
  readonly records: readonly PairRecord[];
}
