/**
 * `claude-prompting-v3`: BFCL v3's Claude in prompting mode: one leading space cut, the
 * text bracketed, v3's `ast_parse`, and the calls rendered with `repr`.
 */
import { PyDict } from "../../../python/containers.js";
import { PyException } from "../../../python/exception.js";
import { pyTypeName } from "../../../python/kinds.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import type { DecodeOutcome } from "../outcome.js";
import { bracketed, viaAstParseV3 } from "../prompting-v3.js";
import { needStr } from "../py.js";

/** `func[0]` of a step, with Python's exception for each kind of value. */
function firstItem(step: PyValue): PyValue {
  if (typeof step === "string" || Array.isArray(step)) {
    if (step.length === 0) throw new PyException("IndexError", `${typeof step === "string" ? "string" : "list"} index out of range`);
    return step[0];
  }
  if (step instanceof PyDict) throw new PyException("KeyError", "0");
  throw new PyException("TypeError", `'${pyTypeName(step)}' object is not subscriptable`);
}

/** The text v3's Claude hands `ast_parse`: one leading space cut, then bracketed. */
export function claudeV3Source(step: PyValue): string {
  let text = firstItem(step) === " " ? (step as string).slice(1) : step;
  text = needStr(text, "startswith");
  return bracketed(text);
}

/** Claude in prompting mode (v3). */
export const decodeClaudePromptingV3 = (step: PyValue): DecodeOutcome => viaAstParseV3(step, claudeV3Source);

export const decoder = defineDecoder({
  name: "claude-prompting-v3",
  summary: "BFCL v3's Claude prompting: one leading space cut, bracketed, v3's ast_parse, calls rendered with repr",
  handlers: ["ClaudeHandler (prompting, v3)"],
  owners: [{ owner: "ClaudeHandler", mode: "prompting", revision: "v3" }],
  decode: decodeClaudePromptingV3,
  records: false,
  nameKeyed: false,
  tags: [],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
  pythonSource: (s) => (typeof s === "string" && s !== "" ? claudeV3Source(s) : null),
});
