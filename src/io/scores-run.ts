/**
 * Gathering everything the run metrics need (`src/official/metrics.ts`) from result and
 * score trees: each model is scored twice (the default reading on every content-verified
 * and restored pair; logins counted on Table 1's pairs plus the login-only pairs), its
 * result files are censused (turn counts, for truncation), and its score files, when
 * given, are read and cross-checked. Used by `verify`, `compare` and `score --scores`.
 */
import { selectPairs } from "../decision/score.js";
import type { ModelInputs } from "../official/metrics.js";
import type { Manifest } from "../pairs/types.js";
import { problem, type Problem } from "../messages/index.js";
import type { ScoredResultCategory } from "../bfcl/results.js";
import { discoverResultFiles, scoreModelFiles } from "./results.js";
import { discoverScoreFiles, readOfficial, type OfficialReading } from "./scores.js";

/** What to load. */
export interface RunInputsRequest {
  readonly resultDirs: readonly string[];
  /** Score trees; empty: no official numbers. */
  readonly scoreDirs: readonly string[];
  /** Models to load, in this order; empty: every model found, in the order found. */
  readonly models: readonly string[];
  readonly manifest: Manifest;
  readonly cwd: string;
  /** Skip the logins-counted scoring pass (its records are then empty); `compare` needs none. */
  readonly skipLoginPass?: boolean;
}

/** One loaded model. */
export interface LoadedModel {
  readonly inputs: ModelInputs;
  readonly official: OfficialReading;
  readonly resultFiles: Partial<Record<ScoredResultCategory, string>>;
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
  const found = discoverResultFiles(request.resultDirs, request.cwd);
  const problems: Problem[] = [...found.problems];
  const scores = request.scoreDirs.length > 0 ? discoverScoreFiles(request.scoreDirs, request.cwd) : { models: [], problems: [] };
  problems.push(...scores.problems);
  const wanted = request.models.length > 0 ? request.models : found.models.map((m) => m.model);
  const defaultPairs = [...request.manifest.pairs, ...request.manifest.restoredPairs];
  const loginPairs = selectPairs(request.manifest, { pairSet: "certified", countLogin: true });
  const models: LoadedModel[] = [];
  const absent: string[] = [];
  for (const name of wanted) {
    const candidates = found.models.find((m) => m.model === name);
    if (candidates === undefined) {
      absent.push(name);
      continue;
    }
    const run = scoreModelFiles(candidates, defaultPairs, { pairSet: "all", countLogin: false });
    problems.push(...run.problems);
    if (run.score === null) {
      absent.push(name);
      continue;
    }
    const login = request.skipLoginPass ? null : scoreModelFiles(candidates, loginPairs, { pairSet: "certified", countLogin: true });
    const resultFiles: Partial<Record<ScoredResultCategory, string>> = {};
    for (const [c, f] of Object.entries(run.filesUsed)) if (f) resultFiles[c as ScoredResultCategory] = f.file;
    const scoreCandidates = scores.models.find((m) => m.model === name);
    if (request.scoreDirs.length > 0 && scoreCandidates === undefined) {
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
        loginRecords: login?.score?.records ?? [],
        verdicts: complete ? official.verdicts : null,
        turnCounts,
      },
      official,
      resultFiles,
    });
  }
  return { models, absent, problems };
}
