/**
 * `nemotron-v3`: BFCL v3's Nemotron hands the `<TOOLCALL>` body and a language to v3's
 * `default_decode_execute_prompting`, which takes one argument: every tagged step raises
 * TypeError, an untagged one is no call.
 */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { decodeFailure, guarded, type DecodeOutcome } from "../outcome.js";
import { nemotronSource } from "./nemotron.js";

/** Nemotron (v3): no `<TOOLCALL>` block is no call; a block fails on the call's argument count. */
export function decodeNemotronV3(step: PyValue): DecodeOutcome {
  let source: string | null = null;
  const pre = guarded(() => {
    source = nemotronSource(step);
    return [];
  });
  if (!pre.ok || source === null) return pre;
  return decodeFailure("TypeError", "default_decode_execute_prompting() takes 1 positional argument but 2 were given");
}

export const decoder = defineDecoder({
  name: "nemotron-v3",
  summary: "BFCL v3's Nemotron: a <TOOLCALL> block raises TypeError (a call with one argument too many); no tag is no call",
  handlers: ["NemotronHandler (v3)"],
  owners: [{ owner: "NemotronHandler", revision: "v3" }],
  decode: decodeNemotronV3,
  records: false,
  nameKeyed: false,
  tags: [["<TOOLCALL>", "</TOOLCALL>"]],
  // a v3 registry key's decoder, which decodes no call at all
  detectionRank: null,
  pythonSource: (s) => (typeof s === "string" ? nemotronSource(s) : null),
});
