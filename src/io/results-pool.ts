/**
 * Scoring many models on both cores: one job per model (its three files), handed to a
 * small pool of worker threads; each worker holds one model's rollouts at a time, so
 * memory stays flat in the number of models. Results come back in job order. Running
 * from TypeScript sources (tests), or with `threads <= 1`, the same function runs inline.
 */
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import type { ScoreOptions } from "../decision/types.js";
import { problem } from "../messages/index.js";
import type { ManifestPair } from "../pairs/types.js";
import type { ModelCandidates } from "./results-score.js";
import { scoreModelFiles, type ModelRun, type ScoreFilesOptions } from "./results-score.js";
import { runJobs, type JobWorker } from "./worker-pool.js";

/** True when this module runs from compiled JavaScript, where a worker script exists. */
function workersAvailable(): boolean {
  return import.meta.url.endsWith(".js");
}

/**
 * Below this many models the work runs inline: starting a worker (loading the scorer's
 * modules) costs about as much as scoring a few models (measured in bench/score.mjs).
 */
export const MIN_MODELS_FOR_WORKERS = 8;

/**
 * The default thread count for `models` models on a machine with `cores` parallel
 * threads. On two cores or fewer: 1, at any number of models — measured fastest there
 * whenever the second core had other work (bench/RESULTS.md: at 10, 50 and 200 models
 * one thread took less wall time, CPU and memory than two): V8's garbage collector and
 * compiler already use the second core, and a worker loads and warms up its own copy of
 * the scorer (two threads spent 40 % more CPU at 200 models). Only with the second core
 * idle did two threads win, at 200 models. With more cores: one per core, at most 4, from
 * `MIN_MODELS_FOR_WORKERS` models (not measured: no such machine here).
 */
export function defaultThreads(models = Number.POSITIVE_INFINITY, cores = availableParallelism()): number {
  if (cores <= 2 || models < MIN_MODELS_FOR_WORKERS) return 1;
  return Math.min(4, cores);
}

/** A worker thread as the pool uses it (a real `Worker`, or an in-process stand-in in tests). */
export type PoolWorker = JobWorker<ModelCandidates, ModelRun>;

/** Starts one worker with the shared scoring data. */
export type SpawnWorker = (data: { pairs: readonly ManifestPair[]; options: ScoreOptions; knownMissIds: readonly string[] | null; more: ScoreFilesOptions }) => PoolWorker;

/** The real thing: `results-worker.js` beside this module (only in the built `dist/`); `node:worker_threads` is loaded only when a worker starts. */
const spawnThread: SpawnWorker = (data) => {
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
  return new Worker(new URL("./results-worker.js", import.meta.url), { workerData: data });
};

/** The run standing for a model whose worker failed. */
export function failedModelRun(job: ModelCandidates, message: string): ModelRun {
  return { model: job.model, folder: job.folder, filesUsed: {}, score: null, problems: [problem("internal", `scoring ${job.model} failed: ${message}`)] };
}

/**
 * Score every job, in job order. With `threads` ≥ 2 and at least
 * `MIN_MODELS_FOR_WORKERS` models, `threads - 1` worker threads and this thread share
 * the queue (`worker-pool.ts`); each worker keeps two jobs queued so it never waits for
 * this thread.
 */
export async function scoreModels(
  jobs: readonly ModelCandidates[],
  pairs: readonly ManifestPair[],
  options: ScoreOptions,
  threads = defaultThreads(jobs.length),
  knownMissIds: readonly string[] | null = null,
  spawn: SpawnWorker | null = workersAvailable() ? spawnThread : null,
  more: ScoreFilesOptions = {},
): Promise<ModelRun[]> {
  const known = knownMissIds === null ? null : new Set(knownMissIds);
  return runJobs(jobs, {
    threads: jobs.length < MIN_MODELS_FOR_WORKERS ? 1 : threads,
    spawn: spawn === null ? null : () => spawn({ pairs, options, knownMissIds, more }),
    inline: (job) => scoreModelFiles(job, pairs, options, known, more),
    failed: failedModelRun,
    prefetch: 2,
  });
}
