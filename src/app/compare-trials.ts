/**
 * Two arms measured over repeated trials (`compare --trials-a DIR… --trials-b DIR…`): each arm scored as
 * `score --trials-of` scores it, and the change in decision read over the pairs both arms decided, with the
 * paired two-level interval. More in this folder's README.md.
 */
import { err, ok, problem, type Problem, type Result } from "../messages/index.js";
import {
  pairedTwoLevelDifference,
  trialClusters,
  trialMeans,
  type BootstrapOptions,
  type Interval,
  type TrialPair,
} from "../stats/index.js";
import { scoreRuns, type ScoreRequest } from "./score.js";
import type { PairTrials, TrialsSummary } from "./score-trials.js";

/** What to compare: each arm's trial folders, and the reading shared with `score`. */
export interface CompareTrialsRequest extends Omit<
  ScoreRequest,
  "results" | "trialsOf" | "scores" | "perItem" | "sensitivity" | "aligned" | "bfclData"
> {
  readonly a: readonly string[];
  readonly b: readonly string[];
}

/** The comparison: each arm over its trials, and the change over the pairs both decided. */
export interface TrialsComparisonDocument {
  readonly command: "compare-trials";
  readonly bootstrap: BootstrapOptions;
  readonly a: TrialsSummary | null;
  readonly b: TrialsSummary | null;
  /** Pairs decided in at least one trial of each arm: the ones compared. */
  readonly pairs: number;
  /** Decision (means over trials) of each arm on those pairs, and B − A. */
  readonly decisionA: number | null;
  readonly decisionB: number | null;
  readonly change: number | null;
  /** Paired two-level 95% interval of the change; null without resamples or pairs. */
  readonly ci95: Interval | null;
  readonly problems: readonly Problem[];
  readonly exitCode: 0 | 1 | 2;
}

function trialPairOf(p: PairTrials): TrialPair {
  return { cluster: p.baseId, id: p.missId, act: p.act, hold: p.hold };
}

/** Each arm's pairs restricted to those both arms decided, in one order. */
export function commonTrialPairs(a: TrialsSummary, b: TrialsSummary): { a: TrialPair[]; b: TrialPair[] } {
  const inB = new Map(b.pairRows.map((p) => [p.missId, p]));
  const both = a.pairRows.filter((p) => inB.has(p.missId));
  return { a: both.map(trialPairOf), b: both.map((p) => trialPairOf(inB.get(p.missId)!)) };
}

/**
 * The paired change in decision between two arms' trials. Never throws on bad input:
 * problems are in the document.
 *
 * @example
 * import { compareTrials } from "twinscore";
 * const doc = await compareTrials({ a: ["runs/a1/m", "runs/a2/m"], b: ["runs/b1/m", "runs/b2/m"] });
 * console.log(doc.change, doc.ci95, doc.a?.meanFlipRate, doc.b?.meanFlipRate);
 */
export async function compareTrials(req: CompareTrialsRequest): Promise<TrialsComparisonDocument> {
  const { a: foldersA, b: foldersB, ...rest } = req;
  const [docA, docB] = [
    await scoreRuns({ ...rest, results: [], trialsOf: foldersA }),
    await scoreRuns({ ...rest, results: [], trialsOf: foldersB }),
  ];
  const problems = [...docA.problems.map((p) => armed("A", p)), ...docB.problems.map((p) => armed("B", p))];
  const empty = {
    command: "compare-trials" as const,
    bootstrap: docA.bootstrap,
    a: docA.trials,
    b: docB.trials,
    pairs: 0,
    decisionA: null,
    decisionB: null,
    change: null,
    ci95: null,
  };
  const compared = comparison(docA.trials, docB.trials, docA.bootstrap);
  if (!compared.ok) return { ...empty, problems: [...problems, ...compared.problems], exitCode: 2 };
  return { ...empty, ...compared.value, problems, exitCode: problems.some((p) => p.severity === "error") ? 1 : 0 };
}

function armed(arm: "A" | "B", p: Problem): Problem {
  return { ...p, message: `arm ${arm}: ${p.message}` };
}

function comparison(
  a: TrialsSummary | null,
  b: TrialsSummary | null,
  bootstrap: BootstrapOptions,
): Result<{ pairs: number; decisionA: number; decisionB: number; change: number; ci95: Interval | null }> {
  if (a === null || b === null) return err(problem("trials-missing", `no trials to compare in arm ${a === null ? "A" : "B"}`));
  const common = commonTrialPairs(a, b);
  if (common.a.length === 0) return err(problem("no-pairs", "the two arms have no decided pair in common"));
  const decisionA = trialMeans(common.a).decision;
  const decisionB = trialMeans(common.b).decision;
  const keys = [...new Set(common.a.map((p) => p.cluster))].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const ci95 =
    bootstrap.resamples > 0 ? pairedTwoLevelDifference(trialClusters(common.a, keys), trialClusters(common.b, keys), bootstrap) : null;
  return ok({ pairs: common.a.length, decisionA, decisionB, change: decisionB - decisionA, ci95 });
}
