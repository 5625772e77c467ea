/** `phi-v3`: BFCL v3's Phi (prompting): a leading ```json or ```python cut, then v3's default prompting decoder. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { decodePromptingTextV3 } from "../prompting-v3.js";
import { phiSource } from "./phi.js";

/** Phi in prompting mode (v3). */
export function decodePhiV3(step: PyValue): DecodeOutcome {
  let text = "";
  const pre = guarded(() => {
    text = phiSource(step);
    return [];
  });
  return pre.ok ? decodePromptingTextV3(text) : pre;
}

export const decoder = defineDecoder({
  name: "phi-v3",
  summary: "BFCL v3's Phi: a leading ```json or ```python cut, then prompting-v3",
  handlers: ["PhiHandler (v3)"],
  owners: [{ owner: "PhiHandler", revision: "v3" }],
  decode: decodePhiV3,
  records: false,
  nameKeyed: false,
  tags: [],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
  pythonSource: (s) => (typeof s === "string" ? phiSource(s) : null),
});
