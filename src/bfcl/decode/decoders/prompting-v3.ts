/**
 * `prompting-v3`: BFCL v3's `default_decode_execute_prompting`, whose `ast_parse` strips
 * `[`, `]` and `'` from the ends (`../prompting-v3.ts`): an empty list `[]` raises where
 * the current release decodes it to no call.
 */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodePromptingStepV3 } from "../prompting-v3.js";

export const decoder = defineDecoder({
  name: "prompting-v3",
  summary: "BFCL v3's prompting: Python call text, the ends stripped of [ ] ' (so [] raises SyntaxError)",
  handlers: [
    "OSSHandler and the local handlers that keep its decoder (v3)",
    "OpenAICompletionsHandler, OpenAIResponsesHandler (prompting, v3)",
  ],
  owners: [
    { owner: "OSSHandler", revision: "v3" },
    { owner: "OpenAICompletionsHandler", mode: "prompting", revision: "v3" },
    { owner: "OpenAIResponsesHandler", mode: "prompting", revision: "v3" },
  ],
  decode: decodePromptingStepV3,
  records: false,
  nameKeyed: false,
  tags: [],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
  pythonSource: (step: PyValue) => (typeof step === "string" ? step : null),
});
