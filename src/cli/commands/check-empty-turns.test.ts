import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bfclDataDir, projectRoot, rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const vectors = JSON.parse(readFileSync(join(projectRoot, "src", "simulator", "testdata", "irrelevance-vectors.json"), "utf8")) as {
  files: Record<string, Record<string, { total: number; correct: number; strictCorrect: number }>>;
};
const out = mkdtempSync(join(tmpdir(), "twinscore-empty-turns-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const header = (dir: string, category: string) =>
  JSON.parse(
    readFileSync(join(dir, "openai_gpt-oss-20b", "multi_turn", `BFCL_v4_multi_turn_${category}_score.json`), "utf8").split("\n")[0],
  ) as { correct_count: number; total_count: number };

describe("twinscore check --score-empty-turns (real 2025-11-12-main, gpt-oss-20b)", () => {
  const results = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-20b");
  it("bare flag = strict: the written score files carry the counts of BFCL's own irrelevance checker", async () => {
    const io = memoryIo();
    const dir = join(out, "strict");
    const code = await runCli(
      ["check", "--results", results, "--bfcl-data", bfclDataDir(), "--out", dir, "--score-empty-turns", "--format", "json"],
      io,
    );
    // gpt-oss is not in BFCL's registry: one stderr line names its detected decoder, one what --out wrote
    expect(io.err.join("")).toMatch(
      /^note: openai_gpt-oss-20b: decoder fc \(not in BFCL's model registry; [^\n]*\) \[decoder-detected\]\n/,
    );
    expect(io.err.join("")).toContain(`\nnote: wrote ${dir} (3 BFCL score files of 1 model) [written]\n`);
    expect(io.err.join("").split("\n")).toHaveLength(3);
    expect(code).toBe(0);
    const doc = JSON.parse(io.out.join("")) as {
      files: { category: string; correct: number }[];
      emptyTurns: {
        category: string;
        entries: number;
        bfcl: { correct: number };
        strict: { correct: number };
        worldChanging: { correct: number };
      }[];
    };
    for (const category of ["base", "miss_func", "miss_param"]) {
      const v = vectors.files["2025-11-12-main/openai_gpt-oss-20b"][category];
      expect(doc.files.find((f) => f.category === category)?.correct).toBe(v.strictCorrect);
      expect(header(dir, category)).toMatchObject({ correct_count: v.strictCorrect, total_count: v.total });
      // the table beside the files: BFCL's count and the strict one from BFCL's own checkers
      const row = doc.emptyTurns.find((r) => r.category === category)!;
      expect([row.entries, row.bfcl.correct, row.strict.correct]).toEqual([v.total, v.correct, v.strictCorrect]);
    }
    expect(doc.emptyTurns.map((r) => r.category)).toEqual(["base", "miss_func", "miss_param", "mean"]);
  });
  it("=world-changing passes more entries than strict and fewer than BFCL", async () => {
    const io = memoryIo();
    const dir = join(out, "wc");
    const code = await runCli(
      ["check", "--results", results, "--bfcl-data", bfclDataDir(), "--out", dir, "--score-empty-turns=world-changing", "--format", "csv"],
      io,
    );
    expect(code).toBe(0);
    // csv: the files and the empty-turn table, one row per category and the mean; the same counts whichever reading is written
    const lines = io.out.join("").trimEnd().split("\n");
    expect(lines.filter((l) => l.startsWith("check,"))).toHaveLength(3);
    const csvHeader = lines[0].split(",");
    const strict = lines.filter((l) => l.startsWith("empty-turns,")).map((l) => l.split(",")[csvHeader.indexOf("strict")]);
    const expected = ["base", "miss_func", "miss_param"].map((c) =>
      (vectors.files["2025-11-12-main/openai_gpt-oss-20b"][c].strictCorrect / 2).toFixed(1),
    );
    expect(strict.slice(0, 3)).toEqual(expected);
    const v = vectors.files["2025-11-12-main/openai_gpt-oss-20b"].miss_func;
    const wc = header(dir, "miss_func").correct_count;
    expect(wc).toBeGreaterThan(v.strictCorrect);
    expect(wc).toBeLessThan(v.correct);
  });
  it("an unknown reading is refused with the allowed ones and exit code 2", async () => {
    const io = memoryIo();
    const code = await runCli(["check", "--results", results, "--bfcl-data", bfclDataDir(), "--score-empty-turns=lenient"], io);
    expect(code).toBe(2);
    expect(io.err.join("").split("\n")[0]).toBe(
      "error: option '--score-empty-turns [reading]' argument 'lenient' is invalid. Allowed choices are strict, world-changing. (--help lists the options) [bad-argument]",
    );
  });
});
