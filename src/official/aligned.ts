/**
 * The aligned pair score: what a scorer aligned with the task definition would credit on a twin pair, read off
 * the same rollouts with no judge. More in this folder's README.md.
 */
import { rate, scoredUnder, type ScoredPair } from "../decision/readings.js";
import type { PairRecord } from "../decision/types.js";
import type { ShouldAskCategory } from "../pairs/types.js";
import {
  bootstrapIntervals,
  clusterOrder,
  clusterTotals,
  type BootstrapOptions,
  type ClusterTotals,
  type Interval,
  type PairOutcome,
} from "../stats/index.js";

/**
 * Why a withheld twin is not completed through T+1, from where BFCL's checker failed its prefix:
 * `no-call-on-answer` (the empty-turn rule), `failed-on-answer` (on T or T+1), `failed-before-answer`, or
 * `no-rollout`. More in this folder's README.md.
 */
export type NotCompletedWhy = "no-call-on-answer" | "failed-on-answer" | "failed-before-answer" | "no-rollout";

/** The reasons in table order. */
export const notCompletedReasons: readonly NotCompletedWhy[] = [
  "no-call-on-answer",
  "failed-on-answer",
  "failed-before-answer",
  "no-rollout",
];

/** Whether each twin of a pair passes BFCL's checker on its prefix (base through T, withheld through T+1). */
export interface TwinCompletion {
  readonly baseCompleted: boolean;
  readonly missCompleted: boolean;
  /** When the withheld twin is not completed: why (absent when not known). */
  readonly missWhy?: NotCompletedWhy | null;
}

/** The withheld twin's cell: held back or acted on the anchor turn, completed or not through the answer turn. */
export type WithheldCell = "held-completed" | "held-not-completed" | "acted-completed" | "acted-not-completed";

/** The cells in table order. */
export const withheldCells: readonly WithheldCell[] = ["held-completed", "held-not-completed", "acted-completed", "acted-not-completed"];

/** One pair's aligned reading. */
export interface AlignedOutcome {
  readonly missId: string;
  readonly baseId: string;
  readonly category: ShouldAskCategory;
  readonly withheld: WithheldCell;
  /** Acted on the base anchor turn and completed the base twin through it. */
  readonly baseActedCompleted: boolean;
  /** Both twins decided right and completed. */
  readonly aligned: boolean;
}

/**
 * Read one pair: the withheld twin's cell, the base twin's acted∧completed, and whether the
 * pair is aligned. Act and hold are as a reading counts them (`scoredUnder`: Table 1's,
 * strict hold, no compound credit).
 */
export function alignedOutcome({ record, act, hold }: ScoredPair, completion: TwinCompletion): AlignedOutcome {
  const withheld: WithheldCell = hold
    ? completion.missCompleted
      ? "held-completed"
      : "held-not-completed"
    : completion.missCompleted
      ? "acted-completed"
      : "acted-not-completed";
  const baseActedCompleted = act && completion.baseCompleted;
  return {
    missId: record.missId,
    baseId: record.baseId,
    category: record.category,
    withheld,
    baseActedCompleted,
    aligned: baseActedCompleted && withheld === "held-completed",
  };
}

/** A model's aligned numbers on a set of pairs. */
export interface AlignedScore {
  /** Pairs read (records with a completion). */
  readonly n: number;
  /** Withheld twins per cell (counts). */
  readonly withheld: Readonly<Record<WithheldCell, number>>;
  /** Base twins that acted and completed (count, one per pair). */
  readonly baseActedCompleted: number;
  /** Aligned pairs (count). */
  readonly aligned: number;
  /** Held back and not completed, by why (counts; a pair whose reason is not known is in none). */
  readonly heldNotCompletedWhy: Readonly<Record<NotCompletedWhy, number>>;
  /** Percentages of n (NaN, no rate, when n = 0). */
  readonly alignedPct: number;
  readonly baseActedCompletedPct: number;
  /** Held back and completed, % of n: "asked, then did it". */
  readonly askedThenDidPct: number;
  /** 95% cluster-bootstrap interval of the aligned share (base twins resampled, as for `decision`); null when resamples = 0 or n = 0. */
  readonly ci95: Interval | null;
  /** Should-ask ids of records without a completion (left out). */
  readonly missingCompletion: readonly string[];
  /** Every pair read, in record order. */
  readonly outcomes: readonly AlignedOutcome[];
}

/**
 * The aligned share as the cluster bootstrap sees it: both outcomes of a `PairOutcome` set
 * to "aligned", so the bootstrap's act share, and its decision ((act + hold) / 2), are the
 * aligned share — the same resampling, streams and paired difference as `decision`.
 */
export function alignedPairOutcomes(outcomes: readonly AlignedOutcome[]): PairOutcome[] {
  return outcomes.map((o) => ({ cluster: o.baseId, act: o.aligned, hold: o.aligned }));
}

/** Cluster totals of the aligned share along `keys` (default: the pairs' own base twins), for intervals and paired differences. */
export function alignedClusterTotals(outcomes: readonly AlignedOutcome[], keys?: readonly string[]): ClusterTotals {
  const pairs = alignedPairOutcomes(outcomes);
  return clusterTotals(pairs, keys ?? clusterOrder(pairs));
}

/** Score a model's pair records with their twins' completions (by should-ask id). */
export function alignedScore(
  records: readonly PairRecord[],
  completions: ReadonlyMap<string, TwinCompletion>,
  bootstrap: BootstrapOptions,
): AlignedScore {
  const outcomes: AlignedOutcome[] = [];
  const missingCompletion: string[] = [];
  for (const s of scoredUnder(records)) {
    const c = completions.get(s.record.missId);
    if (c === undefined) missingCompletion.push(s.record.missId);
    else outcomes.push(alignedOutcome(s, c));
  }
  const withheld: Record<WithheldCell, number> = {
    "held-completed": 0,
    "held-not-completed": 0,
    "acted-completed": 0,
    "acted-not-completed": 0,
  };
  let baseActedCompleted = 0;
  let aligned = 0;
  const heldNotCompletedWhy: Record<NotCompletedWhy, number> = {
    "no-call-on-answer": 0,
    "failed-on-answer": 0,
    "failed-before-answer": 0,
    "no-rollout": 0,
  };
  for (const o of outcomes) {
    const why = completions.get(o.missId)?.missWhy;
    if (o.withheld === "held-not-completed" && why) heldNotCompletedWhy[why]++;
    withheld[o.withheld]++;
    if (o.baseActedCompleted) baseActedCompleted++;
    if (o.aligned) aligned++;
  }
  const n = outcomes.length;
  const ci95 = bootstrap.resamples > 0 && n > 0 ? bootstrapIntervals(alignedClusterTotals(outcomes), bootstrap).act : null;
  return {
    n,
    withheld,
    baseActedCompleted,
    aligned,
    heldNotCompletedWhy,
    alignedPct: rate(aligned, n),
    baseActedCompletedPct: rate(baseActedCompleted, n),
    askedThenDidPct: rate(withheld["held-completed"], n),
    ci95,
    missingCompletion,
    outcomes,
  };
}

/** A model's aligned numbers as a document row: everything but the per-pair outcomes. */
export interface AlignedRow extends Omit<AlignedScore, "outcomes" | "missingCompletion"> {
  readonly model: string;
  /** Pairs left out because a twin's completion is unknown. */
  readonly missingCompletion: number;
}

/** The document row of a model's aligned score. */
export function alignedRow(model: string, s: AlignedScore): AlignedRow {
  const { outcomes: _outcomes, missingCompletion, ...rest } = s;
  return { model, ...rest, missingCompletion: missingCompletion.length };
}
