// How often the built commands open each input file, counted by a preload that wraps
// node's file opening (src/testing/open-counter.mjs): the pipeline reads a model's result
// file in one pass (after a short sample of the first file's head for its decoder), its
// score files and the BFCL data once, whatever else was asked for. check reads a result
// file twice: its data check streams it, and its job reads it whole (the decoder's sample
// taken from those bytes).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requireFreshBuild } from "../testing/build.js";
import { bfclDataDir, projectRoot, rolloutRunDir, rolloutRuns, sharedDir } from "../testing/shared.js";

const bin = join(projectRoot, "dist", "bin", "twinscore.js");
const counter = join(projectRoot, "src", "testing", "open-counter.mjs");

/** Run the bin with the counter; the opens of every process it started, summed by path. */
function opens(args: string[]): { status: number | null; counts: Map<string, number>; stderr: string } {
  const log = join(mkdtempSync(join(tmpdir(), "twinscore-opens-")), "opens.jsonl");
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, TWINSCORE_OPEN_LOG: log, NODE_OPTIONS: `--import ${counter}` },
  });
  const counts = new Map<string, number>();
  for (const line of readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l !== "")) {
    for (const [path, n] of Object.entries(JSON.parse(line) as Record<string, number>)) counts.set(path, (counts.get(path) ?? 0) + n);
  }
  return { status: r.status, counts, stderr: r.stderr };
}

const under = (counts: Map<string, number>, dir: string, suffix: string) =>
  [...counts].filter(([p]) => p.startsWith(dir) && p.endsWith(suffix));

describe("each input file is opened once (a result file: at most once more, for its head)", () => {
  requireFreshBuild("bin/twinscore.js");
  const run = rolloutRunDir("2025-11-12-main");

  it("score --scores --sensitivity --bfcl-data on one real run of two models", () => {
    const r = opens([
      "score",
      "--results",
      run,
      "--scores",
      run,
      "--sensitivity",
      "--bfcl-data",
      bfclDataDir(),
      "--bootstrap",
      "0",
      "--format",
      "json",
    ]);
    // gpt-oss-20b has too many undecided pairs for a headline: exit 1, every file read all the same
    expect(r.status, r.stderr).toBe(1);
    const results = under(r.counts, run, "_result.json");
    const scores = under(r.counts, run, "_score.json");
    expect(results).toHaveLength(6);
    expect(scores).toHaveLength(6);
    for (const [path, n] of results) expect([path, n <= 2]).toEqual([path, true]);
    // the head sample reads the first file of the three only, when its steps are enough
    expect(results.filter(([, n]) => n === 2).map(([p]) => p.slice(p.lastIndexOf("/") + 1))).toEqual([
      "BFCL_v4_multi_turn_base_result.json",
      "BFCL_v4_multi_turn_base_result.json",
    ]);
    for (const [path, n] of scores) expect([path, n]).toEqual([path, 1]);
    const questions = under(r.counts, bfclDataDir(), "_multi_turn_base.json");
    expect(questions.map(([, n]) => n)).toEqual([1, 1]); // the questions and the possible answers
  });

  it("report and compare with --bfcl-data on both real runs: the same bound", () => {
    const out = join(mkdtempSync(join(tmpdir(), "twinscore-opens-report-")), "report.html");
    const report = opens([
      "report",
      ...rolloutRuns.flatMap((n) => ["--results", rolloutRunDir(n)]),
      ...rolloutRuns.flatMap((n) => ["--scores", rolloutRunDir(n)]),
      "--bfcl-data",
      bfclDataDir(),
      "--bootstrap",
      "0",
      "--out",
      out,
    ]);
    const compare = opens([
      "compare",
      "--a",
      rolloutRunDir(rolloutRuns[0]),
      "--b",
      rolloutRunDir(rolloutRuns[1]),
      "--bfcl-data",
      bfclDataDir(),
      "--bootstrap",
      "0",
      "--format",
      "json",
    ]);
    for (const [name, r] of [
      ["report", report],
      ["compare", compare],
    ] as const) {
      const results = under(r.counts, join(sharedDir(), "rollouts"), "_result.json");
      expect([name, results.length]).toEqual([name, 12]);
      for (const [path, n] of results) expect([name, path, n <= 2]).toEqual([name, path, true]);
    }
  });

  it("check on one real run with its score/ beside result/, on one thread and on two: each result file at most twice, each score file at most twice", () => {
    for (const threads of ["1", "2"]) {
      const r = opens(["check", "--results", run, "--bfcl-data", bfclDataDir(), "--threads", threads, "--format", "json"]);
      expect([threads, r.status], r.stderr).toEqual([threads, 0]);
      const results = under(r.counts, run, "_result.json");
      const scores = under(r.counts, run, "_score.json");
      expect([threads, results.length, scores.length]).toEqual([threads, 6, 6]);
      // the data check's pass and the job's read; the score files: their failed entries' prompts (the 8 lines without a log) and the job's comparison
      for (const [path, n] of results) expect([threads, path, n]).toEqual([threads, path, 2]);
      for (const [path, n] of scores) expect([threads, path, n]).toEqual([threads, path, 2]);
      // the BFCL data: once per thread that checks a model
      const questions = under(r.counts, bfclDataDir(), "_multi_turn_base.json");
      expect([threads, questions.map(([, n]) => n)]).toEqual([threads, threads === "1" ? [1, 1] : [2, 2]]);
    }
  });

  it("check of a result tree alone reads no score file; verify and judge --dry-run read each result file at most twice", () => {
    const alone = opens(["check", "--results", join(run, "result"), "--bfcl-data", bfclDataDir(), "--format", "json"]);
    expect(alone.status, alone.stderr).toBe(0);
    expect(under(alone.counts, run, "_score.json")).toEqual([]);
    const labels = join(mkdtempSync(join(tmpdir(), "twinscore-opens-judge-")), "labels.jsonl");
    const verify = opens([
      "verify",
      "--expected",
      join(projectRoot, "data", "expected", "gpt-oss.json"),
      "--results",
      join(sharedDir(), "rollouts", "gpt-oss"),
      "--format",
      "json",
    ]);
    const judge = opens([
      "judge",
      "--results",
      run,
      "--dry-run",
      "--endpoint",
      "http://127.0.0.1:9/v1",
      "--judge-model",
      "judge",
      "--labels",
      labels,
    ]);
    for (const [name, r, files] of [
      ["check", alone, 6],
      ["verify", verify, 12],
      ["judge", judge, 6],
    ] as const) {
      expect([name, r.status], r.stderr).toEqual([name, 0]);
      const results = under(r.counts, join(sharedDir(), "rollouts"), "_result.json");
      expect([name, results.length]).toEqual([name, files]);
      for (const [path, n] of results) expect([name, path, n <= 2]).toEqual([name, path, true]);
    }
    // verify reads BFCL's score files beside each run once, as score does
    const scores = under(verify.counts, join(sharedDir(), "rollouts"), "_score.json");
    expect(scores).toHaveLength(12);
    for (const [path, n] of scores) expect([path, n]).toEqual([path, 1]);
  });
});
