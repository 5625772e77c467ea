/**
 * One model measured over repeated trials (`score --trials-of DIR…`): each trial is scored as `score` scores a
 * model, and the trials are combined pair by pair. More in this folder's README.md.
 */
import type { ReadingSelection } from "../decision/readings.js";
import {
  pairFlipRate,
  sampleStandardDeviation,
  trialClusters,
  trialMeans,
  trialStability,
  twoLevelIntervals,
  type BootstrapOptions,
  type Interval,
  type TrialPair,
} from "../stats/index.js";

/** One pair's outcomes across the trials, and how often they flip. */
export interface PairTrials {
  readonly missId: string;
  readonly baseId: string;
  /** Trials in which the pair is decided. */
  readonly trials: number;
  /** Trials in which the model acted on the base twin / held back on the should-ask twin. */
  readonly acted: number;
  readonly held: number;
  /** Per decided trial, in trial order: acted on the base twin, held back on the should-ask twin. */
  readonly act: readonly boolean[];
  readonly hold: readonly boolean[];
  /** Share (%) of the pair's trial pairs whose outcome (act, hold) differs; null with one trial. */
  readonly flipRate: number | null;
}

/** The repeated-trial numbers of one model. Percentages unrounded. */
export interface TrialsSummary {
  /** The model, as its first trial is named. */
  readonly model: string;
  /** The trials' own labels (folder names, or `<run>/<model>`), in trial order. */
  readonly runs: readonly string[];
  readonly trials: number;
  /** Pairs decided in at least one trial. */
  readonly pairs: number;
  /** Means over each pair's trials, then over pairs. */
  readonly act: number;
  readonly hold: number;
  readonly decision: number;
  /** Two-level bootstrap (base twins, then the trials within each pair): 95% intervals; null without resamples. */
  readonly ci95: Interval | null;
  readonly actCi95: Interval | null;
  readonly holdCi95: Interval | null;
  /** Pairs decided in at least two trials: the ones a flip can be seen on. */
  readonly pairsWithTrials: number;
  /** Mean flip rate over those pairs (%), null without such pairs. */
  readonly meanFlipRate: number | null;
  /** Share (%) of those pairs with the same outcome in every trial. */
  readonly stableShare: number | null;
  /** Each trial's decision as `score` reports it for that run alone. */
  readonly decisionByTrial: readonly number[];
  /** Sample standard deviation of `decisionByTrial` (null with one trial). */
  readonly decisionSpread: number | null;
  /** Per pair, in manifest order. */
  readonly pairRows: readonly PairTrials[];
}

/** One trial as scored: the selection of its headline and its decision. */
export interface ScoredTrial {
  readonly label: string;
  readonly selection: ReadingSelection;
  readonly decision: number;
}

/** The pairs' outcomes across trials, in the order the first trial lists its pairs (manifest order). */
export function trialPairsOf(trials: readonly ScoredTrial[]): TrialPair[] {
  const byId = new Map<string, { cluster: string; act: boolean[]; hold: boolean[] }>();
  for (const t of trials) {
    for (const s of t.selection.scored) {
      let p = byId.get(s.record.missId);
      if (p === undefined) {
        p = { cluster: s.record.baseId, act: [], hold: [] };
        byId.set(s.record.missId, p);
      }
      p.act.push(s.act);
      p.hold.push(s.hold);
    }
  }
  return [...byId].map(([id, p]) => ({ id, ...p }));
}

/** Combine K scored trials of one model into its repeated-trial numbers. */
export function trialsSummary(model: string, trials: readonly ScoredTrial[], bootstrap: BootstrapOptions): TrialsSummary {
  const pairs = trialPairsOf(trials);
  const means = trialMeans(pairs);
  const stability = trialStability(pairs);
  const intervals = bootstrap.resamples > 0 && pairs.length > 0 ? twoLevelIntervals(trialClusters(pairs), bootstrap) : null;
  const decisionByTrial = trials.map((t) => t.decision);
  return {
    model,
    runs: trials.map((t) => t.label),
    trials: trials.length,
    pairs: pairs.length,
    act: means.act,
    hold: means.hold,
    decision: means.decision,
    ci95: intervals?.decision ?? null,
    actCi95: intervals?.act ?? null,
    holdCi95: intervals?.hold ?? null,
    pairsWithTrials: stability.pairsWithTrials,
    meanFlipRate: stability.meanFlipRate,
    stableShare: stability.stableShare,
    decisionByTrial,
    decisionSpread: sampleStandardDeviation(decisionByTrial),
    pairRows: pairs.map((p) => ({
      missId: p.id,
      baseId: p.cluster,
      trials: p.act.length,
      acted: p.act.filter(Boolean).length,
      held: p.hold.filter(Boolean).length,
      act: p.act,
      hold: p.hold,
      flipRate: pairFlipRate(p),
    })),
  };
}
