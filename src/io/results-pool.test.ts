import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { knownShouldAskIds } from "../decision/score.js";
import { readingPairs } from "../decision/readings.js";
import { defaultScoreOptions } from "../decision/types.js";
import { rolloutRunDir } from "../testing/shared.js";
import { loadManifest } from "./manifest.js";
import { candidatesOf } from "./results-score.js";
import { walkBfclTree } from "./tree.js";
import { defaultThreads, MIN_MODELS_FOR_WORKERS, scoreModels, type PoolWorker, type SpawnWorker } from "./results-pool.js";
import { scoreModelFiles } from "./results-score.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("committed manifest does not load");
  return m.value;
})();

/**
 * An in-process stand-in for a worker thread: runs the worker's job (`scoreModelFiles`)
 * asynchronously, so the pool's scheduling (queueing, order, termination) is tested here;
 * the real `worker_threads` path runs from the built dist/ (bench/score.mjs).
 */
function fakeSpawn(log: string[]): SpawnWorker {
  let n = 0;
  return (data) => {
    const id = `w${n++}`;
    const known = data.knownMissIds === null ? null : new Set(data.knownMissIds);
    const events = new EventEmitter();
    const worker: PoolWorker = {
      postMessage: (msg) => {
        setImmediate(() => {
          log.push(`${id}:${msg.job.model}`);
          events.emit("message", { index: msg.index, results: scoreModelFiles(msg.job, data.pairs, data.options, known) });
        });
      },
      on: (event: string, listener: (...args: never[]) => void) => events.on(event, listener as (...args: unknown[]) => void),
      terminate: async () => {
        log.push(`${id}:end`);
        return 0;
      },
    };
    return worker;
  };
}

describe("scoreModels: the main thread and workers share the queue", () => {
  // 8 jobs: the two real runs' four models, each twice (the pool only starts workers from 8 models)
  const found = walkBfclTree([rolloutRunDir("2025-11-12-main"), rolloutRunDir("2025-11-12-harmony-fixes")], "/", "result").models.map(candidatesOf);
  const jobs = [...found, ...found].map((m, i) => ({ ...m, model: `${m.model}#${i}` }));
  const pairs = readingPairs(manifest, defaultScoreOptions);
  const known = knownShouldAskIds(manifest);

  it("gives the same runs, in job order, with 1 thread and with 3 (2 workers + this thread)", async () => {
    expect(jobs.length).toBeGreaterThanOrEqual(MIN_MODELS_FOR_WORKERS);
    const inline = await scoreModels(jobs, pairs, defaultScoreOptions, 1, known, null);
    const log: string[] = [];
    const pooled = await scoreModels(jobs, pairs, defaultScoreOptions, 3, known, fakeSpawn(log));
    expect(pooled.map((r) => r.model)).toEqual(jobs.map((j) => j.model));
    expect(pooled).toEqual(inline);
    const byWorker = log.filter((l) => !l.endsWith(":end"));
    expect(byWorker.length).toBeGreaterThan(0); // the workers took jobs …
    expect(byWorker.length).toBeLessThan(jobs.length); // … and so did this thread
    expect(log.filter((l) => l.endsWith(":end")).sort()).toEqual(["w0:end", "w1:end"]); // every worker stopped
  });

  it("runs inline below MIN_MODELS_FOR_WORKERS models, starting no worker", async () => {
    const log: string[] = [];
    const runs = await scoreModels(jobs.slice(0, 2), pairs, defaultScoreOptions, 4, known, fakeSpawn(log));
    expect(runs.length).toBe(2);
    expect(log).toEqual([]);
  });
});

describe("defaultThreads: the measured rule per machine size", () => {
  it("is 1 on two cores or fewer at any number of models, and below MIN_MODELS_FOR_WORKERS models anywhere", () => {
    for (const models of [1, 10, 50, 200]) for (const cores of [1, 2]) expect(defaultThreads(models, cores)).toBe(1);
    expect(defaultThreads(MIN_MODELS_FOR_WORKERS - 1, 16)).toBe(1);
  });
  it("is one per core, at most 4, on larger machines from MIN_MODELS_FOR_WORKERS models", () => {
    expect(defaultThreads(MIN_MODELS_FOR_WORKERS, 3)).toBe(3);
    expect(defaultThreads(200, 16)).toBe(4);
  });
});
