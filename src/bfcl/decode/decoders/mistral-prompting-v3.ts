/**
 * `mistral-prompting-v3`: BFCL v3's Mistral in prompting mode: `\_` unescaped, then v3's
 * `ast_parse` straight away (no bracketing, no stripping of fences), the calls rendered
 * with `repr`.
 */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import type { DecodeOutcome } from "../outcome.js";
import { viaAstParseV3 } from "../prompting-v3.js";
import { needStr } from "../py.js";

/** The text v3's Mistral hands `ast_parse`: `\_` replaced by `_`. */
export function mistralV3Source(step: PyValue): string {
  return needStr(step, "replace").replaceAll("\\_", "_");
}

/** Mistral in prompting mode (v3). */
export const decodeMistralPromptingV3 = (step: PyValue): DecodeOutcome => viaAstParseV3(step, mistralV3Source);

export const decoder = defineDecoder({
  name: "mistral-prompting-v3",
  summary: "BFCL v3's Mistral prompting: \\_ unescaped, v3's ast_parse with no bracketing, calls rendered with repr",
  handlers: ["MistralHandler (prompting, v3)"],
  owners: [{ owner: "MistralHandler", mode: "prompting", revision: "v3" }],
  decode: decodeMistralPromptingV3,
  records: false,
  nameKeyed: false,
  tags: [],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
  pythonSource: (s) => (typeof s === "string" ? mistralV3Source(s) : null),
});
