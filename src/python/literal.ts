/**
 * Reading argument values out of a parsed call the way BFCL's prompting decoder does (`resolve_ast_call` /
 * `resolve_ast_by_type` in `model_handler/utils.py`), plus CPython's `ast.unparse` for expressions, which that
 * decoder uses to turn a nested call without keywords or a subscript into text. More in this folder's
 * README.md.
 */
import type { PyExpr } from "./ast.js";
import { PyDict, PySet, PyTuple } from "./containers.js";
import { PyException } from "./exception.js";
import { pyUnaryOp } from "./operators.js";
import { PyComplex } from "./complex.js";
import { PyBytes, bytesRepr } from "./bytes.js";
import { evalLiteral, PY_ELLIPSIS } from "./literal-eval.js";
import { floatRepr, pyStr, strRepr } from "./repr.js";
import { recursionError, UNPARSE_FRAME_BUDGET } from "./limits.js";
import type { PyValue } from "./value.js";

/** A JSON-like value: Python None is `null`, tuples and sets are arrays. */
export type LiteralValue = null | boolean | number | string | LiteralValue[] | { [key: string]: LiteralValue };

/** A resolved value, or why BFCL's decoder would have raised on it. */
export type LiteralResult = { readonly ok: true; readonly value: LiteralValue } | { readonly ok: false; readonly reason: string };

/** One call as BFCL's `resolve_ast_call` reads it, positional arguments kept as well. */
export interface ResolvedCall {
  /** Dotted name from the attribute chain (`a.b.c`); a non-name base is dropped, as in BFCL. */
  readonly name: string;
  /** Positional arguments (BFCL drops these); a value BFCL could not resolve is kept as its source text. */
  readonly positional: LiteralValue[];
  /** Keyword arguments in first-seen order, later duplicates overwriting (a Python dict); `**x` has key `"**"`. */
  readonly keywords: [string, LiteralValue][];
  /** The first keyword value BFCL's decoder would have raised on, if any. */
  readonly failure: string | null;
}

class ResolveError {
  constructor(readonly reason: string) {}
}

/** The dotted function name BFCL builds from a call's `func` (attributes joined by `.`). */
export function callName(func: PyExpr): string {
  const parts: string[] = [];
  let f = func;
  while (f.kind === "attribute") {
    parts.push(f.attr);
    f = f.value;
  }
  if (f.kind === "name") parts.push(f.id);
  return parts.reverse().join(".");
}

/** Resolve one call node: name, positional and keyword values, and the first failure. */
export function resolveCall(call: Extract<PyExpr, { kind: "call" }>): ResolvedCall {
  const keywords = new Map<string, LiteralValue>();
  let failure: string | null = null;
  for (const kw of call.keywords) {
    const key = kw.arg ?? "**";
    const r = resolveValue(kw.value);
    if (r.ok) keywords.set(key, r.value);
    else {
      failure ??= r.reason;
      keywords.set(key, unparseOrMarker(kw.value));
    }
  }
  const positional = call.args.map((a) => {
    const r = resolveValue(a);
    return r.ok ? r.value : unparseOrMarker(a);
  });
  return { name: callName(call.func), positional, keywords: [...keywords], failure };
}

/** `unparse`, or a marker when the tree is too deep to lay out on the stack (hostile input). */
function unparseOrMarker(e: PyExpr): string {
  try {
    return unparse(e);
  } catch (x) {
    if (x instanceof PyException) return "<expression too deeply nested>";
    throw x;
  }
}

/** BFCL's `resolve_ast_by_type` for one argument value. Never throws. */
export function resolveValue(e: PyExpr): LiteralResult {
  try {
    return { ok: true, value: toLiteral(resolve(e, 0)) };
  } catch (x) {
    if (x instanceof ResolveError) return { ok: false, reason: x.reason };
    if (x instanceof PyException) return { ok: false, reason: `${x.pyType}: ${x.pyMessage}` };
    throw x;
  }
}

/** A resolved nested call with keywords: `{name: {kw: value}}` (a PyDict of PyDicts, like BFCL). */
function resolveNestedCall(call: Extract<PyExpr, { kind: "call" }>, frames: number): PyDict {
  const args = new PyDict();
  for (const kw of call.keywords) args.set(kw.arg, resolve(kw.value, frames + 2));
  return new PyDict([[callName(call.func), args]]);
}

/**
 * `resolve_ast_by_type`. `frames` counts the Python frames BFCL's decoder holds above
 * this value's (one per enclosing list or dict comprehension, two per tuple generator or
 * nested call): its `ast.unparse` of a value then has that much less recursion to spend.
 */
function resolve(e: PyExpr, frames: number): PyValue {
  switch (e.kind) {
    case "int":
    case "float":
    case "str":
    case "bool":
    case "none":
    case "imag":
    case "bytes":
      return constantValue(e)!;
    case "ellipsis":
      return "...";
    case "unary":
      return bfclUnaryValue(e.operand);
    case "list":
      return e.elts.map((x) => resolve(x, frames + 1));
    case "tuple":
      return new PyTuple(e.elts.map((x) => resolve(x, frames + 2)));
    case "dict": {
      const d = new PyDict();
      for (let i = 0; i < e.keys.length; i++) {
        const k = e.keys[i]!;
        if (k === null) throw new ResolveError("Exception: Unsupported AST type: <class 'NoneType'>");
        const key = resolve(k, frames + 1);
        d.set(key, resolve(e.values[i]!, frames + 1));
      }
      return d;
    }
    case "binary":
      // BFCL: eval(ast.unparse(value)); the unparse can run out of Python recursion first
      unparse(e, frames);
      return evalLiteral(e);
    case "name":
      return e.id;
    case "call":
      if (e.keywords.length === 0) return unparse(e, frames);
      return resolveNestedCall(e, frames);
    case "subscript":
      return `${unparse(e.value, frames)}[${unparse(e.index, frames)}]`;
    case "lambda":
      throw new ResolveError("TypeError: 'Lambda' body is not subscriptable");
    default:
      throw new ResolveError(`Exception: Unsupported AST type: <class 'ast.${astClassName(e)}'>`);
  }
}

/** The value of a constant node (`ast.Constant.value`; `...` is not one here), else undefined. */
export function constantValue(e: PyExpr): PyValue | undefined {
  switch (e.kind) {
    case "int":
    case "float":
    case "str":
    case "bool":
      return e.value;
    case "none":
      return null;
    case "imag":
      return new PyComplex(0, e.value);
    case "bytes":
      return new PyBytes(e.value);
    default:
      return undefined;
  }
}

/**
 * BFCL's `-value.operand.value`, whatever the unary operator: a constant's value negated;
 * an attribute, subscript or starred operand negates its inner node (a TypeError naming
 * that node's class); any other node has no `.value` (an AttributeError).
 */
export function bfclUnaryValue(operand: PyExpr): PyValue {
  if (operand.kind === "ellipsis") return pyUnaryOp("-", PY_ELLIPSIS);
  if (operand.kind === "attribute" || operand.kind === "subscript" || operand.kind === "starred") {
    throw new PyException("TypeError", `bad operand type for unary -: '${astClassName(operand.value)}'`);
  }
  const v = constantValue(operand);
  if (v === undefined) throw new PyException("AttributeError", `'${astClassName(operand)}' object has no attribute 'value'`);
  return pyUnaryOp("-", v);
}

/** CPython's AST class name for a node (used in BFCL-style failure reasons). */
export function astClassName(e: PyExpr): string {
  switch (e.kind) {
    case "attribute":
      return "Attribute";
    case "subscript":
      return "Subscript";
    case "slice":
      return "Slice";
    case "set":
      return "Set";
    case "starred":
      return "Starred";
    case "boolop":
      return "BoolOp";
    case "compare":
      return "Compare";
    case "ifexp":
      return "IfExp";
    case "lambda":
      return "Lambda";
    case "comprehension":
      return "ListComp";
    case "fstring":
      return "JoinedStr";
    case "name":
      return "Name";
    case "call":
      return "Call";
    case "list":
      return "List";
    case "tuple":
      return "Tuple";
    case "dict":
      return "Dict";
    case "unary":
      return "UnaryOp";
    case "binary":
      return "BinOp";
    default:
      return "Constant";
  }
}

// ---- Python value → JSON-like value -----------------------------------------------------

/** Turn a Python value into the JSON-like form the extractor keeps. */
export function toLiteral(v: PyValue): LiteralValue {
  if (v === null || typeof v === "boolean" || typeof v === "string" || typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(toLiteral);
  if (v instanceof PyTuple) return v.items.map(toLiteral);
  if (v instanceof PySet) return v.values().map(toLiteral);
  if (v instanceof PyDict) {
    const out: { [key: string]: LiteralValue } = {};
    for (const [k, x] of v.entries()) setOwn(out, typeof k === "string" ? k : pyStr(k), toLiteral(x));
    return out;
  }
  return v.pyRepr();
}

/** Assign even the key `__proto__` as a plain own property. */
function setOwn(obj: { [key: string]: LiteralValue }, key: string, value: LiteralValue): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

// ---- ast.unparse ------------------------------------------------------------------------

/** CPython's `_Precedence` order, lowest first (`EXPR` is also `|`). */
const Prec = {
  TUPLE: 1,
  TEST: 3,
  OR: 4,
  AND: 5,
  NOT: 6,
  CMP: 7,
  EXPR: 8,
  BXOR: 9,
  BAND: 10,
  SHIFT: 11,
  ARITH: 12,
  TERM: 13,
  FACTOR: 14,
  POWER: 15,
  AWAIT: 16,
  ATOM: 17,
} as const;
type Prec = number;

const BINOP_PREC: Record<string, Prec> = {
  "+": Prec.ARITH,
  "-": Prec.ARITH,
  "*": Prec.TERM,
  "@": Prec.TERM,
  "/": Prec.TERM,
  "%": Prec.TERM,
  "<<": Prec.SHIFT,
  ">>": Prec.SHIFT,
  "|": Prec.EXPR,
  "^": Prec.BXOR,
  "&": Prec.BAND,
  "//": Prec.TERM,
  "**": Prec.POWER,
};

/**
 * `ast.unparse` of an expression (CPython 3.11 layout), with lambdas, comprehensions and f-strings written as
 * their source text. A deep enough tree raises RecursionError as CPython's does, counted in the same frames;
 * `callerFrames` are the frames the caller holds above the call. More in this folder's README.md.
 */
export function unparse(e: PyExpr, callerFrames = 0): string {
  unparseFrames = callerFrames;
  return up(e, Prec.TEST);
}

/** Python frames held by the unparse in progress (CPython's `_Unparser`: traverse → visit → visit_X per node). */
let unparseFrames = 0;

/** `up` one level deeper, `extra` frames (an `interleave`, a `visit_keyword` …) above the node's own three. */
function upWithin(e: PyExpr, prec: Prec, extra: number): string {
  unparseFrames += extra;
  const s = up(e, prec);
  unparseFrames -= extra;
  return s;
}

/** A leaf writes through `extra` more frames (`_write_constant` → `write`, or `write`). */
function leafFrames(extra: number): void {
  if (unparseFrames + extra > UNPARSE_FRAME_BUDGET) throw recursionError();
}

function paren(s: string, needed: boolean): string {
  return needed ? `(${s})` : s;
}

function up(e: PyExpr, prec: Prec): string {
  unparseFrames += 3;
  if (unparseFrames > UNPARSE_FRAME_BUDGET) throw recursionError();
  const s = upNode(e, prec);
  unparseFrames -= 3;
  return s;
}

function upNode(e: PyExpr, prec: Prec): string {
  switch (e.kind) {
    case "int":
    case "float":
    case "imag":
    case "str":
    case "bytes":
    case "bool":
    case "none":
    case "ellipsis":
      leafFrames(2);
      return leafText(e);
    case "name":
      leafFrames(1);
      return e.id;
    case "attribute":
    case "subscript":
    case "slice":
    case "call":
      return upAccess(e);
    case "list":
    case "tuple":
    case "set":
    case "dict":
    case "starred":
      return upDisplay(e, prec);
    case "unary":
    case "binary":
    case "boolop":
    case "compare":
    case "ifexp":
    case "lambda":
      return upOperation(e, prec);
    case "comprehension":
    case "fstring":
      return e.source;
  }
}

type Node<K extends PyExpr["kind"]> = Extract<PyExpr, { kind: K }>;

/** A constant as `ast.unparse` writes it: infinities and NaN as expressions that make them. */
function leafText(e: Node<"int" | "float" | "imag" | "str" | "bytes" | "bool" | "none" | "ellipsis">): string {
  switch (e.kind) {
    case "int":
      return e.value.toString();
    case "float":
      return floatRepr(e.value).replace("inf", "1e309").replace("nan", "(1e309-1e309)");
    case "imag":
      return new PyComplex(0, e.value).pyRepr().replace("inf", "1e309").replace("nan", "(1e309-1e309)");
    case "str":
      return (e.u ? "u" : "") + strRepr(e.value);
    case "bytes":
      return bytesRepr(e.value);
    case "bool":
      return e.value ? "True" : "False";
    case "none":
      return "None";
    case "ellipsis":
      return "...";
  }
}

/** Attribute, subscript, slice and call: a primary and what follows it. */
function upAccess(e: Node<"attribute" | "subscript" | "slice" | "call">): string {
  switch (e.kind) {
    case "attribute": {
      const base = up(e.value, Prec.ATOM);
      // CPython writes `1 .real` (and `True .real`: bool is an int) so the dot is not read as a decimal point
      return `${base}${e.value.kind === "int" || e.value.kind === "bool" ? " " : ""}.${e.attr}`;
    }
    case "subscript": {
      const base = up(e.value, Prec.ATOM);
      const idx = e.index.kind === "tuple" && e.index.elts.length > 0 ? itemsView(e.index.elts) : up(e.index, Prec.TEST);
      return `${base}[${idx}]`;
    }
    case "slice":
      return `${e.lower ? up(e.lower, Prec.TEST) : ""}:${e.upper ? up(e.upper, Prec.TEST) : ""}${e.step ? ":" + up(e.step, Prec.TEST) : ""}`;
    case "call": {
      const parts = [
        ...e.args.map((a) => up(a, Prec.TEST)),
        ...e.keywords.map((k) => (k.arg === null ? `**${upWithin(k.value, Prec.TEST, 3)}` : `${k.arg}=${upWithin(k.value, Prec.TEST, 3)}`)),
      ];
      return `${up(e.func, Prec.ATOM)}(${parts.join(", ")})`;
    }
  }
}

/** List, tuple, set and dict displays, and a starred item inside one. */
function upDisplay(e: Node<"list" | "tuple" | "set" | "dict" | "starred">, prec: Prec): string {
  switch (e.kind) {
    case "list":
      return `[${e.elts.map((x) => upWithin(x, Prec.TEST, 1)).join(", ")}]`;
    case "tuple":
      return paren(itemsView(e.elts), e.elts.length === 0 || prec > Prec.TUPLE);
    case "set":
      return e.elts.length === 0 ? "{*()}" : `{${e.elts.map((x) => upWithin(x, Prec.TEST, 1)).join(", ")}}`;
    case "dict":
      return `{${e.keys
        .map((k, i) =>
          k === null
            ? `**${upWithin(e.values[i]!, Prec.EXPR, 2)}`
            : `${upWithin(k, Prec.TEST, 3)}: ${upWithin(e.values[i]!, Prec.TEST, 3)}`,
        )
        .join(", ")}}`;
    case "starred":
      return `*${up(e.value, Prec.EXPR)}`;
  }
}

/** Operators, conditionals and lambdas: parenthesized only where the surrounding precedence needs it. */
function upOperation(e: Node<"unary" | "binary" | "boolop" | "compare" | "ifexp" | "lambda">, prec: Prec): string {
  switch (e.kind) {
    case "unary": {
      const opPrec = e.op === "not" ? Prec.NOT : Prec.FACTOR;
      const inner = up(e.operand, opPrec);
      return paren(`${e.op}${e.op === "not" ? " " : ""}${inner}`, prec > opPrec);
    }
    case "binary": {
      const p = BINOP_PREC[e.op]!;
      const rassoc = e.op === "**";
      const left = up(e.left, rassoc ? p + 1 : p);
      const right = up(e.right, rassoc ? p : p + 1);
      return paren(`${left} ${e.op} ${right}`, prec > p);
    }
    case "boolop": {
      let p = e.op === "and" ? Prec.AND : Prec.OR;
      const outer = p;
      const parts = e.values.map((v) => upWithin(v, ++p, 2));
      return paren(parts.join(` ${e.op} `), prec > outer);
    }
    case "compare": {
      let s = up(e.left, Prec.CMP + 1);
      e.ops.forEach((op, i) => {
        s += ` ${op} ${up(e.comparators[i]!, Prec.CMP + 1)}`;
      });
      return paren(s, prec > Prec.CMP);
    }
    case "ifexp":
      return paren(`${up(e.body, Prec.OR)} if ${up(e.test, Prec.OR)} else ${up(e.orelse, Prec.TEST)}`, prec > Prec.TEST);
    case "lambda":
      return paren(e.source, prec > Prec.TEST);
  }
}

/** CPython's `items_view`: one item through the traverser directly, more through `interleave`. */
function itemsView(elts: PyExpr[]): string {
  if (elts.length === 1) return `${upWithin(elts[0]!, Prec.TEST, 1)},`;
  return elts.map((x) => upWithin(x, Prec.TEST, 2)).join(", ");
}
