/**
 * `minicpm-fc`: MiniCPM FC's `fc2dict` reads Python call statements between
 * `<|tool_call_start|>` and `<|tool_call_end|>`, after its thought part.
 */
import { PyDict } from "../../../python/containers.js";
import { PyException } from "../../../python/exception.js";
import { pyContains } from "../../../python/iterables.js";
import { parseExpression } from "../../../python/parse.js";
import { strLStrip, strRStrip, strStrip } from "../../../python/strings.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { DecodeFailure, guarded, type DecodeOutcome } from "../outcome.js";
import { resolveAstCall } from "../prompting.js";
import { needStr, renderCall } from "../py.js";

/** Python's `s.rsplit(sep, 1)`. */
function rsplitOnce(s: string, sep: string): string[] {
  const at = s.lastIndexOf(sep);
  return at < 0 ? [s] : [s.slice(0, at), s.slice(at + sep.length)];
}

/** Python's `s.split(sep, 1)`. */
function splitOnce(s: string, sep: string): string[] {
  const at = s.indexOf(sep);
  return at < 0 ? [s] : [s.slice(0, at), s.slice(at + sep.length)];
}

/**
 * The simple statements of a Python module text, cut at newlines and `;` outside brackets
 * and strings (enough for a list of call statements; comments dropped). `indented` marks a
 * statement that begins a line with a space or tab, which `ast.parse` rejects.
 */
function statements(source: string): { text: string; indented: boolean }[] {
  const out: { text: string; indented: boolean }[] = [];
  let depth = 0;
  let start = 0;
  let lineStart = true;
  const push = (end: number): void => {
    const text = source.slice(start, end);
    if (text.trim() !== "") out.push({ text, indented: lineStart && /^[ \t]/.test(text) });
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === "#") {
      push(i);
      const nl = source.indexOf("\n", i);
      i = nl < 0 ? source.length : nl;
      start = i;
      continue;
    }
    if (c === "'" || c === '"') {
      const q = source.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      i += q.length;
      while (i < source.length && !source.startsWith(q, i)) i += source[i] === "\\" ? 2 : 1;
      i += q.length;
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth = Math.max(0, depth - 1);
    else if ((c === "\n" || c === ";") && depth === 0) {
      push(i);
      start = i + 1;
      lineStart = c === "\n";
    } else if (c === "\\" && source[i + 1] === "\n") i++;
    i++;
  }
  push(source.length);
  return out;
}

/**
 * MiniCPM FC's `fc2dict`: the call block between `<|tool_call_start|>` and the last
 * `<|tool_call_end|>` (thought part cut off first), a ```python fence stripped, parsed
 * as Python statements, each a call. Any failure inside gives no calls.
 */
function miniCpmCalls(step: PyValue): { name: PyValue; args: PyDict }[] {
  const START = "<|tool_call_start|>";
  const END = "<|tool_call_end|>";
  let seq: PyValue = step;
  if (pyContains(seq, "<|thought_end|>") && pyContains(seq, "<|thought_start|>")) {
    const [thought, rest] = rsplitOnce(needStr(seq, "rsplit"), "<|thought_end|>");
    if (splitOnce(thought, "<|thought_start|>").length < 2) throw new PyException("IndexError", "list index out of range");
    seq = rest;
  }
  if (!(pyContains(seq, START) && pyContains(seq, END))) {
    needStr(seq, "strip");
    return [];
  }
  const head = rsplitOnce(needStr(seq, "rsplit"), END)[0];
  const cut = splitOnce(head, START);
  if (cut.length < 2) throw new PyException("IndexError", "list index out of range");
  let block = strStrip(cut[1]);
  try {
    if (block.startsWith("```")) {
      block = strStrip(strLStrip(block, "`"));
      if (block.startsWith("python")) block = strStrip(strLStrip(block, "python"));
    }
    if (block.endsWith("```")) block = strStrip(strRStrip(block, "`"));
    const calls: { name: PyValue; args: PyDict }[] = [];
    for (const statement of statements(block)) {
      if (statement.indented) return [];
      const parsed = parseExpression(strStrip(statement.text));
      if (!parsed.ok || parsed.expr.kind !== "call") return [];
      for (const [name, args] of resolveAstCall(parsed.expr).entries()) calls.push({ name, args: args as PyDict });
    }
    return calls;
  } catch (e) {
    if (e instanceof PyException || e instanceof DecodeFailure || e instanceof RangeError) return [];
    throw e;
  }
}

/** MiniCPM FC: calls written as Python statements in `<|tool_call_start|>` … `<|tool_call_end|>`. */
export function decodeMiniCpmFc(step: PyValue): DecodeOutcome {
  return guarded(() => miniCpmCalls(step).map((c) => renderCall(c.name, c.args, ", ")));
}

export const decoder = defineDecoder({
  name: "minicpm-fc",
  summary: "Python call statements between <|tool_call_start|> and <|tool_call_end|>",
  handlers: ["MiniCPMFCHandler"],
  owners: [{ owner: "MiniCPMFCHandler" }],
  decode: decodeMiniCpmFc,
  records: false,
  nameKeyed: false,
  // the thought part is cut off before the calls are read: it is no prose either
  tags: [
    ["<|tool_call_start|>", "<|tool_call_end|>"],
    ["<|thought_start|>", "<|thought_end|>"],
  ],
  detectionRank: 110,
});
