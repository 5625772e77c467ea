/**
 * The numbers that replay a model's steps on the simulated BFCL classes — Table F1, the
 * aligned numbers and the empty-turn table — read each model's steps with its own decoder,
 * as the decision numbers do. On the real xLAM run (BFCL v3, JSON-text steps) with the v3
 * data, BFCL's checker column of the empty-turn table is then `check`'s verdicts
 * (154 / 110 / 130 of 200), and no step fails to decode.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIo } from "../cli/io.js";
import { runCli } from "../cli/program.js";
import { sharedPath } from "../testing/shared.js";

const results = () => sharedPath("rollouts", "xlam-v3", "result");
const tmp = mkdtempSync(join(tmpdir(), "twinscore-v3-data-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type EmptyTurnRow = {
  category: string;
  entries: number;
  bfcl: { correct: number };
  strict: { correct: number };
  worldChanging: { correct: number };
};

describe("score, compare and report with --bfcl-data on the xLAM v3 run", () => {
  it("score: Table F1, the aligned numbers and the empty-turn table read the steps with the xlam decoder", async () => {
    const io = memoryIo();
    expect(
      await runCli(
        [
          "score",
          "--results",
          results(),
          "--bfcl-data",
          sharedPath("bfcl-v3"),
          "--bootstrap",
          "0",
          "--reading",
          "release",
          "--format",
          "json",
        ],
        io,
      ),
    ).toBe(0);
    expect(io.err.join("")).not.toContain("decode-failures");
    const doc = JSON.parse(io.out.join("")) as {
      workaround: { attempts: number; aligned: number }[];
      aligned: { models: { n: number; withheld: Record<string, number>; baseActedCompleted: number; aligned: number }[] };
      emptyTurns: EmptyTurnRow[];
    };
    expect(doc.emptyTurns.filter((r) => r.category !== "mean").map((r) => [r.category, r.entries, r.bfcl.correct])).toEqual([
      ["base", 200, 154],
      ["miss_func", 200, 110],
      ["miss_param", 200, 130],
    ]);
    const [aligned] = doc.aligned.models;
    expect(aligned.n).toBe(234);
    expect(aligned.withheld).toEqual({ "held-completed": 55, "held-not-completed": 13, "acted-completed": 80, "acted-not-completed": 86 });
    expect([aligned.baseActedCompleted, aligned.aligned]).toEqual([182, 50]);
    expect(doc.workaround.map((w) => [w.attempts, w.aligned])).toEqual([[115, 108]]);
  }, 120_000);

  it("compare and report: the same, without decode failures", async () => {
    // the run and a copy of it as the two arms (one folder as both arms is refused before anything is read)
    const armB = join(tmp, "arm-b");
    cpSync(results(), armB, { recursive: true });
    const compare = memoryIo();
    expect(
      await runCli(
        ["compare", "--a", results(), "--b", armB, "--bfcl-data", sharedPath("bfcl-v3"), "--bootstrap", "0", "--format", "json"],
        compare,
      ),
    ).toBe(0);
    expect(compare.err.join("")).not.toContain("decode-failures");
    const text = compare.out.join("");
    expect(text).not.toBe("");
    const report = memoryIo();
    expect(
      await runCli(
        ["report", "--results", results(), "--bfcl-data", sharedPath("bfcl-v3"), "--bootstrap", "0", "--out", join(tmp, "report.html")],
        report,
      ),
    ).toBe(0);
    expect(report.err.join("")).not.toContain("decode-failures");
  }, 120_000);
});
