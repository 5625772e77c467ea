import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot, rolloutRunDir, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** What verify prints for gpt-oss.json given both real runs, however they are named: all 422 numbers PASS, from each run's own folder. */
function expectBothRunsPass(r: { code: number; out: string; err: string }) {
  expect(r.err).toBe("");
  expect(r.out.trim().split("\n").at(-1)).toBe("422 PASS, 0 FAIL, 0 SKIP");
  expect(r.out).toContain(
    "PASS 2025-11-12-main: tables.C.openai_gpt-oss-120b.ci95 expected=79.7235,86.4869 ±0.0001 computed=79.723502,86.486935",
  );
  expect(r.out).toContain("PASS 2025-11-12-harmony-fixes: companions.official_raw.openai_gpt-oss-120b.miss expected=50.2242");
  expect(r.code).toBe(0);
}

describe("twinscore verify", () => {
  it("paper.json without the seven models' rollouts: the manifest counts PASS, everything else SKIPs, exit 0", async () => {
    const r = await run(["verify", "--expected", "data/expected/paper.json"]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines[0]).toMatch(/^Verified: numbers recomputed under the release reading/);
    expect(lines.at(-1)).toBe("39 PASS, 0 FAIL, 564 SKIP");
    expect(lines).toContain("PASS paper: counts.scored_pairs expected=223 ±0 computed=223");
    expect(lines).toContain("SKIP paper: tables.C.gpt-5.4-FC.decision expected=80.7 ±0.05 (rollouts absent: gpt-5.4-FC)");
    expect(
      lines
        .filter((l) => l.startsWith("PASS"))
        .every(
          (l) =>
            l.includes(": counts.") ||
            /: (definition|bootstrap\.|companions\.(distinct_base_twins|bad_keys_restored\.(pairs|added)))/.test(l),
        ),
    ).toBe(true);
  });

  it("--format markdown and latex: stdout is the table alone, the reading and the summary are notes on stderr", async () => {
    const md = await run(["verify", "--expected", "data/expected/paper.json", "--format", "markdown"]);
    expect(md.code).toBe(0);
    const lines = md.out.trimEnd().split("\n");
    expect(lines[0]).toBe("| status | run | name | expected | tolerance | computed | note |");
    expect(lines.slice(2).every((l) => /^\| (PASS|FAIL|SKIP) \| /.test(l))).toBe(true);
    expect(lines).toHaveLength(2 + 39 + 564);
    expect(md.err).toContain("note: verified: numbers recomputed under the release reading");
    expect(md.err).toContain("note: 39 PASS, 0 FAIL, 564 SKIP [summary]");
    const tex = await run(["verify", "--expected", "data/expected/paper.json", "--format", "latex"]);
    expect(tex.out).not.toContain("\\caption");
    expect(tex.out.split("\n").every((l) => l.length < 400)).toBe(true);
  });

  it("gpt-oss.json on the two real runs: every number PASSes", async () => {
    const main = rolloutRunDir("2025-11-12-main");
    const fixes = rolloutRunDir("2025-11-12-harmony-fixes");
    const r = await run([
      "verify",
      "--expected",
      "data/expected/gpt-oss.json",
      "--results",
      main,
      "--results",
      fixes,
      "--scores",
      main,
      "--scores",
      fixes,
    ]);
    expectBothRunsPass(r);
  }, 300_000);

  it("gpt-oss.json on the folder holding both runs: each run reads its own folder, every number PASSes", async () => {
    const both = sharedPath("rollouts", "gpt-oss");
    const r = await run(["verify", "--expected", "data/expected/gpt-oss.json", "--results", both, "--scores", both]);
    expectBothRunsPass(r);
  }, 300_000);

  it("gpt-oss.json on the folder holding both runs, without --scores: each run's score/ beside its result/ is read, every number PASSes", async () => {
    const r = await run(["verify", "--expected", "data/expected/gpt-oss.json", "--results", sharedPath("rollouts", "gpt-oss")]);
    expect(r.err).toMatch(
      /^note: BFCL's verdicts read from the score\/ folders beside result\/: \S+2025-11-12-harmony-fixes\/score, \S+2025-11-12-main\/score \(--scores DIR reads others\) \[scores-beside\]\n$/,
    );
    expectBothRunsPass({ ...r, err: "" });
  }, 300_000);

  it("one run folder of two: the other run's numbers SKIP with a short reason, and why is said once", async () => {
    const main = rolloutRunDir("2025-11-12-main");
    const r = await run(["verify", "--expected", "data/expected/gpt-oss.json", "--results", main, "--scores", main]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines.at(-1)).toBe("211 PASS, 0 FAIL, 211 SKIP");
    const skips = lines.filter((l) => l.startsWith("SKIP "));
    expect(
      skips.every(
        (l) =>
          l.startsWith("SKIP 2025-11-12-harmony-fixes: ") &&
          / \(rollouts absent: openai_gpt-oss-(120b|20b)(, openai_gpt-oss-20b)?\)$/.test(l),
      ),
    ).toBe(true);
    expect(r.err).toBe(
      'note: run "2025-11-12-harmony-fixes": no model folder found has "2025-11-12-harmony-fixes" (its match) in its path, so its 211 numbers are skipped; keep the run\'s folder name, or drop "match" from the expected file for your own run [run-unmatched]\n',
    );
  }, 300_000);

  it("a wrong expected value FAILs with exit 1; official numbers come from the run's score/, and SKIP where there is none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "twinscore-verify-"));
    const file = join(dir, "e.json");
    writeFileSync(
      file,
      JSON.stringify({
        runs: [
          {
            name: "main",
            models: [{ name: "openai_gpt-oss-20b" }],
            bootstrap: { resamples: 200, seed: 20260612 },
            numbers: [
              { name: "tables.C.openai_gpt-oss-20b.decision", value: 90, tolerance: 0.05, rollouts: ["openai_gpt-oss-20b"] },
              { name: "tables.C.openai_gpt-oss-20b.act", value: 89.7, tolerance: 0.05, rollouts: ["openai_gpt-oss-20b"] },
              {
                name: "companions.official_raw.openai_gpt-oss-20b.miss",
                value: 44.8,
                tolerance: 0.05,
                rollouts: ["openai_gpt-oss-20b"],
                scores: true,
              },
              {
                name: "companions.official_raw.openai_gpt-oss-20b.decision",
                value: 82.1,
                tolerance: 0.05,
                rollouts: ["openai_gpt-oss-20b"],
              },
            ],
          },
        ],
      }),
    );
    const r = await run(["verify", "--expected", file, "--results", rolloutRunDir("2025-11-12-main")]);
    expect(r.out.trim().split("\n")).toEqual([
      "Verified: numbers recomputed under the release reading (inference-error lines and rollouts that ended before the anchor read as no call), as the published numbers were computed.",
      "FAIL main: tables.C.openai_gpt-oss-20b.decision expected=90 ±0.05 computed=82.063 (outside tolerance)",
      "PASS main: tables.C.openai_gpt-oss-20b.act expected=89.7 ±0.05 computed=89.686",
      "PASS main: companions.official_raw.openai_gpt-oss-20b.miss expected=44.8 ±0.05 computed=44.843",
      "PASS main: companions.official_raw.openai_gpt-oss-20b.decision expected=82.1 ±0.05 computed=82.063",
      "3 PASS, 1 FAIL, 0 SKIP",
    ]);
    expect(r.code).toBe(1);
    // the same run's result/ alone, with no score/ beside it: BFCL's numbers SKIP
    const bare = join(dir, "2025-11-12-main");
    mkdirSync(bare);
    symlinkSync(join(rolloutRunDir("2025-11-12-main"), "result"), join(bare, "result"));
    const alone = await run(["verify", "--expected", file, "--results", bare]);
    expect(alone.out).toContain(
      "SKIP main: companions.official_raw.openai_gpt-oss-20b.miss expected=44.8 ±0.05 (score files absent: openai_gpt-oss-20b)\n",
    );
    expect(alone.out.trim().split("\n").at(-1)).toBe("2 PASS, 1 FAIL, 1 SKIP");
  });

  it("bad input: no --expected, a missing file, a malformed file, a missing tree → exit 2 with one line", async () => {
    expect((await run(["verify"])).code).toBe(2);
    const missing = await run(["verify", "--expected", "nope.json"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nope\.json: error: expected file not found \[file-missing\]/);
    const dir = mkdtempSync(join(tmpdir(), "twinscore-verify-"));
    writeFileSync(join(dir, "bad.json"), '{"runs": 3}');
    const bad = await run(["verify", "--expected", join(dir, "bad.json")]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/expected file needs a `runs` list \[expected-malformed\]/);
    const tree = await run(["verify", "--expected", "data/expected/paper.json", "--results", join(dir, "absent")]);
    expect(tree.code).toBe(2);
    expect(tree.err).toMatch(/results directory not found \[results-missing\]/);
  });
});
