/**
 * The handful of Python operations BFCL's decoders apply to a recorded step, with
 * Python's exceptions: the decoders below are written in these terms so that whatever a
 * step holds — text, a list, a dict, a number, None — fails where `decode_execute` fails,
 * with the text it raises.
 */
import { PyDict } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { jsonLoadsOrThrow } from "../../python/json.js";
import { pyIter } from "../../python/iterables.js";
import { pyTypeName } from "../../python/kinds.js";
import { pyRepr, pyStr } from "../../python/repr.js";
import type { PyValue } from "../../python/value.js";
import { PyTuple } from "../../python/containers.js";

/** `obj.<method>` on a value that is not a `str` raises this (`'list' object has no attribute 'strip'`). */
export function needStr(v: PyValue, method: string): string {
  if (typeof v === "string") return v;
  throw new PyException("AttributeError", `'${pyTypeName(v)}' object has no attribute '${method}'`);
}

/** `re.search`/`re.findall` on a value that is not text. */
export function needReText(v: PyValue): string {
  if (typeof v === "string") return v;
  throw new PyException("TypeError", `expected string or bytes-like object, got '${pyTypeName(v)}'`);
}

/** `for x in v`. */
export const iterate = pyIter;

/** What `v.items()` raises on a value that is not a dict. */
export function noItemsMessage(v: PyValue): string {
  return `'${pyTypeName(v)}' object has no attribute 'items'`;
}

/** `v.items()`: the entries of a dict, else AttributeError. */
export function items(v: PyValue): [PyValue, PyValue][] {
  if (v instanceof PyDict) return v.entries() as [PyValue, PyValue][];
  throw new PyException("AttributeError", noItemsMessage(v));
}

/** What `v[key]` raises on a dict without the key. */
export function missingKeyMessage(key: string): string {
  return pyRepr(key);
}

/** `v.get(key, default)` on a dict, else AttributeError. */
export function dictGet(v: PyValue, key: string, fallback: PyValue): PyValue {
  if (!(v instanceof PyDict)) throw new PyException("AttributeError", `'${pyTypeName(v)}' object has no attribute 'get'`);
  const got = v.get(key);
  return got === undefined ? fallback : got;
}

/** `v[key]` for a string key, with Python's error for each kind of container. */
export function getItem(v: PyValue, key: string): PyValue {
  if (v instanceof PyDict) {
    const got = v.get(key);
    if (got === undefined) throw new PyException("KeyError", missingKeyMessage(key));
    return got;
  }
  if (Array.isArray(v)) throw new PyException("TypeError", "list indices must be integers or slices, not str");
  if (v instanceof PyTuple) throw new PyException("TypeError", "tuple indices must be integers or slices, not str");
  if (typeof v === "string") throw new PyException("TypeError", "string indices must be integers, not 'str'");
  throw new PyException("TypeError", `'${pyTypeName(v)}' object is not subscriptable`);
}

/** `json.loads(v)`: text only (TypeError otherwise), Python's acceptance and messages. */
export function jsonLoads(v: PyValue): PyValue {
  if (typeof v !== "string") throw new PyException("TypeError", `the JSON object must be str, bytes or bytearray, not ${pyTypeName(v)}`);
  return jsonLoadsOrThrow(v);
}

/** True for the exception `json.loads` raises on text that is not JSON (`except json.JSONDecodeError`). */
export function isJsonDecodeError(e: unknown): boolean {
  return e instanceof PyException && e.pyType === "JSONDecodeError";
}

/** `f"{name}({sep.join(f'{k}={repr(v)}' for k, v in args.items())})"` — the call string most handlers build. */
export function renderCall(name: PyValue, args: PyValue, sep: string): string {
  return `${pyStr(name)}(${items(args)
    .map(([k, v]) => `${pyStr(k)}=${pyRepr(v)}`)
    .join(sep)})`;
}

/** `{key: value}` as Python builds it: the key must be hashable. */
export function singleEntryDict(key: PyValue, value: PyValue): PyDict {
  return new PyDict([[key, value]]);
}

/** `type(v) == list` (a Python list; tuples and other iterables do not pass). */
export function isList(v: PyValue): v is PyValue[] {
  return Array.isArray(v);
}
