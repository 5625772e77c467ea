/**
 * Python's `==` and ordering operators over the value model: `1 == 1.0 == True`, exact
 * int/float comparison, code-point string order, deep container equality, and CPython's
 * `'<' not supported between instances of …` TypeError. BFCL's classes compare whatever
 * the model passed, and the checker compares states with `==`.
 */
import type { PyObject, PyValue } from "./value.js";
import { PyTuple, PyDict, PySet } from "./containers.js";
import { PyException } from "./exception.js";
import { floatToRatio } from "./numeric.js";
import { asInt, isPyObject, pyTypeName } from "./kinds.js";
import { COMPARE_MAX_DEPTH, recursionError } from "./limits.js";

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
  // containers compare their items one level deeper (no closure here: the state check runs this every turn)
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    enterNested();
    try {
      return seqEquals(a, b);
    } finally {
      compareDepth--;
    }
  }
  if (a instanceof PyTuple && b instanceof PyTuple) {
    if (a.items.length !== b.items.length) return false;
    enterNested();
    try {
      return seqEquals(a.items, b.items);
    } finally {
      compareDepth--;
    }
  }
  if (a instanceof PyDict && b instanceof PyDict) {
    if (a.size !== b.size) return false;
    enterNested();
    try {
      return a.equalsWith(b, identicalOrEqual);
    } finally {
      compareDepth--;
    }
  }
  if (a instanceof PySet && b instanceof PySet) {
    if (a.size !== b.size) return false;
    return a.values().every((x) => b.has(x));
  }
  if (isPyObject(a) && a.pyEq) return a.pyEq(b);
  if (isPyObject(b) && b.pyEq) return b.pyEq(a);
  return false;
}

/** Container comparisons open around the current one. */
let compareDepth = 0;

/**
 * One level deeper into two containers' items (the caller leaves it in `finally`): past
 * CPython's C recursion limit the comparison raises RecursionError, as `==` and `<` on
 * nested containers do.
 */
function enterNested(): void {
  if (compareDepth >= COMPARE_MAX_DEPTH) throw recursionError(" in comparison");
  compareDepth++;
}

function seqEquals(a: readonly PyValue[], b: readonly PyValue[]): boolean {
  for (let i = 0; i < a.length; i++) if (!identicalOrEqual(a[i], b[i])) return false;
  return true;
}

/**
 * Container comparison checks identity before `==` (so a NaN compares equal to itself
 * inside a list). The empty tuple is one object in CPython, so two of them are identical.
 */
function identicalOrEqual(x: PyValue, y: PyValue): boolean {
  if (typeof x === "number" && typeof y === "number" && Number.isNaN(x) && Number.isNaN(y)) return false;
  if (x === y) return true;
  if (x instanceof PyTuple && y instanceof PyTuple && x.items.length === 0 && y.items.length === 0) return true;
  return pyEquals(x, y);
}

/** `a != b`. */
export function pyNotEquals(a: PyValue, b: PyValue): boolean {
  return !pyEquals(a, b);
}

/** An ordering operator. */
export type CmpOp = "<" | "<=" | ">" | ">=";

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
  const xs = seqA && seqB ? seqA : tupA && tupB ? tupA : null;
  const ys = seqA && seqB ? seqB : tupA && tupB ? tupB : null;
  if (xs && ys) {
    enterNested();
    try {
      const n = Math.min(xs.length, ys.length);
      for (let i = 0; i < n; i++) {
        if (!identicalOrEqual(xs[i], ys[i])) return pyCompare(op, xs[i], ys[i]);
      }
      return applyCmp(op, xs.length - ys.length);
    } finally {
      compareDepth--;
    }
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
  const hook = (o: PyValue) =>
    isPyObject(o) ? (o as PyObject & { pyCompare?: (op: CmpOp, other: PyValue) => boolean | undefined }).pyCompare : undefined;
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
