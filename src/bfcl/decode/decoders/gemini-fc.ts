/** `gemini-fc`: Gemini in FC mode records `{name: arguments}` whose arguments are already objects. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { items, iterate, renderCall } from "../py.js";

/** Gemini in FC mode: `{name: args}` records whose arguments are already dicts (no `json.loads`). */
export function decodeGeminiFc(step: PyValue): DecodeOutcome {
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
