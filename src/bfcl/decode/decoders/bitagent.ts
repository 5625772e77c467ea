/** `bitagent`: BitAgent's JSON text of `{name, arguments}` objects, without xLAM's ";" fallback. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { renderNameArguments } from "../handler-common.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { isList, jsonLoads } from "../py.js";

/** BitAgent: JSON (a list, or one object) of `{name, arguments}`, no fallback. */
export function decodeBitAgent(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const parsed = jsonLoads(step);
    return renderNameArguments(isList(parsed) ? parsed : [parsed], "arguments");
  });
}

export const decoder = defineDecoder({
  name: "bitagent",
  summary: 'JSON [{"name", "arguments"}] text (no ";" fallback)',
  handlers: ["BitAgentHandler"],
  owners: [{ owner: "BitAgentHandler" }],
  decode: decodeBitAgent,
  records: false,
  nameKeyed: false,
  tags: [],
  detectionRank: 150,
});
