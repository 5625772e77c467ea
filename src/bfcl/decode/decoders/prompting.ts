/**
 * `prompting`: BFCL's `default_decode_execute_prompting`, the decoder most prompting
 * handlers keep (implemented in `../prompting.ts`, which the other Python-text decoders
 * end in).
 */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodePromptingStep } from "../prompting.js";

export const decoder = defineDecoder({
  name: "prompting",
  summary: "Python call text [f(a=1), g(b=2)] (default_decode_execute_prompting)",
  handlers: [
    "OSSHandler and the local handlers that keep its decoder: Bielik, DeepseekReasoning, Gemma, Llama, MiniCPM, QuickTestingOSS, Qwen",
    "OpenAICompletionsHandler (prompting) and its subclasses; GoGoAgentHandler",
    "OpenAIResponsesHandler, ClaudeHandler, MistralHandler (prompting)",
    "NvidiaHandler",
  ],
  owners: [
    { owner: "OSSHandler", revision: "v4" },
    { owner: "OpenAICompletionsHandler", mode: "prompting", revision: "v4" },
    { owner: "OpenAIResponsesHandler", mode: "prompting", revision: "v4" },
    { owner: "ClaudeHandler", mode: "prompting", revision: "v4" },
    { owner: "MistralHandler", mode: "prompting", revision: "v4" },
    { owner: "NvidiaHandler", revision: "v4" },
  ],
  decode: decodePromptingStep,
  records: false,
  nameKeyed: false,
  tags: [],
  detectionRank: 50,
  bfclDefaultFor: "text",
  pythonSource: (step: PyValue) => (typeof step === "string" ? step : null),
});
