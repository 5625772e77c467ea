import { boundOldGeneration, scavengeOnOneThread } from "../io/v8-heap.js";
import { tuneV8ForShortRun } from "./v8-tuning.js";

/**
 * What a command may touch of the outside world, passed in so that tests run the real
 * CLI against small fixture trees and capture its output instead of spawning processes.
 */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** True when stderr is a terminal, so progress bars may redraw in place. */
  isTTY: boolean;
  /**
   * Tune V8 for a short checking run (`check` calls it before its first entry); the real
   * process does (`v8-tuning.ts`), test harnesses leave their own process alone.
   */
  tuneForShortRun?: () => void;
  /**
   * Keep V8's heap small while `score` goes through many models: called once when scoring
   * starts (`io/v8-heap.ts`). Test harnesses leave it out.
   */
  tuneForManyModels?: () => void;
  /**
   * Hear the signals that end a process (SIGINT, SIGTERM, SIGHUP) while `handler` has
   * something to say about them; returns the way to stop listening. Only the real process
   * has it: test harnesses leave their own process's signals alone.
   */
  onInterrupt?: (handler: (signal: NodeJS.Signals) => void) => () => void;
}

/** Exit codes scripts can rely on. */
export const ExitCode = {
  /** Everything asked for was done. */
  ok: 0,
  /** The work ran but found something wrong: a FAIL in verify, a problem under --strict. */
  findings: 1,
  /** Nothing usable could be done: bad arguments, missing or malformed input. */
  badInput: 2,
} as const;

/** The process-backed implementation used by the bin. */
export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stderr.isTTY),
    tuneForShortRun: tuneV8ForShortRun,
    // not while the build writes the code cache: V8 refuses a cache made under other flags
    ...(process.env.TWINSCORE_CODE_CACHE === "write"
      ? {}
      : {
          tuneForManyModels: () => {
            boundOldGeneration(process.env);
            scavengeOnOneThread(process.env);
          },
        }),
    onInterrupt: listenForInterrupt,
  };
}

const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * The real process's `onInterrupt`: the handler speaks first, once; then whoever else
 * listens (a run's lock, which finishes its files, removes itself and raises the signal
 * again) ends the process. With no one else listening the signal is raised again here,
 * so the process still ends by it (a shell shows 130 for SIGINT), as it would have unheard.
 */
function listenForInterrupt(handler: (signal: NodeJS.Signals) => void): () => void {
  const stop = (): void => {
    for (const s of ENDING_SIGNALS) process.removeListener(s, heard);
  };
  const heard = (signal: NodeJS.Signals): void => {
    stop();
    handler(signal);
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  for (const s of ENDING_SIGNALS) process.on(s, heard);
  return stop;
}

/** A buffer-backed implementation for tests. */
export function memoryIo(env: Record<string, string | undefined> = {}, cwd = process.cwd()): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env, cwd, isTTY: false };
}
