/**
 * The closing line against vitest itself: each case writes a few test files to a
 * temporary folder, runs vitest on them in a child process with this reporter, and checks
 * the last line of its output and that the line says failed exactly when vitest exits 1.
 * The files use vitest's globals, so they need no import and can live outside the project.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../src/testing/shared.js";

const reporter = join(projectRoot, "tools", "summary-reporter.ts");
const vitestBin = join(projectRoot, "node_modules", "vitest", "vitest.mjs");
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** Run vitest on `files` (name → source) with only this reporter: its exit code and last line. */
function runVitest(files: Record<string, string>): { code: number | null; last: string } {
  const root = mkdtempSync(join(tmpdir(), "twinscore-summary-"));
  folders.push(root);
  for (const [name, source] of Object.entries(files)) writeFileSync(join(root, name), source);
  // The child is a run of its own, not a worker of this one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "NODE_OPTIONS"));
  const r = spawnSync(process.execPath, [vitestBin, "run", "--root", root, "--globals", "--reporter", reporter], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env,
  });
  if (r.error) throw r.error;
  const lines = r.stdout.trimEnd().split("\n");
  return { code: r.status, last: lines[lines.length - 1] };
}

/** The line's own verdict must be vitest's. */
function expectAgreement({ code, last }: { code: number | null; last: string }): void {
  const failed = Number(/^Tests: \d+ passed, (\d+) failed(, \d+ skipped)?$/.exec(last)?.[1]);
  expect(Number.isInteger(failed), last).toBe(true);
  expect(code === 0 ? 0 : 1).toBe(failed > 0 ? 1 : 0);
}

const passing = `describe("fine", () => {
  it("one", () => { expect(1).toBe(1); });
  it("two", () => { expect("a").toBe("a"); });
  it.skip("skipped on purpose", () => {});
  it.todo("still to write");
  it("skips itself", (ctx) => { ctx.skip(); });
});
`;

describe("the closing line of a vitest run", () => {
  it("counts passed tests and tests skipped on purpose, with exit 0", () => {
    const r = runVitest({ "fine.test.ts": passing });
    expect(r).toEqual({ code: 0, last: "Tests: 2 passed, 0 failed, 3 skipped" });
    expectAgreement(r);
  }, 60_000);

  it("counts the tests of a file whose beforeAll throws as failed, not skipped", () => {
    const r = runVitest({
      "fine.test.ts": passing,
      "hook.test.ts": `beforeAll(() => { throw new Error("no browser"); });
it("first", () => {});
it("second", () => {});
it.skip("skipped on purpose", () => {});
`,
    });
    expect(r).toEqual({ code: 1, last: "Tests: 2 passed, 2 failed, 4 skipped" });
    expectAgreement(r);
  }, 60_000);

  it("counts the tests of a describe whose beforeAll throws as failed, and its neighbours as they ran", () => {
    const r = runVitest({
      "nested.test.ts": `describe("outer", () => {
  describe("broken", () => {
    beforeAll(() => { throw new Error("setup failed"); });
    it("a", () => {});
    describe("inner", () => { it("b", () => {}); });
  });
  it("c", () => {});
});
`,
    });
    expect(r).toEqual({ code: 1, last: "Tests: 1 passed, 2 failed" });
    expectAgreement(r);
  }, 60_000);

  it("counts a file that does not load, and one whose afterAll throws, once each", () => {
    const r = runVitest({
      "load.test.ts": `throw new Error("cannot load");\n`,
      "cleanup.test.ts": `afterAll(() => { throw new Error("cleanup failed"); });\nit("runs", () => {});\n`,
    });
    expect(r).toEqual({ code: 1, last: "Tests: 1 passed, 2 failed" });
    expectAgreement(r);
  }, 60_000);

  it("counts a failed test, a test that skips itself beside it, and an unhandled error", () => {
    const r = runVitest({
      "mixed.test.ts": `it("passes", () => {});
it("fails", () => { expect(1).toBe(2); });
it("skips itself", (ctx) => { ctx.skip(); });
`,
      "late.test.ts": `it("throws after its end", async () => {
  setTimeout(() => { throw new Error("late"); }, 1);
  await new Promise((resolve) => setTimeout(resolve, 50));
});
`,
    });
    expect(r).toEqual({ code: 1, last: "Tests: 2 passed, 2 failed, 1 skipped" });
    expectAgreement(r);
  }, 60_000);
});
