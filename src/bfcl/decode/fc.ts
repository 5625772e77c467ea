/**
 * BFCL's `convert_to_function_call`, the decoder its FC handlers apply to every step before execution: each
 * `{name: arguments}` becomes `name(k=repr(v),…)`. What fails in Python fails here with Python's message,
 * because the checker drops steps that do not decode. More in this folder's README.md.
 */
import { PyDict } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { jsonLoadsOrThrow } from "../../python/json.js";
import { JSON_DECODE_MAX_DEPTH, recursionError } from "../../python/limits.js";
import { pyTypeName } from "../../python/kinds.js";
import { pyRepr, strRepr } from "../../python/repr.js";
import type { PyValue } from "../../python/value.js";

import { decodeFailure as fail, type DecodeOutcome } from "./outcome.js";

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
  // a text step: its first character has no `items` (what iterating it would raise), and an empty one holds no call
  if (typeof step === "string") return step === "" ? { ok: true, calls: [] } : fail("AttributeError", STR_HAS_NO_ITEMS);
  try {
    const items: PyValue[] = step instanceof PyDict ? [step] : Array.isArray(step) ? step : notIterable(step);
    const calls: string[] = [];
    for (const item of items) {
      if (!(item instanceof PyDict)) throw new PyException("AttributeError", `'${pyTypeName(item)}' object has no attribute 'items'`);
      for (const [name, raw] of item.entries()) {
        // the plain decoder's native parse, where it provably renders what json.loads would (detection's samples come here)
        const fast = typeof name === "string" && typeof raw === "string" ? renderArgsCached(name, raw) : null;
        if (fast !== null) {
          calls.push(fast);
          continue;
        }
        const value = typeof raw === "string" ? jsonLoadsOrThrow(raw) : raw;
        if (!(value instanceof PyDict)) throw new PyException("AttributeError", `'${pyTypeName(value)}' object has no attribute 'items'`);
        calls.push(renderFcCall(typeof name === "string" ? name : pyRepr(name), value));
      }
    }
    return { ok: true, calls };
  } catch (e) {
    if (e instanceof PyException) return fail(e.pyType, e.pyMessage);
    throw e;
  }
}

const STR_HAS_NO_ITEMS = "'str' object has no attribute 'items'";

function notIterable(v: PyValue): never {
  throw new PyException("TypeError", `'${pyTypeName(v)}' object is not iterable`);
}

const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * The same decoder on a step straight from `JSON.parse`, for speed: the common shape is decoded directly,
 * anything else goes through `decodeFcStep` after conversion. Only call it on values whose numbers do not
 * matter. More in this folder's README.md.
 */
export function decodeFcStepPlain(step: unknown): DecodeOutcome {
  if (Array.isArray(step)) {
    const calls: string[] = [];
    let plain = true;
    for (const item of step) {
      if (!isPlainObject(item)) {
        plain = false;
        break;
      }
      for (const name in item) {
        const raw = item[name];
        if (typeof raw !== "string" || INDEX_KEY.test(name)) {
          plain = false;
          break;
        }
        const fast = renderArgsCached(name, raw);
        if (fast !== null) {
          calls.push(fast);
          continue;
        }
        let value: PyValue;
        try {
          value = jsonLoadsOrThrow(raw);
        } catch (e) {
          if (e instanceof PyException) return fail(e.pyType, e.pyMessage);
          throw e;
        }
        if (!(value instanceof PyDict)) return fail("AttributeError", `'${pyTypeName(value)}' object has no attribute 'items'`);
        calls.push(renderFcCall(name, value));
      }
      if (!plain) break;
    }
    if (plain) return { ok: true, calls };
  }
  let value: PyValue;
  try {
    value = plainToPy(step);
  } catch (e) {
    if (e instanceof PyException) return fail(e.pyType, e.pyMessage);
    throw e;
  }
  return decodeFcStep(value);
}

/**
 * JSON.parse output as Python values (integral numbers become ints). `depth` counts the
 * arrays and objects around `v`: Python's `json.loads` of the line raises RecursionError
 * past its limit, and so does this.
 */
export function plainToPy(v: unknown, depth = 0): PyValue {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (depth >= JSON_DECODE_MAX_DEPTH)
    throw recursionError(
      Array.isArray(v) ? " while decoding a JSON array from a unicode string" : " while decoding a JSON object from a unicode string",
    );
  if (Array.isArray(v)) return v.map((x) => plainToPy(x, depth + 1));
  return new PyDict(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, plainToPy(x, depth + 1)] as const));
}

/** Text that may hold a float or an integer JSON.parse would round: then Python's json.loads is needed. */
const NEEDS_PY_NUMBERS = /[0-9][.eE]|[0-9]{16}/;

/** Nesting the native fast path renders itself; deeper arguments take the faithful path (`json.loads`' recursion limit, `repr`). */
const PLAIN_REPR_MAX_DEPTH = 64;

function reprPlain(v: unknown, depth: number): string | null {
  if (typeof v === "string") return strRepr(v);
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return Number.isSafeInteger(v) ? (v === 0 ? "0" : String(v)) : null;
  if (depth >= PLAIN_REPR_MAX_DEPTH) return null;
  if (Array.isArray(v)) {
    const parts: string[] = [];
    for (const x of v) {
      const r = reprPlain(x, depth + 1);
      if (r === null) return null;
      parts.push(r);
    }
    return `[${parts.join(", ")}]`;
  }
  if (typeof v === "object") {
    const parts: string[] = [];
    for (const k in v as Record<string, unknown>) {
      if (INDEX_KEY.test(k)) return null;
      const r = reprPlain((v as Record<string, unknown>)[k], depth + 1);
      if (r === null) return null;
      parts.push(`${strRepr(k)}: ${r}`);
    }
    return `{${parts.join(", ")}}`;
  }
  return null;
}

const RENDER_CACHE_LIMIT = 100_000;
/** Rendered calls by name, then raw argument text: models repeat the same calls (`ls` with `{"a": false}`) across steps and entries. */
const renderedCalls = new Map<string, Map<string, string | null>>();
let renderedCount = 0;

/**
 * `fastRenderArgs`, remembered: it is a pure function of its two texts, and handing back
 * the same string object also lets the executor's parse cache find it without hashing anew.
 */
function renderArgsCached(name: string, raw: string): string | null {
  let byRaw = renderedCalls.get(name);
  if (byRaw === undefined) {
    byRaw = new Map();
    renderedCalls.set(name, byRaw);
  }
  let out = byRaw.get(raw);
  if (out === undefined) {
    out = fastRenderArgs(name, raw);
    if (renderedCount >= RENDER_CACHE_LIMIT) {
      renderedCalls.clear();
      renderedCount = 0;
      renderedCalls.set(name, byRaw);
      byRaw.clear();
    }
    byRaw.set(raw, out);
    renderedCount++;
  }
  return out;
}

/**
 * `name(k=repr(v),…)` straight from native `JSON.parse` when that provably gives what
 * Python's `json.loads` gives: an object, no float or long-integer-looking text, no
 * index-like keys (JavaScript would reorder them). Null means "use the faithful path".
 */
function fastRenderArgs(name: string, raw: string): string | null {
  if (NEEDS_PY_NUMBERS.test(raw)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  const parts: string[] = [];
  for (const k in parsed as Record<string, unknown>) {
    if (INDEX_KEY.test(k)) return null;
    const r = reprPlain((parsed as Record<string, unknown>)[k], 1);
    if (r === null) return null;
    parts.push(`${k}=${r}`);
  }
  return `${name}(${parts.join(",")})`;
}

/**
 * Whether `convert_to_function_call` accepts a step straight from `JSON.parse`, without
 * rendering its call strings: null when it does, else the exception it raises
 * (`Type: message`). What call extraction needs from the FC decoder on its hot path (it
 * reads names and arguments from the records themselves); the same traversal as
 * `decodeFcStep`, and the same outcome (tested on every real step).
 */
export function fcStepError(step: unknown): string | null {
  if (!Array.isArray(step)) {
    const out = decodeFcStepPlain(step);
    return out.ok ? null : out.error;
  }
  for (const item of step) {
    if (!isPlainObject(item)) {
      const out = decodeFcStepPlain(step);
      return out.ok ? null : out.error;
    }
    for (const name in item) {
      const raw = item[name];
      if (isPlainObject(raw)) continue;
      if (typeof raw !== "string") return `AttributeError: '${pyTypeName(plainToPy(raw))}' object has no attribute 'items'`;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        // what JSON.parse rejects, Python's json.loads may accept (NaN, Infinity) or rejects with its own words
        try {
          parsed = jsonLoadsOrThrow(raw);
        } catch (e) {
          if (e instanceof PyException) return `${e.pyType}: ${e.pyMessage}`;
          if (e instanceof RangeError) return "RecursionError: maximum recursion depth exceeded";
          throw e;
        }
        if (!(parsed instanceof PyDict)) return `AttributeError: '${pyTypeName(parsed as PyValue)}' object has no attribute 'items'`;
        continue;
      }
      if (!isPlainObject(parsed)) return `AttributeError: '${pyTypeName(plainToPy(parsed))}' object has no attribute 'items'`;
    }
  }
  return null;
}
