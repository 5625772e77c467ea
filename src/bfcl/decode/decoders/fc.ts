/**
 * `fc`: BFCL's `convert_to_function_call`, the decoder of the native function-calling
 * handlers (implemented in `../fc.ts`, which other decoders build on). The only decoder
 * with a path on `JSON.parse` values, the scorer's and the checker's hot path.
 */
import { decodeFcStep, decodeFcStepPlain, fcStepError } from "../fc.js";
import { defineDecoder } from "../decoder.js";

export const decoder = defineDecoder({
  name: "fc",
  summary: "function-calling records [{name: arguments-JSON}] (convert_to_function_call)",
  handlers: [
    "OpenAICompletionsHandler (FC) and its subclasses: DeepSeek, Fireworks, Functionary, GLM API, Grok, Kimi, Ling, Nanbeige API, Novita, Qwen API/Agent, Writer",
    "OpenAIResponsesHandler (FC)",
    "ClaudeHandler (FC)",
    "MistralHandler (FC)",
  ],
  owners: [
    { owner: "OpenAICompletionsHandler", mode: "fc" },
    { owner: "OpenAIResponsesHandler", mode: "fc" },
    { owner: "ClaudeHandler", mode: "fc" },
    { owner: "MistralHandler", mode: "fc" },
  ],
  decode: decodeFcStep,
  records: true,
  nameKeyed: true,
  tags: [],
  detectionRank: 10,
  bfclDefaultFor: "records",
  plain: { decode: decodeFcStepPlain, stepError: fcStepError },
});
