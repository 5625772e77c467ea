/**
 * V8 tuning for `check` in the bin, set before its first entry is checked (`CliIo`'s `tuneForShortRun`, called
 * by the command; in-process test harnesses do not set it). More in this folder's README.md.
 */
import { setV8Flag } from "../io/v8-heap.js";

/** Turn TurboFan inlining off (the flag is read per compilation, so this works at run time). */
export function tuneV8ForShortRun(): void {
  setV8Flag("--no-turbo-inlining", process.env);
}
