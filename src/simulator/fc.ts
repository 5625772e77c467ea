/**
 * BFCL's `convert_to_function_call`, the decoder its FC handlers (OpenAI-style, Claude,
 * Mistral, …) apply to every step before execution: each `{name: arguments}` becomes
 * `name(k=repr(v),k2=repr(v2))` — arguments `json.loads`-ed when they are a string, keys
 * in JSON order, `repr` with Python's int/float distinction, joined by `,` without a
 * space. What fails in Python fails here with Python's message, because the checker drops
 * steps that do not decode (bad JSON, a text step, a non-object argument).
 */
import { PyDict } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { jsonLoadsOrThrow } from "../python/json.js";
import { pyTypeName } from "../python/ops.js";
import { pyRepr } from "../python/repr.js";
import type { PyValue } from "../python/value.js";

/** A decoded step: the call strings, or the exception BFCL's decoder would raise (`Type: message`). */
export type DecodeOutcome = { readonly ok: true; readonly calls: string[] } | { readonly ok: false; readonly error: string };

function fail(type: string, message: string): DecodeOutcome {
  return { ok: false, error: `${type}: ${message}` };
}

/** `name(k=repr(v),…)` for one call whose arguments are already a dict. */
export function renderFcCall(name: string, args: PyDict): string {
  return `${name}(${args
    .entries()
    .map(([k, v]) => `${typeof k === "string" ? k : pyRepr(k)}=${pyRepr(v)}`)
    .join(",")})`;
}

/**
 * Decode one FC step (the value stored in the result file's `result[turn][step]`).
 * A dict is one call list of its own; a list is iterated (a string is iterated by
 * character, as Python would — so a text step fails unless it is empty).
 */
export function decodeFcStep(step: PyValue): DecodeOutcome {
  try {
    const items: PyValue[] =
      step instanceof PyDict ? [step] : Array.isArray(step) ? step : typeof step === "string" ? Array.from(step) : notIterable(step);
    const calls: string[] = [];
    for (const item of items) {
      if (!(item instanceof PyDict)) throw new PyException("AttributeError", `'${pyTypeName(item)}' object has no attribute 'items'`);
      for (const [name, raw] of item.entries()) {
        const value = typeof raw === "string" ? jsonLoadsOrThrow(raw) : raw;
        if (!(value instanceof PyDict)) throw new PyException("AttributeError", `'${pyTypeName(value)}' object has no attribute 'items'`);
        calls.push(renderFcCall(typeof name === "string" ? name : pyRepr(name), value));
      }
    }
    return { ok: true, calls };
  } catch (e) {
    if (e instanceof PyException) return fail(e.pyType, e.pyMessage);
    if (e instanceof RangeError) return fail("RecursionError", "maximum recursion depth exceeded");
    throw e;
  }
}

function notIterable(v: PyValue): never {
  throw new PyException("TypeError", `'${pyTypeName(v)}' object is not iterable`);
}

/** BFCL's `is_empty_execute_response`: `[]` or `[x]` with `len(x) == 0`. */
export function isEmptyDecoded(calls: readonly string[]): boolean {
  return calls.length === 0 || (calls.length === 1 && calls[0].length === 0);
}
