/**
 * Keeping V8's old generation small while one process scores many models: little stays alive (under 15 MB at
 * 200 models), but V8's defaults let the old generation grow to several times that before collecting it, so
 * here it is collected once it has grown by a tenth. More in this folder's README.md.
 */
import { createRequire } from "node:module";

/**
 * Set one V8 flag for the rest of the process (worker threads included), the way every
 * tuning of the bin is set: only on the V8 versions of Node 20–24 (11–13), where the
 * flags it uses exist (an unknown flag would print an error line), and not with
 * `TWINSCORE_V8_DEFAULTS=1`. `node:v8` is loaded only here.
 *
 * @example
 * setV8Flag("--no-turbo-inlining", process.env);
 */
export function setV8Flag(flag: string, env: Record<string, string | undefined> = process.env): void {
  const v8Major = Number(process.versions.v8.split(".")[0]);
  if (v8Major < 11 || v8Major > 13 || env.TWINSCORE_V8_DEFAULTS === "1") return;
  (createRequire(import.meta.url)("node:v8") as typeof import("node:v8")).setFlagsFromString(flag);
}

/** Collect V8's old generation as soon as it has grown by a tenth, from now on (process-wide; see `setV8Flag`). */
export function boundOldGeneration(env: Record<string, string | undefined> = process.env): void {
  setV8Flag("--heap-growing-percent=10", env);
}

/**
 * Scavenge on the main thread alone, from now on: with the 1 MB young generation the bin keeps, handing each of
 * a thousand scavenges to a helper thread cost more than it saved on 2 cores (bench/RESULTS.md).
 */
export function scavengeOnOneThread(env: Record<string, string | undefined> = process.env): void {
  setV8Flag("--no-parallel-scavenge", env);
}
