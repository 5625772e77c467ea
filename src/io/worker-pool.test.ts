import { describe, expect, it } from "vitest";
import { runJobs, type JobWorker } from "./worker-pool.js";

/** A stand-in worker that answers asynchronously (like a thread) and logs which jobs it took. */
function fakeWorker(log: string[], name: string, failOn?: number): JobWorker<number, string> {
  const listeners: { message?: (m: { index: number; results: string }) => void; error?: (e: Error) => void } = {};
  return {
    postMessage({ index, job }) {
      log.push(`${name}:${job}`);
      setTimeout(() => {
        if (job === failOn) listeners.error?.(new Error(`job ${job} crashed`));
        else listeners.message?.({ index, results: `w${job * job}` });
      }, 5);
    },
    on(event: "message" | "error", listener: never) {
      listeners[event] = listener;
      return this;
    },
    async terminate() {
      log.push(`${name}:end`);
    },
  } as JobWorker<number, string>;
}

describe("runJobs: one queue for this thread and worker threads", () => {
  const inline = (log: string[]) => (job: number) => {
    log.push(`main:${job}`);
    return `m${job * job}`;
  };
  const failed = (job: number, message: string) => `failed ${job}: ${message}`;

  it("runs everything here with one thread or without a worker script", async () => {
    const log: string[] = [];
    expect(await runJobs([1, 2, 3], { threads: 1, spawn: () => fakeWorker(log, "w"), inline: inline(log), failed })).toEqual([
      "m1",
      "m4",
      "m9",
    ]);
    expect(await runJobs([1, 2], { threads: 4, spawn: null, inline: inline(log), failed })).toEqual(["m1", "m4"]);
    expect(log.every((l) => l.startsWith("main:"))).toBe(true);
  });

  it("shares the jobs between this thread and the workers, results in job order", async () => {
    const log: string[] = [];
    const jobs = [0, 1, 2, 3, 4, 5, 6, 7];
    const results = await runJobs(jobs, { threads: 3, spawn: () => fakeWorker(log, `w${log.length}`), inline: inline(log), failed });
    expect(results.map((r) => Number(r.slice(1)))).toEqual(jobs.map((j) => j * j));
    const byWorkers = log.filter((l) => l.startsWith("w") && !l.endsWith(":end")).length;
    const byMain = log.filter((l) => l.startsWith("main:")).length;
    expect(byWorkers + byMain).toBe(jobs.length);
    expect(byWorkers).toBeGreaterThan(0);
    expect(byMain).toBeGreaterThan(0);
    expect(log.filter((l) => l.endsWith(":end"))).toHaveLength(2);
  });

  it("a worker that dies gives its job the failure result; the other jobs still run", async () => {
    const log: string[] = [];
    const results = await runJobs([0, 1], { threads: 2, spawn: () => fakeWorker(log, "w", 0), inline: inline(log), failed });
    expect(results).toEqual(["failed 0: job 0 crashed", "m1"]);
  });
});
