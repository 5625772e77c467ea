/**
 * Python's numeric conversions: `int(x)`, `float(x)`, `round(x, n)`, `operator.index`
 * and the implicit int → float of mixed arithmetic, with CPython's parsing rules,
 * rounding (half-to-even on the exact binary value) and error messages. Models pass
 * numbers as strings and floats where ints are expected; BFCL's classes convert them.
 */
import type { PyObject, PyValue } from "./value.js";
import { PyException } from "./exception.js";
import { roundDecimalString } from "./numeric.js";
import { INT_MAX_STR_DIGITS, strRepr } from "./repr.js";
import { asInt, isPyObject, pyTypeName } from "./kinds.js";

/** `float(int)` as CPython does it for mixed arithmetic: correctly rounded, OverflowError when too large. */
export function intToFloat(n: bigint): number {
  const f = Number(n); // ECMAScript rounds BigInt→Number to nearest, ties to even
  if (!Number.isFinite(f)) throw new PyException("OverflowError", "int too large to convert to float");
  return f;
}
/** The int value of an `ndigits`-like argument (`operator.index`), with CPython's TypeError. */
export function pyIndex(v: PyValue): bigint {
  const i = asInt(v);
  if (i === undefined) throw new PyException("TypeError", `'${pyTypeName(v)}' object cannot be interpreted as an integer`);
  return i;
}

/** Float → int truncation as `int(x)` does, raising for inf/nan. */
export function floatToInt(x: number): bigint {
  if (Number.isNaN(x)) throw new PyException("ValueError", "cannot convert float NaN to integer");
  if (!Number.isFinite(x)) throw new PyException("OverflowError", "cannot convert float infinity to integer");
  return BigInt(Math.trunc(x));
}

/**
 * `round(x)` / `round(x, n)`: half-to-even on the exact binary value; `round(float)` → int,
 * `round(float, n)` → float, `round(int, n)` → int (`round(2.5, 0)` → `2.0`, `round(3, 0)` → `3`).
 */
export function pyRound(x: PyValue, ndigits: PyValue | undefined = undefined): PyValue {
  const xi = asInt(x);
  if (ndigits === undefined || ndigits === null) {
    if (xi !== undefined) return xi;
    if (typeof x === "number") {
      if (Number.isNaN(x) || !Number.isFinite(x)) return floatToInt(x);
      return BigInt(roundDecimalString(x, 0).text) * (x < 0 ? -1n : 1n);
    }
    return roundObject(x, ndigits);
  }
  const n = pyIndex(ndigits);
  if (xi !== undefined) {
    if (n >= 0n) return xi;
    // 10**-n beyond twice |x| rounds to 0; skip building a huge power (CPython would, slowly)
    if (-n > BigInt((xi < 0n ? -xi : xi).toString().length + 1)) return 0n;
    const p = 10n ** -n;
    const neg = xi < 0n;
    const a = neg ? -xi : xi;
    let q = a / p;
    const r2 = (a % p) * 2n;
    if (r2 > p || (r2 === p && (q & 1n) === 1n)) q += 1n;
    const res = q * p;
    return neg ? -res : res;
  }
  if (typeof x === "number") {
    if (!Number.isFinite(x) || x === 0) return x;
    if (n > 323n) return x;
    if (n < -308n) return 0 * x;
    const { negative, text } = roundDecimalString(x, Number(n));
    const r = Number(text);
    if (!Number.isFinite(r)) throw new PyException("OverflowError", "rounded value too large to represent");
    return negative ? -r : r;
  }
  return roundObject(x, ndigits);
}

function roundObject(x: PyValue, ndigits: PyValue | undefined): PyValue {
  const hook = isPyObject(x) ? (x as PyObject & { pyRound?: (n: PyValue | undefined) => PyValue }).pyRound : undefined;
  if (hook) return hook.call(x, ndigits);
  throw new PyException("TypeError", `type ${pyTypeName(x)} doesn't define __round__ method`);
}

/** Python's `str.isspace()` set plus what `float()`/`int()` strip. */
const PY_WHITESPACE =
  /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Convert Unicode decimal digits (e.g. Arabic-Indic) to ASCII, as int()/float() accept them. */
function asciiDigits(s: string): string {
  return s.replace(/\p{Nd}/gu, (d) => {
    const cp = d.codePointAt(0)!;
    if (cp < 0x80) return d;
    // Nd code points come in contiguous runs whose length is a multiple of ten, each starting at zero
    let base = cp;
    while (base > 0 && cp - base < 60 && /\p{Nd}/u.test(String.fromCodePoint(base - 1))) base--;
    return String((cp - base) % 10);
  });
}

/** `float(x)` with CPython's parsing rules (whitespace, underscores, inf/nan words) and error messages. */
export function pyFloat(v: PyValue): number {
  if (typeof v === "number") return v;
  const i = asInt(v);
  if (i !== undefined) return intToFloat(i);
  if (typeof v === "string") {
    const t = asciiDigits(v.replace(PY_WHITESPACE, ""));
    const m = /^[+-]?(?:(?:\d(?:_?\d)*)?(?:\.(?:\d(?:_?\d)*)?)?(?:[eE][+-]?\d(?:_?\d)*)?)$/.exec(t);
    if (m && /\d/.test(t.replace(/[eE].*$/, ""))) return Number(t.replace(/_/g, ""));
    const w = /^([+-]?)(inf|infinity|nan)$/i.exec(t);
    if (w) return w[2].toLowerCase() === "nan" ? NaN : w[1] === "-" ? -Infinity : Infinity;
    throw new PyException("ValueError", `could not convert string to float: ${strRepr(v)}`);
  }
  const hook = isPyObject(v) ? (v as PyObject & { pyFloat?: () => number }).pyFloat : undefined;
  if (hook) return hook.call(v);
  throw new PyException("TypeError", `float() argument must be a string or a real number, not '${pyTypeName(v)}'`);
}

/** An int literal `int()` reads as it is (no whitespace, underscores or non-ASCII digits; far below the digit limit). */
const PLAIN_INT = /^[+-]?[0-9]{1,300}$/;

/** `int(x)` (base 10) with CPython's parsing rules, the 4300-digit limit and error messages. */
export function pyInt(v: PyValue): bigint {
  const i = asInt(v);
  if (i !== undefined) return i;
  if (typeof v === "number") return floatToInt(v);
  if (typeof v === "string") {
    if (PLAIN_INT.test(v)) return BigInt(v); // the common case: ASCII digits, maybe a sign
    const t = asciiDigits(v.replace(PY_WHITESPACE, ""));
    if (/^[+-]?\d(?:_?\d)*$/.test(t)) {
      const digits = t.replace(/[_+-]/g, "").length;
      if (digits > INT_MAX_STR_DIGITS) {
        throw new PyException(
          "ValueError",
          `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
        );
      }
      return BigInt(t.replace(/_/g, ""));
    }
    throw new PyException("ValueError", `invalid literal for int() with base 10: ${strRepr(v)}`);
  }
  const hook = isPyObject(v) ? (v as PyObject & { pyInt?: () => bigint }).pyInt : undefined;
  if (hook) return hook.call(v);
  throw new PyException("TypeError", `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`);
}
