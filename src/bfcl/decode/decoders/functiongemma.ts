/** `functiongemma`: FunctionGemma's `<start_function_call>call:name{…}<end_function_call>` blocks. */
import { PyDict } from "../../../python/containers.js";
import { pyFloat, pyInt } from "../../../python/convert.js";
import { PyException } from "../../../python/exception.js";
import { pyStr } from "../../../python/repr.js";
import { strStrip } from "../../../python/strings.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { blocksBetween } from "../handler-common.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { needReText, renderCall } from "../py.js";

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

export const decoder = defineDecoder({
  name: "functiongemma",
  summary: "<start_function_call>call:name{…}<end_function_call> blocks",
  handlers: ["FunctionGemmaHandler"],
  owners: [{ owner: "FunctionGemmaHandler" }],
  decode: decodeFunctionGemma,
  records: false,
  nameKeyed: false,
  tags: [["<start_function_call>", "<end_function_call>"]],
  detectionRank: 90,
});
