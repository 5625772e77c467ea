/** `hammer`: Hammer's JSON of `{name, arguments}` (or `{"tool_calls": […]}`) after removing ``` fences. */
import { PyDict } from "../../../python/containers.js";
import { PyException } from "../../../python/exception.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { dictGet, isList, jsonLoads, needStr, renderCall } from "../py.js";

/**
 * Hammer: fences removed, JSON (anything unreadable is no call); a list, or a dict's
 * `tool_calls`, of `{name, arguments}` dicts (other entries skipped), joined with ", ".
 */
export function decodeHammer(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const text = needStr(step, "replace").replaceAll("```", "");
    let parsed: PyValue;
    try {
      parsed = jsonLoads(text);
    } catch (e) {
      if (!(e instanceof PyException) && !(e instanceof RangeError)) throw e;
      parsed = [];
    }
    let calls: PyValue = isList(parsed) ? parsed : parsed instanceof PyDict ? dictGet(parsed, "tool_calls", []) : [];
    if (!isList(calls)) calls = [calls];
    const out: string[] = [];
    for (const call of calls) {
      if (!(call instanceof PyDict)) continue;
      out.push(renderCall(dictGet(call, "name", ""), dictGet(call, "arguments", new PyDict()), ", "));
    }
    return out;
  });
}

export const decoder = defineDecoder({
  name: "hammer",
  summary: 'JSON [{"name", "arguments"}] (or {"tool_calls": […]}) after removing ``` fences; unreadable text is no call',
  handlers: ["HammerHandler"],
  owners: [{ owner: "HammerHandler" }],
  decode: decodeHammer,
  records: false,
  nameKeyed: false,
  tags: [],
  detectionRank: 140,
});
