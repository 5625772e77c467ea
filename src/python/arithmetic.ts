/**
 * Python's arithmetic operators (`+ - * / // % **`, unary `-`/`+`, `abs`) over the value
 * model, with CPython's result types (int stays int, `/` gives float, a negative base to a
 * fractional power gives complex) and exact error messages. BFCL's classes do arithmetic
 * on whatever the model passed, and the resulting value or `Error during execution: …`
 * string is compared verbatim.
 */
import type { PyValue } from "./value.js";
import { PyTuple, PySet } from "./containers.js";
import { PyException } from "./exception.js";
import { bitLength, floatToRatio, powPositive, ratioToFloat } from "./numeric.js";
import { asInt, pyTypeName } from "./kinds.js";
import { intToFloat } from "./convert.js";
import { PyComplex } from "./complex.js";
import { PyBytes, bytesConcat, bytesRepeat } from "./bytes.js";

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
 * the table under `pyBinaryOp` (`operators.ts`); undefined for any other operator.
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

/** `a + b`: numbers (int stays int), str/list/tuple/bytes concatenation, with CPython's TypeErrors. */
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
  if (a instanceof PyBytes) {
    if (b instanceof PyBytes) return bytesConcat(a, b);
    throw new PyException("TypeError", `can't concat ${pyTypeName(b)} to bytes`);
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

/** `a * b`: numbers, and str/list/tuple/bytes repetition by an int (either side). */
export function pyMul(a: PyValue, b: PyValue): PyValue {
  const ai = asInt(a);
  const bi = asInt(b);
  if (ai !== undefined && bi !== undefined) return ai * bi;
  const fp = floatPair(a, b);
  if (fp) return fp[0] * fp[1];
  const isSeq = (v: PyValue) => typeof v === "string" || Array.isArray(v) || v instanceof PyTuple || v instanceof PyBytes;
  const [seq, count] = isSeq(a) ? [a, b] : isSeq(b) ? [b, a] : [null, null];
  if (seq !== null) {
    const n = asInt(count!);
    if (n === undefined) {
      throw new PyException("TypeError", `can't multiply sequence by non-int of type '${pyTypeName(count!)}'`);
    }
    if (typeof seq === "string") return seq.repeat(repeatCount(n, seq.length, MAX_STRING_LENGTH));
    if (seq instanceof PyBytes) return bytesRepeat(seq, repeatCount(n, seq.data.length, MAX_SEQUENCE_LENGTH));
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
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
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
  if (!Number.isFinite(r) && Number.isFinite(base) && Number.isFinite(exponent))
    throw new PyException("OverflowError", "(34, 'Numerical result out of range')");
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
