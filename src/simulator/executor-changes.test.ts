import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../testing/shared.js";
import { changesShown, describeChange, withoutSuggestions } from "./difference-causes.js";
import { executorChanges, releaseClasses } from "./executor-changes.js";

describe("BFCL's executor changes after each release (generated from Gorilla's history)", () => {
  it("holds the v4 changes twinscore has to name: echo no longer creates a missing file, cat quotes its file name", () => {
    const echo = executorChanges.find((c) => c.version === "v4" && c.method === "echo" && c.before === null);
    expect(echo).toMatchObject({
      commit: "659c7165",
      date: "2025-10-19",
      className: "GorillaFileSystem",
      after: "echo: cannot write to '{file_name}': No such file",
      beforeCode: "self._current_dir._add_file(file_name, content)",
    });
    expect(executorChanges.filter((c) => c.version === "v4" && c.method === "cat").map((c) => [c.before, c.after])).toEqual([
      ["cat: {file_name}: Is a directory", "cat: '{file_name}': Is a directory"],
      ["cat: {file_name}: No such file or directory", "cat: '{file_name}': No such file or directory"],
    ]);
    // every change lies between its release and the revision twinscore emulates
    for (const c of executorChanges) expect(c.date >= releaseClasses[c.version].date).toBe(true);
    for (const c of executorChanges) expect(c.date <= (c.version === "v4" ? "2026-03-23" : "2025-08-07")).toBe(true);
  });

  it("says v4 was released with v3 final's classes, so a run scored as released can be checked again with the v3 classes", () => {
    expect(releaseClasses.v4).toEqual({ release: "58f57e91", date: "2025-08-25", classesSameAs: "v3" });
    expect(releaseClasses.v3.classesSameAs).toBeNull();
  });

  it("names a change by the message that shows on one side only", () => {
    const ours = [`{"error": "cat: 'notes.txt': No such file or directory"}`];
    const theirs = [`{"error": "cat: notes.txt: No such file or directory"}`];
    expect(changesShown("v4", ours, theirs).map(describeChange)).toEqual([
      `6d2bea39 (2025-10-24) GorillaFileSystem.cat: now "cat: '{file_name}': No such file or directory", was "cat: {file_name}: No such file or directory"`,
    ]);
    expect(changesShown("v4", ours, ours)).toEqual([]);
  });

  it("drops the suggestion suffix of newer Pythons, nothing else", () => {
    expect(withoutSuggestions("Error during execution: name 'head' is not defined. Did you mean: 'help'?")).toBe(
      "Error during execution: name 'head' is not defined",
    );
    expect(withoutSuggestions("name 'x' is not defined. Did you forget to import 'sys'?")).toBe("name 'x' is not defined");
    expect(withoutSuggestions("Missing parentheses in call to 'print'. Did you mean print(...)?")).toBe(
      "Missing parentheses in call to 'print'",
    );
    expect(withoutSuggestions("cat: 'a': No such file or directory")).toBe("cat: 'a': No such file or directory");
  });
});

/** Regeneration from Gorilla's history (GORILLA_GIT_DIR = a clone or bare mirror of ShishirPatil/gorilla). */
const gitDir = process.env.GORILLA_GIT_DIR;
describe.skipIf(!gitDir)("regenerated from GORILLA_GIT_DIR", () => {
  it("tools/gen-executor-changes.py writes the committed executor-changes.ts", () => {
    const dir = mkdtempSync(join(tmpdir(), "twinscore-executor-changes-"));
    try {
      const out = join(dir, "executor-changes.ts");
      execFileSync("python3", [join(projectRoot, "tools", "gen-executor-changes.py"), "--git-dir", gitDir!, "--out", out], {
        stdio: "pipe",
      });
      expect(readFileSync(out, "utf8")).toBe(readFileSync(join(projectRoot, "src", "simulator", "executor-changes.ts"), "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
