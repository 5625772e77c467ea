/**
 * `nvidia-v3`: BFCL v3's Nvidia handler: newlines removed, the text bracketed, a quoted
 * list of calls (`['f()', 'g()']`) unquoted, v3's `ast_parse`, the calls rendered with
 * `repr`.
 */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import type { DecodeOutcome } from "../outcome.js";
import { bracketed, viaAstParseV3 } from "../prompting-v3.js";
import { needStr } from "../py.js";

/** The text v3's Nvidia handler hands `ast_parse`. */
export function nvidiaV3Source(step: PyValue): string {
  let text = bracketed(needStr(step, "replace").replaceAll("\n", ""));
  if (text.startsWith("['")) text = text.replaceAll("['", "[").replaceAll("', '", ", ").replaceAll("','", ", ");
  if (text.endsWith("']")) text = text.replaceAll("']", "]");
  return text;
}

/** Nvidia (v3). */
export const decodeNvidiaV3 = (step: PyValue): DecodeOutcome => viaAstParseV3(step, nvidiaV3Source);

export const decoder = defineDecoder({
  name: "nvidia-v3",
  summary: "BFCL v3's Nvidia: newlines removed, bracketed, a quoted call list unquoted, v3's ast_parse, calls rendered with repr",
  handlers: ["NvidiaHandler (v3)"],
  owners: [{ owner: "NvidiaHandler", revision: "v3" }],
  decode: decodeNvidiaV3,
  records: false,
  nameKeyed: false,
  tags: [],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
  pythonSource: (s) => (typeof s === "string" ? nvidiaV3Source(s) : null),
});
