/**
 * Gathering everything the run metrics need (`src/official/metrics.ts`) from result and
 * score trees: each model is scored on every pair any reading reads (the content-verified
 * and restored pairs), its result files are censused (turn counts, for truncation), and
 * its score files, when given, are read and cross-checked. Used by `verify`, `compare`
 * and `score --scores`.
 */
import type { DecoderName } from "../bfcl/decode/index.js";
import { everyReadingPair } from "../decision/readings.js";
import type { ModelInputs } from "../official/metrics.js";
import type { Manifest } from "../pairs/types.js";
import { problem, type Problem } from "../messages/index.js";
import type { ScoredResultCategory } from "../bfcl/categories.js";
import { candidatesOf, scoreModelFiles, selectModels } from "./results.js";
import { readOfficial, type OfficialReading } from "./scores.js";
import { matchingModel, walkBfclTree } from "./tree.js";

/** What to load. */
export interface RunInputsRequest {
  readonly resultDirs: readonly string[];
  /** Score trees; empty: no official numbers. */
  readonly scoreDirs: readonly string[];
  /** Models to load, in this order; empty: every model found, in the order found. */
  readonly models: readonly string[];
  readonly manifest: Manifest;
  readonly cwd: string;
  /** `--decoder`: one decoder for every model; absent, each model folder's own. */
  readonly decoder?: DecoderName;
}

/** One loaded model. */
export interface LoadedModel {
  readonly inputs: ModelInputs;
  /** The model folder's name (BFCL's model name; `inputs.model` may be `<run>/<model>`). */
  readonly folder: string;
  readonly official: OfficialReading;
  readonly resultFiles: Partial<Record<ScoredResultCategory, string>>;
  /** The decoder the model's steps were read with (the aligned numbers and Table F1 replay them with it). */
  readonly decoder?: DecoderName;
}

/** The loaded run: the models that could be scored, the ones asked for but absent, and every problem. */
export interface LoadedRun {
  readonly models: LoadedModel[];
  /** Requested models with no (complete) result files: their numbers SKIP. */
  readonly absent: string[];
  readonly problems: Problem[];
}

/** Score and read every requested model. Never throws on bad input. */
export function loadRunInputs(request: RunInputsRequest): LoadedRun {
  const found = walkBfclTree(request.resultDirs, request.cwd, "result");
  const problems: Problem[] = [...found.problems];
  const scores = request.scoreDirs.length > 0 ? walkBfclTree(request.scoreDirs, request.cwd, "score") : { models: [], runs: 0, problems: [] };
  problems.push(...scores.problems);
  const wanted = request.models.length > 0 ? request.models : found.models.map((m) => m.name);
  const pairs = everyReadingPair(request.manifest);
  const models: LoadedModel[] = [];
  const absent: string[] = [];
  for (const name of wanted) {
    const hit = selectModels(found, [name]).models[0];
    if (hit === undefined) {
      absent.push(name);
      continue;
    }
    const candidates = { ...candidatesOf(hit), model: name };
    const decoder = request.decoder === undefined ? {} : { decoder: request.decoder };
    const run = scoreModelFiles(candidates, pairs, { pairSet: "all", countLogin: false, ...decoder });
    problems.push(...run.problems);
    if (run.score === null) {
      absent.push(name);
      continue;
    }
    const resultFiles: Partial<Record<ScoredResultCategory, string>> = {};
    for (const [c, f] of Object.entries(run.filesUsed)) if (f) resultFiles[c as ScoredResultCategory] = f.file;
    const scoreCandidates = matchingModel(hit, found.runs, scores.models);
    if (request.scoreDirs.length > 0 && scoreCandidates === null) {
      problems.push(problem("score-model-missing", `model ${name}: no score files under the --scores directories`, { severity: "warning" }));
    }
    const official = readOfficial(name, resultFiles, scoreCandidates);
    if (request.scoreDirs.length > 0) problems.push(...official.problems);
    const complete = official.categories.length === 3;
    const turnCounts = new Map<string, number | null>();
    for (const c of Object.values(official.census)) if (c) for (const [id, t] of c.turnCount) turnCounts.set(id, t);
    models.push({
      inputs: {
        model: name,
        records: run.score.records,
        verdicts: complete ? official.verdicts : null,
        turnCounts,
      },
      official,
      folder: hit.model,
      resultFiles,
      ...(run.decoder === undefined ? {} : { decoder: run.decoder.name }),
    });
  }
  return { models, absent, problems };
}
