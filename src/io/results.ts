/**
 * `score`'s read path, shared by every command that scores rollouts (`score`, `demo`,
 * `judge`): find the models (the one walk, `tree.ts`), select them, score each (on
 * worker threads when built), and collect every problem.
 */
import { knownShouldAskIds } from "../decision/score.js";
import { readingPairs } from "../decision/readings.js";
import type { ScoreOptions } from "../decision/types.js";
import { problem, type Problem } from "../messages/index.js";
import type { Manifest } from "../pairs/types.js";
import { dataCandidate } from "../pairs/rollout-data.js";
import { scoreModels } from "./results-pool.js";
import { candidatesOf, type ModelRun, type RecordsKept } from "./results-score.js";
import { walkBfclTree, type TreeModel, type TreeWalk } from "./tree.js";

export { readResultFile, forEachLine, type ResultFileReading } from "./results-read.js";
export { scoreModelFiles, candidatesOf, type FileUsed, type ModelRun, type ModelCandidates, type RecordsKept } from "./results-score.js";
export { scoreModels, defaultThreads } from "./results-pool.js";

/** What to score. */
export interface ScoreRequest {
  readonly resultDirs: readonly string[];
  /** Models to keep (folder name or `<run>/<model>`), in output order; empty keeps all (in the order found). */
  readonly models: readonly string[];
  readonly manifest: Manifest;
  /** By model name, the manifest to score it on instead of `manifest` (result files of several BFCL versions). */
  readonly manifestOf?: ReadonlyMap<string, Manifest>;
  readonly options: ScoreOptions;
  readonly cwd: string;
  readonly threads?: number;
  /** How much of each model's pair records to keep (default all). */
  readonly records?: RecordsKept;
  /**
   * Compare each model's recorded first turns with the data of the manifest it is scored
   * on, in the same pass over its files (`ModelRun.dataCheck`).
   */
  readonly checkData?: boolean;
  /** The walk of `resultDirs` when the caller has already made it (the tree is then walked once). */
  readonly walk?: TreeWalk;
}

/** Every model found (scored or not) and every problem met, in a deterministic order. */
export interface ScoreOutcome {
  readonly runs: ModelRun[];
  /** Discovery and selection problems (per-model problems are on each run). */
  readonly problems: Problem[];
  readonly pairsSelected: number;
}

/**
 * The models of a walk that `--model` names (by folder name or by `<run>/<model>`), in the
 * order named; all of them, in the order found, when none is named. A name that matches
 * nothing is a problem listing what was found.
 */
export function selectModels(walk: TreeWalk, names: readonly string[]): { models: TreeModel[]; problems: Problem[] } {
  if (names.length === 0) return { models: walk.models, problems: [] };
  const problems: Problem[] = [];
  const models: TreeModel[] = [];
  for (const name of names) {
    const hits = walk.models.filter((m) => m.name === name || m.model === name);
    if (hits.length === 0) {
      const known = walk.models.map((m) => m.name).join(", ") || "none";
      problems.push(problem("model-missing", `--model ${name}: no such model directory under the results (found: ${known})`));
    }
    for (const m of hits) if (!models.includes(m)) models.push(m);
  }
  return { models, problems };
}

/**
 * Discover, select and score, each model on its manifest (models sharing a manifest are
 * scored together). Never throws on bad input: problems are returned.
 */
export async function scoreResultDirs(request: ScoreRequest): Promise<ScoreOutcome> {
  const walk = request.walk ?? walkBfclTree(request.resultDirs, request.cwd, "result");
  const selected = selectModels(walk, request.models);
  const problems = [...walk.problems, ...selected.problems];
  const groups = new Map<Manifest, number[]>();
  selected.models.forEach((m, i) => {
    const manifest = request.manifestOf?.get(m.name) ?? request.manifest;
    groups.set(manifest, [...(groups.get(manifest) ?? []), i]);
  });
  const runs: ModelRun[] = new Array<ModelRun>(selected.models.length);
  for (const [manifest, at] of groups) {
    const pairs = readingPairs(manifest, request.options);
    const more = { kept: request.records ?? "all", dataCheck: request.checkData ? dataCandidate(manifest) : null };
    const scored = await scoreModels(at.map((i) => candidatesOf(selected.models[i])), pairs, request.options, request.threads, knownShouldAskIds(manifest), undefined, more);
    scored.forEach((run, k) => (runs[at[k]] = run));
  }
  return { runs, problems, pairsSelected: readingPairs(request.manifest, request.options).length };
}
