/** `falcon`: Falcon 3 FC reads the first `<tool_call>` block as JSON. */
import { PyException } from "../../../python/exception.js";
import { pyContains } from "../../../python/iterables.js";
import { pyStr } from "../../../python/repr.js";
import { strStrip } from "../../../python/strings.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { getItem, isJsonDecodeError, isList, jsonLoads, needStr, renderCall } from "../py.js";

/** The no-call outcome BFCL v3's Falcon returns instead of raising. */
class NoCall {}

/**
 * Falcon 3 FC: the first `<tool_call>` block (maybe a ```json fence) as JSON `{name, arguments}`.
 * BFCL v3's (`failuresAreNoCall`) returns no call where the current one raises: for a step
 * without the tag, and for text that is not JSON or a record without a name or arguments.
 */
export function decodeFalconOf(step: PyValue, failuresAreNoCall: boolean): DecodeOutcome {
  try {
    return guarded(() => falconCalls(step, failuresAreNoCall));
  } catch (e) {
    if (e instanceof NoCall) return { ok: true, calls: [] };
    throw e;
  }
}

/** The call strings of a Falcon step, or the exception (NoCall: v3's `return []`). */
function falconCalls(step: PyValue, failuresAreNoCall: boolean): string[] {
  const failed = (): never => {
    if (failuresAreNoCall) throw new NoCall();
    throw new PyException("ValueError", `Failed to decode the model's response: ${pyStr(step)}`);
  };
  if (!pyContains(step, "<tool_call>")) {
    if (failuresAreNoCall) throw new NoCall();
    throw new PyException("ValueError", `No <tool_call> found in the model's response: ${pyStr(step)}`);
  }
  const text = needStr(step, "split");
  const parts = text.split("<tool_call>");
  let body = strStrip(parts[1].split("</tool_call>")[0]);
  if (body.startsWith("```") && body.endsWith("```")) {
    body = strStrip(strStrip(body, "`"));
    if (body.startsWith("json")) body = strStrip(body.slice(4));
  }
  let parsed: PyValue;
  try {
    parsed = jsonLoads(body);
  } catch (e) {
    if (isJsonDecodeError(e)) failed();
    throw e;
  }
  const calls = isList(parsed) ? parsed : [parsed];
  const out: string[] = [];
  for (const call of calls) {
    let name: PyValue;
    let args: PyValue;
    try {
      name = getItem(call, "name");
      args = getItem(call, "arguments");
    } catch (e) {
      if (e instanceof PyException && e.pyType === "KeyError") failed();
      throw e;
    }
    out.push(renderCall(name!, args!, ","));
  }
  return out;
}

/** Falcon 3 FC, as the current release decodes it. */
export const decodeFalcon = (step: PyValue): DecodeOutcome => decodeFalconOf(step, false);

export const decoder = defineDecoder({
  name: "falcon",
  summary: 'the first <tool_call> block as JSON {"name", "arguments"} (or a list)',
  handlers: ["Falcon3FCHandler"],
  owners: [{ owner: "Falcon3FCHandler", revision: "v4" }],
  decode: decodeFalcon,
  records: false,
  nameKeyed: false,
  tags: [["<tool_call>", "</tool_call>"]],
  detectionRank: 160,
});
