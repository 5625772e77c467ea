/**
 * Worker-thread entry for `twinscore check`: checks the model folders it is sent, one
 * at a time, with `runCheckJob` (the same function the main thread runs). Only used
 * from the built `dist/`; under the TypeScript test runner every job runs inline. It
 * lives with the CLI, the one layer that may wire the use cases to node's threads.
 */
import { parentPort, workerData } from "node:worker_threads";
import { CheckJobCache, failedJob, runCheckJob, type CheckJob, type CheckJobSettings } from "../app/check-job.js";

const settings = workerData as CheckJobSettings;
const cache = new CheckJobCache();

parentPort!.on("message", (msg: { index: number; job: CheckJob }) => {
  let results;
  try {
    results = runCheckJob(msg.job, settings, cache);
  } catch (e) {
    results = failedJob(msg.job, e instanceof Error ? e.message : String(e));
  }
  parentPort!.postMessage({ index: msg.index, results });
});
