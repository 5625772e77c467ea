/**
 * A small job queue shared by this thread and a few worker threads: jobs go out one at a
 * time, results come back in job order. This thread works on the queue too (its modules
 * are loaded already, so one worker start is saved). Used by `check`, whose jobs — one
 * model folder each — are large enough to pay for a worker's start.
 */
/** The part of a worker thread the pool uses (a real `Worker`, or a stand-in in tests). */
export interface JobWorker<J, R> {
  postMessage(msg: { index: number; job: J }): void;
  on(event: "message", listener: (msg: { index: number; results: R }) => void): unknown;
  on(event: "error", listener: (e: Error) => void): unknown;
  terminate(): Promise<unknown>;
}

/** How the pool runs jobs. */
export interface PoolOptions<J, R> {
  /** Threads in all, this one included. */
  readonly threads: number;
  /** Starts a worker; null runs everything here (TypeScript sources, or workers unwanted). */
  readonly spawn: (() => JobWorker<J, R>) | null;
  /** Runs one job on this thread. */
  readonly inline: (job: J) => R;
  /** The result standing for a job whose worker died. */
  readonly failed: (job: J, message: string) => R;
  /** Jobs each worker holds at once (2 keeps a worker busy between messages when jobs are small). Default 1. */
  readonly prefetch?: number;
}

/** Run every job; results in job order. */
export async function runJobs<J, R>(jobs: readonly J[], opts: PoolOptions<J, R>): Promise<R[]> {
  const count = Math.min(opts.threads, jobs.length);
  if (count <= 1 || opts.spawn === null) return jobs.map(opts.inline);
  const spawn = opts.spawn;
  const results: R[] = new Array(jobs.length);
  let next = 0;
  const workersDone = Promise.all(
    Array.from({ length: count - 1 }, () => {
      const worker = spawn();
      return new Promise<void>((done) => {
        const held = new Set<number>();
        let stopped = false;
        const give = () => {
          if (next < jobs.length) {
            const index = next++;
            held.add(index);
            worker.postMessage({ index, job: jobs[index] });
          } else if (held.size === 0 && !stopped) {
            stopped = true;
            void worker.terminate().then(() => done());
          }
        };
        worker.on("message", (msg) => {
          results[msg.index] = msg.results;
          held.delete(msg.index);
          give();
        });
        worker.on("error", (e) => {
          for (const index of held) results[index] = opts.failed(jobs[index], e.message);
          held.clear();
          stopped = true;
          done();
        });
        for (let i = 0; i < Math.max(1, opts.prefetch ?? 1); i++) give();
      });
    }),
  );
  // this thread takes jobs too, yielding between them so worker messages are handled
  while (next < jobs.length) {
    const index = next++;
    results[index] = opts.inline(jobs[index]);
    await new Promise<void>((r) => setImmediate(r));
  }
  await workersDone;
  return results;
}
