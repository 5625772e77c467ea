/**
 * Small Python idioms the eight class ports share: dict literals, subscripting that raises KeyError like
 * `d[k]`, attribute errors for `x.lower()` on a non-str, `dict.get` with Python key rules, f-string
 * interpolation, slicing by a Python int, UTF-8 lengths, augmented assignment, and the shorthand for method
 * signatures. More in this folder's README.md.
 */
import { PyDict } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { pyTypeName } from "../../python/kinds.js";
import { pyAdd, pySub } from "../../python/arithmetic.js";
import { pyRepr, pyStr } from "../../python/repr.js";
import type { PyValue } from "../../python/value.js";
import type { ApiInstance, CallNotes, MethodSpec, ParamSpec } from "../types.js";

/**
 * A dict literal in insertion order: `dict([["k", v], …])` for any keys, or `dict({ k: v })`
 * for identifier-like str keys (an object keeps their order).
 */
export function dict(entries: readonly (readonly [PyValue, PyValue])[] | Readonly<Record<string, PyValue>>): PyDict {
  return new PyDict(Array.isArray(entries) ? entries : Object.entries(entries));
}

/** `{"error": message}`, the classes' usual failure result. */
export function errorDict(message: string): PyDict {
  return new PyDict([["error", message]]);
}

/** `f"{v}"` — `format(v, "")`, which is `str(v)` for every value the classes format. */
export function fmt(v: PyValue): string {
  return pyStr(v);
}

/** `v` as a str receiver of method `name`, or the AttributeError Python raises for other types. */
export function strSelf(v: PyValue, name: string): string {
  if (typeof v !== "string") throw noAttribute(v, name);
  return v;
}

/** `seq[start:]` for a Python int start (negative counts from the end, clamped like CPython). */
export function sliceFrom<T>(seq: readonly T[], start: bigint): T[] {
  const n = BigInt(seq.length);
  let s = start < 0n ? start + n : start;
  if (s < 0n) s = 0n;
  if (s > n) s = n;
  return seq.slice(Number(s));
}

/** Number of UTF-8 bytes of `s.encode("utf-8")`, raising CPython's UnicodeEncodeError on a lone surrogate. */
export function utf8Length(s: string): number {
  let bytes = 0;
  let pos = 0;
  for (let i = 0; i < s.length; i++, pos++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) < 0xe000) {
      bytes += 4;
      i++;
    } else if (c >= 0xd800 && c < 0xe000) {
      throw new PyException(
        "UnicodeEncodeError",
        `'utf-8' codec can't encode character '\\u${c.toString(16)}' in position ${pos}: surrogates not allowed`,
      );
    } else bytes += 3;
  }
  return bytes;
}

/** `obj[key]` on a dict (KeyError with repr(key)) or a list (int index); TypeError for other containers. */
export function getItem(obj: PyValue, key: PyValue): PyValue {
  if (obj instanceof PyDict) {
    const v = obj.get(key);
    if (v === undefined) throw new PyException("KeyError", pyRepr(key));
    return v;
  }
  if (Array.isArray(obj)) {
    if (typeof key !== "bigint" && typeof key !== "boolean") {
      throw new PyException("TypeError", `list indices must be integers or slices, not ${pyTypeName(key)}`);
    }
    let i = Number(typeof key === "boolean" ? (key ? 1n : 0n) : key);
    if (i < 0) i += obj.length;
    if (i < 0 || i >= obj.length) throw new PyException("IndexError", "list index out of range");
    return obj[i];
  }
  if (obj === null) throw new PyException("TypeError", "'NoneType' object is not subscriptable");
  if (typeof obj === "string") throw new PyException("TypeError", "string indices must be integers, not 'str'");
  throw new PyException("TypeError", `'${pyTypeName(obj)}' object is not subscriptable`);
}

/** `obj[key] = value` on a dict; TypeError on anything that is not (lists are never assigned by key here). */
export function setItem(obj: PyValue, key: PyValue, value: PyValue): void {
  if (obj instanceof PyDict) {
    obj.set(key, value);
    return;
  }
  throw new PyException("TypeError", `'${pyTypeName(obj)}' object does not support item assignment`);
}

/** `d.get(key, fallback)` where `d` is known to be a dict; unhashable keys raise TypeError as in Python. */
export function dictGet(d: PyDict, key: PyValue, fallback: PyValue): PyValue {
  const v = d.get(key);
  return v === undefined ? fallback : v;
}

/** `obj.get(key, fallback)` where obj may be anything a config put there. */
export function anyGet(obj: PyValue, key: PyValue, fallback: PyValue): PyValue {
  if (obj instanceof PyDict) return dictGet(obj, key, fallback);
  throw noAttribute(obj, "get");
}

/** AttributeError `'int' object has no attribute 'lower'`. */
export function noAttribute(obj: PyValue, name: string): PyException {
  return new PyException("AttributeError", `'${pyTypeName(obj)}' object has no attribute '${name}'`);
}

/** `s.lower()`; AttributeError for non-str. */
export function strLower(s: PyValue): string {
  if (typeof s !== "string") throw noAttribute(s, "lower");
  return s.toLowerCase();
}

/** `s.startswith(prefix)`; AttributeError for non-str. */
export function strStartsWith(s: PyValue, prefix: string): boolean {
  if (typeof s !== "string") throw noAttribute(s, "startswith");
  return s.startsWith(prefix);
}

/** `", ".join(items)` for items that must be str (TypeError like CPython otherwise). */
export function joinStr(sep: string, items: readonly PyValue[]): string {
  items.forEach((x, i) => {
    if (typeof x !== "string") throw new PyException("TypeError", `sequence item ${i}: expected str instance, ${pyTypeName(x)} found`);
  });
  return items.join(sep);
}

/**
 * `a += b` / `a -= b` on values a config or a model supplied: `+`/`-`, with CPython's
 * wording for the augmented operator in the unsupported-operand TypeError.
 */
export function augmented(op: "+=" | "-=", a: PyValue, b: PyValue): PyValue {
  try {
    return op === "+=" ? pyAdd(a, b) : pySub(a, b);
  } catch (e) {
    const plain = op[0];
    if (e instanceof PyException && e.pyType === "TypeError" && e.pyMessage.startsWith(`unsupported operand type(s) for ${plain}:`)) {
      throw new PyException("TypeError", e.pyMessage.replace(`for ${plain}:`, `for ${op}:`));
    }
    throw e;
  }
}

/**
 * A call BFCL's Python would not return from (it would compute for hours, or loop for
 * ever), stopped at a bound of the emulation: the call is reported as not emulated and
 * raises MemoryError (whose `str` is empty), as a process out of room would — one
 * departure for every such bound, so none hangs the checker or a run.
 */
export function beyondBound(notes: CallNotes | undefined, detail: string): PyException {
  notes?.note("not-emulated", detail);
  return new PyException("MemoryError", "");
}

/** A required parameter. */
export function req(name: string): ParamSpec {
  return { name };
}

/** A parameter with an immutable default value. */
export function opt(name: string, value: PyValue): ParamSpec {
  return { name, default: () => value };
}

/**
 * A method from its signature and body. The body gets the instance it was looked up on, so
 * a class can build its table once (a static) instead of closures per instance.
 */
export function method<Self extends ApiInstance>(
  params: readonly ParamSpec[],
  invoke: (args: PyValue[], self: Self) => PyValue,
): MethodSpec {
  return { params, invoke: invoke as (args: PyValue[], self: ApiInstance) => PyValue };
}

/** A `(year, month, day)` clock for `datetime.today()`; the system's local date by default. */
export type TodayClock = () => readonly [number, number, number];

/** `datetime.today()` of the machine, in local time like Python. */
export const systemToday: TodayClock = () => {
  const d = new Date();
  return [d.getFullYear(), d.getMonth() + 1, d.getDate()];
};
