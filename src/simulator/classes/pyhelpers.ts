/**
 * Small Python behaviours the four classes need that the shared runtime does not spell
 * out as functions: attribute errors for `x.method()` on the wrong type, f-string
 * interpolation, slicing a list by a Python int, and building result dicts. Kept private
 * to the class modules; the messages are CPython's.
 */
import type { PyValue } from "../../python/value.js";
import { PyDict } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { pyTypeName } from "../../python/kinds.js";
import { pyStr } from "../../python/repr.js";

/** `x.name` on a value that lacks it: CPython's AttributeError. */
export function noAttribute(v: PyValue, name: string): PyException {
  return new PyException("AttributeError", `'${pyTypeName(v)}' object has no attribute '${name}'`);
}

/** `v` as a str receiver of method `name`, or the AttributeError Python raises for other types. */
export function strSelf(v: PyValue, name: string): string {
  if (typeof v !== "string") throw noAttribute(v, name);
  return v;
}

/** `f"{v}"` — `format(v, "")`, which is `str(v)` for every value the classes format. */
export function fmt(v: PyValue): string {
  return pyStr(v);
}

/** A dict literal with str keys, in the order given. */
export function dict(entries: Record<string, PyValue>): PyDict {
  return new PyDict(Object.entries(entries));
}

/** `{"error": message}`, the classes' usual failure result. */
export function errorDict(message: string): PyDict {
  return dict({ error: message });
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
