/** `granite`: Granite's function-calling prompt writes `<function_call> {JSON}` parts. */
import { PyDict } from "../../../python/containers.js";
import { strStrip } from "../../../python/strings.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { DecodeFailure, guarded, type DecodeOutcome } from "../outcome.js";
import { dictGet, jsonLoads, needStr, renderCall } from "../py.js";

/**
 * Granite (function-calling prompt): parts split on `<function_call>`; a part that is JSON
 * `{name, arguments}` becomes a call (`no_function` a fixed sentence), any other part is
 * kept as it is — text the checker then tries to run.
 */
export function decodeGranite(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const parts = needStr(step, "split")
      .split("<function_call>")
      .map((p) => strStrip(p))
      .filter((p) => p.length > 0);
    const out: string[] = [];
    for (const part of parts) {
      let parsed: PyValue;
      try {
        parsed = jsonLoads(strStrip(part));
      } catch (e) {
        if (e instanceof DecodeFailure) throw e;
        out.push(part);
        continue;
      }
      const name = strStrip(needStr(dictGet(parsed, "name", ""), "strip"));
      const args = dictGet(parsed, "arguments", new PyDict());
      if (name === "no_function") {
        out.push("No function is called");
        continue;
      }
      out.push(renderCall(name, args, ","));
    }
    return out;
  });
}

export const decoder = defineDecoder({
  name: "granite",
  summary: '<function_call> {"name", "arguments"} parts; a part that is not JSON is kept as it is',
  handlers: ["GraniteFunctionCallingHandler"],
  owners: [{ owner: "GraniteFunctionCallingHandler" }],
  decode: decodeGranite,
  records: false,
  nameKeyed: false,
  tags: [],
  detectionRank: 170,
});
