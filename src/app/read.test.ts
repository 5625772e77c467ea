/**
 * `readRun` called directly with an in-memory host holding the real gpt-oss rollouts:
 * every line of both models of the main run, the inference-error lines counted as the
 * files hold them, and a broken line reported with its file and line.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryRoot, memoryShared, sharedMemoryHost } from "../testing/memory-host.js";
import { readRun } from "./read.js";

const mainRun = join(memoryShared, "rollouts", "gpt-oss", "2025-11-12-main");

describe("readRun on an in-memory host", () => {
  it("reads both models of the real main run, every line, only through the host", async () => {
    const { host, files } = sharedMemoryHost();
    const doc = await readRun({ results: [mainRun], cwd: memoryRoot, host });
    expect(doc.problems).toEqual([]);
    expect(doc.models.map((m) => [m.model, m.rollouts.size])).toEqual([
      ["openai_gpt-oss-120b", 600],
      ["openai_gpt-oss-20b", 600],
    ]);
    const errors = (i: number) => [...doc.models[i].rollouts.values()].filter((r) => r.kind === "inference-error").length;
    expect([errors(0), errors(1)]).toEqual([12, 30]);
    expect(Object.keys(doc.models[0].files)).toEqual(["base", "miss_func", "miss_param"]);
    expect(files.reads).toHaveLength(6);
    expect(files.reads.every((p) => p.startsWith(mainRun + "/"))).toBe(true);
  });

  it("a line that is not JSON is a warning at its file and line; the rest is read", async () => {
    const { host, files } = sharedMemoryHost();
    const file = join(mainRun, "result", "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_miss_param_result.json");
    const lines = files.readText(file).split("\n");
    lines[4] = "{ not json";
    files.put(file, lines.join("\n"));
    const doc = await readRun({ results: [mainRun], models: ["openai_gpt-oss-120b"], categories: ["miss_param"], cwd: memoryRoot, host });
    expect(doc.problems.map((p) => [p.code, p.file, p.line, p.severity])).toEqual([["json-malformed", file, 5, "warning"]]);
    expect(doc.models[0].rollouts.size).toBe(199);
  });

  it("a folder the host does not hold is one error, and no model", async () => {
    const { host } = sharedMemoryHost();
    const doc = await readRun({ results: ["runs/none"], cwd: memoryRoot, host });
    expect(doc.models).toEqual([]);
    expect(doc.problems.map((p) => [p.code, p.file])).toEqual([["results-missing", "/memory/runs/none"]]);
  });
});
