import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

async function run(argv: string[], cwd = process.cwd()) {
  const io = memoryIo({}, cwd);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("twinscore demo (committed manifest, synthetic runs, no downloads)", () => {
  it("explains itself and scores always-act, never-act, oracle, lookups-only at 50 / 50 / 100 / 50", async () => {
    const r = await run(["demo"]);
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    expect(r.out).toMatchSnapshot();
  });

  it("--format csv prints only the rows; --keep leaves the BFCL-format files behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "twinscore-demo-test-"));
    const r = await run(["demo", "--format", "csv", "--keep", "runs"], dir);
    expect(r.code).toBe(0);
    expect(
      r.out
        .split("\n")
        .slice(1, 5)
        .map((l) => l.split(",").slice(0, 5).join(",")),
    ).toEqual([
      "always-act,223,100.0,0.0,50.0",
      "never-act,223,0.0,100.0,50.0",
      "oracle,223,100.0,100.0,100.0",
      "lookups-only,223,0.0,100.0,50.0",
    ]);
    expect(readdirSync(join(dir, "runs", "oracle", "multi_turn")).sort()).toEqual([
      "BFCL_v4_multi_turn_base_result.json",
      "BFCL_v4_multi_turn_miss_func_result.json",
      "BFCL_v4_multi_turn_miss_param_result.json",
    ]);
  });

  it("--format markdown: the title alone captions the table (the explanation is the table format's)", async () => {
    const r = await run(["demo", "--format", "markdown"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^twinscore demo: the decision to act, scored on four built-in reference policies\n\n\| model \| N \| act \|/);
    expect(r.out).not.toContain("Policies (synthetic");
  });

  it("--all-pairs: the oracle leaves 100 because 134 anchors pose no decision, and the demo says why", async () => {
    const r = await run(["demo", "--all-pairs"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\noracle +365 +63\.3 +100\.0 +81\.6 /);
    expect(r.out).toContain("which is why those pairs are not scored");
  });
});
