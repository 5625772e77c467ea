/**
 * The README's `check` examples, run as written in a run folder of the real 2025-11-12-main run, with no
 * BFCL_DATA_DIR and no Python installation to fall back on: the example must say where the data is. More in
 * this folder's README.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bfclDataDir, projectRoot, rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-readme-check-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The `twinscore check …` lines of the README's usage block, comments cut. */
function readmeCheckLines(): string[] {
  const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
  const at = readme.indexOf("## Use it on your BFCL outputs");
  if (at < 0) throw new Error('README has no "Use it on your BFCL outputs" section');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (block === null) throw new Error("the usage section has no sh block");
  return block[1]
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l.startsWith("twinscore check "));
}

/** A run folder holding links to the real run's result/ and score/. */
function runFolder(name: string): string {
  const dir = join(tmp, name);
  const run = rolloutRunDir("2025-11-12-main");
  mkdirSync(dir);
  for (const sub of ["result", "score"]) symlinkSync(join(run, sub), join(dir, sub));
  return dir;
}

/** Every file below a folder, relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe("the README's check examples", () => {
  const lines = readmeCheckLines();

  it("are there: one with --scores, one with --score-empty-turns", () => {
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("--scores score/");
    expect(lines[1]).toContain("--score-empty-turns");
  });

  it.each(lines.map((l, i) => [i, l]))(
    "example %i runs as written in a run folder: %s",
    async (i, line) => {
      const cwd = runFolder(`run-${i}`);
      const argv = line
        .split(/\s+/)
        .slice(1)
        .map((a) => (a === "DIR" ? bfclDataDir() : a));
      const io = memoryIo({ TWINSCORE_PYTHON: join(tmp, "no-python") }, cwd);
      const code = await runCli(argv, io);
      const err = io.err.join("");
      expect(err).not.toContain("error:");
      // every verdict agrees with BFCL's stored score files (2 models x 3 categories)
      expect(code).toBe(0);
      const out = join(cwd, "rescored");
      expect(err).toContain(`note: wrote ${out} (6 BFCL score files of 2 models) [written]\n`);
      expect(filesBelow(out)).toEqual(
        ["openai_gpt-oss-120b", "openai_gpt-oss-20b"].flatMap((m) =>
          ["base", "miss_func", "miss_param"].map((c) => join(m, "multi_turn", `BFCL_v4_multi_turn_${c}_score.json`)),
        ),
      );
      // the first table: each file's passing entries, BFCL's checker's 95 of 200 for 20b's base, 93 with its irrelevance checker added (strict)
      const row = io.out
        .join("")
        .split("\n")
        .find((l) => /^openai_gpt-oss-20b\s+base\s/.test(l));
      expect(row?.split(/\s+/).slice(0, 4)).toEqual([
        "openai_gpt-oss-20b",
        "base",
        "200",
        line.includes("--score-empty-turns") ? "93" : "95",
      ]);
    },
    120_000,
  );
});
