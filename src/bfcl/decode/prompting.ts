/**
 * BFCL's decoder for prompting (non-FC) models before execution (`default_decode_execute_prompting` →
 * `ast_parse` → `resolve_ast_call` → `decoded_output_to_execution_list`). The call strings it produces are what
 * the checker executes, quirks included; the quirks are listed in this folder's README.md.
 */
import type { PyExpr } from "../../python/ast.js";
import { PyDict, PyTuple } from "../../python/containers.js";
import { astClassName, bfclUnaryValue, callName, constantValue, unparse } from "../../python/literal.js";
import { evalLiteral } from "../../python/literal-eval.js";
import { pyTypeName } from "../../python/kinds.js";
import { parseExpression } from "../../python/parse.js";
import { pyRepr, pyStr } from "../../python/repr.js";
import type { PyValue } from "../../python/value.js";
import { DecodeFailure, guarded, type DecodeOutcome } from "./outcome.js";

/**
 * BFCL's `resolve_ast_by_type`, keeping Python values. `frames` counts the Python frames
 * its recursion holds above this value (one per list or dict comprehension, two per tuple
 * generator or nested call), which its `ast.unparse` of the value cannot spend.
 */
export function resolveAstValue(e: PyExpr, frames = 0): PyValue {
  const c = constantValue(e);
  if (c !== undefined) return c;
  switch (e.kind) {
    case "ellipsis":
      return "...";
    case "unary":
      return bfclUnaryValue(e.operand);
    case "list":
      return e.elts.map((x) => resolveAstValue(x, frames + 1));
    case "tuple":
      return new PyTuple(e.elts.map((x) => resolveAstValue(x, frames + 2)));
    case "dict": {
      const d = new PyDict();
      e.keys.forEach((k, i) => {
        if (k === null) throw new DecodeFailure("Exception: Unsupported AST type: <class 'NoneType'>");
        d.set(resolveAstValue(k, frames + 1), resolveAstValue(e.values[i], frames + 1));
      });
      return d;
    }
    case "binary":
      // eval(ast.unparse(value)): the unparse can run out of Python recursion first
      unparse(e, frames);
      return evalLiteral(e);
    case "name":
      return e.id;
    case "call":
      return e.keywords.length === 0 ? unparse(e, frames) : resolveAstCall(e, frames + 2);
    case "subscript":
      return `${unparse(e.value, frames)}[${unparse(e.index, frames)}]`;
    default:
      throw new DecodeFailure(`Exception: Unsupported AST type: <class 'ast.${astClassName(e)}'>`);
  }
}

/** BFCL's `resolve_ast_call`: `{dotted_name: {kw: value}}`; positional arguments dropped, `**m` keyed by None. */
export function resolveAstCall(call: CallExpr, frames = 0): PyDict {
  const args = new PyDict();
  for (const kw of call.keywords) args.set(kw.arg, resolveAstValue(kw.value, frames));
  return new PyDict([[callName(call.func), args]]);
}

/** BFCL's `parse_nested_value`. */
function nested(v: PyValue): string {
  if (!(v instanceof PyDict)) return pyRepr(v);
  const entries = v.entries();
  if (entries.every(([, x]) => x instanceof PyDict)) {
    if (entries.length === 0) throw new DecodeFailure("IndexError: list index out of range");
    const [name, args] = entries[0];
    return `${pyStr(name)}(${(args as PyDict)
      .entries()
      .map(([k, x]) => `${pyStr(k)}=${nested(x)}`)
      .join(", ")})`;
  }
  return `{${entries.map(([k, x]) => `'${pyStr(k)}': ${nested(x)}`).join(", ")}}`;
}

/** Python's `str.strip(chars)`. */
export function stripChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a])) a++;
  while (b > a && chars.includes(s[b - 1])) b--;
  return s.slice(a, b);
}

const PY_WHITESPACE =
  " \t\n\r\v\f\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

/**
 * The text `default_decode_execute_prompting` hands to `ast.parse`: stripped of backticks,
 * newlines and spaces, wrapped in `[…]` where a bracket is missing, then (in `ast_parse`)
 * stripped of whitespace and of single quotes.
 */
export function promptingSource(text: string): string {
  let s = stripChars(text, "`\n ");
  if (!s.startsWith("[")) s = "[" + s;
  if (!s.endsWith("]")) s = s + "]";
  return stripChars(stripChars(s, PY_WHITESPACE), "'");
}

/** CPython's `str(SyntaxError)`: the message and where, as `ast.parse` reports it (`<unknown>` file). */
function syntaxErrorText(source: string, message: string, offset: number): string {
  let line = 1;
  for (let i = 0; i < offset && i < source.length; i++) if (source.charCodeAt(i) === 10) line++;
  return `${message} (<unknown>, line ${line})`;
}

/** `decoded_output_to_execution_list`: `name(k=v, …)` with `parse_nested_value` for each value. */
export function executionList(decoded: readonly PyDict[]): string[] {
  const out: string[] = [];
  for (const resolved of decoded) {
    for (const [name, args] of resolved.entries()) {
      out.push(
        `${pyStr(name)}(${(args as PyDict)
          .entries()
          .map(([k, v]) => `${pyStr(k)}=${nested(v)}`)
          .join(", ")})`,
      );
    }
  }
  return out;
}

/** A call node of the parsed text. */
export type CallExpr = Extract<PyExpr, { kind: "call" }>;

/**
 * `ast_parse`'s Python branch after its cleaning: `ast.parse(source, mode="eval")`, whose
 * body must be a call or a list/tuple of calls, each resolved (`resolve_ast_call`);
 * Python's exception otherwise.
 */
export function astParseCalls(source: string): PyDict[] {
  return parseCalls(source).map((c) => resolveAstCall(c));
}

/** The call nodes of `ast.parse(source, mode="eval")`: its body as a call or a list/tuple of calls. */
function parseCalls(source: string): CallExpr[] {
  const parsed = parseExpression(source);
  if (!parsed.ok) {
    // too deep for CPython's compiler: a RecursionError or MemoryError, its message alone
    if (parsed.error.type !== undefined) throw new DecodeFailure(`${parsed.error.type}: ${parsed.error.message}`);
    // CPython's parser reports nothing at all as "invalid syntax" on line 0, and a leading indent as its own subclass
    if (source === "") throw new DecodeFailure("SyntaxError: invalid syntax (<unknown>, line 0)");
    const type = parsed.error.message === "unexpected indent" ? "IndentationError" : "SyntaxError";
    throw new DecodeFailure(`${type}: ${syntaxErrorText(source, parsed.error.message, parsed.error.offset)}`);
  }
  const body = parsed.expr;
  if (body.kind === "call") return [body];
  if (body.kind === "list" || body.kind === "tuple" || body.kind === "set")
    return body.elts.map((el) => {
      if (el.kind !== "call") throw new DecodeFailure("AssertionError: ");
      return el;
    });
  throw new DecodeFailure(`AttributeError: '${astClassName(body)}' object has no attribute 'elts'`);
}

/** BFCL's `default_decode_execute_prompting` on a text: its execution strings or its exception. */
export function decodePromptingText(text: string): DecodeOutcome {
  return guarded(() => executionList(astParseCalls(promptingSource(text))));
}

/** Decode one prompting step (the raw model text) into BFCL's execution strings. */
export function decodePromptingStep(step: PyValue): DecodeOutcome {
  if (typeof step !== "string") return { ok: false, error: `AttributeError: '${pyTypeName(step)}' object has no attribute 'strip'` };
  return decodePromptingText(step);
}
