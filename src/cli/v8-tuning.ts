/**
 * V8 tuning for `check` in the bin, set before its first entry is checked (`CliIo`'s
 * `tuneForShortRun`, called by the command; in-process test harnesses do not set it).
 *
 * A `check` run is short: most of its entries are checked while V8 is still warming up,
 * and TurboFan's inlining makes each optimisation much more expensive to compile than it
 * pays back in such runs. Without it, `check` of one run folder (1,200 entries) took
 * 15–20 % less CPU and 8–10 % less wall time on the 2-core project machine, and 9,600
 * entries 13 % less CPU (bench/RESULTS.md); `score` does not gain from it, so it is left
 * alone. V8 flags are process-wide, so worker threads inherit it. Only set on the V8
 * versions of Node 20–24, where the flag exists (an unknown flag would print an error
 * line). The heap's sizes are set elsewhere: the bin holds the young generation at its
 * first size for every command (`bin.ts`: `check` of a run folder took another 11 % less
 * time), and `score` bounds the old one (`io/v8-heap.ts`). `TWINSCORE_V8_DEFAULTS=1`
 * keeps V8's defaults.
 */
import { setV8Flag } from "../io/v8-heap.js";

/** Turn TurboFan inlining off (the flag is read per compilation, so this works at run time). */
export function tuneV8ForShortRun(): void {
  setV8Flag("--no-turbo-inlining", process.env);
}
