/** `think-agent`: ThinkAgent reads JSON after `</think>`, and its own code raises on any call. */
import { PyException } from "../../../python/exception.js";
import { pyStr } from "../../../python/repr.js";
import { strStrip } from "../../../python/strings.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { getItem, iterate, jsonLoads, needStr } from "../py.js";

/**
 * ThinkAgent: the JSON after `</think>` (else `[]`), quotes swapped to `"`; each item's
 * `name(arguments)` text is then read with `.items()`, so any call at all raises.
 */
export function decodeThinkAgent(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const text = strStrip(needStr(step, "strip")).replaceAll("'", '"');
    const cut = text.indexOf("</think>");
    const json = cut < 0 ? "[]" : strStrip(text.slice(cut + "</think>".length));
    const parsed = jsonLoads(json);
    const texts: string[] = [];
    for (const item of iterate(parsed)) {
      const name = getItem(item, "name");
      const args = getItem(item, "arguments");
      texts.push(`${pyStr(name)}(${pyStr(args)})`);
    }
    if (texts.length > 0) throw new PyException("AttributeError", "'str' object has no attribute 'items'");
    return [];
  });
}

export const decoder = defineDecoder({
  name: "think-agent",
  summary: "JSON after </think>; BFCL's code raises on any call",
  handlers: ["ThinkAgentHandler"],
  owners: [{ owner: "ThinkAgentHandler" }],
  decode: decodeThinkAgent,
  records: false,
  nameKeyed: false,
  tags: [],
  // it decodes no call at all: nothing to detect it by
  detectionRank: null,
});
