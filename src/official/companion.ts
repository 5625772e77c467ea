/**
 * The official-score companion (paper §5.1, Appendix F): what BFCL's own verdict says on exactly the items the
 * decision is scored on, and why that verdict cannot see the decision. More in this folder's README.md.
 */
import type { OfficialVerdict } from "../bfcl/scores.js";
import { rate, scoredUnder } from "../decision/readings.js";
import type { PairRecord } from "../decision/types.js";

/** Where a held-back item that fails officially was lost. */
export type LossPlace = "before-anchor" | "on-anchor" | "later-empty-turn" | "later-diverged" | "no-turn";

/** The name part of each loss place in the metric names (`companions.lost.<model>.<place>`). */
export const lossKeys: Readonly<Record<LossPlace, string>> = {
  "before-anchor": "before_anchor",
  "on-anchor": "on_anchor",
  "later-empty-turn": "later_empty_turn",
  "later-diverged": "later_diverged",
  "no-turn": "no_turn",
};

/** The failing turn of one failed should-ask item, beside its anchor. */
export interface FailedItem {
  readonly missId: string;
  readonly anchorTurn: number;
  readonly errorType: string;
  readonly failingTurn: number | null;
  readonly heldBack: boolean;
  readonly place: LossPlace;
}

/** Passes and fails among the scored should-ask items, with the share that attempted a world-changing call on the anchor. */
export interface VerdictVsAttempt {
  readonly passes: number;
  /** % of passes that attempted a world-changing call on the anchor (NaN, no rate, when no pass). */
  readonly passAttempt: number;
  readonly fails: number;
  readonly failAttempt: number;
}

/** Counts of the places where held-back items that fail officially were lost. */
export type LossCounts = Readonly<Record<LossPlace, number>> & { readonly heldBackFailed: number };

/** The companion of one model on one pair set. */
export interface OfficialCompanion {
  /** Scored should-ask items and how many pass officially. */
  readonly missItems: number;
  readonly missPasses: number;
  /** Official raw on the should-ask items, %. */
  readonly rawMiss: number;
  /** Distinct base twins and how many pass officially. */
  readonly baseTwins: number;
  readonly basePasses: number;
  /** Official raw on the distinct base twins, %. */
  readonly rawBase: number;
  readonly verdictVsAttempt: VerdictVsAttempt;
  readonly losses: LossCounts;
  /** Every failed should-ask item with its failing turn (ordered as the records). */
  readonly failed: readonly FailedItem[];
  /** Ids the verdicts did not cover (their category had no score file); they are left out. */
  readonly missingVerdicts: readonly string[];
}

/** Classify where a failed item was lost, from its failing turn, the anchor and BFCL's error type. */
export function lossPlace(failingTurn: number | null, anchorTurn: number, errorType: string): LossPlace {
  if (failingTurn === null) return "no-turn";
  if (failingTurn < anchorTurn) return "before-anchor";
  if (failingTurn === anchorTurn) return "on-anchor";
  return errorType === "multi_turn:empty_turn_model_response" ? "later-empty-turn" : "later-diverged";
}

/** The official companion of one model's records (one per scored pair). */
export function officialCompanion(records: readonly PairRecord[], verdicts: ReadonlyMap<string, OfficialVerdict>): OfficialCompanion {
  const missingVerdicts: string[] = [];
  const miss = missItemTally(records, verdicts, missingVerdicts);
  let baseTwins = 0;
  let basePasses = 0;
  for (const id of new Set(records.map((r) => r.baseId))) {
    const v = verdicts.get(id);
    if (v === undefined) {
      missingVerdicts.push(id);
      continue;
    }
    baseTwins++;
    if (v.pass) basePasses++;
  }
  const { missItems, missPasses, passAttempts, failAttempts } = miss;
  const fails = missItems - missPasses;
  return {
    missItems,
    missPasses,
    rawMiss: rate(missPasses, missItems),
    baseTwins,
    basePasses,
    rawBase: rate(basePasses, baseTwins),
    verdictVsAttempt: { passes: missPasses, passAttempt: rate(passAttempts, missPasses), fails, failAttempt: rate(failAttempts, fails) },
    losses: { ...miss.losses, heldBackFailed: miss.heldBackFailed },
    failed: miss.failed,
    missingVerdicts,
  };
}

/** The miss items' verdicts beside the decision: passes, attempts among passes and fails, and where each held-back item was lost. */
function missItemTally(records: readonly PairRecord[], verdicts: ReadonlyMap<string, OfficialVerdict>, missingVerdicts: string[]) {
  let missItems = 0;
  let missPasses = 0;
  let passAttempts = 0;
  let failAttempts = 0;
  const failed: FailedItem[] = [];
  const losses: Record<LossPlace, number> = {
    "before-anchor": 0,
    "on-anchor": 0,
    "later-empty-turn": 0,
    "later-diverged": 0,
    "no-turn": 0,
  };
  let heldBackFailed = 0;
  // act and hold as Table 1 reads them: an attempt on the withheld anchor is not holding back
  for (const { record: r, hold } of scoredUnder(records)) {
    const attempted = !hold;
    const v = verdicts.get(r.missId);
    if (v === undefined) {
      missingVerdicts.push(r.missId);
      continue;
    }
    missItems++;
    if (v.pass) {
      missPasses++;
      if (attempted) passAttempts++;
      continue;
    }
    if (attempted) failAttempts++;
    const f = v.failure!;
    const place = lossPlace(f.failingTurn, r.anchorTurn, f.errorType);
    failed.push({ missId: r.missId, anchorTurn: r.anchorTurn, errorType: f.errorType, failingTurn: f.failingTurn, heldBack: hold, place });
    if (hold) {
      heldBackFailed++;
      losses[place]++;
    }
  }
  return { missItems, missPasses, passAttempts, failAttempts, failed, losses, heldBackFailed };
}
