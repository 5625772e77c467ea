/**
 * Python's operators and core builtins over the value model, with CPython's result
 * types and exact error messages. BFCL's classes do arithmetic, comparisons and
 * `round`/`sum`/`sorted` on whatever the model passed, and the resulting value or
 * `Error during execution: …` string is compared verbatim.
 */
import type { PyObject, PyValue } from "./value.js";
import { PyTuple, PyDict, PySet } from "./containers.js";
import { PyException } from "./exception.js";
import { bitLength, floatToRatio, powPositive, ratioToFloat, roundDecimalString } from "./numeric.js";
import * as reprModule from "./repr.js";
import { cpythonSetOrder } from "./set-order.js";

export { formatFixed } from "./format.js";
export { strSplitlines, strSplit, strStrip, strLStrip, strRStrip, strIsSpace, strLen } from "./strings.js";
export { pyDeepCopy } from "./copy.js";

/** True for a value implementing PyObject (not None, a primitive or a built-in container). */
export function isPyObject(v: PyValue): v is PyObject {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyTuple) && !(v instanceof PyDict) && !(v instanceof PySet);
}

/** `type(x).__name__`, used in every TypeError message. */
export function pyTypeName(v: PyValue): string {
  if (v === null) return "NoneType";
  switch (typeof v) {
    case "boolean":
      return "bool";
    case "bigint":
      return "int";
    case "number":
      return "float";
    case "string":
      return "str";
  }
  if (Array.isArray(v)) return "list";
  if (v instanceof PyTuple) return "tuple";
  if (v instanceof PyDict) return "dict";
  if (v instanceof PySet) return "set";
  return v.pyTypeName;
}

/** `bool(x)`: empty containers, zero and None are false; other objects true unless they define `pyBool`. */
export function pyTruthy(v: PyValue): boolean {
  if (v === null) return false;
  switch (typeof v) {
    case "boolean":
      return v;
    case "bigint":
      return v !== 0n;
    case "number":
      return v !== 0; // NaN is truthy in Python, and NaN !== 0
    case "string":
      return v.length > 0;
  }
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof PyDict || v instanceof PySet) return v.size > 0;
  const b = (v as PyObject & { pyBool?: () => boolean }).pyBool;
  return b ? b.call(v) : true;
}

/** The int value of an int or bool (bool is an int subclass), else undefined. */
export function asInt(v: PyValue): bigint | undefined {
  if (typeof v === "bigint") return v;
  if (typeof v === "boolean") return v ? 1n : 0n;
  return undefined;
}

/** `float(int)` as CPython does it for mixed arithmetic: correctly rounded, OverflowError when too large. */
export function intToFloat(n: bigint): number {
  const f = Number(n); // ECMAScript rounds BigInt→Number to nearest, ties to even
  if (!Number.isFinite(f)) throw new PyException("OverflowError", "int too large to convert to float");
  return f;
}

const MAX_EXACT_INT = 2n ** 53n;

/** Exact three-way comparison of an int and a float (NaN → undefined), as Python compares them. */
function cmpIntFloat(i: bigint, f: number): number | undefined {
  if (Number.isNaN(f)) return undefined;
  if (f === Infinity) return -1;
  if (f === -Infinity) return 1;
  // an int within ±2^53 is exactly a float, so comparing the two floats is exact
  if (i >= -MAX_EXACT_INT && i <= MAX_EXACT_INT) {
    const n = Number(i);
    return n < f ? -1 : n > f ? 1 : 0;
  }
  const { num, den } = floatToRatio(f);
  const lhs = i * den;
  return lhs < num ? -1 : lhs > num ? 1 : 0;
}

/** Numeric three-way comparison for int/bool/float operands; undefined if either is not a number or NaN is involved. */
function cmpNumbers(a: PyValue, b: PyValue): number | undefined | null {
  const ai = asInt(a);
  const bi = asInt(b);
  if (ai !== undefined && bi !== undefined) return ai < bi ? -1 : ai > bi ? 1 : 0;
  if (ai !== undefined && typeof b === "number") return cmpIntFloat(ai, b);
  if (bi !== undefined && typeof a === "number") {
    const c = cmpIntFloat(bi, a);
    return c === undefined ? undefined : -c;
  }
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return null; // not both numbers
}

/** Code-point order of two strings (JS `<` compares UTF-16 units, which misorders astral vs U+E000–U+FFFF). */
export function cmpStr(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && cb >= 0xd800) {
        ca = ca >= 0xe000 ? ca - 0x800 : ca + 0x2000;
        cb = cb >= 0xe000 ? cb - 0x800 : cb + 0x2000;
      }
      return ca < cb ? -1 : 1;
    }
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** `a == b` with Python semantics: `1 == 1.0 == True`, deep for containers, order-free for dict/set, `pyEq` for objects. */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  if (a === b) return typeof a !== "number" || !Number.isNaN(a);
  if (a === null || b === null) {
    if (a !== null && isPyObject(a) && a.pyEq) return a.pyEq(b);
    if (b !== null && isPyObject(b) && b.pyEq) return b.pyEq(a);
    return false;
  }
  const c = cmpNumbers(a, b);
  if (c !== null) return c === 0;
  if (typeof a === "string" || typeof b === "string") {
    if (typeof a === "string" && typeof b === "string") return a === b;
    const o = typeof a === "string" ? b : a;
    return isPyObject(o) && o.pyEq ? o.pyEq(typeof a === "string" ? a : b) : false;
  }
  if (Array.isArray(a) && Array.isArray(b)) return seqEquals(a, b);
  if (a instanceof PyTuple && b instanceof PyTuple) return seqEquals(a.items, b.items);
  if (a instanceof PyDict && b instanceof PyDict) return a.equalsWith(b, identicalOrEqual);
  if (a instanceof PySet && b instanceof PySet) {
    if (a.size !== b.size) return false;
    return a.values().every((x) => b.has(x));
  }
  if (isPyObject(a) && a.pyEq) return a.pyEq(b);
  if (isPyObject(b) && b.pyEq) return b.pyEq(a);
  return false;
}

function seqEquals(a: readonly PyValue[], b: readonly PyValue[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!identicalOrEqual(a[i], b[i])) return false;
  return true;
}

/** Container comparison checks identity before `==` (so a NaN compares equal to itself inside a list). */
function identicalOrEqual(x: PyValue, y: PyValue): boolean {
  if (typeof x === "number" && typeof y === "number" && Number.isNaN(x) && Number.isNaN(y)) return false;
  return x === y || pyEquals(x, y);
}

/** `a != b`. */
export function pyNotEquals(a: PyValue, b: PyValue): boolean {
  return !pyEquals(a, b);
}

type CmpOp = "<" | "<=" | ">" | ">=";

function notSupported(op: CmpOp, a: PyValue, b: PyValue): PyException {
  return new PyException("TypeError", `'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

function applyCmp(op: CmpOp, c: number): boolean {
  switch (op) {
    case "<":
      return c < 0;
    case "<=":
      return c <= 0;
    case ">":
      return c > 0;
    case ">=":
      return c >= 0;
  }
}

/** Rich comparison `a op b` for ordering operators; TypeError for unorderable pairs, exactly as CPython words it. */
export function pyCompare(op: CmpOp, a: PyValue, b: PyValue): boolean {
  const c = cmpNumbers(a, b);
  if (c === undefined) return false; // NaN
  if (c !== null) return applyCmp(op, c);
  if (typeof a === "string" && typeof b === "string") return applyCmp(op, cmpStr(a, b));
  const seqA = Array.isArray(a) ? a : null;
  const seqB = Array.isArray(b) ? b : null;
  const tupA = a instanceof PyTuple ? a.items : null;
  const tupB = b instanceof PyTuple ? b.items : null;
  const xs = (seqA && seqB) ? seqA : (tupA && tupB) ? tupA : null;
  const ys = (seqA && seqB) ? seqB : (tupA && tupB) ? tupB : null;
  if (xs && ys) {
    const n = Math.min(xs.length, ys.length);
    for (let i = 0; i < n; i++) {
      if (!identicalOrEqual(xs[i], ys[i])) return pyCompare(op, xs[i], ys[i]);
    }
    return applyCmp(op, xs.length - ys.length);
  }
  if (a instanceof PySet && b instanceof PySet) {
    const subset = (x: PySet, y: PySet) => x.values().every((v) => y.has(v));
    switch (op) {
      case "<=":
        return subset(a, b);
      case ">=":
        return subset(b, a);
      case "<":
        return a.size < b.size && subset(a, b);
      case ">":
        return a.size > b.size && subset(b, a);
    }
  }
  const hook = (o: PyValue) => (isPyObject(o) ? (o as PyObject & { pyCompare?: (op: CmpOp, other: PyValue) => boolean | undefined }).pyCompare : undefined);
  const ha = hook(a);
  if (ha) {
    const r = ha.call(a, op, b);
    if (r !== undefined) return r;
  }
  const hb = hook(b);
  if (hb) {
    const swapped: Record<CmpOp, CmpOp> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" };
    const r = hb.call(b, swapped[op], a);
    if (r !== undefined) return r;
  }
  throw notSupported(op, a, b);
}

/** `a < b`. */
export function pyLt(a: PyValue, b: PyValue): boolean {
  return pyCompare("<", a, b);
}
/** `a <= b`. */
export function pyLe(a: PyValue, b: PyValue): boolean {
  return pyCompare("<=", a, b);
}
/** `a > b`. */
export function pyGt(a: PyValue, b: PyValue): boolean {
  return pyCompare(">", a, b);
}
/** `a >= b`. */
export function pyGe(a: PyValue, b: PyValue): boolean {
  return pyCompare(">=", a, b);
}

function unsupported(op: string, a: PyValue, b: PyValue): PyException {
  return new PyException("TypeError", `unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/** Both operands as floats when at least one is a float and both are numbers; else undefined. */
function floatPair(a: PyValue, b: PyValue): [number, number] | undefined {
  const fa = typeof a === "number" ? a : asInt(a) !== undefined ? undefined : null;
  const fb = typeof b === "number" ? b : asInt(b) !== undefined ? undefined : null;
  if (fa === null || fb === null) return undefined;
  if (typeof a !== "number" && typeof b !== "number") return undefined;
  return [typeof a === "number" ? a : intToFloat(asInt(a)!), typeof b === "number" ? b : intToFloat(asInt(b)!)];
}

/** Largest repetition count CPython accepts before `cannot fit 'int' into an index-sized integer`. */
const SSIZE_MAX = (1n << 63n) - 1n;
/** A repeated str longer than this many UTF-16 units is reported as MemoryError instead of being built (V8 strings stop near 2^29). */
export const MAX_STRING_LENGTH = 1 << 28;
/** A repeated list/tuple longer than this is reported as MemoryError instead of exhausting the process. */
export const MAX_SEQUENCE_LENGTH = 1 << 24;

function repeatCount(n: bigint, unitLength: number, limit: number): number {
  if (n > SSIZE_MAX || n < -SSIZE_MAX - 1n) throw new PyException("OverflowError", "cannot fit 'int' into an index-sized integer");
  if (n <= 0n || unitLength === 0) return 0;
  if (n * BigInt(unitLength) > BigInt(limit)) throw new PyException("MemoryError", "");
  return Number(n);
}

/**
 * `a op b` for Python's seven arithmetic operators (`+ - * / // % **`) on plain values —
 * the one table both evaluators (the executor's `literal-eval` and the decoder's
 * `literal`) share; undefined for any other operator, which each handles itself.
 */
export function pyArithmetic(op: string, a: PyValue, b: PyValue): PyValue | undefined {
  switch (op) {
    case "+":
      return pyAdd(a, b);
    case "-":
      return pySub(a, b);
    case "*":
      return pyMul(a, b);
    case "/":
      return pyTrueDiv(a, b);
    case "//":
      return pyFloorDiv(a, b);
    case "%":
      return pyMod(a, b);
    case "**":
      return pyPow(a, b);
  }
  return undefined;
}

/** `a + b`: numbers (int stays int), str/list/tuple concatenation, with CPython's TypeErrors. */
export function pyAdd(a: PyValue, b: PyValue): PyValue {
  const ai = asInt(a);
  const bi = asInt(b);
  if (ai !== undefined && bi !== undefined) return ai + bi;
  const fp = floatPair(a, b);
  if (fp) return fp[0] + fp[1];
  if (typeof a === "string") {
    if (typeof b === "string") return a + b;
    throw new PyException("TypeError", `can only concatenate str (not "${pyTypeName(b)}") to str`);
  }
  if (Array.isArray(a)) {
    if (Array.isArray(b)) return [...a, ...b];
    throw new PyException("TypeError", `can only concatenate list (not "${pyTypeName(b)}") to list`);
  }
  if (a instanceof PyTuple) {
    if (b instanceof PyTuple) return new PyTuple([...a.items, ...b.items]);
    throw new PyException("TypeError", `can only concatenate tuple (not "${pyTypeName(b)}") to tuple`);
  }
  throw unsupported("+", a, b);
}

/** `a - b`: numbers and set difference. */
export function pySub(a: PyValue, b: PyValue): PyValue {
  const ai = asInt(a);
  const bi = asInt(b);
  if (ai !== undefined && bi !== undefined) return ai - bi;
  const fp = floatPair(a, b);
  if (fp) return fp[0] - fp[1];
  if (a instanceof PySet && b instanceof PySet) return new PySet(a.values().filter((v) => !b.has(v)));
  throw unsupported("-", a, b);
}

/** `a * b`: numbers, and str/list/tuple repetition by an int (either side). */
export function pyMul(a: PyValue, b: PyValue): PyValue {
  const ai = asInt(a);
  const bi = asInt(b);
  if (ai !== undefined && bi !== undefined) return ai * bi;
  const fp = floatPair(a, b);
  if (fp) return fp[0] * fp[1];
  const isSeq = (v: PyValue) => typeof v === "string" || Array.isArray(v) || v instanceof PyTuple;
  const [seq, count] = isSeq(a) ? [a, b] : isSeq(b) ? [b, a] : [null, null];
  if (seq !== null) {
    const n = asInt(count!);
    if (n === undefined) {
      throw new PyException("TypeError", `can't multiply sequence by non-int of type '${pyTypeName(count!)}'`);
    }
    if (typeof seq === "string") return seq.repeat(repeatCount(n, seq.length, MAX_STRING_LENGTH));
    const items = Array.isArray(seq) ? seq : (seq as PyTuple).items;
    const times = repeatCount(n, items.length, MAX_SEQUENCE_LENGTH);
    const out: PyValue[] = [];
    for (let i = 0; i < times; i++) out.push(...items);
    return Array.isArray(seq) ? out : new PyTuple(out);
  }
  throw unsupported("*", a, b);
}

/** `a / b`: always a float; int/int is correctly rounded like CPython; ZeroDivisionError wording per operand types. */
export function pyTrueDiv(a: PyValue, b: PyValue): PyValue {
  const ai = asInt(a);
  const bi = asInt(b);
  if (ai !== undefined && bi !== undefined) {
    if (bi === 0n) throw new PyException("ZeroDivisionError", "division by zero");
    const lim = 1n << 53n;
    if (ai <= lim && ai >= -lim && bi <= lim && bi >= -lim) return Number(ai) / Number(bi);
    const r = ratioToFloat(ai, bi);
    if (!Number.isFinite(r)) throw new PyException("OverflowError", "integer division result too large for a float");
    return r;
  }
  const fp = floatPair(a, b);
  if (fp) {
    if (fp[1] === 0) throw new PyException("ZeroDivisionError", "float division by zero");
    return fp[0] / fp[1];
  }
  throw unsupported("/", a, b);
}

/** CPython's float divmod (floor quotient and remainder with the divisor's sign). */
function floatDivmod(vx: number, wx: number): [number, number] {
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod !== 0) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = wx < 0 || Object.is(wx, -0) ? -0 : 0;
  }
  let floordiv: number;
  if (div !== 0) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    const q = vx / wx;
    floordiv = q < 0 || Object.is(q, -0) ? -0 : 0;
  }
  return [floordiv, mod];
}

function intFloorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** `a // b`: floor division (int or float), with CPython's ZeroDivisionError wording. */
export function pyFloorDiv(a: PyValue, b: PyValue): PyValue {
  const ai = asInt(a);
  const bi = asInt(b);
  if (ai !== undefined && bi !== undefined) {
    if (bi === 0n) throw new PyException("ZeroDivisionError", "integer division or modulo by zero");
    return intFloorDiv(ai, bi);
  }
  const fp = floatPair(a, b);
  if (fp) {
    if (fp[1] === 0) throw new PyException("ZeroDivisionError", "float floor division by zero");
    return floatDivmod(fp[0], fp[1])[0];
  }
  throw unsupported("//", a, b);
}

/** `a % b` for numbers: the result takes the divisor's sign. (str `%` formatting is not modelled.) */
export function pyMod(a: PyValue, b: PyValue): PyValue {
  const ai = asInt(a);
  const bi = asInt(b);
  if (ai !== undefined && bi !== undefined) {
    if (bi === 0n) throw new PyException("ZeroDivisionError", "integer modulo by zero");
    return ai - intFloorDiv(ai, bi) * bi;
  }
  const fp = floatPair(a, b);
  if (fp) {
    if (fp[1] === 0) throw new PyException("ZeroDivisionError", "float modulo");
    return floatDivmod(fp[0], fp[1])[1];
  }
  throw unsupported("%", a, b);
}

/** Above this many result bits an int power is refused with MemoryError instead of hanging the process. */
export const MAX_INT_POW_BITS = 1 << 24;

/** A complex number, produced only by a negative float raised to a fractional power. */
export class PyComplex implements PyObject {
  readonly pyTypeName = "complex";
  constructor(readonly re: number, readonly im: number) {}
  pyBool(): boolean {
    return this.re !== 0 || this.im !== 0;
  }
  pyRepr(): string {
    const fmt = reprFloatNoSuffix;
    const imag = `${fmt(this.im)}j`;
    if (this.re === 0 && !Object.is(this.re, -0)) return imag;
    const sign = this.im < 0 || Object.is(this.im, -0) || (Number.isNaN(this.im) && false) ? "" : "+";
    return `(${fmt(this.re)}${sign}${imag})`;
  }
  pyEq(other: PyValue): boolean {
    if (other instanceof PyComplex) return other.re === this.re && other.im === this.im;
    if (this.im !== 0) return false;
    return pyEquals(this.re, other);
  }
}

/** Complex repr prints floats like repr() but drops the `.0` of integral values. */
function reprFloatNoSuffix(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const s = reprModule.floatRepr(x);
  return s.endsWith(".0") ? s.slice(0, -2) : s;
}

/** Exact `x ** n` for a finite float and an int exponent, correctly rounded (what glibc's pow returns). */
function floatPowInt(x: number, n: bigint): number {
  if (n === 0n) return 1;
  if (x === 0) {
    const odd = (n & 1n) === 1n;
    if (n < 0n) throw new PyException("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    return odd ? x : 0;
  }
  const { num, den } = floatToRatio(x);
  const mag = n < 0n ? -n : n;
  if (mag > 2048n || bitLength(num) * Number(mag) > 1 << 17 || bitLength(den) * Number(mag) > 1 << 17) {
    // too large to expand exactly: |x|**n through exp/log at high precision, sign from parity
    const r = powPositive(Math.abs(x), Number(n));
    return x < 0 && (n & 1n) === 1n ? -r : r;
  }
  const pn = num ** mag;
  const pd = den ** mag;
  return n < 0n ? ratioToFloat(pd, pn) : ratioToFloat(pn, pd);
}

/** `a ** b`: int**nonneg-int stays int; negative exponents give floats; negative float base with fractional exponent gives complex. */
export function pyPow(a: PyValue, b: PyValue): PyValue {
  const ai = asInt(a);
  const bi = asInt(b);
  if (ai !== undefined && bi !== undefined) {
    if (bi >= 0n) {
      if (ai === 0n || ai === 1n || bi === 0n) return bi === 0n ? 1n : ai;
      if (ai === -1n) return (bi & 1n) === 1n ? -1n : 1n;
      const bits = BigInt(bitLength(ai)) * bi;
      if (bits > BigInt(MAX_INT_POW_BITS)) throw new PyException("MemoryError", "");
      return ai ** bi;
    }
    if (ai === 0n) throw new PyException("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    return checkFloatResult(floatPowInt(intToFloat(ai), bi), intToFloat(ai));
  }
  const fp = floatPair(a, b);
  if (!fp) throw unsupported("** or pow()", a, b);
  const [x, y] = fp;
  if (x === 0 && y < 0) throw new PyException("ZeroDivisionError", "0.0 cannot be raised to a negative power");
  if (Number.isNaN(x)) return y === 0 ? 1 : NaN;
  if (Number.isNaN(y)) return x === 1 ? 1 : NaN;
  if (x < 0 && Number.isFinite(x) && Number.isFinite(y) && !Number.isInteger(y)) {
    // Python 3 returns a complex number: |x|**y * e^(iπy)
    const r = powPositive(-x, y);
    const ang = Math.PI * y;
    return new PyComplex(r * Math.cos(ang), r * Math.sin(ang));
  }
  if (Number.isFinite(x) && Number.isFinite(y) && Number.isInteger(y) && Math.abs(y) <= 2 ** 53) {
    return checkFloatResult(floatPowInt(x, BigInt(y)), x);
  }
  if (x === 1 || y === 0) return 1;
  if (x === -1 && !Number.isFinite(y)) return 1;
  if (x > 0 && Number.isFinite(x) && Number.isFinite(y)) return checkFloatResult(powPositive(x, y), x, y);
  return checkFloatResult(Math.pow(x, y), x, y);
}

function checkFloatResult(r: number, base: number, exponent = 0): number {
  if (!Number.isFinite(r) && Number.isFinite(base) && Number.isFinite(exponent)) throw new PyException("OverflowError", "(34, 'Numerical result out of range')");
  return r;
}

/** `-x` (bool becomes int). */
export function pyNeg(v: PyValue): PyValue {
  const i = asInt(v);
  if (i !== undefined) return -i;
  if (typeof v === "number") return -v;
  throw new PyException("TypeError", `bad operand type for unary -: '${pyTypeName(v)}'`);
}

/** `+x` (bool becomes int). */
export function pyPos(v: PyValue): PyValue {
  const i = asInt(v);
  if (i !== undefined) return i;
  if (typeof v === "number") return v;
  throw new PyException("TypeError", `bad operand type for unary +: '${pyTypeName(v)}'`);
}

/** `abs(x)` (bool becomes int). */
export function pyAbs(v: PyValue): PyValue {
  const i = asInt(v);
  if (i !== undefined) return i < 0n ? -i : i;
  if (typeof v === "number") return Math.abs(v);
  if (v instanceof PyComplex) return Math.hypot(v.re, v.im);
  throw new PyException("TypeError", `bad operand type for abs(): '${pyTypeName(v)}'`);
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
const PY_WHITESPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

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
    throw new PyException("ValueError", `could not convert string to float: ${reprModule.strRepr(v)}`);
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
      if (digits > reprModule.INT_MAX_STR_DIGITS) {
        throw new PyException(
          "ValueError",
          `Exceeds the limit (${reprModule.INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
        );
      }
      return BigInt(t.replace(/_/g, ""));
    }
    throw new PyException("ValueError", `invalid literal for int() with base 10: ${reprModule.strRepr(v)}`);
  }
  const hook = isPyObject(v) ? (v as PyObject & { pyInt?: () => bigint }).pyInt : undefined;
  if (hook) return hook.call(v);
  throw new PyException("TypeError", `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`);
}

/** The items of an iterable value (list, tuple, set in CPython's order, dict keys, str characters), or TypeError. */
export function pyIter(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return [...v.items];
  if (v instanceof PySet) return cpythonSetOrder(v.values());
  if (v instanceof PyDict) return v.keys();
  if (typeof v === "string") return Array.from(v);
  const hook = isPyObject(v) ? (v as PyObject & { pyIter?: () => PyValue[] }).pyIter : undefined;
  if (hook) return hook.call(v);
  throw new PyException("TypeError", `'${pyTypeName(v)}' object is not iterable`);
}

const LONG_MAX = (1n << 63n) - 1n;

/**
 * `sum(items, start=0)` as CPython >= 3.12 computes it: exact ints, then (once a float
 * appears) Neumaier-compensated float accumulation where int items are added uncompensated,
 * falling back to generic `+` for anything else.
 */
export function pySum(items: readonly PyValue[], start: PyValue = 0n): PyValue {
  if (typeof start === "string") throw new PyException("TypeError", "sum() can't sum strings [use ''.join(seq) instead]");
  let result: PyValue = start;
  let i = 0;
  if (typeof result === "bigint") {
    let acc: bigint = result;
    for (; i < items.length; i++) {
      const it = items[i];
      if (typeof it === "bigint") acc += it;
      else if (typeof it === "boolean") acc += it ? 1n : 0n;
      else break;
    }
    result = acc;
    if (i === items.length) return result;
    const it = items[i];
    result = pyAdd(result, it);
    i++;
  }
  if (typeof result === "number") {
    let f = result;
    let c = 0;
    let fellBack = false;
    for (; i < items.length; i++) {
      const it = items[i];
      if (typeof it === "number") {
        const t = f + it;
        if (Math.abs(f) >= Math.abs(it)) c += f - t + it;
        else c += it - t + f;
        f = t;
        continue;
      }
      const iv = asInt(it);
      if (iv !== undefined && iv <= LONG_MAX && iv >= -LONG_MAX - 1n) {
        f += Number(iv);
        continue;
      }
      fellBack = true;
      break;
    }
    if (!fellBack) {
      if (c && Number.isFinite(c)) f += c;
      return f;
    }
    result = f;
  }
  for (; i < items.length; i++) result = pyAdd(result, items[i]);
  return result;
}

/** `len(x)`: str counts code points like Python; TypeError for unsized values. */
export function pyLen(v: PyValue): number {
  if (typeof v === "string") {
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < v.length) {
        const d = v.charCodeAt(i + 1);
        if (d >= 0xdc00 && d < 0xe000) i++;
      }
      n++;
    }
    return n;
  }
  if (Array.isArray(v)) return v.length;
  if (v instanceof PyTuple) return v.items.length;
  if (v instanceof PyDict || v instanceof PySet) return v.size;
  const hook = isPyObject(v) ? (v as PyObject & { pyLen?: () => number }).pyLen : undefined;
  if (hook) return hook.call(v);
  throw new PyException("TypeError", `object of type '${pyTypeName(v)}' has no len()`);
}

/**
 * `sorted(items, key=…, reverse=…)`: stable, ordered by Python `<` only, performing the
 * comparisons in CPython's order for lists under 64 items (count_run + binary insertion), so
 * a mixed-type list raises the same `'<' not supported between …` message.
 */
export function pySorted(items: Iterable<PyValue>, options: { key?: (v: PyValue) => PyValue; reverse?: boolean } = {}): PyValue[] {
  const vals = [...items];
  const keys = options.key ? vals.map(options.key) : vals.slice();
  const idx = vals.map((_, i) => i);
  if (options.reverse) {
    idx.reverse();
  }
  const lt = (i: number, j: number) => pyLt(keys[i], keys[j]);
  const n = idx.length;
  if (n >= 2) {
    // count_run on the first run
    let run = 2;
    if (lt(idx[1], idx[0])) {
      while (run < n && lt(idx[run], idx[run - 1])) run++;
      const head = idx.slice(0, run).reverse();
      for (let k = 0; k < run; k++) idx[k] = head[k];
    } else {
      while (run < n && !lt(idx[run], idx[run - 1])) run++;
    }
    // binary insertion of the rest
    for (let s = run; s < n; s++) {
      const pivot = idx[s];
      let l = 0;
      let r = s;
      do {
        const p = l + ((r - l) >> 1);
        if (lt(pivot, idx[p])) r = p;
        else l = p + 1;
      } while (l < r);
      idx.splice(s, 1);
      idx.splice(l, 0, pivot);
    }
  }
  if (options.reverse) idx.reverse();
  return idx.map((i) => vals[i]);
}

/** `min(items)` / `max(items)` over a non-empty sequence, with Python's first-wins tie rule and empty-sequence ValueError. */
export function pyMinMax(kind: "min" | "max", items: readonly PyValue[]): PyValue {
  if (items.length === 0) throw new PyException("ValueError", `${kind}() arg is an empty sequence`);
  let best = items[0];
  for (let i = 1; i < items.length; i++) {
    if (kind === "min" ? pyLt(items[i], best) : pyGt(items[i], best)) best = items[i];
  }
  return best;
}

/** `x in container` with Python membership rules (substring for str, keys for dict). */
export function pyContains(container: PyValue, x: PyValue): boolean {
  if (typeof container === "string") {
    if (typeof x !== "string") throw new PyException("TypeError", `'in <string>' requires string as left operand, not ${pyTypeName(x)}`);
    return container.includes(x);
  }
  if (container instanceof PyDict) return container.has(x);
  if (container instanceof PySet) return container.has(x);
  if (Array.isArray(container) || container instanceof PyTuple) {
    const arr = Array.isArray(container) ? container : container.items;
    return arr.some((y) => y === x || pyEquals(y, x));
  }
  const hook = isPyObject(container) ? (container as PyObject & { pyContains?: (v: PyValue) => boolean }).pyContains : undefined;
  if (hook) return hook.call(container, x);
  throw new PyException("TypeError", `argument of type '${pyTypeName(container)}' is not iterable`);
}
