/**
 * The worker threads the use cases may spread their jobs over: the CLI (and the library
 * entry) hand them a spawner, so the use cases stay free of node's thread API. Workers
 * exist only in the built `dist/`, where the worker scripts sit beside this module.
 */
import { createRequire } from "node:module";
import type { CheckWorkerSpawner } from "../app/check-run.js";

/** `check-worker.js` beside this module; null under the TypeScript test runner (every job then runs inline). */
export const checkWorkerSpawner: CheckWorkerSpawner | null = import.meta.url.endsWith(".js")
  ? (settings) => {
      // node:worker_threads is loaded only when a second thread is asked for (it costs a one-thread run about 6 ms to load)
      const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
      return new Worker(new URL("./check-worker.js", import.meta.url), { workerData: settings });
    }
  : null;
