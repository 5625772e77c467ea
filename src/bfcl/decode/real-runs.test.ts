/**
 * Every step of every real run in ../shared decoded with the model's decoder, against what
 * BFCL itself logged at inference time (`handler_log`: `model_response_decoded`, or the
 * decode error's text).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { jsonLoadsOrThrow } from "../../python/json.js";
import type { PyValue } from "../../python/value.js";
import { rolloutRunDir, rolloutRuns, sharedPath } from "../../testing/shared.js";
import { decoderByName, type Decoder } from "./decoders.js";
import { failureMessage } from "./outcome.js";
import { fcStepError } from "./fc.js";

interface Tally {
  decoded: number;
  errors: number;
  mismatches: string[];
}

type LogMessage = { role: string; content?: unknown; error?: string; model_response_decoded?: string[] };

/** Decode every logged step of a result file and compare with its inference log. */
function replayFile(path: string, decoder: Decoder, tally: Tally): void {
  for (const line of readFileSync(path, "utf8").split("\n")) {
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
        const msgs = (record as Record<string, LogMessage[]>)[key];
        const log = msgs.find((m) => m.role === "handler_log");
        if (!log) return;
        const out = decoder.decode(result[turn][s]);
        const where = `${path.split("/").slice(-3).join("/")} ${plain.id} turn ${turn} step ${s}`;
        if (log.model_response_decoded !== undefined) {
          tally.decoded++;
          if (!out.ok) tally.mismatches.push(`${where}: we fail (${out.error}), BFCL decoded`);
          else if (JSON.stringify(out.calls) !== JSON.stringify(log.model_response_decoded))
            tally.mismatches.push(`${where}: ${JSON.stringify(out.calls)} vs ${JSON.stringify(log.model_response_decoded)}`);
        } else if (typeof log.content === "string" && log.content.startsWith("Error decoding")) {
          tally.errors++;
          if (out.ok) tally.mismatches.push(`${where}: we decode, BFCL failed with ${log.error}`);
          else if (failureMessage(out) !== log.error)
            tally.mismatches.push(`${where}: ${JSON.stringify(failureMessage(out))} vs ${JSON.stringify(log.error)}`);
        }
      });
    }
  }
}

describe("decoders on every step of the real runs agree with BFCL's inference log", () => {
  it("gpt-oss (FC records, both runs, both models): decoder fc", () => {
    const fc = decoderByName("fc")!;
    const perModel: Record<string, number> = {};
    const tally: Tally = { decoded: 0, errors: 0, mismatches: [] };
    for (const run of rolloutRuns) {
      const root = join(rolloutRunDir(run), "result");
      for (const model of readdirSync(root)) {
        const before = tally.decoded + tally.errors;
        const dir = join(root, model, "multi_turn");
        for (const file of readdirSync(dir).sort()) replayFile(join(dir, file), fc, tally);
        perModel[`${run}/${model}`] = tally.decoded + tally.errors - before;
      }
    }
    expect(tally.mismatches).toEqual([]);
    expect(Object.keys(perModel)).toHaveLength(4);
    for (const n of Object.values(perModel)) expect(n).toBeGreaterThan(6_000);
    expect(tally.decoded + tally.errors).toBe(27_981);
    expect(tally.errors).toBe(79);
  });

  it("xLAM-2-8b (v3, JSON text): decoder xlam", () => {
    const xlam = decoderByName("xlam")!;
    const tally: Tally = { decoded: 0, errors: 0, mismatches: [] };
    const dir = sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r");
    for (const file of readdirSync(dir).sort()) replayFile(join(dir, file), xlam, tally);
    expect(tally.mismatches).toEqual([]);
    // every logged step of the 600 entries: 4,538 decoded (calls or empty), 2,459 decode errors (prose, mostly)
    expect(tally.decoded).toBe(4_538);
    expect(tally.errors).toBe(2_459);
  });

  it("fcStepError (the FC decoder's accept-only path on JSON.parse values) agrees with decodeFcStep on every real and vector step", () => {
    const fc = decoderByName("fc")!;
    let n = 0;
    const wrong: string[] = [];
    const compare = (plain: unknown, py: PyValue) => {
      n++;
      const out = fc.decode(py);
      const want = out.ok ? null : out.error;
      if (fcStepError(plain) !== want) wrong.push(`${JSON.stringify(plain).slice(0, 120)}: ${fcStepError(plain)} vs ${want}`);
    };
    for (const run of rolloutRuns) {
      const root = join(rolloutRunDir(run), "result");
      for (const model of readdirSync(root)) {
        const dir = join(root, model, "multi_turn");
        for (const file of readdirSync(dir)) {
          for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
            if (line === "") continue;
            const plain = JSON.parse(line) as { result: unknown };
            const py = (jsonLoadsOrThrow(line) as PyDict).get("result");
            if (!Array.isArray(plain.result) || !Array.isArray(py)) continue;
            plain.result.forEach((turn, t) => (turn as unknown[]).forEach((step, s) => compare(step, (py[t] as PyValue[])[s])));
          }
        }
      }
    }
    const vectors = JSON.parse(readFileSync(new URL("./testdata/handler-vectors.json", import.meta.url), "utf8")) as { steps: string[] };
    for (const text of vectors.steps) compare(JSON.parse(text), jsonLoadsOrThrow(text));
    expect(wrong).toEqual([]);
    expect(n).toBeGreaterThan(28_000);
  });

  it("the wrong decoder on the same files disagrees (the comparison can fail)", () => {
    const tally: Tally = { decoded: 0, errors: 0, mismatches: [] };
    const dir = sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r");
    replayFile(join(dir, "BFCL_v3_multi_turn_base_result.json"), decoderByName("prompting")!, tally);
    expect(tally.mismatches.length).toBeGreaterThan(500);
  });
});
