/**
 * Result objects instead of exceptions: every core function that can meet bad input
 * returns one of these, so the CLI decides how to report and which exit code to use.
 */
import type { Problem } from "./problem.js";

/** A successful value. */
export interface Ok<T> {
  readonly ok: true;
  readonly value: T;
}

/** A failure carrying the problems that caused it (at least one). */
export interface Err {
  readonly ok: false;
  readonly problems: readonly Problem[];
}

/** Either a value or the problems that prevented it. */
export type Result<T> = Ok<T> | Err;

/** Wrap a value as a success. */
export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

/** Wrap one or more problems as a failure. */
export function err(...problems: Problem[]): Err {
  return { ok: false, problems };
}

/** A failure carrying a list of problems (at least one), however long: no argument spread. */
export function errAll(problems: readonly Problem[]): Err {
  return { ok: false, problems: [...problems] };
}
