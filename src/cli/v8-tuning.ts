/**
 * V8 tuning for `check` in the bin: in a run as short as `check`'s, TurboFan's inlining costs more to compile
 * than it pays back, so it is turned off before the first entry is checked (`CliIo`'s `tuneForShortRun`;
 * in-process test harnesses do not set it). More in this folder's README.md.
 */
import { setV8Flag } from "../io/v8-heap.js";

/** Turn TurboFan inlining off (the flag is read per compilation, so this works at run time). */
export function tuneV8ForShortRun(): void {
  setV8Flag("--no-turbo-inlining", process.env);
}
