/**
 * Worker-thread entry for `twinscore check`: checks the model folders it is sent, one
 * at a time, with `runCheckJob` (the same function the main thread runs). Only used
 * from the built `dist/`; under the TypeScript test runner every job runs inline. It
 * lives with the CLI, the one layer that may wire the use cases to node's threads.
 */
import { parentPort, workerData } from "node:worker_threads";
import { CheckJobCache, failedJob, runCheckJob, type CheckJob, type CheckJobSettings } from "../app/check-job.js";
import { nodeHost } from "../io/host.js";

const settings = workerData as CheckJobSettings;
// a worker is started only for a run on the node host (check-run.ts), so its jobs read node's files too
const cache = new CheckJobCache(nodeHost());

parentPort!.on("message", (msg: { index: number; job: CheckJob }) => {
  let results;
  try {
    results = runCheckJob(msg.job, settings, cache);
  } catch (e) {
    results = failedJob(msg.job, e instanceof Error ? e.message : String(e));
  }
  parentPort!.postMessage({ index: msg.index, results });
});
