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
import type { ModelCandidates } from "./results-discover.js";
import { scoreModelFiles, type ModelRun } from "./results-score.js";

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

/** The part of a worker thread the pool uses (a real `Worker`, or an in-process stand-in in tests). */
export interface PoolWorker {
  postMessage(msg: { index: number; job: ModelCandidates }): void;
  on(event: "message", listener: (msg: { index: number; run?: ModelRun; failure?: string }) => void): unknown;
  on(event: "error", listener: (e: Error) => void): unknown;
  terminate(): Promise<unknown>;
}

/** Starts one worker with the shared scoring data. */
export type SpawnWorker = (data: { pairs: readonly ManifestPair[]; options: ScoreOptions; knownMissIds: readonly string[] | null }) => PoolWorker;

/** The real thing: `results-worker.js` beside this module (only in the built `dist/`). */
const spawnThread: SpawnWorker = (data) => new Worker(new URL("./results-worker.js", import.meta.url), { workerData: data });

/**
 * Score every job, in job order. With `threads` ≥ 2 and at least
 * `MIN_MODELS_FOR_WORKERS` models, `threads - 1` worker threads and this thread share
 * the queue (this thread has the scorer loaded already, so one worker start is saved);
 * each worker keeps two jobs queued so it never waits for this thread.
 */
export async function scoreModels(
  jobs: readonly ModelCandidates[],
  pairs: readonly ManifestPair[],
  options: ScoreOptions,
  threads = defaultThreads(),
  knownMissIds: readonly string[] | null = null,
  spawn: SpawnWorker | null = workersAvailable() ? spawnThread : null,
): Promise<ModelRun[]> {
  const known = knownMissIds === null ? null : new Set(knownMissIds);
  const count = jobs.length < MIN_MODELS_FOR_WORKERS ? 1 : Math.min(threads, jobs.length);
  if (count <= 1 || spawn === null) return jobs.map((job) => scoreModelFiles(job, pairs, options, known));
  const runs: ModelRun[] = new Array(jobs.length);
  let next = 0;
  const workersDone = Promise.all(
    Array.from({ length: count - 1 }, () => {
      const worker = spawn({ pairs, options, knownMissIds });
      return new Promise<void>((resolvePromise, reject) => {
        let outstanding = 0;
        const give = () => {
          if (next < jobs.length) {
            const index = next++;
            outstanding++;
            worker.postMessage({ index, job: jobs[index] });
          } else if (outstanding === 0) {
            void worker.terminate().then(() => resolvePromise());
          }
        };
        worker.on("message", (msg: { index: number; run?: ModelRun; failure?: string }) => {
          outstanding--;
          runs[msg.index] =
            msg.run ??
            ({
              model: jobs[msg.index].model,
              filesUsed: {},
              score: null,
              problems: [problem("internal", `scoring ${jobs[msg.index].model} failed: ${msg.failure ?? "unknown"}`)],
            } satisfies ModelRun);
          give();
        });
        worker.on("error", reject);
        give();
        give();
      });
    }),
  );
  // This thread takes jobs too, yielding between them so worker messages are handled.
  while (next < jobs.length) {
    const index = next++;
    runs[index] = scoreModelFiles(jobs[index], pairs, options, known);
    await new Promise<void>((r) => setImmediate(r));
  }
  await workersDone;
  return runs;
}
