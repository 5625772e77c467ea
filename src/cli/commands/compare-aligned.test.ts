import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadManifest } from "../../io/manifest.js";
import { loadInputsForTest } from "../../testing/read-models.js";
import { mcnemarExact } from "../../stats/index.js";
import { bfclDataDir, projectRoot, rolloutRunDir, rolloutRuns } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { table1Ids, table1Numbers } from "../../testing/numbers.js";

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** BFCL's own multi_turn_checker on the twins' prefixes (tools/gen-aligned-vectors.py): "1" = completed. */
const prefixVectors = JSON.parse(readFileSync(join(projectRoot, "src", "simulator", "testdata", "prefix-check-vectors.json"), "utf8")) as {
  pairs: [string, string, number][];
  runs: Record<string, { base: string; miss: string }>;
};

/** Each scored pair's aligned outcome in one run, recounted from the decision records and BFCL's own prefix verdicts. */
function alignedByPair(run: (typeof rolloutRuns)[number], model: string): Map<string, boolean> {
  const manifest = loadManifest();
  if (!manifest.ok) throw new Error("manifest");
  const scored = table1Ids(manifest.value);
  const loaded = loadInputsForTest({ resultDirs: [rolloutRunDir(run)], scoreDirs: [], models: [model], cwd: projectRoot });
  const v = prefixVectors.runs[`${run}/${model}`];
  const base = v.base.split(" ");
  const miss = v.miss.split(" ");
  const at = new Map(prefixVectors.pairs.map(([id], i) => [id, i]));
  const out = new Map<string, boolean>();
  for (const r of loaded.models[0].inputs.records) {
    if (!scored.has(r.missId)) continue;
    const i = at.get(r.missId)!;
    out.set(r.missId, r.actedOnBase && r.heldBack && base[i] === "1" && miss[i] === "1");
  }
  return out;
}

describe("compare --bfcl-data: does an arm trade resolution for restraint? (main vs harmony-fixes, gpt-oss-120b)", () => {
  const [main, fixes] = rolloutRuns;
  const args = [
    "compare",
    "--reading",
    "release",
    "--a",
    rolloutRunDir(main),
    "--b",
    rolloutRunDir(fixes),
    "--model",
    "openai_gpt-oss-120b",
    "--bfcl-data",
    bfclDataDir(),
  ];

  it("--format json: the aligned change with its paired interval and McNemar on the aligned outcome, recounted from BFCL's own prefix checks", async () => {
    const r = await run([...args, "--format", "json"]);
    expect(r.code, r.err).toBe(0);
    const c = JSON.parse(r.out).models[0].comparison;
    const a = alignedByPair(main, "openai_gpt-oss-120b");
    const b = alignedByPair(fixes, "openai_gpt-oss-120b");
    const ids = [...a.keys()];
    const aOnly = ids.filter((id) => a.get(id) && !b.get(id)).length;
    const bOnly = ids.filter((id) => !a.get(id) && b.get(id)).length;
    expect(c.aligned.pairs).toBe(223);
    expect(c.aligned.aligned.a).toBeCloseTo((100 * ids.filter((id) => a.get(id)).length) / 223, 12);
    expect(c.aligned.aligned.b).toBeCloseTo((100 * ids.filter((id) => b.get(id)).length) / 223, 12);
    expect([c.aligned.aligned.test.aOnly, c.aligned.aligned.test.bOnly]).toEqual([aOnly, bOnly]);
    expect(c.aligned.aligned.test.p).toBe(mcnemarExact(aOnly, bOnly).p);
    expect(c.aligned.aligned.change.toFixed(1)).toBe("8.1");
    expect(c.aligned.aligned.ci95[0]).toBeLessThan(c.aligned.aligned.change);
    expect(c.aligned.aligned.ci95[1]).toBeGreaterThan(c.aligned.aligned.change);
    // the four cells of the withheld twin partition the pairs in each arm
    const cells = Object.values(c.aligned.cells) as { a: number; b: number }[];
    expect(cells.reduce((t, s) => t + s.a, 0)).toBeCloseTo(100, 9);
    expect(cells.reduce((t, s) => t + s.b, 0)).toBeCloseTo(100, 9);
    // the empty-turn readings of both arms: BFCL's counts from its own checkers (irrelevance vectors)
    expect(c.emptyTurns.miss_func.strict.a).toBeCloseTo(16.5, 9);
    expect(c.emptyTurns.miss_func.strict.b).toBeCloseTo(22.5, 9);
    expect(c.emptyTurns.miss_func.bfcl.a).toBeCloseTo(45.5, 9);
    expect(JSON.stringify({ a: c.aligned, e: c.emptyTurns })).not.toMatch(/"\d+(\.\d+)?"/);
  }, 120_000);

  it("csv, markdown and table print the same rows", async () => {
    const csv = await run([...args, "--format", "csv", "--bootstrap", "0"]);
    const lines = csv.out.trim().split("\n");
    // without resamples no interval: its two csv columns are empty
    expect(lines[0]).toBe("model,measure,slice,N,A,B,B-A,A only,B only,McNemar p,ci_low,ci_high");
    expect(lines).toContain("openai_gpt-oss-120b,aligned pair,all,223,42.2,50.2,+8.1,11,29,0.0064,,");
    expect(lines).toContain('openai_gpt-oss-120b,"withheld held+done (asked, then did it)",all,223,46.6,51.1,+4.5,12,22,0.12,,');
    expect(lines).toContain("openai_gpt-oss-120b,empty turns: strict,miss_func,200,16.5,22.5,+6.0,9,21,0.043,,");
    const md = await run([...args, "--format", "markdown", "--bootstrap", "0"]);
    expect(md.out).toContain("| openai_gpt-oss-120b | aligned pair | all | 223 | 42.2 | 50.2 | +8.1 | 11 | 29 | 0.0064 |  |");
    const table = await run([...args, "--bootstrap", "0"]);
    expect(table.out).toMatch(/openai_gpt-oss-120b +aligned pair +all +223 +42\.2 +50\.2 +\+8\.1 +11 +29 +0\.0064/);
  }, 120_000);

  it("a BFCL data folder that is not one is a bad argument: exit 2 before anything is scored", async () => {
    const r = await run([
      "compare",
      "--reading",
      "release",
      "--a",
      rolloutRunDir(main),
      "--b",
      rolloutRunDir(fixes),
      "--bfcl-data",
      join(projectRoot, "src"),
    ]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  it("its help topic says how to read the aligned rows", async () => {
    const r = await run(["help", "comparison"]);
    expect(r.out).toContain("Does arm B trade resolution for restraint?");
    expect((await run(["compare", "--help"])).out).toContain("--bfcl-data <dir>");
  });
});
