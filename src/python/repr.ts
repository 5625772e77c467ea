/**
 * Python's `repr()` and `str()` over the value model. BFCL's result strings are
 * `str(x)` of method return values (lists, None, error dicts that failed `json.dumps`),
 * and f-strings inside the classes use `str()`, so every character here is behaviour.
 */
import type { PyValue } from "./value.js";
import { PyTuple, PyDict, PySet } from "./containers.js";
import { PyException } from "./exception.js";
import { cpythonSetOrder } from "./set-order.js";
import { isNonPrintable } from "./unicode-nonprintable.js";
import { REPR_MAX_DEPTH, recursionError } from "./limits.js";

/** CPython's default `sys.get_int_max_str_digits()`; converting a longer int to text raises. */
export const INT_MAX_STR_DIGITS = 4300;

/** 10^4300, the smallest magnitude with more digits than `INT_MAX_STR_DIGITS`. */
const FIRST_TOO_LONG = 10n ** BigInt(INT_MAX_STR_DIGITS);

/** `repr(int)`/`str(int)`, raising CPython's ValueError beyond 4300 digits (huge `power` results). */
export function intRepr(n: bigint): string {
  // compared before converting: printing a huge int (a `power` result) only to count its digits took seconds
  if (n >= FIRST_TOO_LONG || n <= -FIRST_TOO_LONG) {
    throw new PyException(
      "ValueError",
      `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`,
    );
  }
  return n.toString();
}

/**
 * Shortest round-trip decimal digits of a finite non-zero |x| and the exponent of the
 * first digit (x = d.ddd × 10^exp). JS and CPython both produce the shortest
 * round-tripping digit string, so only the layout differs.
 */
export function shortestDigits(x: number): { digits: string; exp: number } {
  const s = Math.abs(x).toExponential();
  const e = s.indexOf("e");
  const digits = s.slice(0, e).replace(".", "");
  return { digits, exp: Number(s.slice(e + 1)) };
}

/** Reprs of fixed-notation floats already printed: instance states repeat the same prices and readings in every error object. */
const fixedReprs = new Map<number, string>();

/** `repr(float)`: shortest round-trip digits, scientific when exp < -4 or exp >= 16 (`1e-05`, `1e+16`, `40.0`, `inf`, `nan`, `-0.0`). */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return `${sign}0.0`;
  const abs = sign === "" ? x : -x;
  if (abs >= 1e-4 && abs < 1e16) {
    // Python's fixed-notation range; JS prints these with the same shortest digits, without exponent
    let r = fixedReprs.get(x);
    if (r === undefined) {
      const s = String(x);
      r = s.includes(".") ? s : `${s}.0`;
      if (fixedReprs.size >= 10_000) fixedReprs.clear();
      fixedReprs.set(x, r);
    }
    return r;
  }
  const { digits, exp } = shortestDigits(x);
  if (exp < -4 || exp >= 16) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const es = Math.abs(exp).toString().padStart(2, "0");
    return `${sign}${mant}e${exp < 0 ? "-" : "+"}${es}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** Python's `str.isprintable()` for one code point, per CPython 3.12's Unicode 15.0 tables (space printable, other separators not). */
export function isPrintableCodePoint(cp: number): boolean {
  return !isNonPrintable(cp);
}

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, "0");
}

/** Printable ASCII without quotes or backslash: repr is the text in single quotes. */
const PLAIN_REPR = /^[\x20\x21\x23-\x26\x28-\x5b\x5d-\x7e]*$/;

/** `repr(str)`: CPython's quote choice (`'` unless the text has `'` and no `"`) and escapes (`\\x`, `\\u`, `\\U` for non-printables). */
export function strRepr(s: string): string {
  if (PLAIN_REPR.test(s)) return `'${s}'`;
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (let i = 0; i < s.length;) {
    const cp = s.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    if (cp === quote.charCodeAt(0) || cp === 0x5c) out += "\\" + String.fromCharCode(cp);
    else if (cp === 0x09) out += "\\t";
    else if (cp === 0x0a) out += "\\n";
    else if (cp === 0x0d) out += "\\r";
    else if (cp < 0x20 || cp === 0x7f) out += "\\x" + hex(cp, 2);
    else if (cp < 0x7f) out += String.fromCharCode(cp);
    else if (isPrintableCodePoint(cp)) out += String.fromCodePoint(cp);
    else if (cp <= 0xff) out += "\\x" + hex(cp, 2);
    else if (cp <= 0xffff) out += "\\u" + hex(cp, 4);
    else out += "\\U" + hex(cp, 8);
  }
  return out + quote;
}

/**
 * `repr(x)` for any value in the model; containers recurse with `repr` of their items.
 * Every repr inside a container is one level deeper, and past CPython's C recursion limit
 * it raises RecursionError as CPython does.
 */
export function pyRepr(v: PyValue): string {
  if (reprDepth >= REPR_MAX_DEPTH) throw tooDeep();
  if (v === null) return "None";
  switch (typeof v) {
    case "boolean":
      return v ? "True" : "False";
    case "bigint":
      return intRepr(v);
    case "number":
      return floatRepr(v);
    case "string":
      return strRepr(v);
  }
  reprDepth++;
  try {
    return containerRepr(v);
  } finally {
    reprDepth--;
  }
}

/** Containers whose repr is being built around the current one. */
let reprDepth = 0;

function tooDeep() {
  return recursionError(" while getting the repr of an object");
}

function containerRepr(v: Exclude<PyValue, null | boolean | bigint | number | string>): string {
  if (Array.isArray(v) || v instanceof PyDict) {
    // a container that (indirectly) holds itself prints as [...] / {...}, as reprlib-guarded CPython does
    if (inProgress.has(v)) return Array.isArray(v) ? "[...]" : "{...}";
    inProgress.add(v);
    try {
      if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
      return `{${v
        .entries()
        .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
        .join(", ")}}`;
    } finally {
      inProgress.delete(v);
    }
  }
  if (v instanceof PyTuple) {
    if (v.items.length === 1) return `(${pyRepr(v.items[0])},)`;
    return `(${v.items.map(pyRepr).join(", ")})`;
  }
  if (v instanceof PySet) return v.size === 0 ? "set()" : `{${cpythonSetOrder(v.values()).map(pyRepr).join(", ")}}`;
  return v.pyRepr();
}

/** Lists and dicts whose repr is being built (self-reference guard). */
const inProgress = new Set<object>();

/** `str(x)`: the text itself for str, the object's `__str__` where it has one, else `repr`. */
export function pyStr(v: PyValue): string {
  if (typeof v === "string") return v;
  if (
    v !== null &&
    typeof v === "object" &&
    !Array.isArray(v) &&
    !(v instanceof PyTuple) &&
    !(v instanceof PyDict) &&
    !(v instanceof PySet)
  ) {
    return v.pyStr ? v.pyStr() : v.pyRepr();
  }
  return pyRepr(v);
}
