/** `gorilla-v3`: BFCL v3's Gorilla OpenFunctions: the text bracketed, v3's `ast_parse`, the calls rendered with `repr`. */
import { PyException } from "../../../python/exception.js";
import { pyTypeName } from "../../../python/kinds.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import type { DecodeOutcome } from "../outcome.js";
import { viaAstParseV3 } from "../prompting-v3.js";

/** `"[" + result + "]"`. */
export function gorillaV3Source(step: PyValue): string {
  if (typeof step !== "string") throw new PyException("TypeError", `can only concatenate str (not "${pyTypeName(step)}") to str`);
  return "[" + step + "]";
}

/** Gorilla OpenFunctions (v3). */
export const decodeGorillaV3 = (step: PyValue): DecodeOutcome => viaAstParseV3(step, gorillaV3Source);

export const decoder = defineDecoder({
  name: "gorilla-v3",
  summary: "BFCL v3's Gorilla OpenFunctions: [text] through v3's ast_parse, calls rendered with repr",
  handlers: ["GorillaHandler (v3)"],
  owners: [{ owner: "GorillaHandler", revision: "v3" }],
  decode: decodeGorillaV3,
  records: false,
  nameKeyed: false,
  tags: [],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
  pythonSource: (s) => (typeof s === "string" ? gorillaV3Source(s) : null),
});
