/** `fc-list`: Nova and the local Mistral FC handler check that the step is a list, then decode as `fc`. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodeFcStep } from "../fc.js";
import { notAList } from "../handler-common.js";
import type { DecodeOutcome } from "../outcome.js";
import { isList } from "../py.js";

/** Nova, local Mistral FC: the step must be a list, then `convert_to_function_call`. */
export function decodeFcList(step: PyValue): DecodeOutcome {
  if (!isList(step)) return notAList(step);
  return decodeFcStep(step);
}

export const decoder = defineDecoder({
  name: "fc-list",
  summary: "records as fc, but a step that is not a list raises ValueError",
  handlers: ["NovaHandler", "MistralFCHandler"],
  owners: [
    { owner: "NovaHandler", revision: "v4" },
    { owner: "MistralFCHandler", revision: "v4" },
  ],
  decode: decodeFcList,
  records: true,
  nameKeyed: true,
  tags: [],
  // a list step decodes as with fc, which detection tries first
  detectionRank: null,
});
