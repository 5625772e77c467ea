/** `gemini-prompting`: Gemini in prompting mode removes its ```tool_code fences, then BFCL's default prompting decoder. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { viaPrompting } from "../handler-common.js";
import type { DecodeOutcome } from "../outcome.js";
import { needStr } from "../py.js";

/** Gemini prompting: drop "```tool_code\n" and "\n```" everywhere, then the default prompting decoder. */
export function geminiPromptingSource(step: PyValue): string {
  return needStr(step, "replace").replaceAll("```tool_code\n", "").replaceAll("\n```", "");
}

/** Gemini in prompting mode. */
export const decodeGeminiPrompting = (step: PyValue): DecodeOutcome => viaPrompting(step, geminiPromptingSource);

export const decoder = defineDecoder({
  name: "gemini-prompting",
  summary: "Python call text after removing ```tool_code fences",
  handlers: ["GeminiHandler (prompting)"],
  owners: [{ owner: "GeminiHandler", mode: "prompting", revision: "v4" }],
  decode: decodeGeminiPrompting,
  records: false,
  nameKeyed: false,
  tags: [],
  detectionRank: 120,
  pythonSource: (s) => (typeof s === "string" ? geminiPromptingSource(s) : null),
});
