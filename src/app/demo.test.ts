/**
 * `runDemo` called directly with an in-memory host holding the package's manifest: the
 * four reference policies are written into memory, scored back from there through
 * `scoreRuns`, and land on 50 / 50 / 100 / 50; nothing is written to disk.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryHost, memoryRoot } from "../testing/memory-host.js";
import { runDemo } from "./demo.js";

describe("runDemo on an in-memory host", () => {
  it("writes, scores and checks the four policies in memory, and removes its runs", async () => {
    const { host, files } = memoryHost();
    const doc = await runDemo({ cwd: memoryRoot, env: {}, host, bootstrap: { resamples: 0 } });
    expect(doc.problems).toEqual([]);
    expect(doc.exitCode).toBe(0);
    expect(doc.pairs).toBe(223);
    expect(doc.policies.map((p) => [p.name, p.decision])).toEqual([
      ["always-act", 50],
      ["never-act", 50],
      ["oracle", 100],
      ["lookups-only", 50],
    ]);
    expect(doc.score?.models.map((m) => [m.model, m.numbers?.act, m.numbers?.hold])).toEqual([
      ["always-act", 100, 0],
      ["never-act", 0, 100],
      ["oracle", 100, 100],
      ["lookups-only", 0, 100],
    ]);
    // every result file was read from memory, and the temporary runs are gone
    const results = files.reads.filter((p) => p.endsWith("_result.json"));
    expect(results).toHaveLength(12);
    expect(results.every((p) => p.startsWith(join(memoryRoot, "tmp") + "/"))).toBe(true);
    expect([...files.files.keys()].filter((p) => p.startsWith(join(memoryRoot, "tmp") + "/"))).toEqual([]);
  });

  it("keeps the runs in the host's folder when asked, one file per category and policy", async () => {
    const { host, files } = memoryHost();
    const doc = await runDemo({ cwd: memoryRoot, env: {}, host, keep: "runs", bootstrap: { resamples: 0 } });
    expect(doc.kept).toBe(join(memoryRoot, "runs"));
    expect(files.list(join(memoryRoot, "runs", "oracle", "multi_turn")).sort()).toEqual([
      "BFCL_v4_multi_turn_base_result.json",
      "BFCL_v4_multi_turn_miss_func_result.json",
      "BFCL_v4_multi_turn_miss_param_result.json",
    ]);
    expect(doc.policies.find((p) => p.name === "oracle")?.decision).toBe(100);
  });
});
