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
class GemmaArgReader {
  readonly root: PyValue[] = [];
  private readonly stack: (PyValue[] | PyDict)[] = [this.root];
  private readonly keyStack: (string | null)[] = [];
  private buffer = "";
  private hasBuffer = false;
  private pendingKey: PyValue | undefined;

  /** Read the whole text, then commit what is left in the buffer. */
  read(text: string): void {
    let i = 0;
    while (i < text.length) {
      if (text.startsWith(ESCAPE, i)) {
        const start = i + ESCAPE.length;
        const end = text.indexOf(ESCAPE, start);
        const val = end < 0 ? text.slice(i) : text.slice(start, end);
        i = end < 0 ? text.length : end + ESCAPE.length;
        this.commit();
        this.addValue(val);
        continue;
      }
      const c = text[i];
      if ("{[:]},".includes(c)) {
        this.commit();
        this.punctuation(c);
      } else {
        this.buffer += c;
        this.hasBuffer = true;
      }
      i++;
    }
    this.commit();
  }

  /** Put a value in the innermost container: appended to a list, set under the dict's key, or kept as the next key. */
  private addValue(val: PyValue): void {
    const container = this.stack[this.stack.length - 1];
    if (Array.isArray(container)) container.push(val);
    else {
      const key = this.keyStack.length > 0 ? this.keyStack[this.keyStack.length - 1] : null;
      if (key !== null) {
        container.set(key, val);
        this.keyStack[this.keyStack.length - 1] = null;
      } else this.pendingKey = val;
    }
  }

  /** The buffered text, read as a primitive, added (unless blank). */
  private commit(): void {
    if (!this.hasBuffer) return;
    const raw = strStrip(this.buffer);
    this.buffer = "";
    this.hasBuffer = false;
    if (raw !== "") this.addValue(gemmaPrimitive(raw));
  }

  /** One structural character, `{`, `}`, `[`, `]`, `:` or `,`, after the buffer was committed. */
  private punctuation(c: string): void {
    const { stack, keyStack } = this;
    if (c === "{") {
      const d = new PyDict();
      this.addValue(d);
      stack.push(d);
      keyStack.push(null);
      this.pendingKey = undefined;
    } else if (c === "}") {
      if (stack.length > 1) {
        stack.pop();
        if (keyStack.length > 0) keyStack.pop();
      }
      this.pendingKey = undefined;
    } else if (c === "[") {
      const l: PyValue[] = [];
      this.addValue(l);
      stack.push(l);
      this.pendingKey = undefined;
    } else if (c === "]") {
      if (stack.length > 1) stack.pop();
      this.pendingKey = undefined;
    } else if (c === ":") {
      const key = this.takeKey();
      if (key !== null && stack[stack.length - 1] instanceof PyDict && keyStack.length > 0) keyStack[keyStack.length - 1] = key;
    } else this.pendingKey = undefined;
  }

  /** At a `:`, the key: the buffered text, else the value just read, else none. */
  private takeKey(): string | null {
    if (this.hasBuffer) {
      const key = strStrip(this.buffer);
      this.buffer = "";
      this.hasBuffer = false;
      return key;
    }
    if (this.pendingKey !== undefined && this.pendingKey !== null) {
      const key = pyStr(this.pendingKey);
      this.pendingKey = undefined;
      return key;
    }
    return null;
  }
}

/** FunctionGemma's arguments: the first dict read, or an empty one. */
function gemmaArgs(text: string): PyValue {
  const reader = new GemmaArgReader();
  reader.read(text);
  const root = reader.root;
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
