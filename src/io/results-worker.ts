/**
 * Worker-thread entry for `results-pool.ts`: scores the models it is sent, one at a
 * time, with the pairs and options it was started with. Only used from the built
 * `dist/` (plain JavaScript); under the TypeScript test runner the pool runs inline.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { ScoreOptions } from "../decision/types.js";
import type { ManifestPair } from "../pairs/types.js";
import type { ModelCandidates, ScoreFilesOptions } from "./results-score.js";
import { failedModelRun } from "./results-pool.js";
import { scoreModelFiles } from "./results-score.js";

const { pairs, options, knownMissIds, more } = workerData as { pairs: ManifestPair[]; options: ScoreOptions; knownMissIds: string[] | null; more: ScoreFilesOptions };
const known = knownMissIds === null ? null : new Set(knownMissIds);

parentPort!.on("message", (msg: { index: number; job: ModelCandidates }) => {
  try {
    parentPort!.postMessage({ index: msg.index, results: scoreModelFiles(msg.job, pairs, options, known, more) });
  } catch (e) {
    parentPort!.postMessage({ index: msg.index, results: failedModelRun(msg.job, e instanceof Error ? e.message : String(e)) });
  }
});
