/** `nexus-v3`: BFCL v3's Nexus: `;` separators made commas, the text bracketed, v3's `ast_parse`, the calls rendered with `repr`. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import type { DecodeOutcome } from "../outcome.js";
import { viaAstParseV3 } from "../prompting-v3.js";
import { needStr } from "../py.js";

/** A trailing `;` dropped, the other `;` made `,`, then `"[" + … + "]"`. */
export function nexusV3Source(step: PyValue): string {
  let text = needStr(step, "endswith");
  if (text.endsWith(";")) text = text.slice(0, -1);
  return "[" + text.replaceAll(";", ",") + "]";
}

/** Nexus (v3). */
export const decodeNexusV3 = (step: PyValue): DecodeOutcome => viaAstParseV3(step, nexusV3Source);

export const decoder = defineDecoder({
  name: "nexus-v3",
  summary: "BFCL v3's Nexus: ; made a comma, [text] through v3's ast_parse, calls rendered with repr",
  handlers: ["NexusHandler (v3)"],
  owners: [{ owner: "NexusHandler", revision: "v3" }],
  decode: decodeNexusV3,
  records: false,
  nameKeyed: false,
  tags: [],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
  pythonSource: (s) => (typeof s === "string" ? nexusV3Source(s) : null),
});
