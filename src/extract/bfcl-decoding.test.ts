/**
 * `score --all-pairs` on the real xLAM run (BFCL v3) against BFCL's own decoding of the same steps
 * (`handler_log.model_response_decoded`): per pair of the v3 manifest, act and hold agree, but for one rule of
 * the extractor's own. More in this folder's README.md.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isWorldChanging } from "../catalog/world-changing.js";
import { readingPairs } from "../decision/readings.js";
import { committedManifestPath, loadManifest } from "../io/manifest.js";
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

type HandlerLog = { role: string; content?: string; model_response_decoded?: string[] };

/** The handler logs of a turn's steps (BFCL writes one per step it decoded or failed to). */
function handlerLogs(line: Line, turn: number): HandlerLog[] {
  const turns = (line.inference_log ?? []).filter(
    (e): e is Record<string, unknown> => !Array.isArray(e) && typeof e === "object" && e !== null,
  );
  const record = turns[turn] ?? {};
  return Object.keys(record)
    .filter((k) => k.startsWith("step_"))
    .flatMap((k) => (record[k] as HandlerLog[]).filter((m) => m.role === "handler_log"));
}

/** The calls BFCL decoded on a turn (from its inference log), read into name and keywords. */
function bfclCalls(line: Line, turn: number): { name: string; positional: ArgValue[]; keywords: [string, ArgValue][] }[] {
  const out: { name: string; positional: ArgValue[]; keywords: [string, ArgValue][] }[] = [];
  for (const log of handlerLogs(line, turn)) {
    for (const call of log.model_response_decoded ?? []) {
      const p = parseExpression(call);
      if (!p.ok || p.expr.kind !== "call") throw new Error(`BFCL's decoded call does not parse: ${call}`);
      out.push({
        name: call.slice(0, call.indexOf("(")),
        positional: [],
        keywords: p.expr.keywords.map((k) => [k.arg ?? "**", (resolveValue(k.value) as { value: ArgValue }).value ?? null]),
      });
    }
  }
  return out;
}

/** Whether BFCL's handler failed to decode a step of the turn. */
function bfclDecodeFailed(line: Line, turn: number): boolean {
  return handlerLogs(line, turn).some((m) => m.content === "Error decoding the model response. Proceed to next turn.");
}

/** The rows of a `--per-item` CSV (no field of this run holds a quoted comma before `miss_text`, the last column). */
function perItemRows(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trimEnd().split("\n");
  const columns = head.split(",");
  return rows.map((r) =>
    Object.fromEntries(
      r
        .split(",")
        .slice(0, columns.length - 1)
        .map((v, i) => [columns[i], v]),
    ),
  );
}

describe("score --all-pairs on the real xLAM run equals BFCL's own recorded decoding", () => {
  it("per pair of the v3 manifest: act on base and hold on miss agree, except where BFCL could not decode a step that holds a structurally parsed call", async () => {
    const { runCli } = await import("../cli/program.js");
    const { memoryIo } = await import("../cli/io.js");
    const tmp = mkdtempSync(join(tmpdir(), "twinscore-xlam-all-pairs-"));
    try {
      const csv = join(tmp, "per-item.csv");
      const io = memoryIo();
      // the release reading, as BFCL reads it: a rollout that ended before the anchor is no call there
      expect(
        await runCli(
          [
            "score",
            "--results",
            sharedPath("rollouts", "xlam-v3", "result"),
            "--all-pairs",
            "--reading",
            "release",
            "--per-item",
            csv,
            "--bootstrap",
            "0",
            "--format",
            "json",
          ],
          io,
        ),
      ).toBe(0);
      const doc = JSON.parse(io.out.join("")) as { models: { bfclVersion: string; decoder: { name: string; source: string } }[] };
      expect(doc.models.map((m) => [m.bfclVersion, m.decoder.name, m.decoder.source])).toEqual([["v3", "xlam", "registry"]]);

      const manifest = loadManifest(committedManifestPath("v3"));
      if (!manifest.ok) throw new Error("the v3 manifest does not load");
      const pairs = readingPairs(manifest.value, { pairSet: "all", countLogin: false });
      expect(pairs.length).toBe(manifest.value.funnel.contentVerified);
      const rows = perItemRows(readFileSync(csv, "utf8"));
      expect(rows.map((r) => r.miss_id)).toEqual(pairs.map((p) => p.missId));

      const differ: string[] = [];
      const bfclUndecoded: string[] = [];
      pairs.forEach((pair, i) => {
        const row = rows[i];
        const base = lines.get(pair.baseId)!;
        const miss = lines.get(pair.missId)!;
        const tools = new Set(pair.tools);
        const acted = (l: Line) => bfclCalls(l, pair.anchorTurn).some((c) => tools.has(c.name) && isWorldChanging(c));
        const bfcl = { act: acted(base) ? "1" : "0", hold: acted(miss) ? "0" : "1" };
        const failed = bfclDecodeFailed(base, pair.anchorTurn) || bfclDecodeFailed(miss, pair.anchorTurn);
        if (failed) bfclUndecoded.push(pair.missId);
        if (row.act !== bfcl.act || row.hold !== bfcl.hold) {
          differ.push(pair.missId);
          // the only way to part: BFCL's decode failed, and the extractor counted the call it still read (reported as undecoded)
          expect(failed, `${pair.missId}: ours act ${row.act} hold ${row.hold}; BFCL act ${bfcl.act} hold ${bfcl.hold}`).toBe(true);
          expect(Number(row.decode_failures), pair.missId).toBeGreaterThan(0);
        }
      });
      expect(pairs.length).toBe(368);
      // both twins of entry 115 write prose before the JSON array on the anchor turn: BFCL's decode fails, the call still parses
      expect(differ).toEqual(["multi_turn_miss_func_115", "multi_turn_miss_param_115"]);
      expect(bfclUndecoded.length).toBeGreaterThanOrEqual(differ.length);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe("score never gives a silent number with the wrong decoder", () => {
  it("xLAM's JSON text read with the FC decoder: one line per file, exit 1; with its own decoder, exit 0 and no line", async () => {
    const { runCli } = await import("../cli/program.js");
    const { memoryIo } = await import("../cli/io.js");
    const wrong = memoryIo();
    expect(
      await runCli(["score", "--results", sharedPath("rollouts", "xlam-v3", "result"), "--decoder", "fc", "--format", "json"], wrong),
    ).toBe(1);
    const lines = wrong.err
      .join("")
      .trim()
      .split("\n")
      .filter((l) => l.includes("[decode-failures]"));
    expect(
      lines.map((l) =>
        l.replace(
          /^.*(BFCL_v3_multi_turn_\w+)\.json: warning: \d+ of \d+ anchor-turn tool-call steps \(100\.0 %\) fail to decode with decoder fc; .*$/,
          "$1",
        ),
      ),
    ).toEqual(["BFCL_v3_multi_turn_base_result", "BFCL_v3_multi_turn_miss_func_result", "BFCL_v3_multi_turn_miss_param_result"]);
    const right = memoryIo();
    expect(await runCli(["score", "--results", sharedPath("rollouts", "xlam-v3", "result"), "--format", "json"], right)).toBe(0);
    expect(right.err.join("")).not.toContain("decode-failures");
    const doc = JSON.parse(right.out.join("")) as {
      models: { model: string; decoder: { name: string; source: string; reason: string } }[];
    };
    expect(doc.models[0].decoder).toEqual({
      name: "xlam",
      source: "registry",
      reason: "BFCL v3 registry key Salesforce/Llama-xLAM-2-8b-fc-r: SalesforceLlamaHandler, prompting mode",
    });
  });
});
