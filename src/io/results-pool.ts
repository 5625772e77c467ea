/**
 * Scoring many models on both cores: one job per model (its three files), handed to a
 * small pool of worker threads; each worker holds one model's rollouts at a time, so
 * memory stays flat in the number of models. Results come back in job order. Running
 * from TypeScript sources (tests), or with `threads <= 1`, the same function runs inline.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ScoreOptions } from "../decision/types.js";
import { problem } from "../messages/index.js";
import type { ManifestPair } from "../pairs/types.js";
import type { ModelCandidates } from "./results-score.js";
import { scoreModelFiles, type ModelRun, type RecordsKept } from "./results-score.js";
import { runJobs, type JobWorker } from "./worker-pool.js";

/** Default thread count: the machine's parallelism, at most 4 (the work is I/O and JSON bound). */
export function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** True when this module runs from compiled JavaScript, where a worker script exists. */
function workersAvailable(): boolean {
  return import.meta.url.endsWith(".js");
}

/**
 * Below this many models the work runs inline: starting a worker (loading the scorer's
 * modules) costs about as much as scoring a few models (measured in bench/score.mjs).
 */
export const MIN_MODELS_FOR_WORKERS = 8;

/** A worker thread as the pool uses it (a real `Worker`, or an in-process stand-in in tests). */
export type PoolWorker = JobWorker<ModelCandidates, ModelRun>;

/** Starts one worker with the shared scoring data. */
export type SpawnWorker = (data: { pairs: readonly ManifestPair[]; options: ScoreOptions; knownMissIds: readonly string[] | null; kept: RecordsKept }) => PoolWorker;

/** The real thing: `results-worker.js` beside this module (only in the built `dist/`). */
const spawnThread: SpawnWorker = (data) => new Worker(new URL("./results-worker.js", import.meta.url), { workerData: data });

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
  threads = defaultThreads(),
  knownMissIds: readonly string[] | null = null,
  spawn: SpawnWorker | null = workersAvailable() ? spawnThread : null,
  kept: RecordsKept = "all",
): Promise<ModelRun[]> {
  const known = knownMissIds === null ? null : new Set(knownMissIds);
  return runJobs(jobs, {
    threads: jobs.length < MIN_MODELS_FOR_WORKERS ? 1 : threads,
    spawn: spawn === null ? null : () => spawn({ pairs, options, knownMissIds, kept }),
    inline: (job) => scoreModelFiles(job, pairs, options, known, kept),
    failed: failedModelRun,
    prefetch: 2,
  });
}
