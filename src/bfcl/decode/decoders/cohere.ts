/** `cohere`: Cohere records `{tool_name, parameters}`. */
import { pyRepr, pyStr } from "../../../python/repr.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { PyDict } from "../../../python/containers.js";
import { decodeFailure, guarded, type DecodeOutcome } from "../outcome.js";
import { getItem, isList, items, missingKeyMessage } from "../py.js";

/** Cohere: a list of `{tool_name, parameters}`; anything that is not a list decodes to nothing. */
export function decodeCohere(step: PyValue): DecodeOutcome {
  return recordWithoutParameters(step) ?? decodeCohereAsPython(step);
}

/**
 * The KeyError `decodeCohereAsPython` ends in when the first record has no `parameters` (every FC
 * record, which detection tries this decoder on), found without raising it: a raise costs far more.
 */
function recordWithoutParameters(step: PyValue): DecodeOutcome | null {
  if (!isList(step) || step.length === 0 || !(step[0] instanceof PyDict) || step[0].get("parameters") !== undefined) return null;
  return decodeFailure("KeyError", missingKeyMessage("parameters"));
}

/** The decode as BFCL's Python runs it, raising where it raises. */
export function decodeCohereAsPython(step: PyValue): DecodeOutcome {
  return guarded(() => {
    if (!isList(step)) return [];
    const out: string[] = [];
    for (const call of step) {
      const params = items(getItem(call, "parameters"))
        .map(([k, v]) => `${pyStr(k)}=${pyRepr(v)}`)
        .join(",");
      out.push(`${pyStr(getItem(call, "tool_name"))}(${params})`);
    }
    return out;
  });
}

export const decoder = defineDecoder({
  name: "cohere",
  summary: "records [{tool_name, parameters}]; a step that is not a list is no call",
  handlers: ["CohereHandler"],
  owners: [{ owner: "CohereHandler" }],
  decode: decodeCohere,
  records: true,
  nameKeyed: false,
  tags: [],
  detectionRank: 30,
});
