/** `cohere`: Cohere records `{tool_name, parameters}`. */
import { pyRepr, pyStr } from "../../../python/repr.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { getItem, isList, items } from "../py.js";

/** Cohere: a list of `{tool_name, parameters}`; anything that is not a list decodes to nothing. */
export function decodeCohere(step: PyValue): DecodeOutcome {
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
