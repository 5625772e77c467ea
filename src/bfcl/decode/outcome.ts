/**
 * What decoding one step gives: BFCL's execution strings (what its checker runs), or the
 * exception BFCL's `decode_execute` raises — kept as `Type: message`, because the
 * inference log records `str(e)` (the message) and the exception type tells a user why.
 */
import { PyException } from "../../python/exception.js";

/** A decoded step: the call strings, or the exception BFCL's decoder would raise (`Type: message`). */
export type DecodeOutcome = { readonly ok: true; readonly calls: string[] } | { readonly ok: false; readonly error: string };

/** A failed outcome from an exception type and Python's `str(e)`. */
export function decodeFailure(type: string, message: string): DecodeOutcome {
  return { ok: false, error: `${type}: ${message}` };
}

/** The exception type of a failed outcome (`KeyError`), or null for a decoded one. */
export function failureType(outcome: DecodeOutcome): string | null {
  if (outcome.ok) return null;
  const i = outcome.error.indexOf(": ");
  return i < 0 ? outcome.error : outcome.error.slice(0, i);
}

/**
 * `str(e)` of a failed outcome — the text BFCL's inference log records for the step
 * (`handler_log.error`) — or null for a decoded one.
 */
export function failureMessage(outcome: DecodeOutcome): string | null {
  if (outcome.ok) return null;
  const i = outcome.error.indexOf(": ");
  return i < 0 ? "" : outcome.error.slice(i + 2);
}

/** BFCL's `is_empty_execute_response`: `[]` or `[x]` with `len(x) == 0` — the step ends the turn. */
export function isEmptyDecoded(calls: readonly string[]): boolean {
  return calls.length === 0 || (calls.length === 1 && calls[0].length === 0);
}

/** Raised by decoder code for a Python exception whose text is already complete. */
export class DecodeFailure {
  constructor(readonly error: string) {}
}

/**
 * Run decoder code written in Python's terms (it throws `PyException` where Python raises)
 * and turn what it throws into an outcome. Deep input that exhausts the stack fails the way
 * Python's recursion limit would, instead of escaping as a JavaScript error.
 */
export function guarded(body: () => string[]): DecodeOutcome {
  try {
    return { ok: true, calls: body() };
  } catch (e) {
    if (e instanceof PyException) return decodeFailure(e.pyType, e.pyMessage);
    if (e instanceof DecodeFailure) return { ok: false, error: e.error };
    if (e instanceof RangeError) return decodeFailure("RecursionError", "maximum recursion depth exceeded");
    throw e;
  }
}
