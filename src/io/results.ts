/**
 * `score`'s whole read path, shared by `twinscore score` and `twinscore demo` so the demo
 * proves the code real runs go through: discover result files, select models, score
 * each model (on worker threads when built), and collect every problem.
 */
import { knownShouldAskIds, selectPairs } from "../decision/score.js";
import type { ScoreOptions } from "../decision/types.js";
import { problem, type Problem } from "../messages/index.js";
import type { Manifest } from "../pairs/types.js";
import { discoverResultFiles } from "./results-discover.js";
import { scoreModels } from "./results-pool.js";
import type { ModelRun } from "./results-score.js";

export { discoverResultFiles, type ModelCandidates } from "./results-discover.js";
export { readResultFile, forEachLine, type ResultFileReading } from "./results-read.js";
export { scoreModelFiles, type FileUsed, type ModelRun } from "./results-score.js";
export { scoreModels, defaultThreads } from "./results-pool.js";

/** What to score. */
export interface ScoreRequest {
  readonly resultDirs: readonly string[];
  /** Model directory names to keep, in output order; empty keeps all (in discovery order). */
  readonly models: readonly string[];
  readonly manifest: Manifest;
  readonly options: ScoreOptions;
  readonly cwd: string;
  readonly threads?: number;
}

/** Every model found (scored or not) and every problem met, in a deterministic order. */
export interface ScoreOutcome {
  readonly runs: ModelRun[];
  /** Discovery and selection problems (per-model problems are on each run). */
  readonly problems: Problem[];
  readonly pairsSelected: number;
}

/** Discover, select and score. Never throws on bad input: problems are returned. */
export async function scoreResultDirs(request: ScoreRequest): Promise<ScoreOutcome> {
  const found = discoverResultFiles(request.resultDirs, request.cwd);
  const problems = [...found.problems];
  let models = found.models;
  if (request.models.length > 0) {
    const wanted = new Set(request.models);
    for (const name of request.models) {
      if (!models.some((m) => m.model === name)) {
        const known = models.map((m) => m.model).join(", ") || "none";
        problems.push(problem("model-missing", `--model ${name}: no such model directory under the results (found: ${known})`));
      }
    }
    const order = new Map(request.models.map((name, i) => [name, i]));
    models = models.filter((m) => wanted.has(m.model)).sort((a, b) => order.get(a.model)! - order.get(b.model)!);
  }
  const pairs = selectPairs(request.manifest, request.options);
  const runs = await scoreModels(models, pairs, request.options, request.threads, knownShouldAskIds(request.manifest));
  return { runs, problems, pairsSelected: pairs.length };
}
