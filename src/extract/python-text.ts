/**
 * Python-call text as BFCL's default prompting decoder reads it (`default_decode_execute_prompting`):
 * backticks, newlines and spaces stripped from both ends, `[` / `]` added where missing, `ast.parse` in eval
 * mode, and the body taken if it is a call or a list/tuple/set of calls. More in this folder's README.md.
 */
import type { PyExpr } from "../python/ast.js";
import { resolveCall, type LiteralValue, type ResolvedCall } from "../python/literal.js";
import { parseExpression } from "../python/parse.js";

/** What BFCL's prompting decoder makes of one text step. */
export interface PythonTextDecode {
  /** Calls that parse structurally: the bare call, or every call element of the top-level list/tuple/set. */
  readonly calls: readonly ResolvedCall[];
  /** Python's error where BFCL's decoder raises on this text; null when it decodes. */
  readonly failure: string | null;
  /** True when the text parsed but held no call at all (e.g. one word, which reads as `[word]`). */
  readonly noCallElements: boolean;
}

/** Python's `str.strip("`\n ")`. */
function stripBfcl(text: string): string {
  let a = 0;
  let b = text.length;
  const strip = (c: number) => c === 0x60 || c === 0x0a || c === 0x20;
  while (a < b && strip(text.charCodeAt(a))) a++;
  while (b > a && strip(text.charCodeAt(b - 1))) b--;
  return text.slice(a, b);
}

/** The exact string BFCL hands to `ast.parse` for a text step. */
export function bfclPromptingSource(text: string): string {
  let s = stripBfcl(text);
  if (!s.startsWith("[")) s = "[" + s;
  if (!s.endsWith("]")) s = s + "]";
  return s;
}

/**
 * Decode one text step the way BFCL's default prompting decoder does, keeping every
 * structurally parsed call even when BFCL would reject the step (the failure says why).
 */
export function decodePythonText(text: string): PythonTextDecode {
  const source = bfclPromptingSource(text);
  const parsed = parseExpression(source);
  if (!parsed.ok) return { calls: [], failure: `${parsed.error.type ?? "SyntaxError"}: ${parsed.error.message}`, noCallElements: true };
  const body = parsed.expr;
  let elements: readonly PyExpr[];
  let failure: string | null = null;
  if (body.kind === "call") elements = [body];
  else if (body.kind === "list" || body.kind === "tuple" || body.kind === "set") elements = body.elts;
  else return { calls: [], failure: `AttributeError: '${body.kind}' object has no attribute 'elts'`, noCallElements: true };
  const calls: ResolvedCall[] = [];
  for (const el of elements) {
    if (el.kind !== "call") {
      failure ??= "AssertionError";
      continue;
    }
    const call = resolveCall(el);
    if (call.failure !== null) failure ??= call.failure;
    else {
      for (const [, v] of call.keywords) {
        const f = executionListFailure(v);
        if (f !== null) {
          failure ??= f;
          break;
        }
      }
    }
    calls.push(call);
  }
  return { calls, failure, noCallElements: calls.length === 0 && elements.length > 0 };
}

function isObject(v: LiteralValue): v is { [key: string]: LiteralValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * BFCL's `parse_nested_value` renders a dict whose values are all dicts as a nested call
 * `firstkey(...)`; for an empty dict that raises IndexError, so `f(a={})` fails to decode.
 * Returns the error, or null when the value renders.
 */
function executionListFailure(v: LiteralValue, depth = 0): string | null {
  if (!isObject(v) || depth > 200) return null;
  const values = Object.values(v);
  if (values.every(isObject)) {
    if (values.length === 0) return "IndexError: list index out of range";
    const args = values[0]!;
    for (const x of Object.values(args)) {
      const f = executionListFailure(x, depth + 1);
      if (f !== null) return f;
    }
    return null;
  }
  for (const x of values) {
    const f = executionListFailure(x, depth + 1);
    if (f !== null) return f;
  }
  return null;
}

function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * Whether undecodable text was trying to be a call list, so its failure is a decode failure rather than prose:
 * a call list's start after BFCL's stripping, or a tool-list name written as a call anywhere. Linear scans
 * only, no regular expressions. The rule in full: this folder's README.md.
 */
export function looksLikeCallText(text: string, tools: ReadonlySet<string>): boolean {
  const s = stripBfcl(text);
  let i = 0;
  if (s.charCodeAt(0) === 0x5b) {
    i = 1;
    while (i < s.length && (s.charCodeAt(i) === 0x20 || s.charCodeAt(i) === 0x0a || s.charCodeAt(i) === 0x09)) i++;
  }
  const identStart = i;
  while (i < s.length && (isIdentChar(s.charCodeAt(i)) || (s.charCodeAt(i) === 0x2e && i > identStart))) i++;
  if (i > identStart && !(s.charCodeAt(identStart) >= 48 && s.charCodeAt(identStart) <= 57)) {
    const c = s.charCodeAt(i);
    if (c === 0x28) return true;
    if (c === 0x3c && s.charCodeAt(i + 1) === 0x7c) return true;
  }
  // rule 2: a tool name used as a call anywhere
  for (let p = text.indexOf("("); p !== -1; p = text.indexOf("(", p + 1)) {
    let q = p;
    while (q > 0 && isIdentChar(text.charCodeAt(q - 1))) q--;
    if (q === p) continue;
    if (tools.has(text.slice(q, p))) return true;
  }
  return false;
}
