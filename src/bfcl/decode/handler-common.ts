/**
 * Pieces of `decode_execute` that several BFCL handlers share (each decoder in `decoders/`
 * holds what is its handler's alone).
 */
import { pyStr } from "../../python/repr.js";
import type { PyValue } from "../../python/value.js";
import { decodeFailure, guarded, type DecodeOutcome } from "./outcome.js";
import { decodePromptingText } from "./prompting.js";
import { getItem, renderCall } from "./py.js";

/** `ValueError(f"Model did not return a list of function calls: {result}")`. */
export function notAList(step: PyValue): DecodeOutcome {
  return decodeFailure("ValueError", `Model did not return a list of function calls: ${pyStr(step)}`);
}

/**
 * A handler that rewrites the step and hands the text to the default prompting decoder:
 * the rewrite's own exception (the step is not text), no text (no call), or the decode.
 */
export function viaPrompting(step: PyValue, source: (step: PyValue) => string | null): DecodeOutcome {
  let text: string | null = null;
  const pre = guarded(() => {
    text = source(step);
    return [];
  });
  if (!pre.ok) return pre;
  return text === null ? { ok: true, calls: [] } : decodePromptingText(text);
}

/** `[{name: …, arguments: …}, …]` (or one object) as xLAM/BitAgent render it. */
export function renderNameArguments(calls: PyValue[], argumentsKey: string): string[] {
  const out: string[] = [];
  for (const call of calls) {
    const name = getItem(call, "name");
    const args = getItem(call, argumentsKey);
    out.push(renderCall(name, args, ","));
  }
  return out;
}

/** `re.findall(OPEN + "(.*?)" + CLOSE, text, re.DOTALL)` for literal markers: each block's inside, in order. */
export function blocksBetween(text: string, OPEN: string, CLOSE: string): string[] {
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
