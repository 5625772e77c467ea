/** `fc-dict-list`: Arch, Granite 3 and Phi FC accept only a list of dicts, then decode as `fc`. */
import { PyDict } from "../../../python/containers.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodeFcStep } from "../fc.js";
import { notAList } from "../handler-common.js";
import type { DecodeOutcome } from "../outcome.js";
import { isList } from "../py.js";

/** Arch, Granite 3, Phi FC: the step must be a list of dicts, then `convert_to_function_call`. */
export function decodeFcDictList(step: PyValue): DecodeOutcome {
  if (!isList(step) || step.some((item) => !(item instanceof PyDict))) return notAList(step);
  return decodeFcStep(step);
}

export const decoder = defineDecoder({
  name: "fc-dict-list",
  summary: "records as fc, but only a list of dicts is accepted (else ValueError)",
  handlers: ["ArchHandler", "Granite3FCHandler", "PhiFCHandler"],
  owners: [
    { owner: "ArchHandler", revision: "v4" },
    { owner: "Granite3FCHandler", revision: "v4" },
    { owner: "PhiFCHandler", revision: "v4" },
  ],
  decode: decodeFcDictList,
  records: true,
  nameKeyed: true,
  tags: [],
  // a list of dicts decodes as with fc, which detection tries first
  detectionRank: null,
});
