/** `fc-list-v3`: BFCL v3's Nova and local Mistral FC: a step that is not a list is no call, a list decodes as `fc`. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodeFcStep } from "../fc.js";
import type { DecodeOutcome } from "../outcome.js";
import { isList } from "../py.js";

/** Nova, local Mistral FC (v3): `[]` for a step that is not a list, else `convert_to_function_call`. */
export function decodeFcListV3(step: PyValue): DecodeOutcome {
  return isList(step) ? decodeFcStep(step) : { ok: true, calls: [] };
}

export const decoder = defineDecoder({
  name: "fc-list-v3",
  summary: "BFCL v3's Nova and Mistral FC: records as fc, a step that is not a list is no call",
  handlers: ["NovaHandler, MistralFCHandler (v3)"],
  owners: [
    { owner: "NovaHandler", revision: "v3" },
    { owner: "MistralFCHandler", revision: "v3" },
  ],
  decode: decodeFcListV3,
  records: true,
  nameKeyed: true,
  tags: [],
  // a v3 registry key's decoder; a list step decodes as with fc, which detection tries first
  detectionRank: null,
});
