import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { jsonLoadsOrThrow } from "../../python/json.js";
import type { PyValue } from "../../python/value.js";
import { rolloutRunDir, rolloutRuns } from "../../testing/shared.js";
import { decodeFcStep } from "./fc.js";
import { isEmptyDecoded } from "./outcome.js";

describe("convert_to_function_call on hand-made steps", () => {
  it("renders name(k=repr(v),…) with Python reprs and no space after commas", () => {
    const step = [new PyDict([["mv", '{"source": "a\'b.txt", "destination": "d", "n": 1, "f": 1.0, "e": 1e16, "l": [true, null]}']])];
    expect(decodeFcStep(step)).toEqual({ ok: true, calls: ["mv(source=\"a'b.txt\",destination='d',n=1,f=1.0,e=1e+16,l=[True, None])"] });
  });
  it("wraps a bare dict, accepts already-decoded argument dicts, and decodes [] to nothing", () => {
    expect(decodeFcStep(new PyDict([["ls", new PyDict([["a", true]])]]))).toEqual({ ok: true, calls: ["ls(a=True)"] });
    expect(decodeFcStep([])).toEqual({ ok: true, calls: [] });
    expect(decodeFcStep("")).toEqual({ ok: true, calls: [] });
    expect(isEmptyDecoded([])).toBe(true);
  });
  it("fails where Python fails, with Python's exception text", () => {
    expect(decodeFcStep("some text")).toEqual({ ok: false, error: "AttributeError: 'str' object has no attribute 'items'" });
    expect(decodeFcStep(null)).toEqual({ ok: false, error: "TypeError: 'NoneType' object is not iterable" });
    expect(decodeFcStep([new PyDict([["ls", "[1]"]])])).toEqual({
      ok: false,
      error: "AttributeError: 'list' object has no attribute 'items'",
    });
    expect(decodeFcStep([new PyDict([["ls", "{bad"]])])).toEqual({
      ok: false,
      error: "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    });
  });
});

/** Every step of every real gpt-oss result file, against what BFCL logged at inference time. */
describe("FC decoding on the real gpt-oss rollouts (both runs, both models, base/miss_func/miss_param)", () => {
  it("matches every logged model_response_decoded and every logged decode error", () => {
    let decodedSteps = 0;
    let decodeErrors = 0;
    const mismatches: string[] = [];
    for (const run of rolloutRuns) {
      const resultRoot = join(rolloutRunDir(run), "result");
      for (const model of readdirSync(resultRoot)) {
        const dir = join(resultRoot, model, "multi_turn");
        for (const file of readdirSync(dir)) {
          for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
            if (line === "") continue;
            const plain = JSON.parse(line) as { id: string; inference_log?: unknown };
            if (!Array.isArray(plain.inference_log)) continue;
            const result = (jsonLoadsOrThrow(line) as PyDict).get("result") as PyValue[][];
            let turn = -1;
            for (const record of plain.inference_log) {
              if (Array.isArray(record)) continue;
              turn++;
              const steps = Object.keys(record as object).filter((k) => k.startsWith("step_"));
              steps.forEach((key, s) => {
                const msgs = (
                  record as Record<string, { role: string; content?: string; error?: string; model_response_decoded?: string[] }[]>
                )[key];
                const log = msgs.find((m) => m.role === "handler_log");
                if (!log) return;
                const out = decodeFcStep(result[turn][s]);
                if (log.model_response_decoded !== undefined) {
                  decodedSteps++;
                  if (!out.ok || JSON.stringify(out.calls) !== JSON.stringify(log.model_response_decoded))
                    mismatches.push(`${run}/${model}/${plain.id} turn ${turn} step ${s}`);
                } else if (log.content?.startsWith("Error decoding")) {
                  decodeErrors++;
                  if (out.ok || out.error.replace(/^\w+: /, "") !== log.error)
                    mismatches.push(`${run}/${model}/${plain.id} turn ${turn} step ${s} (error)`);
                }
              });
            }
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(decodedSteps).toBeGreaterThan(27_000);
    expect(decodeErrors).toBe(79);
  });
});
