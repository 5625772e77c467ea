/** `gemini-fc`: Gemini in FC mode records `{name: arguments}` whose arguments are already objects. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { PyDict } from "../../../python/containers.js";
import { decodeFailure, guarded, type DecodeOutcome } from "../outcome.js";
import { items, iterate, noItemsMessage, renderCall } from "../py.js";

/** Gemini in FC mode: `{name: args}` records whose arguments are already dicts (no `json.loads`). */
export function decodeGeminiFc(step: PyValue): DecodeOutcome {
  return argumentsAsText(step) ?? decodeGeminiFcAsPython(step);
}

/**
 * The AttributeError `decodeGeminiFcAsPython` ends in when the first record's first arguments are
 * text (every FC record, which detection tries this decoder on), found without raising it: a raise
 * costs far more.
 */
function argumentsAsText(step: PyValue): DecodeOutcome | null {
  if (!Array.isArray(step) || step.length === 0 || !(step[0] instanceof PyDict)) return null;
  const first = step[0].entries()[0];
  if (first === undefined || typeof first[0] !== "string" || typeof first[1] !== "string") return null;
  return decodeFailure("AttributeError", noItemsMessage(first[1]));
}

/** The decode as BFCL's Python runs it, raising where it raises. */
export function decodeGeminiFcAsPython(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const out: string[] = [];
    for (const record of iterate(step)) for (const [name, args] of items(record)) out.push(renderCall(name, args, ","));
    return out;
  });
}

export const decoder = defineDecoder({
  name: "gemini-fc",
  summary: "records [{name: {arguments}}], arguments already objects (no json.loads)",
  handlers: ["GeminiHandler (FC)"],
  owners: [{ owner: "GeminiHandler", mode: "fc" }],
  decode: decodeGeminiFc,
  records: true,
  nameKeyed: true,
  tags: [],
  detectionRank: 40,
});
