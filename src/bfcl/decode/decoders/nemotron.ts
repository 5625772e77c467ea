/** `nemotron`: Nemotron's calls are Python call text inside `<TOOLCALL>…</TOOLCALL>`, read by BFCL's default prompting decoder. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { viaPrompting } from "../handler-common.js";
import type { DecodeOutcome } from "../outcome.js";
import { needReText } from "../py.js";

/** Nemotron: the first `<TOOLCALL>…</TOOLCALL>` body (null when there is none: no call). */
export function nemotronSource(step: PyValue): string | null {
  const text = needReText(step);
  const open = text.indexOf("<TOOLCALL>");
  if (open < 0) return null;
  const close = text.indexOf("</TOOLCALL>", open + "<TOOLCALL>".length);
  if (close < 0) return null;
  return text.slice(open + "<TOOLCALL>".length, close);
}

/** Nemotron: the `<TOOLCALL>` body through the default prompting decoder; no tag decodes to nothing. */
export const decodeNemotron = (step: PyValue): DecodeOutcome => viaPrompting(step, nemotronSource);

export const decoder = defineDecoder({
  name: "nemotron",
  summary: "Python call text inside <TOOLCALL>…</TOOLCALL>; no tag is no call",
  handlers: ["NemotronHandler"],
  owners: [{ owner: "NemotronHandler", revision: "v4" }],
  decode: decodeNemotron,
  records: false,
  nameKeyed: false,
  tags: [["<TOOLCALL>", "</TOOLCALL>"]],
  detectionRank: 100,
  pythonSource: (s) => (typeof s === "string" ? nemotronSource(s) : null),
});
