/**
 * Values between three worlds: Python values (what BFCL's loop holds and writes), plain
 * JSON values (what goes over the wire to a chat endpoint) and result-file text.
 * A result line is written the way BFCL's writer writes it: `make_json_serializable`
 * (values `json.dumps` refuses become their `str`), then `json.dumps` with Python's
 * defaults (`", "` / `": "` separators, ASCII escaping, float `repr`).
 */
import { PyDict, PyTuple } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { jsonDumps } from "../python/json.js";
import { pyStr } from "../python/repr.js";
import type { PyValue } from "../python/value.js";

/**
 * BFCL's `make_json_serializable`: dicts and lists are rebuilt (so the result is also a
 * snapshot no later mutation reaches), any other value is kept when `json.dumps` takes it
 * and replaced by `str(value)` otherwise (sets, directories, mpf numbers).
 */
export function makeJsonSerializable(v: PyValue, opts: { readonly nonFiniteAsNull?: boolean } = {}): PyValue {
  const leaf = opts.nonFiniteAsNull
    ? (x: PyValue) => (typeof x === "number" && !Number.isFinite(x) ? null : serializableLeaf(x))
    : serializableLeaf;
  // an explicit stack: state values may nest deeply, and the walk must not recurse on input depth
  const out: PyValue[] = [null];
  type Frame = { readonly src: PyValue; readonly set: (x: PyValue) => void };
  const stack: Frame[] = [{ src: v, set: (x) => (out[0] = x) }];
  while (stack.length > 0) {
    const { src, set } = stack.pop() as Frame;
    if (Array.isArray(src)) {
      const copy: PyValue[] = new Array(src.length);
      set(copy);
      for (let i = 0; i < src.length; i++) stack.push({ src: src[i], set: (x) => (copy[i] = x) });
    } else if (src instanceof PyDict) {
      const copy = new PyDict();
      const entries = src.entries();
      for (const [k] of entries) copy.set(k, null);
      set(copy);
      for (const [k, x] of entries) stack.push({ src: x, set: (y) => copy.set(k, y) });
    } else set(leaf(src));
  }
  return out[0];
}

function serializableLeaf(v: PyValue): PyValue {
  if (v === null || typeof v !== "object") return v;
  try {
    jsonDumps(v);
    return v;
  } catch (e) {
    if (!(e instanceof PyException) && !(e instanceof RangeError)) throw e;
    return pyStr(v);
  }
}

/**
 * One result line as BFCL's writer emits it: `json.dumps(make_json_serializable(entry))`.
 * The entry's own containers are already serialisable snapshots (`makeJsonSerializable`
 * ran on every state value when it was taken), so only the final dump remains.
 */
export function dumpResultLine(entry: PyDict): string {
  return jsonDumps(entry);
}

/**
 * A plain JSON value (from `JSON.parse`, or about to go to `JSON.stringify`) as a Python
 * value: whole numbers become ints, others floats. Only used where the server's values
 * are echoed into a result file; integral floats sent by a server (`1.0`) cannot be told
 * from ints after `JSON.parse`, which no OpenAI-compatible reply field depends on.
 */
export function plainToPy(v: unknown): PyValue {
  if (v === null || v === undefined) return null;
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(plainToPy);
  if (typeof v === "object") {
    const d = new PyDict();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) d.set(k, plainToPy(x));
    return d;
  }
  return String(v);
}

/**
 * A Python value as a plain JSON value for a request body (ints as numbers, tuples as
 * arrays, dict keys as their JSON key text). Values JSON cannot carry become their `str`.
 */
export function pyToPlain(v: PyValue): unknown {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "bigint") {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : pyStr(v);
  }
  if (typeof v === "number") return Number.isFinite(v) ? v : pyStr(v);
  if (Array.isArray(v)) return v.map(pyToPlain);
  if (v instanceof PyTuple) return v.items.map(pyToPlain);
  if (v instanceof PyDict) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.entries()) o[typeof k === "string" ? k : pyStr(k)] = pyToPlain(x);
    return o;
  }
  return pyStr(v);
}

/** Build a dict from key/value pairs in the given order (the order result lines keep). */
export function dict(entries: readonly (readonly [string, PyValue])[]): PyDict {
  return new PyDict(entries);
}
