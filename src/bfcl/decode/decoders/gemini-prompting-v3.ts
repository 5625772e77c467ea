/** `gemini-prompting-v3`: BFCL v3's Gemini in prompting mode: its ```tool_code fences removed, then v3's default prompting decoder. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { decodePromptingTextV3 } from "../prompting-v3.js";
import { geminiPromptingSource } from "./gemini-prompting.js";

/** Gemini prompting (v3): drop "```tool_code\n" and "\n```" everywhere, then v3's default prompting decoder. */
export function decodeGeminiPromptingV3(step: PyValue): DecodeOutcome {
  let text = "";
  const pre = guarded(() => {
    text = geminiPromptingSource(step);
    return [];
  });
  return pre.ok ? decodePromptingTextV3(text) : pre;
}

export const decoder = defineDecoder({
  name: "gemini-prompting-v3",
  summary: "BFCL v3's Gemini prompting: ```tool_code fences removed, then prompting-v3",
  handlers: ["GeminiHandler (prompting, v3)"],
  owners: [{ owner: "GeminiHandler", mode: "prompting", revision: "v3" }],
  decode: decodeGeminiPromptingV3,
  records: false,
  nameKeyed: false,
  tags: [],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
  pythonSource: (s) => (typeof s === "string" ? geminiPromptingSource(s) : null),
});
