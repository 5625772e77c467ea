/**
 * Evaluates the constant part of a parsed Python expression — what `eval` would produce
 * for call arguments such as `[1, 2.0, 'a']`, `-3`, `{'k': (1,)}`, `1+2` or `'a' * 3` —
 * without running anything. Names and calls are delegated to hooks (the executor resolves
 * nested method calls); by default they raise Python's NameError/TypeError.
 */
import type { PyExpr } from "./ast.js";
import type { PyObject, PyValue } from "./value.js";
import { PyTuple, PyDict, PySet } from "./containers.js";
import { PyException } from "./exception.js";
import { asInt, pyTruthy, pyTypeName } from "./kinds.js";
import { pyEquals, pyCompare } from "./compare.js";
import { pyBinaryOp, pyUnaryOp } from "./operators.js";
import { PyComplex } from "./complex.js";
import { PyBytes } from "./bytes.js";
import { pyIndex } from "./convert.js";
import { pyContains, pyIter } from "./iterables.js";
import { pyRepr as pyReprLazy } from "./repr.js";
import { callBuiltin, MODELLED_BUILTINS, notCallable } from "./builtins.js";

/** Python's `Ellipsis` singleton. */
export const PY_ELLIPSIS: PyObject = { pyTypeName: "ellipsis", pyRepr: () => "Ellipsis" };

/** How names and calls inside an expression are resolved; both default to raising like Python. */
export interface LiteralEvalHooks {
  /** Value of a bare name (`True`/`False`/`None` never reach here). Default: NameError. */
  name?(id: string, node: PyExpr): PyValue;
  /** Value of a call node. Default: TypeError/NameError as evaluating it without the executor would. */
  call?(node: Extract<PyExpr, { kind: "call" }>, evaluate: (e: PyExpr) => PyValue): PyValue;
  /** Value of `obj.attr`. Default: AttributeError. */
  attribute?(node: Extract<PyExpr, { kind: "attribute" }>, evaluate: (e: PyExpr) => PyValue): PyValue;
}

function nameError(id: string): PyException {
  return new PyException("NameError", `name '${id}' is not defined`);
}

function subscript(container: PyValue, index: PyValue): PyValue {
  if (Array.isArray(container) || container instanceof PyTuple || typeof container === "string") {
    const items: readonly PyValue[] =
      typeof container === "string" ? Array.from(container) : Array.isArray(container) ? container : container.items;
    const kind = typeof container === "string" ? "string" : Array.isArray(container) ? "list" : "tuple";
    const i = asInt(index);
    if (i === undefined) throw new PyException("TypeError", `${kind} indices must be integers or slices, not ${pyTypeName(index)}`);
    const n = BigInt(items.length);
    const j = i < 0n ? i + n : i;
    if (j < 0n || j >= n) throw new PyException("IndexError", `${kind} index out of range`);
    return items[Number(j)];
  }
  if (container instanceof PyDict) {
    const v = container.get(index);
    if (v === undefined) throw new PyException("KeyError", pyReprLazy(index));
    return v;
  }
  throw new PyException("TypeError", `'${pyTypeName(container)}' object is not subscriptable`);
}

function sliceOf(container: PyValue, lower: PyValue, upper: PyValue, step: PyValue): PyValue {
  const items: readonly PyValue[] | null =
    typeof container === "string"
      ? Array.from(container)
      : Array.isArray(container)
        ? container
        : container instanceof PyTuple
          ? container.items
          : null;
  if (items === null) throw new PyException("TypeError", `'${pyTypeName(container)}' object is not subscriptable`);
  const n = items.length;
  const st = step === null ? 1 : Number(pyIndex(step));
  if (st === 0) throw new PyException("ValueError", "slice step cannot be zero");
  const norm = (v: PyValue, dflt: number, lo: number, hi: number) => {
    if (v === null) return dflt;
    let x = Number(pyIndex(v));
    if (x < 0) x += n;
    return Math.min(Math.max(x, lo), hi);
  };
  const start = st > 0 ? norm(lower, 0, 0, n) : norm(lower, n - 1, -1, n - 1);
  const stop = st > 0 ? norm(upper, n, 0, n) : norm(upper, -1, -1, n - 1);
  const out: PyValue[] = [];
  if (st > 0) for (let i = start; i < stop; i += st) out.push(items[i]);
  else for (let i = start; i > stop; i += st) out.push(items[i]);
  if (typeof container === "string") return out.join("");
  return Array.isArray(container) ? out : new PyTuple(out);
}

function compareOne(op: string, a: PyValue, b: PyValue): boolean {
  switch (op) {
    case "==":
      return pyEquals(a, b);
    case "!=":
      return !pyEquals(a, b);
    case "<":
    case "<=":
    case ">":
    case ">=":
      return pyCompare(op, a, b);
    case "in":
      return pyContains(b, a);
    case "not in":
      return !pyContains(b, a);
    case "is":
      return a === b || (a === null && b === null);
    case "is not":
      return !(a === b);
  }
  throw new PyException("SyntaxError", `invalid comparison operator ${op}`);
}

/**
 * The value Python's `eval` gives a constant expression. Raises PyException for what Python
 * would raise (NameError for unknown names, TypeError for bad operands, `unhashable type`…)
 * and for constructs that are not values (lambda, comprehension, f-string, starred outside a
 * display).
 */
export function evalLiteral(expr: PyExpr, hooks: LiteralEvalHooks = NO_HOOKS, evaluate?: (e: PyExpr) => PyValue): PyValue {
  // leaves first (most nodes are plain constants)
  switch (expr.kind) {
    case "int":
    case "float":
    case "str":
    case "bool":
      return expr.value;
    case "none":
      return null;
  }
  // one evaluator per top-level call, handed down the tree (no closure per node)
  const ev = evaluate ?? evaluatorFor(hooks);
  if (chainDeeperThan(expr, LONG_CHAIN)) return evalChain(expr, hooks, ev);
  return evalNode(expr, hooks, ev);
}

/**
 * The child through which a node continues a chain that Python evaluates without
 * recursion (bytecode is flat): a unary operand, a left operand (the right one of `**`),
 * the object of an attribute or subscript, the callee of a call.
 */
function chainChild(e: PyExpr): PyExpr | null {
  switch (e.kind) {
    case "unary":
      return e.operand;
    case "binary":
      return e.op === "**" ? e.right : e.left;
    case "attribute":
    case "subscript":
      return e.value;
    case "call":
      return e.func;
  }
  return null;
}

/** Chains longer than this are evaluated iteratively (`evalChain`); shorter ones recurse. */
const LONG_CHAIN = 32;

function chainDeeperThan(e: PyExpr, n: number): boolean {
  let node: PyExpr | null = e;
  for (let k = 0; k <= n; k++) {
    node = chainChild(node);
    if (node === null) return false;
  }
  return true;
}

/**
 * Evaluate a long chain (`- - - x`, `1+1+…+1`, `a.b.c…`, `f()()…`, `2**2**…`) with a loop instead of one
 * JavaScript frame per link, since the parser accepts about 3000 links, as CPython's compiler does. Operands
 * come in Python's order. More in this folder's README.md.
 */
function evalChain(expr: PyExpr, hooks: LiteralEvalHooks, ev: (e: PyExpr) => PyValue): PyValue {
  const chain: PyExpr[] = [];
  const known = new Map<PyExpr, PyValue>();
  let node = expr;
  for (let c = chainChild(node); c !== null; c = chainChild(node)) {
    if (node.kind === "binary" && node.op === "**") known.set(node.left, ev(node.left));
    chain.push(node);
    node = c;
  }
  let value = ev(node);
  const evKnown = (e: PyExpr): PyValue => (known.has(e) ? (known.get(e) as PyValue) : ev(e));
  for (let i = chain.length - 1; i >= 0; i--) {
    known.set(chainChild(chain[i]) as PyExpr, value);
    value = evalNode(chain[i], hooks, evKnown);
  }
  return value;
}

/** One node of `evalLiteral`, its operands through `ev`. */
function evalNode(expr: PyExpr, hooks: LiteralEvalHooks, ev: (e: PyExpr) => PyValue): PyValue {
  switch (expr.kind) {
    case "int":
    case "float":
    case "str":
    case "bool":
      return expr.value;
    case "none":
      return null;
    case "imag":
      return new PyComplex(0, expr.value);
    case "bytes":
      return new PyBytes(expr.value);
    case "ellipsis":
      return PY_ELLIPSIS;
    case "name":
      if (hooks.name) return hooks.name(expr.id, expr);
      throw nameError(expr.id);
    case "list":
      return elementsOf(expr.elts, ev);
    case "tuple":
      return new PyTuple(elementsOf(expr.elts, ev));
    case "set":
      return new PySet(elementsOf(expr.elts, ev));
    case "dict":
      return dictOf(expr, ev);
    case "unary":
      return pyUnaryOp(expr.op, ev(expr.operand));
    case "binary": {
      const a = ev(expr.left);
      return pyBinaryOp(expr.op, a, ev(expr.right));
    }
    case "boolop":
      return boolOpOf(expr, ev);
    case "compare":
      return compareChainOf(expr, ev);
    case "ifexp":
      return ifExpOf(expr, ev);
    case "subscript":
      return subscriptOf(expr, ev);
    case "attribute":
      if (hooks.attribute) return hooks.attribute(expr, ev);
      throw new PyException("AttributeError", `'${pyTypeName(ev(expr.value))}' object has no attribute '${expr.attr}'`);
    case "call":
      if (hooks.call) return hooks.call(expr, ev);
      return defaultCall(expr, ev);
    case "slice":
      throw new PyException("SyntaxError", "invalid syntax");
    case "starred":
      throw new PyException("SyntaxError", "can't use starred expression here");
    case "lambda":
    case "comprehension":
    case "fstring":
      throw new PyException("ValueError", `not a literal: ${expr.kind}`);
  }
  throw new PyException("ValueError", `not a literal: ${(expr as PyExpr).kind}`);
}

type Node<K extends PyExpr["kind"]> = Extract<PyExpr, { kind: K }>;

/** A dict display: `**m` entries merged in order, then key-value pairs, later keys winning. */
function dictOf(expr: Node<"dict">, ev: (e: PyExpr) => PyValue): PyDict {
  const d = new PyDict();
  expr.keys.forEach((k, i) => {
    if (k === null) {
      const m = ev(expr.values[i]);
      if (!(m instanceof PyDict)) throw new PyException("TypeError", `'${pyTypeName(m)}' object is not a mapping`);
      for (const [kk, vv] of m.entries()) d.set(kk, vv);
    } else {
      const key = ev(k);
      const val = ev(expr.values[i]);
      d.set(key, val);
    }
  });
  return d;
}

/** `and` / `or`: the first operand that decides, else the last. */
function boolOpOf(expr: Node<"boolop">, ev: (e: PyExpr) => PyValue): PyValue {
  let v: PyValue = null;
  for (const e of expr.values) {
    v = ev(e);
    if (expr.op === "and" ? !pyTruthy(v) : pyTruthy(v)) return v;
  }
  return v;
}

/** `a < b < c`: each operand evaluated once, stopping at the first false comparison. */
function compareChainOf(expr: Node<"compare">, ev: (e: PyExpr) => PyValue): PyValue {
  let left = ev(expr.left);
  for (let i = 0; i < expr.ops.length; i++) {
    const right = ev(expr.comparators[i]);
    if (!compareOne(expr.ops[i], left, right)) return false;
    left = right;
  }
  return true;
}

/** `a if c else b if d else …`: the else-chain in a loop. */
function ifExpOf(expr: Node<"ifexp">, ev: (e: PyExpr) => PyValue): PyValue {
  let node: PyExpr = expr;
  while (node.kind === "ifexp") {
    if (pyTruthy(ev(node.test))) return ev(node.body);
    node = node.orelse;
  }
  return ev(node);
}

function subscriptOf(expr: Node<"subscript">, ev: (e: PyExpr) => PyValue): PyValue {
  const container = ev(expr.value);
  if (expr.index.kind === "slice") {
    const s = expr.index;
    return sliceOf(container, s.lower ? ev(s.lower) : null, s.upper ? ev(s.upper) : null, s.step ? ev(s.step) : null);
  }
  return subscript(container, ev(expr.index));
}

const NO_HOOKS: LiteralEvalHooks = {};

/** `evalLiteral` with fixed hooks, passing itself down so nested nodes reuse it. */
function evaluatorFor(hooks: LiteralEvalHooks): (e: PyExpr) => PyValue {
  const ev = (e: PyExpr): PyValue => evalLiteral(e, hooks, ev);
  return ev;
}

/** The items of a list/tuple/set display, `*x` unpacked. */
function elementsOf(elts: readonly PyExpr[], ev: (e: PyExpr) => PyValue): PyValue[] {
  const out: PyValue[] = [];
  for (const e of elts) {
    if (e.kind === "starred") out.push(...pyIter(ev(e.value)));
    else out.push(ev(e));
  }
  return out;
}

/** Without an executor, a call can only be a builtin we model; the callee name is resolved first, as in Python. */
function defaultCall(expr: Extract<PyExpr, { kind: "call" }>, ev: (e: PyExpr) => PyValue): PyValue {
  if (expr.func.kind !== "name") throw notCallable(ev(expr.func));
  const name = expr.func.id;
  if (!MODELLED_BUILTINS.has(name)) throw nameError(name);
  const args: PyValue[] = [];
  for (const a of expr.args) {
    if (a.kind === "starred") args.push(...pyIter(ev(a.value)));
    else args.push(ev(a));
  }
  const kwargs: [string, PyValue][] = [];
  for (const kw of expr.keywords) {
    if (kw.arg !== null) kwargs.push([kw.arg, ev(kw.value)]);
    else {
      const m = ev(kw.value);
      if (!(m instanceof PyDict)) throw new PyException("TypeError", `${name}() argument after ** must be a mapping, not ${pyTypeName(m)}`);
      for (const [k, v] of m.entries()) {
        if (typeof k !== "string") throw new PyException("TypeError", "keywords must be strings");
        kwargs.push([k, v]);
      }
    }
  }
  const r = callBuiltin(name, args, kwargs);
  if (r === undefined) throw new PyException("ValueError", `not a literal: this form of ${name}() is not modelled`);
  return r;
}
