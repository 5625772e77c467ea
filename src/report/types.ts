/**
 * Everything the HTML report shows, gathered by `report/assemble.ts` from the scorer, the official
 * companion and `compare` before rendering. Rendering is a pure function of this value,
 * so the same inputs give a byte-identical file.
 */
import type { ShouldAskCategory } from "../bfcl/categories.js";
import type { PairSet, SideRule, SideStatus, UndecidedCounts } from "../decision/types.js";
import type { BfclDecodedReading } from "../decision/readings.js";

import type { AlignedRow } from "../official/aligned.js";
import type { EmptyTurnRow } from "../official/empty-turns.js";

/** One model's row of Table 1 and its companions. */
export interface ReportModel {
  /** Display name (the result directory name, prefixed with the run when several runs are shown). */
  readonly name: string;
  /** The run (result tree) the model came from, and its directory name there. */
  readonly run: string;
  readonly model: string;
  /** Pairs scored under the reading. */
  readonly n: number;
  /** Table 1's pairs, and those not decided on both sides by status. */
  readonly pairs: number;
  readonly undecided: UndecidedCounts;
  /** Why the model's act, hold and decision are not shown (NaN then), with the fix; null when they are. */
  readonly noHeadline: string | null;
  /** When its lines played the turns before the anchor from the reference (`run --history reference`): Table 1's pairs, and how many of them are exact twins; absent for a model's own history. */
  readonly exactTwins?: { readonly exact: number; readonly pairs: number };
  readonly act: number;
  readonly hold: number;
  readonly decision: number;
  /** 95% cluster-bootstrap interval of decision, or null when bootstrap is off. */
  readonly decisionInterval: readonly [number, number] | null;
  readonly holdCredited: number;
  readonly decisionCredited: number;
  /** Decision with workarounds and compound turns credited (needs BFCL data), or null. */
  readonly credited: number | null;
  /** Table F1: miss_func attempts on the withheld turn replayed on the simulated classes (needs BFCL data), or null. */
  readonly workaround: {
    readonly attempts: number;
    readonly removed: number;
    readonly aligned: number;
    readonly workarounds: number;
    readonly noOpExcluded: number;
    /** Decision with credited workarounds counted as holding back (no compound credit). */
    readonly accWorkaround: number;
  } | null;
  readonly byCategory: Readonly<Record<ShouldAskCategory, number>>;
  /** Official raw accuracy on the scored should-ask items, or null without score files. */
  readonly officialMiss: number | null;
  /** Official raw accuracy on their distinct base twins, or null without score files. */
  readonly officialBase: number | null;
  /** Passes among the scored should-ask items, and the share of those with a world-changing attempt on the anchor (and the same for fails). */
  readonly verdictVsAttempt: {
    readonly passes: number;
    readonly passAttempt: number | null;
    readonly fails: number;
    readonly failAttempt: number | null;
  } | null;
  /** What could not be read cleanly on the scored pairs. */
  readonly counts: { readonly shortRollouts: number; readonly inferenceErrors: number; readonly decodeFailures: number };
  /** The aligned numbers on Table 1's pairs (needs BFCL data): the withheld twin's cells, base acted and completed, the aligned pair score with its interval; or null. */
  readonly aligned: AlignedRow | null;
  /** Only when its decision as BFCL decodes the steps differs from the headline's by a point or more: that reading's act, hold and decision, shown beside it. */
  readonly bfclDecoded?: BfclDecodedReading;
}

/** A sensitivity variant: one decision accuracy per model. */
export interface ReportSensitivity {
  readonly name: string;
  readonly description: string;
  /** Pairs per model (may differ between models for history-based variants). */
  readonly n: Readonly<Record<string, number>>;
  readonly decision: Readonly<Record<string, number>>;
}

/** Where held-back should-ask items that fail officially were lost, per model. */
export interface ReportLostWhere {
  readonly model: string;
  readonly beforeAnchor: number;
  readonly laterEmptyTurn: number;
  readonly laterDiverged: number;
  /** On the anchor itself (never, the checker skips it) or with no failing turn (inference error, force-quit). */
  readonly other: number;
  /** All held-back should-ask items that fail officially. */
  readonly heldBackFailed: number;
}

/** A call as the browser shows it. */
export interface ReportCall {
  readonly text: string;
  readonly kind: "world-changing" | "read" | "login" | "off-list";
  /** The arguments failed to decode: the call still counts by its name. */
  readonly undecoded?: boolean;
}

/** One twin's anchor turn as one model played it. */
export interface ReportSide {
  /** A decision, or why there is none to read (an inference-error line, a rollout that ended before the anchor, a missing line, an undecidable turn). */
  readonly status: SideStatus;
  /** Whether the side enters the numbers under the reading (under `release`, an inference error or a short rollout does, as no call). */
  readonly scored: boolean;
  readonly acted: boolean;
  readonly calls: readonly ReportCall[];
  readonly text: readonly string[];
  readonly decodeFailures: number;
  /** Official verdict of the whole item, or null without score files. */
  readonly verdict: "pass" | "fail" | null;
  /** For a fail: BFCL's error type and the turn it failed on. */
  readonly verdictDetail: string | null;
}

/** How a model did on one pair; `undecided` when the pair is not scored (a side with no decision). */
export type PairOutcome = "both-right" | "acted-on-withheld" | "held-on-complete" | "both-wrong" | "undecided";

/** One scored pair, with every model's two anchor turns. */
export interface ReportPair {
  readonly missId: string;
  readonly baseId: string;
  readonly category: ShouldAskCategory;
  readonly anchorTurn: number;
  readonly requestBase: string;
  readonly requestMiss: string;
  readonly removedFunctions: readonly string[];
  readonly goldAnchorCalls: readonly string[];
  readonly compound: boolean;
  readonly perModel: Readonly<
    Record<
      string,
      {
        readonly base: ReportSide;
        readonly miss: ReportSide;
        readonly outcome: PairOutcome;
        /** BFCL's checker on the turn prefixes (needs BFCL data): the base twin through T, the withheld twin through T+1; or null. */
        readonly completed: { readonly base: boolean; readonly miss: boolean } | null;
      }
    >
  >;
}

/** One bar pair of a compare panel. */
export interface ReportArmValue {
  readonly label: string;
  readonly a: number;
  readonly b: number;
  /** Interval of b − a where one exists. */
  readonly deltaInterval?: readonly [number, number] | null;
  /** Exact McNemar p of the change, where one exists. */
  readonly p?: number | null;
  /** Items behind the two shares. */
  readonly n: number;
}

/** The paper's Figure 2 for one model: arm A against arm B. */
export interface ReportCompare {
  readonly model: string;
  readonly labelA: string;
  readonly labelB: string;
  /** Share of under-specified turns with a world-changing attempt, per category. */
  readonly attempt: readonly ReportArmValue[];
  /** Official score per category (needs score files). */
  readonly official: readonly ReportArmValue[];
  /** Decision accuracy on the pairs (with the interval of the change), then act and hold (with McNemar p). */
  readonly decision: readonly ReportArmValue[];
  /** The aligned pair score (with the interval of the change and McNemar p), then the withheld twin's cells and base acted+done (needs BFCL data; empty without). */
  readonly aligned: readonly ReportArmValue[];
  /** Per category, BFCL's checker, the strict and the world-changing reading of the empty-reference turns (needs BFCL data; empty without). */
  readonly emptyTurns: readonly ReportArmValue[];
}

/** Judge label shares per model, when a labels file is given. */
export interface ReportJudge {
  readonly model: string;
  readonly heldBack: number;
  /** Held back only because the rollout never reached the anchor: no turn to read. */
  readonly notReached: number;
  readonly silent: number;
  readonly labelled: number;
  readonly shares: Readonly<Record<string, number>>;
}

/** One pair across the trials of `--trials-of`: in how many trials it is decided, and how often its outcome flips. */
export interface ReportPairTrials {
  readonly missId: string;
  readonly trials: number;
  /** Trials in which the model acted on the base twin / held back on the withheld one. */
  readonly acted: number;
  readonly held: number;
  /** Share (%) of the pair's trial pairs whose outcome (act, hold) differs; null with one trial. */
  readonly flipRate: number | null;
}

/** One model measured over repeated trials (`report --trials-of`): the numbers `score --trials-of` gives. */
export interface ReportTrials {
  readonly model: string;
  /** The trials' labels, in trial order. */
  readonly runs: readonly string[];
  readonly trials: number;
  readonly pairs: number;
  /** Means over each pair's trials, then over pairs. */
  readonly act: number;
  readonly hold: number;
  readonly decision: number;
  /** Two-level bootstrap (base twins, then each pair's trials); null without resamples. */
  readonly ci95: readonly [number, number] | null;
  /** Pairs decided in at least two trials, their mean flip rate and the share with one outcome in every trial (%). */
  readonly pairsWithTrials: number;
  readonly meanFlipRate: number | null;
  readonly stableShare: number | null;
  /** Each trial's decision, and their sample standard deviation (null with one trial). */
  readonly decisionByTrial: readonly number[];
  readonly decisionSpread: number | null;
  readonly pairRows: readonly ReportPairTrials[];
}

/** The whole report. */
export interface ReportData {
  readonly title: string;
  /** How sides that are not decisions were read. */
  readonly rule: SideRule;
  /** Bootstrap behind every interval (resamples 0: none). */
  readonly bootstrap: { readonly resamples: number; readonly seed: number };
  /** Pairs per category on Table 1 and distinct base twins (the cluster unit). */
  readonly pairCounts: Readonly<Record<ShouldAskCategory, number>> & { readonly total: number; readonly baseTwins: number };
  /** The inputs, listed in the report's footer (paths as given). */
  readonly sources: readonly string[];
  readonly models: readonly ReportModel[];
  readonly sensitivities: readonly ReportSensitivity[];
  readonly lostWhere: readonly ReportLostWhere[];
  readonly pairs: readonly ReportPair[];
  readonly compare: readonly ReportCompare[];
  /** Models of both compared runs left out of the paired arms because a run gives them no headline (the short reason). */
  readonly compareSkipped?: readonly { readonly model: string; readonly why: string }[];
  readonly judge: readonly ReportJudge[];
  /** The skipped turn scored: BFCL's score, the strict and the world-changing counterfactual per category and model, with rankings (needs BFCL data; empty without). */
  readonly emptyTurns: readonly EmptyTurnRow[];
  /** What made the page: the twinscore version, the manifest's digest, and what each model's run is where `twinscore run` recorded it. */
  readonly provenance?: {
    readonly twinscoreVersion: string;
    readonly manifestSha256: string;
    readonly runs: readonly { readonly model: string; readonly run: string }[];
  };
  /** The pair set of the headline and the pair browser when it is not Table 1's (`--uncertified`, `--all-pairs`, `--count-login`); absent for Table 1. */
  readonly pairSet?: { readonly set: PairSet; readonly countLogin: boolean };
  /** With `--trials-of`: the model over its trials, and each pair's flip rate; absent otherwise. */
  readonly trials?: ReportTrials;
}
