/** `nexus`: Nexus' decode_execute, which makes Gorilla's argument slip and fails on every text. */
import { pyTypeName } from "../../../python/kinds.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodeFailure, type DecodeOutcome } from "../outcome.js";

/** Nexus: the same argument slip as Gorilla's, after `;` handling; every text fails. */
export function decodeNexus(step: PyValue): DecodeOutcome {
  if (typeof step !== "string") return decodeFailure("AttributeError", `'${pyTypeName(step)}' object has no attribute 'endswith'`);
  return decodeFailure("NotImplementedError", "Unsupported language: False");
}

export const decoder = defineDecoder({
  name: "nexus",
  summary: 'as gorilla after ";" handling: every text raises "Unsupported language: False"',
  handlers: ["NexusHandler"],
  owners: [{ owner: "NexusHandler", revision: "v4" }],
  decode: decodeNexus,
  records: false,
  nameKeyed: false,
  tags: [],
  // it decodes no call at all: nothing to detect it by
  detectionRank: null,
});
