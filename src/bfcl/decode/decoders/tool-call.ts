/** `tool-call`: Qwen FC and the handlers like it write `<tool_call>\n{JSON}\n</tool_call>` blocks. */
import { PyDict } from "../../../python/containers.js";
import { PyException } from "../../../python/exception.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodeFcStep } from "../fc.js";
import { blocksBetween } from "../handler-common.js";
import { DecodeFailure, guarded, type DecodeOutcome } from "../outcome.js";
import { getItem, jsonLoads, needReText, singleEntryDict } from "../py.js";

/** `re.findall(r"<tool_call>\n(.*?)\n</tool_call>", text, re.DOTALL)`. */
function toolCallBlocks(text: string): string[] {
  return blocksBetween(text, "<tool_call>\n", "\n</tool_call>");
}

/**
 * Qwen FC, Granite 4, Nanbeige FC, Pelican-VL FC: each `<tool_call>\n…\n</tool_call>` block
 * that is JSON (others are dropped silently), every one a dict, `{name: arguments}`, then
 * `convert_to_function_call`.
 */
export const decodeToolCall = (step: PyValue): DecodeOutcome => decodeToolCallOf(step, false);

/**
 * The tool-call decoding of either revision: BFCL v3's Qwen FC (`v3`) keeps a block that
 * is not JSON as its text, and anything but a list of dicts is then no call, where the
 * current release drops such blocks and raises for a list with other entries.
 */
export function decodeToolCallOf(step: PyValue, v3: boolean): DecodeOutcome {
  return guarded(() => {
    const text = needReText(step);
    const calls: PyValue[] = [];
    for (const block of toolCallBlocks(text)) {
      try {
        calls.push(jsonLoads(block));
      } catch (e) {
        if (!(e instanceof PyException || e instanceof RangeError)) throw e;
        if (v3) calls.push(block);
      }
    }
    if (calls.some((c) => !(c instanceof PyDict))) {
      if (v3) return [];
      throw new PyException("ValueError", `Model did not return a list of function calls: ${text}`);
    }
    const records = calls.map((c) => singleEntryDict(getItem(c, "name"), getItem(c, "arguments")));
    const out = decodeFcStep(records);
    if (!out.ok) throw new DecodeFailure(out.error);
    return out.calls;
  });
}

export const decoder = defineDecoder({
  name: "tool-call",
  summary: '<tool_call>\\n{"name", "arguments"}\\n</tool_call> blocks (blocks that are not JSON are dropped)',
  handlers: ["QwenFCHandler", "Granite4FCHandler", "NanbeigeFCHandler", "PelicanVLFCHandler"],
  owners: [
    { owner: "QwenFCHandler", revision: "v4" },
    { owner: "Granite4FCHandler" },
    { owner: "NanbeigeFCHandler" },
    { owner: "PelicanVLFCHandler" },
  ],
  decode: decodeToolCall,
  records: false,
  nameKeyed: false,
  tags: [["<tool_call>", "</tool_call>"]],
  detectionRank: 80,
});
