/**
 * What a new user meets first in the README, checked against what the commands do: the
 * usage block runs in a run folder with the installed command, its first example's exit on
 * the real 2025-11-12-main run is said beside it, the tests skipped without a Gorilla
 * checkout are named as they are in the suite, and TypeScript users are told about
 * @types/node, which the package's declarations need.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot, rolloutRunDir } from "../testing/shared.js";
import { memoryIo } from "./io.js";
import { runCli } from "./program.js";

const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
const tmp = mkdtempSync(join(tmpdir(), "twinscore-readme-first-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The usage section's prose before its sh block, and the block's lines (comments kept). */
function usageSection(): { prose: string; lines: string[] } {
  const at = readme.indexOf("## Use it on your BFCL outputs");
  const section = readme.slice(at);
  const block = /```sh\n([\s\S]*?)```/.exec(section)!;
  const prose = section.slice(0, block.index).split("\n\n").slice(-2).join("\n\n");
  return { prose, lines: block[1].split("\n").filter((l) => l.trim() !== "") };
}

describe("the README's usage block", () => {
  const { prose, lines } = usageSection();

  it("is written for the installed command in a run folder, and says how to run it from the clone", () => {
    // `npx twinscore` in a run folder asks the registry for a package that is not published
    expect(lines.filter((l) => l.startsWith("npx "))).toEqual([]);
    expect(lines.every((l) => l.startsWith("twinscore "))).toBe(true);
    expect(prose).toContain("The examples run in a run folder");
    expect(prose).toContain("`npx twinscore score --results ../shared/rollouts/gpt-oss/2025-11-12-main/result/`");
  });

  it("its first example exits as the README says beside it, in a run folder of the real 2025-11-12-main run", async () => {
    const first = lines[0].replace(/\s+#.*$/, "").trim();
    expect(first).toBe("twinscore score   --results result/");
    expect(lines[0]).toContain("exit 1 on 2025-11-12-main: 20b has no headline");
    expect(prose).toContain("the first example exits **1**");
    const cwd = join(tmp, "run");
    mkdirSync(cwd);
    for (const sub of ["result", "score"]) symlinkSync(join(rolloutRunDir("2025-11-12-main"), sub), join(cwd, sub));
    const io = memoryIo({}, cwd);
    const code = await runCli(first.split(/\s+/).slice(1), io);
    expect(code).toBe(1);
    const err = io.err.join("");
    expect(err).toMatch(
      /^error: model openai_gpt-oss-20b: no act, hold or decision: 23 of 223 pairs undecided \(10\.3 % > --max-undecided 10 %/m,
    );
    expect(prose).toContain("23 of its 223 pairs undecided (10.3 % > 10 %)");
    expect(io.out.join("")).toMatch(/^openai_gpt-oss-120b +213 +96\.7 +68\.1 +82\.4 /m);
  }, 120_000);
});

/** Test files below a folder. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath, e.name));
}

describe("the README's Tests section", () => {
  const at = readme.indexOf("## Tests");
  const tests = readme.slice(at, readme.indexOf("\n## ", at + 1));

  it("gives the suite's duration and names the twelve tests a run without a checkout skips, each a real conditional test", () => {
    expect(tests).toMatch(/The whole suite takes about \d+ minutes/);
    expect(tests).toContain("ends `…, 12 skipped`");
    // every file of the suite that skips a test on a condition is named, with the variable it waits for
    const conditional = testFiles(join(projectRoot, "src")).filter((f) => /\.(skipIf|runIf)\(/.test(readFileSync(f, "utf8")));
    const named = conditional.map((f) => f.slice(projectRoot.length + 1)).sort();
    expect(named).toEqual([
      "src/app/run-tools.test.ts",
      "src/bfcl/decode/handler-corpus.test.ts",
      "src/bfcl/decode/registry.test.ts",
      "src/pairs/revisions.test.ts",
      "src/simulator/executor-changes.test.ts",
      "src/simulator/gold-replay.test.ts",
    ]);
    for (const f of named) expect(tests).toContain(`\`${f}\``);
    // each quoted title is a test of the file named before it
    const quoted = [...tests.matchAll(/`(src\/[^`]+\.test\.ts)`((?:\s+"[^"]+"(?:\s+and)?)+)/g)];
    const titles = quoted.flatMap((m) => [...m[2].matchAll(/"([^"]+)"/g)].map((t) => ({ file: m[1], title: t[1].replace(/\s+/g, " ") })));
    expect(titles).toHaveLength(12);
    for (const { file, title } of titles) {
      const source = readFileSync(join(projectRoot, file), "utf8").replace(/\$\{version\}/g, title.includes("v3") ? "v3" : "v4");
      expect(source.includes(title), `${file}: ${title}`).toBe(true);
    }
  });
});

describe("the README's library section", () => {
  it("tells TypeScript users to install @types/node, which the package's declarations import", () => {
    // the built declaration the README names imports Node's module types (the reason for the advice)
    const declarations = readFileSync(join(projectRoot, "dist", "io", "tree.d.ts"), "utf8");
    expect(declarations).toMatch(/^import .* from "node:fs";$/m);
    expect(readme).toContain("`node:fs` in `dist/io/tree.d.ts`");
    expect(readme).toContain("`npm install -D @types/node`");
    expect(readme).toContain("`Cannot find module 'node:fs'`");
  });
});
