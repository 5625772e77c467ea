/** `tool-call-v3`: BFCL v3's Qwen FC: as `tool-call`, but a block that is not JSON makes the step no call. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import type { DecodeOutcome } from "../outcome.js";
import { decodeToolCallOf } from "./tool-call.js";

/** Qwen FC (v3). */
export const decodeToolCallV3 = (step: PyValue): DecodeOutcome => decodeToolCallOf(step, true);

export const decoder = defineDecoder({
  name: "tool-call-v3",
  summary: "BFCL v3's Qwen FC: as tool-call, but a block that is not JSON (or not a dict) makes the step no call",
  handlers: ["QwenFCHandler (v3)"],
  owners: [{ owner: "QwenFCHandler", revision: "v3" }],
  decode: decodeToolCallV3,
  records: false,
  nameKeyed: false,
  tags: [["<tool_call>", "</tool_call>"]],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
});
