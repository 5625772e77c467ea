/** `glm`: the local GLM handler's two lines, the function name and its JSON arguments. */
import { PyException } from "../../../python/exception.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodeFcStep } from "../fc.js";
import { DecodeFailure, guarded, type DecodeOutcome } from "../outcome.js";
import { needStr, singleEntryDict } from "../py.js";

/** GLM (local): first line the name, second line the JSON arguments; one line is iterated as text. */
export function decodeGlm(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const lines = needStr(step, "split").split("\n");
    if (lines.length === 1) {
      // convert_to_function_call on a str: each character's `.items()`
      if (lines[0].length > 0) throw new PyException("AttributeError", "'str' object has no attribute 'items'");
      return [];
    }
    const out = decodeFcStep([singleEntryDict(lines[0], lines[1])]);
    if (!out.ok) throw new DecodeFailure(out.error);
    return out.calls;
  });
}

export const decoder = defineDecoder({
  name: "glm",
  summary: "first line the function name, second line its JSON arguments",
  handlers: ["GLMHandler"],
  owners: [{ owner: "GLMHandler" }],
  decode: decodeGlm,
  records: false,
  nameKeyed: false,
  tags: [],
  detectionRank: 180,
});
