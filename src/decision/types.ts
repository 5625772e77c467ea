/**
 * The scoring core's vocabulary: what is read off one twin pair of one model's run
 * (`PairRecord`, the unit the stats/companion code resamples), and the per-model
 * numbers of the decision table (`ModelScore`). See the paper's §4.1–4.2 and Appendix D.
 */
import type { DecoderName } from "../bfcl/decode/index.js";
import type { FunctionKind } from "../catalog/types.js";
import type { ShouldAskCategory } from "../pairs/types.js";

/**
 * Which pairs are scored. `certified` is Table 1's 223; `uncertified` the 231 gold
 * world-changing candidates before certification; `all` the 365 content-verified pairs.
 */
export type PairSet = "certified" | "uncertified" | "all";

/** The options of one scoring run: the paper's sensitivities (Appendix F). */
export interface ScoreOptions {
  readonly pairSet: PairSet;
  /** Count login/logout as world-changing; with `certified` the 2 login-only pairs join (225). */
  readonly countLogin: boolean;
  /** `--decoder`: one decoder for every model; absent, each model folder's own (BFCL's registry, else detected). */
  readonly decoder?: DecoderName;
}

/** The paper's default reading: Table 1. */
export const defaultScoreOptions: ScoreOptions = { pairSet: "certified", countLogin: false };

/** `world-changing` is decided per call (echo only when it writes; login per option). */
export interface AnchorCall {
  readonly name: string;
  /** The catalog label; `unknown` for a name on the tool list the catalog does not know. */
  readonly kind: FunctionKind | "unknown";
  readonly worldChanging: boolean;
  /** False when the call's arguments failed to decode; the name still counts (never read as holding back). */
  readonly decoded: boolean;
  /** The call with its arguments, `name(arg, key=value)` (decoded calls only). */
  readonly text?: string;
}

/** How far a rollout got: it reached the anchor turn, it ended before it, or the line is an inference error. */
export type RolloutReach = "reached" | "short" | "inference-error";

/** What was read off one twin's rollout around the anchor turn. */
export interface TwinReading {
  readonly reach: RolloutReach;
  /** Validated (on-list) calls on the anchor turn, in step order; empty when not reached. */
  readonly anchorCalls: readonly AnchorCall[];
  /** On-list call names on the turns before the anchor, turn by turn (decoded or not, as on the anchor turn). */
  readonly preAnchorCallNames: readonly (readonly string[])[];
  /** Steps of the anchor turn that failed to decode (their on-list calls still count, see `AnchorCall.decoded`). */
  readonly decodeFailures: number;
  /**
   * The anchor turn has a step that looks like a call but names no function, and no
   * world-changing attempt: whether the model acted cannot be read (the pair is left out).
   */
  readonly undecidable: boolean;
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
  /** A twin's anchor turn cannot be read (call-like text naming no function, no world-changing attempt): the pair is left out. */
  readonly undecidable: boolean;
  readonly base: TwinReading;
  readonly miss: TwinReading;
}

/** The numbers of one row of the decision table, in percent (unrounded; NaN when no pair was scored). */
export interface DecisionNumbers {
  /** Pairs scored. */
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

/** Counts that qualify a model's numbers: what could not be read cleanly. */
export interface ReadingCounts {
  /** Anchor-turn steps of scored rollouts that failed to decode. */
  readonly decodeFailures: number;
  /** Scored rollouts that ended before the anchor turn (scored as no call there). */
  readonly shortRollouts: number;
  /** Scored rollouts whose line is an inference error (scored as no call there). */
  readonly inferenceErrors: number;
  /** Pairs left out because a twin's line is absent from the result file. */
  readonly pairsMissingRollout: number;
  /** Pairs left out because a twin's anchor turn is undecidable (see `TwinReading.undecidable`). */
  readonly undecidablePairs: number;
}

/** A model's scored run: the table's numbers, the per-pair records and the reading counts. */
export interface ModelScore {
  readonly model: string;
  readonly numbers: DecisionNumbers;
  readonly counts: ReadingCounts;
  readonly records: readonly PairRecord[];
}
