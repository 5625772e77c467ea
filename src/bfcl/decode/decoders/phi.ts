/** `phi`: Phi (prompting) cuts a leading ```json or ```python, then BFCL's default prompting decoder. */
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { viaPrompting } from "../handler-common.js";
import type { DecodeOutcome } from "../outcome.js";
import { needStr } from "../py.js";

/** Phi (prompting): a leading "```json" or "```python" is cut (no stripping first), then the default decoder. */
export function phiSource(step: PyValue): string {
  let text = needStr(step, "startswith");
  if (text.startsWith("```json")) text = text.slice("```json".length);
  if (text.startsWith("```python")) text = text.slice("```python".length);
  return text;
}

/** Phi in prompting mode. */
export const decodePhi = (step: PyValue): DecodeOutcome => viaPrompting(step, phiSource);

export const decoder = defineDecoder({
  name: "phi",
  summary: "Python call text after cutting a leading ```json or ```python",
  handlers: ["PhiHandler"],
  owners: [{ owner: "PhiHandler", revision: "v4" }],
  decode: decodePhi,
  records: false,
  nameKeyed: false,
  tags: [],
  detectionRank: 130,
  pythonSource: (s) => (typeof s === "string" ? phiSource(s) : null),
});
