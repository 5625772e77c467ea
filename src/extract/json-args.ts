/**
 * Argument JSON as BFCL's `json.loads` reads it. `JSON.parse` is the fast path (what it
 * accepts, Python accepts too); only when it fails is the Python-compatible reader from
 * the value runtime consulted, which also accepts `NaN`/`Infinity` and yields Python's
 * exact error text (`Expecting value: line 1 column 1 (char 0)`), the string BFCL logs.
 */
import { PyException } from "../python/exception.js";
import { jsonLoadsOrThrow, jsonNestsDeeperThan } from "../python/json.js";
import { JSON_DECODE_MAX_DEPTH } from "../python/limits.js";
import { toLiteral } from "../python/literal.js";
import type { ArgValue } from "./types.js";

/** A decoded JSON value or Python's error message. */
export type JsonArgs = { readonly ok: true; readonly value: ArgValue } | { readonly ok: false; readonly message: string };

/**
 * `json.loads(text)` with Python's acceptance and messages, never throwing. `JSON.parse`
 * reads any depth, Python's reader stops at its recursion limit: a text long enough to
 * nest that deep is checked, and refused as Python refuses it.
 */
export function loadsJson(text: string): JsonArgs {
  let value: ArgValue;
  try {
    value = JSON.parse(text) as ArgValue;
  } catch {
    return pythonLoads(text);
  }
  if (text.length > 2 * JSON_DECODE_MAX_DEPTH && jsonNestsDeeperThan(value, JSON_DECODE_MAX_DEPTH)) return pythonLoads(text);
  return { ok: true, value };
}

function pythonLoads(text: string): JsonArgs {
  try {
    return { ok: true, value: toLiteral(jsonLoadsOrThrow(text)) };
  } catch (e) {
    if (e instanceof PyException) return { ok: false, message: e.pyMessage };
    return { ok: false, message: String(e) };
  }
}

/** A plain JSON object (Python dict), the only argument container BFCL accepts. */
export function isJsonObject(v: unknown): v is { [key: string]: ArgValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Python's type name of a decoded JSON value, for `'list' object has no attribute 'items'`. */
export function pyTypeNameOfJson(v: unknown): string {
  if (v === null || v === undefined) return "NoneType";
  if (Array.isArray(v)) return "list";
  switch (typeof v) {
    case "string":
      return "str";
    case "boolean":
      return "bool";
    case "number":
      return Number.isInteger(v) ? "int" : "float";
    default:
      return "dict";
  }
}
