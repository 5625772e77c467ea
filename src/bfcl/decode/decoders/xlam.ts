/** `xlam`: Salesforce xLAM's JSON text of `{name, arguments}` objects. */
import { strStrip } from "../../../python/strings.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { renderNameArguments } from "../handler-common.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { isJsonDecodeError, isList, jsonLoads } from "../py.js";

/** xLAM (Salesforce Llama/Qwen): JSON (a list, or one object), else JSON objects split on ";". */
export function decodeXlam(step: PyValue): DecodeOutcome {
  return guarded(() => {
    let calls: PyValue[];
    try {
      const parsed = jsonLoads(step);
      calls = isList(parsed) ? parsed : [parsed];
    } catch (e) {
      if (!isJsonDecodeError(e)) throw e;
      calls = (step as string).split(";").map((part) => jsonLoads(strStrip(part)));
    }
    return renderNameArguments(calls, "arguments");
  });
}

export const decoder = defineDecoder({
  name: "xlam",
  summary: 'JSON [{"name", "arguments"}] text, else objects split on ";"',
  handlers: ["SalesforceLlamaHandler", "SalesforceQwenHandler"],
  owners: [{ owner: "SalesforceLlamaHandler" }, { owner: "SalesforceQwenHandler" }],
  decode: decodeXlam,
  records: false,
  nameKeyed: false,
  tags: [],
  detectionRank: 60,
});
