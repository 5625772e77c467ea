import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bfclDataDir, projectRoot, rolloutRunDir } from "../testing/shared.js";
import { memoryIo } from "./io.js";
import { runCli } from "./program.js";

const main = rolloutRunDir("2025-11-12-main");
const fixes = rolloutRunDir("2025-11-12-harmony-fixes");
const tmp = mkdtempSync(join(tmpdir(), "twinscore-messages-"));

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** A line of progress (`report: scoring …`, `run: 3/24 items …`, `judging: 3/10`): not a message. */
const PROGRESS = /^(report: |run: \d+\/\d+ items|judging: \d+\/\d+$)/;

/** The one form of a message: `[file[:line]: ]severity: message [code]`. */
const MESSAGE = /^(\S[^:]*(:\d+)?: )?(error|warning|note): \S.* \[[a-z0-9-]+\]$/;

/** The summary line of one model's routine warnings, as score prints it. */
const MODEL_SUMMARY =
  /^warning: (\S+): (\d+) warnings? reading its files \((\d+ [a-z-]+(, \d+ [a-z-]+)*)\); --verbose lists each with file:line \[warnings\]$/;

const messages = (err: string) => err.split("\n").filter((l) => l !== "" && !PROGRESS.test(l));

describe("report prints problems as score does (both real gpt-oss runs)", () => {
  const args = [
    "--reading",
    "release",
    "--bootstrap",
    "0",
    "--results",
    main,
    "--scores",
    join(main, "score"),
    "--results",
    fixes,
    "--scores",
    join(fixes, "score"),
  ];

  it("one line of routine warnings per model, no file:line flood; --verbose lists each", async () => {
    const out = join(tmp, "report.html");
    const r = await run(["report", ...args, "--out", out]);
    expect(r.code).toBe(0);
    const lines = messages(r.err);
    const summaries = lines.filter((l) => MODEL_SUMMARY.test(l));
    expect(summaries.map((l) => MODEL_SUMMARY.exec(l)![1])).toEqual([
      "2025-11-12-main/openai_gpt-oss-120b",
      "2025-11-12-main/openai_gpt-oss-20b",
      "2025-11-12-harmony-fixes/openai_gpt-oss-120b",
      "2025-11-12-harmony-fixes/openai_gpt-oss-20b",
    ]);
    // nothing but each model's older-data line (its score file's prompts of the failed holdout items), the summaries,
    // score's note of each model's detected decoder (gpt-oss is not in BFCL's registry) and the note of the file written
    const olderData = lines.filter((l) => l.endsWith("[rollouts-older-data]"));
    expect(olderData).toHaveLength(4);
    const detected = lines.filter((l) => l.endsWith("[decoder-detected]"));
    expect(detected.map((l) => l.slice(0, l.indexOf(":", 6)))).toEqual(summaries.map((l) => `note: ${MODEL_SUMMARY.exec(l)![1]}`));
    expect(lines).toEqual([
      ...olderData,
      ...summaries,
      ...detected,
      expect.stringMatching(/^note: wrote .*report\.html \(4 models, 223 pairs, \d+ bytes\) \[written\]$/),
    ]);
    expect(lines.some((l) => /^\S+:\d+: warning: /.test(l))).toBe(false);
    // score prints the same form for the same models
    const s = await run(["score", ...args]);
    expect(
      messages(s.err)
        .filter((l) => MODEL_SUMMARY.test(l))
        .map((l) => MODEL_SUMMARY.exec(l)![1]),
    ).toEqual(summaries.map((l) => MODEL_SUMMARY.exec(l)![1]));
    // --verbose: every warning the summaries count, each with its file:line
    const v = await run(["report", ...args, "--out", out, "--verbose"]);
    const counted = summaries.reduce((n, l) => n + Number(MODEL_SUMMARY.exec(l)![2]), 0);
    expect(messages(v.err).filter((l) => /^\/\S+\.json:\d+: warning: .* \[inference-error\]$/.test(l))).toHaveLength(counted);
  }, 120_000);

  it("errors first: a model past --max-undecided is named before the warnings", async () => {
    const r = await run(["report", "--bootstrap", "0", "--results", main, "--out", join(tmp, "decided.html")]);
    expect(r.code).toBe(1);
    const lines = messages(r.err);
    expect(lines[0]).toMatch(/^error: model openai_gpt-oss-20b: no act, hold or decision: 23 of 223 pairs undecided .*\[no-headline\]$/);
    // then the warnings: each model's older-data line (read from the run's score/), then the summaries
    expect(lines.slice(1, 3).every((l) => l.endsWith("[rollouts-older-data]"))).toBe(true);
    expect(lines.slice(3, 5).every((l) => MODEL_SUMMARY.test(l))).toBe(true);
  }, 60_000);
});

describe("a command that fails leaves stdout empty", () => {
  const empty = join(tmp, "empty");
  mkdirSync(join(empty, "m", "multi_turn"), { recursive: true });
  for (const c of ["base", "miss_func", "miss_param"])
    writeFileSync(join(empty, "m", "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), "");

  it.each([
    ["score of empty result files", ["score", "--results", empty]],
    ["score of an unknown model", ["score", "--results", main, "--model", "gpt-4"]],
    ["score without --results", ["score"]],
    ["demo with a bad combination", ["demo", "--uncertified", "--all-pairs"]],
    ["compare with no model in both arms", ["compare", "--a", main, "--b", empty]],
    ["verify without --expected", ["verify", "--results", main]],
    ["check without BFCL data", ["check", "--results", empty, "--bfcl-data", join(tmp, "no-data")]],
    ["report of empty result files", ["report", "--results", empty, "--out", join(tmp, "never.html")]],
    ["judge of a folder that is not there", ["judge", "--results", join(tmp, "nowhere"), "--dry-run"]],
  ])("%s: exit 2, nothing on stdout, the reason on stderr", async (_what, argv) => {
    // report writes the page and prints its summary; the other commands print tables; json is the whole document
    for (const format of argv[0] === "report" ? ["table", "json"] : ["table", "csv", "markdown", "json"]) {
      const r = await run([...argv, "--format", format]);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(messages(r.err).some((l) => /^(\S+: )?error: /.test(l))).toBe(true);
    }
  });
});

describe("every message on stderr has one form: [file:line: ]severity: message [code]", () => {
  it.each([
    ["score: a bad combination", ["score", "--results", main, "--uncertified", "--all-pairs"]],
    ["score: no --results", ["score"]],
    ["score: an unknown option", ["score", "--results", main, "--no-such-flag"]],
    ["score: a bad choice", ["score", "--results", main, "--reading", "lenient"]],
    [
      "score: the real runs, with their warnings and detected decoders",
      ["score", "--results", main, "--results", fixes, "--bootstrap", "0"],
    ],
    ["score: --verbose", ["score", "--results", main, "--bootstrap", "0", "--verbose"]],
    ["score --per-item: the file written", ["score", "--results", main, "--bootstrap", "0", "--per-item", join(tmp, "items.csv")]],
    ["score --format csv: the files used, on stderr", ["score", "--results", main, "--bootstrap", "0", "--format", "csv"]],
    [
      "verify --format markdown: the reading and the summary, on stderr",
      ["verify", "--expected", "data/expected/paper.json", "--format", "markdown"],
    ],
    ["report: no --out", ["report", "--results", main]],
    ["report: the page written", ["report", "--reading", "release", "--results", main, "--bootstrap", "0", "--out", join(tmp, "r.html")]],
    ["judge: no endpoint", ["judge", "--results", main]],
    ["judge: a dry run", ["judge", "--results", main, "--model", "openai_gpt-oss-20b", "--dry-run"]],
    ["check: --threads 0", ["check", "--results", main, "--bfcl-data", bfclDataDir(), "--threads", "0"]],
    [
      "check: a model folder with its detected decoder",
      ["check", "--results", join(main, "result", "openai_gpt-oss-120b"), "--bfcl-data", bfclDataDir()],
    ],
    ["pairs: the committed manifest listed", ["pairs", "--format", "json"]],
    ["run: a URL with no scheme", ["run", "--endpoint", "127.0.0.1:8000", "--model", "m", "--out", join(tmp, "run-out")]],
    ["run: a missing required option", ["run", "--model", "m"]],
    ["an unknown command", ["no-such-command"]],
    ["an unknown help topic", ["help", "no-such-topic"]],
  ])(
    "%s",
    async (_what, argv) => {
      const r = await run(argv);
      const lines = messages(r.err);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(MESSAGE);
      // the command's name is not a prefix of its messages
      expect(r.err).not.toMatch(/^twinscore( [a-z]+)?: /m);
    },
    60_000,
  );
});
