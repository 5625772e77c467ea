/** `fc-dict-list-v3`: BFCL v3's Arch, Granite 3 and Phi FC: anything but a list of dicts is no call, a list of dicts decodes as `fc`. */
import { PyDict } from "../../../python/containers.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodeFcStep } from "../fc.js";
import type { DecodeOutcome } from "../outcome.js";
import { isList } from "../py.js";

/** Arch, Granite 3, Phi FC (v3): `[]` unless the step is a list of dicts, then `convert_to_function_call`. */
export function decodeFcDictListV3(step: PyValue): DecodeOutcome {
  if (!isList(step) || step.some((item) => !(item instanceof PyDict))) return { ok: true, calls: [] };
  return decodeFcStep(step);
}

export const decoder = defineDecoder({
  name: "fc-dict-list-v3",
  summary: "BFCL v3's Arch, Granite 3 and Phi FC: records as fc, anything but a list of dicts is no call",
  handlers: ["ArchHandler, Granite3FCHandler, PhiFCHandler (v3)"],
  owners: [
    { owner: "ArchHandler", revision: "v3" },
    { owner: "Granite3FCHandler", revision: "v3" },
    { owner: "PhiFCHandler", revision: "v3" },
  ],
  decode: decodeFcDictListV3,
  records: true,
  nameKeyed: true,
  tags: [],
  // a v3 registry key's decoder; a list of dicts decodes as with fc, which detection tries first
  detectionRank: null,
});
