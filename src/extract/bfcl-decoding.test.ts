/**
 * The scorer's reading of every pair on the real xLAM run against BFCL's own decoding of
 * the same steps, recorded in `inference_log` (`handler_log.model_response_decoded`): with
 * the xlam decoder (chosen from BFCL's registry for the folder), act and hold agree.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chooseDecoder } from "../bfcl/decode/index.js";
import { isWorldChanging } from "../catalog/world-changing.js";
import { scorePair, selectPairs } from "../decision/score.js";
import { loadManifest } from "../io/manifest.js";
import { parseExpression } from "../python/parse.js";
import { resolveValue } from "../python/literal.js";
import { sharedPath } from "../testing/shared.js";
import type { ArgValue } from "./types.js";

type Line = { id: string; result: unknown; inference_log?: unknown[] };

const folder = "Salesforce_Llama-xLAM-2-8b-fc-r";
const dir = sharedPath("rollouts", "xlam-v3", "result", folder);
const lines = new Map<string, Line>();
for (const category of ["base", "miss_func", "miss_param"]) {
  for (const l of readFileSync(join(dir, `BFCL_v3_multi_turn_${category}_result.json`), "utf8").split("\n")) {
    if (l.trim() === "") continue;
    const line = JSON.parse(l) as Line;
    lines.set(line.id, line);
  }
}

/** The calls BFCL decoded on a turn (from its inference log), read into name and keywords. */
function bfclCalls(line: Line, turn: number): { name: string; positional: ArgValue[]; keywords: [string, ArgValue][] }[] {
  const turns = (line.inference_log ?? []).filter((e): e is Record<string, unknown> => !Array.isArray(e) && typeof e === "object" && e !== null);
  const record = turns[turn] ?? {};
  const out: { name: string; positional: ArgValue[]; keywords: [string, ArgValue][] }[] = [];
  for (const key of Object.keys(record).filter((k) => k.startsWith("step_"))) {
    const log = (record[key] as { role: string; model_response_decoded?: string[] }[]).find((m) => m.role === "handler_log");
    for (const call of log?.model_response_decoded ?? []) {
      const p = parseExpression(call);
      if (!p.ok || p.expr.kind !== "call") continue;
      out.push({
        name: call.slice(0, call.indexOf("(")),
        positional: [],
        keywords: p.expr.keywords.map((k) => [k.arg ?? "**", (resolveValue(k.value) as { value: ArgValue }).value ?? null]),
      });
    }
  }
  return out;
}

describe("score's reading of the real xLAM run equals BFCL's own recorded decoding", () => {
  it("on every pair of the manifest (--all-pairs): act on base and hold on miss agree", () => {
    const manifest = loadManifest();
    if (!manifest.ok) throw new Error("manifest");
    const choice = chooseDecoder({ folder, samples: () => [] })!;
    expect([choice.decoder.name, choice.source]).toEqual(["xlam", "registry"]);
    const pairs = selectPairs(manifest.value, { pairSet: "all", countLogin: false });
    let compared = 0;
    const differ: string[] = [];
    for (const pair of pairs) {
      const base = lines.get(pair.baseId);
      const miss = lines.get(pair.missId);
      if (!base || !miss || !Array.isArray(base.result) || !Array.isArray(miss.result)) continue;
      const asRollout = (l: Line) => ({ kind: "turns" as const, turns: l.result as unknown[][], turnCount: (l.result as unknown[]).length });
      const ours = scorePair(pair, asRollout(base), asRollout(miss), { pairSet: "all", countLogin: false }, choice.decoder);
      const tools = new Set(pair.tools);
      const acted = (l: Line) => bfclCalls(l, pair.anchorTurn).some((c) => tools.has(c.name) && isWorldChanging(c));
      compared++;
      if (ours.undecidable || ours.actedOnBase !== acted(base) || ours.actedOnMiss !== acted(miss)) {
        differ.push(`${pair.missId}: ours act ${ours.actedOnBase} miss ${ours.actedOnMiss}${ours.undecidable ? " undecidable" : ""}; BFCL act ${acted(base)} miss ${acted(miss)}`);
      }
    }
    expect(differ).toEqual([]);
    expect(compared).toBeGreaterThan(350);
  });
});

describe("score never gives a silent number with the wrong decoder", () => {
  it("xLAM's JSON text read with the FC decoder: one line per file, exit 1; with its own decoder, exit 0 and no line", async () => {
    const { runCli } = await import("../cli/program.js");
    const { memoryIo } = await import("../cli/io.js");
    const wrong = memoryIo();
    expect(await runCli(["score", "--results", sharedPath("rollouts", "xlam-v3", "result"), "--decoder", "fc", "--format", "json"], wrong)).toBe(1);
    const lines = wrong.err.join("").trim().split("\n").filter((l) => l.includes("[decode-failures]"));
    expect(lines.map((l) => l.replace(/^.*(BFCL_v3_multi_turn_\w+)\.json: warning: \d+ of \d+ anchor-turn tool-call steps \(100\.0 %\) fail to decode with decoder fc; .*$/, "$1"))).toEqual([
      "BFCL_v3_multi_turn_base_result",
      "BFCL_v3_multi_turn_miss_func_result",
      "BFCL_v3_multi_turn_miss_param_result",
    ]);
    const right = memoryIo();
    expect(await runCli(["score", "--results", sharedPath("rollouts", "xlam-v3", "result"), "--format", "json"], right)).toBe(0);
    expect(right.err.join("")).not.toContain("decode-failures");
    const doc = JSON.parse(right.out.join("")) as { models: { model: string; decoder: { name: string; source: string; reason: string } }[] };
    expect(doc.models[0].decoder).toEqual({ name: "xlam", source: "registry", reason: "BFCL registry key Salesforce/Llama-xLAM-2-8b-fc-r: SalesforceLlamaHandler, function-calling mode" });
  });
});
