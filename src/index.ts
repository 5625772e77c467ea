/**
 * twinscore as a library: the use cases behind the CLI's commands, with file access.
 * Each takes a typed request (paths resolved against `cwd`, default the process's) and
 * returns a typed document — every number as a number, the files used, the problems met
 * and the exit code the command would end with. None throws on bad input.
 *
 * The pure core (no file access: the scorer, the readers of result lines and score files,
 * the metrics, the report renderer) is `twinscore/core`.
 *
 * @example
 * import { scoreRuns } from "twinscore";
 * const doc = await scoreRuns({ results: ["runs/main"], bootstrap: { resamples: 0 } });
 * for (const m of doc.models) console.log(m.model, m.numbers?.decision);
 */
export { scoreRuns, type ScoreRequest, type ScoreDocument, type ScoredModel, type WorkaroundRow } from "./app/score.js";
export { type CheckRequest, type CheckDocument, type CheckedFile } from "./app/check.js";
export { compareArms, type CompareRequest, type CompareDocument } from "./app/compare.js";
export { compareTrials, type CompareTrialsRequest, type TrialsComparisonDocument } from "./app/compare-trials.js";
export type { TrialsSummary, PairTrials } from "./app/score-trials.js";
export { verifyExpected, type VerifyRequest, type VerifyDocument } from "./app/verify.js";
export { buildReport, type ReportRequest, type ReportDocument } from "./app/report.js";
export { readRun, type ReadRunRequest, type RunReading, type RunModel } from "./app/read.js";
export { runDemo, type DemoRequest, type DemoDocument, type DemoPolicy } from "./app/demo.js";
export { buildPairs, type PairsRequest, type PairsDocument } from "./app/pairs.js";
export { judgeHeldBack, type JudgeRequest, type JudgeDocument } from "./app/judge.js";
export { runCommand, type RunCommandRequest, type RunDocument } from "./app/run/index.js";
export type { RequestContext, ExitCode } from "./app/common.js";
import { checkRuns as checkRunsOnThisThread, type CheckDocument, type CheckRequest } from "./app/check.js";
import { checkWorkerSpawner } from "./cli/workers.js";
export type { Problem, ProblemCode, Severity } from "./messages/problem.js";
export type { DecisionNumbers, ReadingCounts, PairRecord, PairSet } from "./decision/types.js";
export type { RecordedRollout } from "./bfcl/results.js";

/**
 * Re-score result files with twinscore's own executor and checker, as `bfcl evaluate`
 * does (`twinscore check`); with `threads` > 1 the model folders are spread over worker
 * threads.
 *
 * @example
 * import { checkRuns } from "twinscore";
 * const doc = await checkRuns({ results: "runs/main", bfclData: "bfcl-v4", scores: "runs/main" });
 * for (const f of doc.files) console.log(f.folder, f.category, f.correct, f.entries, f.agreement?.disagreeingIds);
 */
export const checkRuns = (req: CheckRequest): Promise<CheckDocument> => checkRunsOnThisThread({ spawnWorker: checkWorkerSpawner, ...req });
