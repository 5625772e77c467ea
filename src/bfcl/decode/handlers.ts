/**
 * The `decode_execute` methods of BFCL's model handlers (bfcl_eval 2026.3.23), one
 * function per distinct behaviour. Each takes a recorded step as Python values (what
 * `json.loads` of the result line gives) and returns BFCL's execution strings or the
 * exception the handler raises, in Python's words. Handlers whose methods behave the same
 * on every input share one function; `decoders.ts` names them and lists the handlers.
 *
 * Nothing is evaluated: where a handler calls `eval` on model text (llama-3.1), the text is
 * parsed and its literal value computed as `eval` would; names raise NameError.
 */
import { PyDict } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { evalLiteral } from "../../python/literal-eval.js";
import { pyFloat, pyInt } from "../../python/convert.js";
import { pyContains } from "../../python/iterables.js";
import { pyTypeName } from "../../python/kinds.js";
import { parseExpression } from "../../python/parse.js";
import { pyRepr, pyStr } from "../../python/repr.js";
import { strStrip, strLStrip, strRStrip } from "../../python/strings.js";
import type { PyValue } from "../../python/value.js";
import { decodeFcStep } from "./fc.js";
import { decodeFailure, DecodeFailure, guarded, type DecodeOutcome } from "./outcome.js";
import { decodePromptingText, resolveAstCall } from "./prompting.js";
import { dictGet, getItem, isJsonDecodeError, isList, items, iterate, jsonLoads, needReText, needStr, renderCall, singleEntryDict } from "./py.js";

/** `ValueError(f"Model did not return a list of function calls: {result}")`. */
function notAList(step: PyValue): DecodeOutcome {
  return decodeFailure("ValueError", `Model did not return a list of function calls: ${pyStr(step)}`);
}

/** Nova, local Mistral FC: the step must be a list, then `convert_to_function_call`. */
export function decodeFcList(step: PyValue): DecodeOutcome {
  if (!isList(step)) return notAList(step);
  return decodeFcStep(step);
}

/** Arch, Granite 3, Phi FC: the step must be a list of dicts, then `convert_to_function_call`. */
export function decodeFcDictList(step: PyValue): DecodeOutcome {
  if (!isList(step) || step.some((item) => !(item instanceof PyDict))) return notAList(step);
  return decodeFcStep(step);
}

/** Gemini in FC mode: `{name: args}` records whose arguments are already dicts (no `json.loads`). */
export function decodeGeminiFc(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const out: string[] = [];
    for (const record of iterate(step)) for (const [name, args] of items(record)) out.push(renderCall(name, args, ","));
    return out;
  });
}

/** Gemini prompting: drop "```tool_code\n" and "\n```" everywhere, then the default prompting decoder. */
export function geminiPromptingSource(step: PyValue): string {
  return needStr(step, "replace").replaceAll("```tool_code\n", "").replaceAll("\n```", "");
}

/** Phi (prompting): a leading "```json" or "```python" is cut (no stripping first), then the default decoder. */
export function phiSource(step: PyValue): string {
  let text = needStr(step, "startswith");
  if (text.startsWith("```json")) text = text.slice("```json".length);
  if (text.startsWith("```python")) text = text.slice("```python".length);
  return text;
}

/** Nemotron: the first `<TOOLCALL>…</TOOLCALL>` body (null when there is none: no call). */
export function nemotronSource(step: PyValue): string | null {
  const text = needReText(step);
  const open = text.indexOf("<TOOLCALL>");
  if (open < 0) return null;
  const close = text.indexOf("</TOOLCALL>", open + "<TOOLCALL>".length);
  if (close < 0) return null;
  return text.slice(open + "<TOOLCALL>".length, close);
}

/**
 * A handler that rewrites the step and hands the text to the default prompting decoder:
 * the rewrite's own exception (the step is not text), no text (no call), or the decode.
 */
function viaPrompting(step: PyValue, source: (step: PyValue) => string | null): DecodeOutcome {
  let text: string | null = null;
  const pre = guarded(() => {
    text = source(step);
    return [];
  });
  if (!pre.ok) return pre;
  return text === null ? { ok: true, calls: [] } : decodePromptingText(text);
}

/** Gemini in prompting mode. */
export const decodeGeminiPrompting = (step: PyValue): DecodeOutcome => viaPrompting(step, geminiPromptingSource);

/** Phi in prompting mode. */
export const decodePhi = (step: PyValue): DecodeOutcome => viaPrompting(step, phiSource);

/** Nemotron: the `<TOOLCALL>` body through the default prompting decoder; no tag decodes to nothing. */
export const decodeNemotron = (step: PyValue): DecodeOutcome => viaPrompting(step, nemotronSource);

/**
 * Gorilla OpenFunctions: `ast_parse("[" + result + "]", has_tool_call_tag)` passes the flag
 * where the language belongs, so every text fails with "Unsupported language: False".
 */
export function decodeGorilla(step: PyValue): DecodeOutcome {
  if (typeof step !== "string") return decodeFailure("TypeError", `can only concatenate str (not "${pyTypeName(step)}") to str`);
  return decodeFailure("NotImplementedError", "Unsupported language: False");
}

/** Nexus: the same argument slip as Gorilla's, after `;` handling; every text fails. */
export function decodeNexus(step: PyValue): DecodeOutcome {
  if (typeof step !== "string") return decodeFailure("AttributeError", `'${pyTypeName(step)}' object has no attribute 'endswith'`);
  return decodeFailure("NotImplementedError", "Unsupported language: False");
}

/** Cohere: a list of `{tool_name, parameters}`; anything that is not a list decodes to nothing. */
export function decodeCohere(step: PyValue): DecodeOutcome {
  return guarded(() => {
    if (!isList(step)) return [];
    const out: string[] = [];
    for (const call of step) {
      const params = items(getItem(call, "parameters"))
        .map(([k, v]) => `${pyStr(k)}=${pyRepr(v)}`)
        .join(",");
      out.push(`${pyStr(getItem(call, "tool_name"))}(${params})`);
    }
    return out;
  });
}

/** Mining, DM-Cito: `{name, arguments}` dicts (others skipped), joined with ", ". */
export function decodeMining(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const out: string[] = [];
    for (const call of iterate(step)) {
      if (!(call instanceof PyDict)) continue;
      const name = dictGet(call, "name", "");
      const args = dictGet(call, "arguments", new PyDict());
      out.push(renderCall(name, args, ", "));
    }
    return out;
  });
}

/** `[{name: …, arguments: …}, …]` (or one object) as xLAM/BitAgent render it. */
function renderNameArguments(calls: PyValue[], argumentsKey: string): string[] {
  const out: string[] = [];
  for (const call of calls) {
    const name = getItem(call, "name");
    const args = getItem(call, argumentsKey);
    out.push(renderCall(name, args, ","));
  }
  return out;
}

/** xLAM (Salesforce Llama/Qwen): JSON (a list, or one object), else JSON objects split on ";". */
export function decodeXlam(step: PyValue): DecodeOutcome {
  return guarded(() => {
    let calls: PyValue[];
    try {
      const parsed = jsonLoads(step);
      calls = isList(parsed) ? parsed : [parsed];
    } catch (e) {
      if (!isJsonDecodeError(e)) throw e;
      calls = (step as string).split(";").map((part) => jsonLoads(strStrip(part)));
    }
    return renderNameArguments(calls, "arguments");
  });
}

/** BitAgent: JSON (a list, or one object) of `{name, arguments}`, no fallback. */
export function decodeBitAgent(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const parsed = jsonLoads(step);
    return renderNameArguments(isList(parsed) ? parsed : [parsed], "arguments");
  });
}

/**
 * `eval(text)` for the model text llama-3.1 hands it, without running anything: leading
 * spaces and tabs dropped as `eval` does, the text parsed as one expression and its
 * literal value computed; names (JSON's `true`, a function) raise NameError.
 */
function evalText(text: string): PyValue {
  let i = 0;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  const source = text.slice(i);
  const parsed = parseExpression(source, "eval");
  if (!parsed.ok) {
    // too deep for CPython's compiler: a RecursionError or MemoryError, its message alone
    if (parsed.error.type !== undefined) throw new DecodeFailure(`${parsed.error.type}: ${parsed.error.message}`);
    let line = 1;
    for (let k = 0; k < parsed.error.offset && k < source.length; k++) if (source.charCodeAt(k) === 10) line++;
    throw new DecodeFailure(`SyntaxError: ${parsed.error.message} (<string>, line ${line})`);
  }
  return evalLiteral(parsed.expr);
}

/** Llama 3.1: `<|python_tag|>` dropped; with a ";" JSON objects split on it, else `eval` of the text; `{name, parameters}`. */
export function decodeLlama31(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const text = needStr(step, "replace").replaceAll("<|python_tag|>", "");
    let calls: PyValue[];
    if (text.includes(";")) calls = text.split(";").map((part) => jsonLoads(part));
    else {
      const value = evalText(text);
      calls = value instanceof PyDict ? [value] : iterate(value);
    }
    return renderNameArguments(calls, "parameters");
  });
}

/**
 * ThinkAgent: the JSON after `</think>` (else `[]`), quotes swapped to `"`; each item's
 * `name(arguments)` text is then read with `.items()`, so any call at all raises.
 */
export function decodeThinkAgent(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const text = strStrip(needStr(step, "strip")).replaceAll("'", '"');
    const cut = text.indexOf("</think>");
    const json = cut < 0 ? "[]" : strStrip(text.slice(cut + "</think>".length));
    const parsed = jsonLoads(json);
    const texts: string[] = [];
    for (const item of iterate(parsed)) {
      const name = getItem(item, "name");
      const args = getItem(item, "arguments");
      texts.push(`${pyStr(name)}(${pyStr(args)})`);
    }
    if (texts.length > 0) throw new PyException("AttributeError", "'str' object has no attribute 'items'");
    return [];
  });
}

/** Falcon 3 FC: the first `<tool_call>` block (maybe a ```json fence) as JSON `{name, arguments}`. */
export function decodeFalcon(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const failed = (): never => {
      throw new PyException("ValueError", `Failed to decode the model's response: ${pyStr(step)}`);
    };
    if (!pyContains(step, "<tool_call>")) throw new PyException("ValueError", `No <tool_call> found in the model's response: ${pyStr(step)}`);
    const text = needStr(step, "split");
    const parts = text.split("<tool_call>");
    let body = strStrip(parts[1].split("</tool_call>")[0]);
    if (body.startsWith("```") && body.endsWith("```")) {
      body = strStrip(strStrip(body, "`"));
      if (body.startsWith("json")) body = strStrip(body.slice(4));
    }
    let parsed: PyValue;
    try {
      parsed = jsonLoads(body);
    } catch (e) {
      if (isJsonDecodeError(e)) failed();
      throw e;
    }
    const calls = isList(parsed) ? parsed : [parsed];
    const out: string[] = [];
    for (const call of calls) {
      let name: PyValue;
      let args: PyValue;
      try {
        name = getItem(call, "name");
        args = getItem(call, "arguments");
      } catch (e) {
        if (e instanceof PyException && e.pyType === "KeyError") failed();
        throw e;
      }
      out.push(renderCall(name!, args!, ","));
    }
    return out;
  });
}

/** GLM (local): first line the name, second line the JSON arguments; one line is iterated as text. */
export function decodeGlm(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const lines = needStr(step, "split").split("\n");
    if (lines.length === 1) {
      // convert_to_function_call on a str: each character's `.items()`
      if (lines[0].length > 0) throw new PyException("AttributeError", "'str' object has no attribute 'items'");
      return [];
    }
    const out = decodeFcStep([singleEntryDict(lines[0], lines[1])]);
    if (!out.ok) throw new DecodeFailure(out.error);
    return out.calls;
  });
}

/**
 * Granite (function-calling prompt): parts split on `<function_call>`; a part that is JSON
 * `{name, arguments}` becomes a call (`no_function` a fixed sentence), any other part is
 * kept as it is — text the checker then tries to run.
 */
export function decodeGranite(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const parts = needStr(step, "split")
      .split("<function_call>")
      .map((p) => strStrip(p))
      .filter((p) => p.length > 0);
    const out: string[] = [];
    for (const part of parts) {
      let parsed: PyValue;
      try {
        parsed = jsonLoads(strStrip(part));
      } catch (e) {
        if (e instanceof DecodeFailure) throw e;
        out.push(part);
        continue;
      }
      const name = strStrip(needStr(dictGet(parsed, "name", ""), "strip"));
      const args = dictGet(parsed, "arguments", new PyDict());
      if (name === "no_function") {
        out.push("No function is called");
        continue;
      }
      out.push(renderCall(name, args, ","));
    }
    return out;
  });
}

/** `re.findall(OPEN + "(.*?)" + CLOSE, text, re.DOTALL)` for literal markers: each block's inside, in order. */
function blocksBetween(text: string, OPEN: string, CLOSE: string): string[] {
  const out: string[] = [];
  let pos = 0;
  for (;;) {
    const open = text.indexOf(OPEN, pos);
    if (open < 0) break;
    const close = text.indexOf(CLOSE, open + OPEN.length);
    if (close < 0) break;
    out.push(text.slice(open + OPEN.length, close));
    pos = close + CLOSE.length;
  }
  return out;
}

/** `re.findall(r"<tool_call>\n(.*?)\n</tool_call>", text, re.DOTALL)`. */
export function toolCallBlocks(text: string): string[] {
  return blocksBetween(text, "<tool_call>\n", "\n</tool_call>");
}

/**
 * Qwen FC, Granite 4, Nanbeige FC, Pelican-VL FC: each `<tool_call>\n…\n</tool_call>` block
 * that is JSON (others are dropped silently), every one a dict, `{name: arguments}`, then
 * `convert_to_function_call`.
 */
export function decodeToolCall(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const text = needReText(step);
    const calls: PyValue[] = [];
    for (const block of toolCallBlocks(text)) {
      try {
        calls.push(jsonLoads(block));
      } catch (e) {
        if (e instanceof PyException || e instanceof RangeError) continue;
        throw e;
      }
    }
    if (calls.some((c) => !(c instanceof PyDict))) throw new PyException("ValueError", `Model did not return a list of function calls: ${text}`);
    const records = calls.map((c) => singleEntryDict(getItem(c, "name"), getItem(c, "arguments")));
    const out = decodeFcStep(records);
    if (!out.ok) throw new DecodeFailure(out.error);
    return out.calls;
  });
}

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

/** FunctionGemma's `_parse_primitive`: null/true/false, else `int(s)`, else `float(s)`, else the text. */
function gemmaPrimitive(raw: string): PyValue {
  if (raw === "null") return null;
  if (raw === "true") return true;
  if (raw === "false") return false;
  try {
    return pyInt(raw);
  } catch (e) {
    if (!(e instanceof PyException)) throw e;
  }
  try {
    return pyFloat(raw);
  } catch (e) {
    if (!(e instanceof PyException)) throw e;
  }
  return raw;
}

const ESCAPE = "<escape>";

/** FunctionGemma's argument reader: a small state machine over `{k:v,…}` with `<escape>`d strings. */
function gemmaArgs(text: string): PyValue {
  const root: PyValue[] = [];
  const stack: (PyValue[] | PyDict)[] = [root];
  const keyStack: (string | null)[] = [];
  let buffer = "";
  let hasBuffer = false;
  let pendingKey: PyValue | undefined;
  const addValue = (val: PyValue): void => {
    const container = stack[stack.length - 1];
    if (Array.isArray(container)) container.push(val);
    else {
      const key = keyStack.length > 0 ? keyStack[keyStack.length - 1] : null;
      if (key !== null) {
        container.set(key, val);
        keyStack[keyStack.length - 1] = null;
      } else pendingKey = val;
    }
  };
  const commit = (): void => {
    if (!hasBuffer) return;
    const raw = strStrip(buffer);
    buffer = "";
    hasBuffer = false;
    if (raw !== "") addValue(gemmaPrimitive(raw));
  };
  let i = 0;
  while (i < text.length) {
    if (text.startsWith(ESCAPE, i)) {
      const start = i + ESCAPE.length;
      const end = text.indexOf(ESCAPE, start);
      const val = end < 0 ? text.slice(i) : text.slice(start, end);
      i = end < 0 ? text.length : end + ESCAPE.length;
      commit();
      addValue(val);
      continue;
    }
    const c = text[i];
    if ("{[:]},".includes(c)) {
      commit();
      if (c === "{") {
        const d = new PyDict();
        addValue(d);
        stack.push(d);
        keyStack.push(null);
        pendingKey = undefined;
      } else if (c === "}") {
        if (stack.length > 1) {
          stack.pop();
          if (keyStack.length > 0) keyStack.pop();
        }
        pendingKey = undefined;
      } else if (c === "[") {
        const l: PyValue[] = [];
        addValue(l);
        stack.push(l);
        pendingKey = undefined;
      } else if (c === "]") {
        if (stack.length > 1) stack.pop();
        pendingKey = undefined;
      } else if (c === ":") {
        let key: string | null = null;
        if (hasBuffer) {
          key = strStrip(buffer);
          buffer = "";
          hasBuffer = false;
        } else if (pendingKey !== undefined && pendingKey !== null) {
          key = pyStr(pendingKey);
          pendingKey = undefined;
        }
        if (key !== null && stack[stack.length - 1] instanceof PyDict && keyStack.length > 0) keyStack[keyStack.length - 1] = key;
      } else pendingKey = undefined;
    } else {
      buffer += c;
      hasBuffer = true;
    }
    i++;
  }
  commit();
  return root.length > 0 && root[0] instanceof PyDict ? root[0] : new PyDict();
}

/** FunctionGemma: `<start_function_call>call:NAME{…}<end_function_call>` blocks. */
export function decodeFunctionGemma(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const text = needReText(step);
    const out: string[] = [];
    for (const block of blocksBetween(text, "<start_function_call>", "<end_function_call>")) {
      const content = strStrip(block);
      if (!content.startsWith("call:")) continue;
      const brace = content.indexOf("{");
      if (brace < 0) {
        out.push(`${strStrip(content.slice(5))}()`);
        continue;
      }
      const name = strStrip(content.slice(5, brace));
      out.push(renderCall(name, gemmaArgs(content.slice(brace)), ", "));
    }
    return out;
  });
}

/**
 * Hammer: fences removed, JSON (anything unreadable is no call); a list, or a dict's
 * `tool_calls`, of `{name, arguments}` dicts (other entries skipped), joined with ", ".
 */
export function decodeHammer(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const text = needStr(step, "replace").replaceAll("```", "");
    let parsed: PyValue;
    try {
      parsed = jsonLoads(text);
    } catch (e) {
      if (!(e instanceof PyException) && !(e instanceof RangeError)) throw e;
      parsed = [];
    }
    let calls: PyValue = isList(parsed) ? parsed : parsed instanceof PyDict ? dictGet(parsed, "tool_calls", []) : [];
    if (!isList(calls)) calls = [calls];
    const out: string[] = [];
    for (const call of calls) {
      if (!(call instanceof PyDict)) continue;
      out.push(renderCall(dictGet(call, "name", ""), dictGet(call, "arguments", new PyDict()), ", "));
    }
    return out;
  });
}
