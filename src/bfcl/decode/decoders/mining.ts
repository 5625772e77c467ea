/** `mining`: Mining and DM-Cito records `{name, arguments}`. */
import { PyDict } from "../../../python/containers.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { guarded, type DecodeOutcome } from "../outcome.js";
import { dictGet, iterate, renderCall } from "../py.js";

/** Mining, DM-Cito: `{name, arguments}` dicts (others skipped), joined with ", ". */
export function decodeMining(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const out: string[] = [];
    for (const call of iterate(step)) {
      if (!(call instanceof PyDict)) continue;
      const name = dictGet(call, "name", "");
      const args = dictGet(call, "arguments", new PyDict());
      out.push(renderCall(name, args, ", "));
    }
    return out;
  });
}

export const decoder = defineDecoder({
  name: "mining",
  summary: "records [{name, arguments}] (non-dict entries skipped)",
  handlers: ["MiningHandler", "DMCitoHandler"],
  owners: [{ owner: "MiningHandler" }],
  decode: decodeMining,
  records: true,
  nameKeyed: false,
  tags: [],
  detectionRank: 20,
});
