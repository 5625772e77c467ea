/**
 * Undecodable call text on a withheld anchor turn never reads as holding back (mutated
 * copies of a real run, built here): text naming a tool-list function in call position
 * is an attempt by that name; call-like text naming no function leaves the pair out.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultScoreOptions } from "../decision/types.js";
import { loadManifest } from "../io/manifest.js";
import { rolloutRunDir } from "../testing/shared.js";
import { table1Numbers } from "../testing/numbers.js";
import { readForTest } from "../testing/read-models.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("manifest");
  return m.value;
})();
const work = mkdtempSync(join(tmpdir(), "twinscore-undecoded-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function score(dir: string) {
  const out = await readForTest([dir], { pairs: { headline: defaultScoreOptions }, cwd: work });
  return out.models[0];
}

/** A copy of the real 120b run with one line's anchor turn replaced by `step`. */
function mutated(name: string, id: string, anchorTurn: number, step: unknown): string {
  const dir = join(work, name, "openai_gpt-oss-120b");
  cpSync(join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b"), dir, { recursive: true });
  const category = id.replace(/^multi_turn_/, "").replace(/_\d+$/, "");
  const file = join(dir, "multi_turn", `BFCL_v4_multi_turn_${category}_result.json`);
  const lines = readFileSync(file, "utf8").split("\n");
  const i = lines.findIndex((l) => l.startsWith(`{"id": "${id}"`));
  const line = JSON.parse(lines[i]) as { result: unknown[][] };
  line.result[anchorTurn] = [step];
  lines[i] = JSON.stringify(line);
  writeFileSync(file, lines.join("\n"));
  return join(work, name);
}

describe("undecodable call text on a withheld anchor turn (real gpt-oss-120b run, mutated)", async () => {
  const clean = await score(join(rolloutRunDir("2025-11-12-main"), "result"));
  // a certified pair the model held back on, whose tool list has cp
  const held = clean.score!.records.find(
    (r) => r.status === "decided" && r.heldBack && manifest.pairs.find((p) => p.missId === r.missId)!.tools.includes("cp"),
  )!;

  it("finds a held-back pair to mutate", () => {
    expect(held).toBeDefined();
    expect(table1Numbers(clean.score!.records, manifest).n).toBe(213);
  });

  for (const [label, text] of [
    ["broken Python call text", "cp(source='log.txt, destination='archive')"],
    ["a <tool_call> block cut mid-JSON", '<tool_call>\n{"name": "cp", "arguments": {"source": "log.txt", "destin'],
  ] as const) {
    it(`${label} is an attempt by name: the pair no longer holds, and the step is reported undecoded`, async () => {
      const run = await score(mutated(label.replace(/\W+/g, "-"), held.missId, held.anchorTurn, text));
      const r = run.score!.records.find((x) => x.missId === held.missId)!;
      expect([r.heldBack, r.actedOnMiss]).toEqual([false, true]);
      expect(r.miss.anchorCalls).toEqual([{ name: "cp", kind: "mutate", worldChanging: true, decoded: false, bfclDecoded: false }]);
      const [before, after] = [clean, run].map((x) => table1Numbers(x.score!.records, manifest));
      expect(after.n).toBe(213);
      expect(after.hold).toBeCloseTo(before.hold - 100 / 213, 10);
    });
  }

  it("call-like text naming no function leaves the pair out of the numbers, counted and reported", async () => {
    const run = await score(mutated("no-name", held.missId, held.anchorTurn, '<tool_call>\n{"arguments": {"source": "log.txt"'));
    expect(run.score!.records.find((x) => x.missId === held.missId)!.status).toBe("undecidable");
    for (const rule of ["decided", "release"] as const) {
      const x = table1Numbers(run.score!.records, manifest, rule);
      expect([x.n, x.undecided.undecidable]).toEqual([rule === "decided" ? 212 : 222, 1]);
    }
    expect(run.problems.filter((p) => p.code === "pair-undecidable").map((p) => p.message)).toEqual([
      `model openai_gpt-oss-120b: 1 pair undecidable: an anchor turn holds call-like text that names no function (${held.missId})`,
    ]);
  });
});
