/** `falcon-v3`: BFCL v3's Falcon 3 FC: as `falcon`, but a step without a readable `<tool_call>` block is no call. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import type { DecodeOutcome } from "../outcome.js";
import { decodeFalconOf } from "./falcon.js";

/** Falcon 3 FC (v3). */
export const decodeFalconV3 = (step: PyValue): DecodeOutcome => decodeFalconOf(step, true);

export const decoder = defineDecoder({
  name: "falcon-v3",
  summary: "BFCL v3's Falcon 3 FC: as falcon, but no tag, text that is not JSON or a record without name/arguments is no call",
  handlers: ["Falcon3FCHandler (v3)"],
  owners: [{ owner: "Falcon3FCHandler", revision: "v3" }],
  decode: decodeFalconV3,
  records: false,
  nameKeyed: false,
  tags: [["<tool_call>", "</tool_call>"]],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
});
