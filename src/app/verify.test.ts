/**
 * `verifyExpected` called directly with an in-memory host holding the real gpt-oss runs
 * and the package's expected numbers: every number of the file recomputed from memory.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryPackageRoot, memoryRoot, memoryShared, sharedMemoryHost } from "../testing/memory-host.js";
import { verifyExpected } from "./verify.js";

const runs = join(memoryShared, "rollouts", "gpt-oss");
const expected = join(memoryPackageRoot, "data", "expected", "gpt-oss.json");

describe("verifyExpected on an in-memory host", () => {
  it("recomputes every number of the gpt-oss file from the real runs in memory: 422 PASS", async () => {
    const { host, files } = sharedMemoryHost();
    const doc = await verifyExpected({ expected, results: [runs], cwd: memoryRoot, env: {}, host });
    expect(doc.summary).toEqual({ pass: 422, fail: 0, skip: 0, line: "422 PASS, 0 FAIL, 0 SKIP" });
    expect(doc.exitCode).toBe(0);
    expect(doc.problems).toEqual([]);
    expect(doc.scoresBeside).toEqual([join(runs, "2025-11-12-harmony-fixes", "score"), join(runs, "2025-11-12-main", "score")]);
    const line = (name: string) => doc.lines.find((l) => l.run === "2025-11-12-main" && l.name === name);
    expect(line("tables.C.openai_gpt-oss-120b.n")?.computed).toBe(223);
    expect(line("tables.C.openai_gpt-oss-120b.decision")?.computed).toBeCloseTo(83.1839, 4);
    expect(new Set(files.reads.filter((p) => p.endsWith("_result.json"))).size).toBe(12);
    expect(new Set(files.reads.filter((p) => p.endsWith("_score.json"))).size).toBe(12);
    expect(files.reads.every((p) => p.startsWith(memoryRoot + "/"))).toBe(true);
  });

  it("a number that disagrees is a FAIL and exit 1", async () => {
    const { host, files } = sharedMemoryHost();
    const text = files.readText(expected);
    files.put(expected, text.replace("83.1839", "83.2839"));
    const doc = await verifyExpected({ expected, results: [runs], models: ["openai_gpt-oss-120b"], cwd: memoryRoot, env: {}, host });
    expect(doc.exitCode).toBe(1);
    expect(doc.lines.filter((l) => l.status === "FAIL").map((l) => [l.run, l.name])).toEqual([
      ["2025-11-12-main", "tables.C.openai_gpt-oss-120b.decision"],
    ]);
  });

  it("an expected file the host does not hold is one problem, exit 2", async () => {
    const { host } = sharedMemoryHost();
    const doc = await verifyExpected({ expected: "none.json", results: [runs], cwd: memoryRoot, env: {}, host });
    expect(doc.problems.map((p) => [p.code, p.file])).toEqual([["file-missing", join(memoryRoot, "none.json")]]);
    expect(doc.exitCode).toBe(2);
  });
});
