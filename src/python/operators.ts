/**
 * Python's unary and binary operators over the value model — the one implementation both
 * evaluators use: the executor's `evalLiteral` and the decoder's `eval(ast.unparse(…))`
 * of a binary operation (`literal.ts`, `bfcl/decode/prompting.ts`). Results and error
 * messages are CPython 3.11's (`vectors/literal-eval.json`, `operators.test.ts`).
 */
import type { PyValue } from "./value.js";
import { PyDict, PySet } from "./containers.js";
import { PyException } from "./exception.js";
import { asInt, pyTruthy, pyTypeName } from "./kinds.js";
import { MAX_INT_POW_BITS, pyArithmetic, pyNeg, pyPos } from "./arithmetic.js";
import { PyComplex } from "./complex.js";
import { intToFloat } from "./convert.js";

/** A unary operator of Python's grammar. */
export type UnaryOperator = "-" | "+" | "not" | "~";

/** `op v` for Python's unary operators. */
export function pyUnaryOp(op: UnaryOperator | string, v: PyValue): PyValue {
  switch (op) {
    case "-":
      return v instanceof PyComplex ? new PyComplex(-v.re, -v.im) : pyNeg(v);
    case "+":
      return v instanceof PyComplex ? v : pyPos(v);
    case "not":
      return !pyTruthy(v);
    case "~": {
      const i = asInt(v);
      if (i === undefined) throw new PyException("TypeError", `bad operand type for unary ~: '${pyTypeName(v)}'`);
      return -i - 1n;
    }
  }
  throw new PyException("SyntaxError", `invalid unary operator ${op}`);
}

function unsupported(op: string, a: PyValue, b: PyValue): PyException {
  return new PyException("TypeError", `unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/** `a op b` for Python's binary operators: arithmetic, complex, bytes, `@`, and the bit operators. */
export function pyBinaryOp(op: string, a: PyValue, b: PyValue): PyValue {
  if (a instanceof PyComplex || b instanceof PyComplex) {
    const parts = complexParts(a, b);
    if (parts !== null) return complexOp(op, parts, a, b);
  }
  if (op === "@") throw unsupported("@", a, b);
  const r = pyArithmetic(op, a, b);
  return r !== undefined ? r : bitOp(op, a, b);
}

/** Both operands as (re, im) when both are numbers and one is complex; else null (a sequence or other type decides the error). */
function complexParts(a: PyValue, b: PyValue): [number, number, number, number] | null {
  const part = (v: PyValue): [number, number] | null => {
    if (v instanceof PyComplex) return [v.re, v.im];
    if (typeof v === "number") return [v, 0];
    const i = asInt(v);
    return i !== undefined ? [intToFloat(i), 0] : null;
  };
  const x = part(a);
  const y = part(b);
  return x !== null && y !== null ? [x[0], x[1], y[0], y[1]] : null;
}

/** Complex `+ - * /` (CPython's `_Py_c_sum` … `_Py_c_quot`); `**` is not modelled, the rest are TypeErrors. */
function complexOp(op: string, [ar, ai, br, bi]: [number, number, number, number], a: PyValue, b: PyValue): PyValue {
  switch (op) {
    case "+":
      return new PyComplex(ar + br, ai + bi);
    case "-":
      return new PyComplex(ar - br, ai - bi);
    case "*":
      return new PyComplex(ar * br - ai * bi, ar * bi + ai * br);
    case "/":
      return complexQuotient(ar, ai, br, bi);
    case "**":
      throw new PyException("ValueError", "complex power is not modelled");
  }
  throw unsupported(op, a, b);
}

/** CPython's `_Py_c_quot`: Smith's method, scaled by the larger part of the divisor. */
function complexQuotient(ar: number, ai: number, br: number, bi: number): PyComplex {
  const absRe = Math.abs(br);
  const absIm = Math.abs(bi);
  if (absRe >= absIm) {
    if (absRe === 0) throw new PyException("ZeroDivisionError", "complex division by zero");
    const ratio = bi / br;
    const denom = br + bi * ratio;
    return new PyComplex((ar + ai * ratio) / denom, (ai - ar * ratio) / denom);
  }
  if (absIm >= absRe) {
    const ratio = br / bi;
    const denom = br * ratio + bi;
    return new PyComplex((ar * ratio + ai) / denom, (ai * ratio - ar) / denom);
  }
  return new PyComplex(NaN, NaN);
}

/** Largest shift count CPython can even represent (`Py_ssize_t`); beyond it a left shift is `too many digits`. */
const SSIZE_MAX = (1n << 63n) - 1n;

/** `& | ^ << >>` on ints and bools, and `| & ^` on sets, `|` on dicts. */
function bitOp(op: string, a: PyValue, b: PyValue): PyValue {
  const x = asInt(a);
  const y = asInt(b);
  if (x === undefined || y === undefined) return containerBitOp(op, a, b);
  const bothBool = typeof a === "boolean" && typeof b === "boolean";
  switch (op) {
    case "&":
      return bothBool ? a && b : x & y;
    case "|":
      return bothBool ? a || b : x | y;
    case "^":
      return bothBool ? a !== b : x ^ y;
    case "<<":
      if (y < 0n) throw new PyException("ValueError", "negative shift count");
      if (x === 0n) return 0n;
      if (y > SSIZE_MAX) throw new PyException("OverflowError", "too many digits in integer");
      // an int this large is refused as pyPow refuses one, instead of exhausting the process
      if (y > BigInt(MAX_INT_POW_BITS)) throw new PyException("MemoryError", "");
      return x << y;
    case ">>":
      if (y < 0n) throw new PyException("ValueError", "negative shift count");
      return x >> y;
  }
  throw unsupported(op, a, b);
}

function containerBitOp(op: string, a: PyValue, b: PyValue): PyValue {
  if (a instanceof PySet && b instanceof PySet) {
    if (op === "|") return new PySet([...a.values(), ...b.values()]);
    if (op === "&") return new PySet(a.values().filter((v) => b.has(v)));
    if (op === "^") return new PySet([...a.values().filter((v) => !b.has(v)), ...b.values().filter((v) => !a.has(v))]);
  }
  if (a instanceof PyDict && b instanceof PyDict && op === "|") {
    const d = new PyDict(a.entries());
    for (const [k, v] of b.entries()) d.set(k, v);
    return d;
  }
  throw unsupported(op, a, b);
}
