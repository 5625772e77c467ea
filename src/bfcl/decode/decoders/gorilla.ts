/** `gorilla`: Gorilla OpenFunctions' decode_execute, which fails on every text. */
import { pyTypeName } from "../../../python/kinds.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodeFailure, type DecodeOutcome } from "../outcome.js";

/**
 * Gorilla OpenFunctions: `ast_parse("[" + result + "]", has_tool_call_tag)` passes the flag
 * where the language belongs, so every text fails with "Unsupported language: False".
 */
export function decodeGorilla(step: PyValue): DecodeOutcome {
  if (typeof step !== "string") return decodeFailure("TypeError", `can only concatenate str (not "${pyTypeName(step)}") to str`);
  return decodeFailure("NotImplementedError", "Unsupported language: False");
}

export const decoder = defineDecoder({
  name: "gorilla",
  summary: 'BFCL passes the tool-call flag as the language: every text raises "Unsupported language: False"',
  handlers: ["GorillaHandler"],
  owners: [{ owner: "GorillaHandler", revision: "v4" }],
  decode: decodeGorilla,
  records: false,
  nameKeyed: false,
  tags: [],
  // it decodes no call at all: nothing to detect it by
  detectionRank: null,
});
