/**
 * Files built to break the readers, each on a copy of a real run made here (nothing
 * generated is committed): a million bad lines, a stale line before its regenerated one,
 * a score file larger than a string, an output device that is full.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scoreRuns } from "../app/score.js";
import { boundedText, REPORT_TEXT_LIMIT } from "../report/bounded-text.js";
import { walkBfclTree } from "../io/tree.js";
import { requireFreshBuild } from "../testing/build.js";
import {
  copyRun,
  resultName,
  runCliCaptured,
  scoreJson as scoreJsonOf,
  scoreName,
  scratchFolder,
  TWIN_CATEGORIES,
} from "../testing/cli-runs.js";
import { bfclDataDir, projectRoot, rolloutRunDir } from "../testing/shared.js";

const scratch = scratchFolder("twinscore-hostile-files-");
const tmp = scratch.dir;
const fresh = scratch.fresh;
afterAll(scratch.remove);

const main = rolloutRunDir("2025-11-12-main");
const fixes = rolloutRunDir("2025-11-12-harmony-fixes");
const model = "openai_gpt-oss-20b";
const categories = TWIN_CATEGORIES;

/** A writable copy of one model of a real run: `<dest>/result/<model>/multi_turn/…` (and `score/` with `scores`). */
const copyModel = (from: string, dest: string, opts: { scores?: boolean } = {}) => copyRun(from, dest, [model], opts);
const resultFile = (dir: string, c: string) => join(dir, "result", model, "multi_turn", resultName(c));
const run = (argv: string[]) => runCliCaptured(argv, tmp);
const scoreJson = (argv: string[]) => scoreJsonOf(argv, tmp);

interface Listed {
  code: string;
  message: string;
  line?: number;
  file?: string;
}

describe("a file of many bad lines", () => {
  it("score and check finish; past the first thousand, the lines with an unknown id are named in one warning", async () => {
    const dir = copyModel(main, fresh("million"));
    const file = resultFile(dir, "base");
    const before = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l !== "").length;
    // past the 100,000-odd where one call spreading them as arguments overflowed the stack
    const extra = 150_000;
    const lines: string[] = [];
    for (let i = 0; i < extra; i++) lines.push(`{"id": "multi_turn_base_${1000 + i}", "result": []}\n`);
    appendFileSync(file, lines.join(""));
    const clean = await scoreJson(["--results", join(main, "result", model)]);
    const r = await scoreJson(["--results", dir]);
    expect(r.err).not.toContain("internal error");
    expect(r.doc.models[0].numbers).toEqual(clean.doc.models[0].numbers);
    const unknown = (r.doc.models[0].problems as Listed[]).filter((p) => p.code === "id-unknown");
    expect(unknown).toHaveLength(1001);
    expect(unknown[999].line).toBe(before + 1000);
    expect(unknown[1000]).toMatchObject({ file, severity: "warning" });
    expect(unknown[1000].line).toBeUndefined();
    expect(unknown[1000].message).toBe(
      `${extra - 1000} more lines with this problem (the first 1000 are listed; the next: id "multi_turn_base_2000" is not a multi_turn_base item the manifest knows; line skipped): lines ${before + 1001}–${before + extra}`,
    );
    const c = await run(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--format", "json", "--verbose"]);
    expect(c.err).not.toContain("internal error");
    expect(c.err).toContain(`${file}: error: ${extra + before - 200 - 1000} more lines with this problem`);
    const checked = JSON.parse(c.out) as { files: { category: string; correct: number }[] };
    expect(checked.files.map((f) => f.category)).toEqual(["miss_func", "miss_param"]);
  }, 180_000);
});

describe("a retried line after the stale one it replaces", () => {
  it("score reads the last line of an id, with a warning naming the first; the stale error line no longer counts", async () => {
    // every inference-error line of the model is retried: the other run's line for the id is appended after it
    const stale = copyModel(main, fresh("stale-first"));
    const replaced = copyModel(main, fresh("replaced-in-place"));
    let retried = 0;
    for (const c of categories) {
      const other = new Map<string, string>();
      for (const l of readFileSync(resultFile(fixes, c), "utf8").split("\n"))
        if (l !== "") other.set((JSON.parse(l) as { id: string }).id, l);
      const lines = readFileSync(resultFile(main, c), "utf8")
        .split("\n")
        .filter((l) => l !== "");
      const errorIds = lines
        .map((l) => JSON.parse(l) as { id: string; result: unknown })
        .filter((e) => typeof e.result === "string")
        .map((e) => e.id);
      retried += errorIds.length;
      appendFileSync(resultFile(stale, c), errorIds.map((id) => `${other.get(id)}\n`).join(""));
      writeFileSync(
        resultFile(replaced, c),
        lines
          .map((l) => {
            const id = (JSON.parse(l) as { id: string }).id;
            return errorIds.includes(id) ? other.get(id) : l;
          })
          .join("\n") + "\n",
      );
    }
    expect(retried).toBe(30);
    const a = await scoreJson(["--results", stale, "--reading", "release"]);
    const b = await scoreJson(["--results", replaced, "--reading", "release"]);
    const clean = await scoreJson(["--results", join(main, "result", model), "--reading", "release"]);
    expect(a.doc.models[0].numbers).toEqual(b.doc.models[0].numbers);
    expect(a.doc.models[0].numbers).not.toEqual(clean.doc.models[0].numbers);
    expect(a.doc.models[0].undecided).toEqual(b.doc.models[0].undecided);
    const problems = a.doc.models[0].problems as Listed[];
    const duplicates = problems.filter((p) => p.code === "id-duplicate");
    expect(duplicates).toHaveLength(30);
    expect(duplicates[0].message).toMatch(/^id multi_turn_base_10 appears again \(first on line 11\); the last line of an id is read$/);
    // the stale error lines are not reported as inference errors any more
    expect(problems.filter((p) => p.code === "inference-error").length).toBe(
      (b.doc.models[0].problems as Listed[]).filter((p) => p.code === "inference-error").length,
    );
  }, 120_000);
});

describe("a score file larger than a string", () => {
  it("check names it in one line and checks the other files", async () => {
    const dir = copyModel(main, fresh("huge-score"), { scores: true });
    const huge = join(dir, "score", model, "multi_turn", scoreName("miss_param"));
    rmSync(huge);
    closeSync(openSync(huge, "w"));
    spawnSync("truncate", ["-s", "600M", huge]); // sparse: no disk space used
    const line = `${huge}: error: cannot read score file (a file of 600 MB: more than the 512 MB a score file is read up to) [file-unreadable]`;
    const c = await run(["check", "--results", join(dir, "result"), "--bfcl-data", bfclDataDir(), "--scores", join(dir, "score")]);
    expect(c.err).not.toContain("internal error");
    expect(c.err.split("\n")).toContain(line);
    expect(c.out).toContain("miss_param");
  }, 120_000);
});

describe("a full output device", () => {
  it("score --format json and check >/dev/full: one line naming the failure, exit 2, no trace", () => {
    requireFreshBuild(join("bin", "twinscore.js"));
    if (!existsSync("/dev/full")) throw new Error("this test needs /dev/full");
    const bin = join(projectRoot, "dist", "bin", "twinscore.js");
    for (const args of [
      ["score", "--results", main, "--model", "openai_gpt-oss-120b", "--bootstrap", "0", "--format", "json"],
      ["check", "--results", join(main, "result"), "--model", "openai_gpt-oss-120b", "--bfcl-data", bfclDataDir()],
    ]) {
      const full = openSync("/dev/full", "w");
      const r = spawnSync(process.execPath, [bin, ...args], { stdio: ["ignore", full, "pipe"], encoding: "utf8", timeout: 120_000 });
      closeSync(full);
      expect(r.status).toBe(2);
      const lines = r.stderr.trim().split("\n");
      expect(lines.filter((l) => l.startsWith("error:"))).toEqual([
        "error: cannot write the standard output: no space left on the device (ENOSPC) [write-failed]",
      ]);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 120_000);
});

describe("a FIFO or /dev/zero given as a file to read", () => {
  it("score --manifest, report --labels and judge --labels refuse them at once in one line", () => {
    requireFreshBuild(join("cli", "main.js"));
    const fifo = join(fresh("fifo"));
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const results = join(main, "result", model);
    for (const [special, what] of [
      [fifo, "a FIFO"],
      ["/dev/zero", "a device"],
    ] as const) {
      const cases: [string[], string][] = [
        [
          ["score", "--results", results, "--manifest", special, "--bootstrap", "0"],
          `${special}: error: the manifest names ${what}, not a regular file [not-regular-file]`,
        ],
        [
          ["report", "--results", results, "--labels", special, "--bootstrap", "0", "--out", join(tmp, "r.html")],
          `${special}: error: --labels names ${what}, not a regular file [not-regular-file]`,
        ],
        [
          ["judge", "--results", results, "--labels", special, "--endpoint", "http://127.0.0.1:9/v1", "--judge-model", "j"],
          `${special}: error: --labels names ${what}, not a regular file [not-regular-file]`,
        ],
      ];
      for (const [args, line] of cases) {
        const t0 = Date.now();
        const r = spawnSync(process.execPath, [join(projectRoot, "dist", "cli", "main.js"), ...args], {
          encoding: "utf8",
          timeout: 30_000,
          env: { ...process.env, OPENAI_API_KEY: "sk-test" },
        });
        expect(Date.now() - t0).toBeLessThan(30_000);
        expect(r.status).toBe(2);
        expect(r.stderr.split("\n")).toContain(line);
      }
    }
    expect(existsSync(join(tmp, "r.html"))).toBe(false);
  }, 200_000);
});

describe("csv a spreadsheet would run", () => {
  it("a model named like a formula: its cells in --format csv and --per-item start with ', the numbers stay numbers", async () => {
    const dir = fresh("formula");
    const name = '=HYPERLINK("x";"y")';
    for (const c of categories) {
      mkdirSync(join(dir, name, "multi_turn"), { recursive: true });
      cpSync(resultFile(main, c), join(dir, name, "multi_turn", resultName(c)));
    }
    const items = join(tmp, "items.csv");
    const r = await run(["score", "--results", dir, "--bootstrap", "0", "--format", "csv", "--reading", "release", "--per-item", items]);
    const row = r.out.trim().split("\n")[1];
    expect(row.startsWith(`"'=HYPERLINK(""x"";""y"")",223,`)).toBe(true);
    const itemRows = readFileSync(items, "utf8").trim().split("\n").slice(1);
    expect(itemRows.length).toBeGreaterThan(200);
    for (const l of itemRows) expect(l.startsWith(`"'=HYPERLINK(`)).toBe(true);
    // no cell of either file starts a formula
    for (const text of [r.out, readFileSync(items, "utf8")]) {
      for (const l of text.trim().split("\n")) expect(l).not.toMatch(/(^|,)"?[=+@]/);
    }
  }, 60_000);
});

describe("control characters from folder names and ids", () => {
  it("score and check print them escaped, as score quotes ids: no escape sequence reaches the terminal, no forged line", async () => {
    const dir = fresh("control");
    const name = "evil\u001b]0;pwned\u0007\u001b[2J\nerror: fake line [probe-note]";
    const folder = join(dir, name, "multi_turn");
    mkdirSync(folder, { recursive: true });
    for (const c of categories) cpSync(resultFile(main, c), join(folder, resultName(c)));
    appendFileSync(
      join(folder, resultName("base")),
      `${JSON.stringify({ id: "multi_turn_base_\u001b[2Jx\nerror: forged [x]", result: [] })}\n`,
    );
    const escaped = "evil\\u001b]0;pwned\\u0007\\u001b[2J\\nerror: fake line [probe-note]";
    for (const args of [
      ["score", "--results", dir, "--bootstrap", "0", "--verbose"],
      ["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--verbose"],
    ]) {
      const r = await run(args);
      const text = r.out + r.err;
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(text.split("\n").filter((l) => l.startsWith("error: fake") || l.startsWith("error: forged"))).toEqual([]);
      expect(text).toContain(escaped);
    }
    const c = await run(["check", "--results", dir, "--bfcl-data", bfclDataDir()]);
    expect(c.err).toContain(
      `:201: error: "multi_turn_base_\\u001b[2Jx\\nerror: forged [x]" is not in the BFCL data for multi_turn_base [result-id-unknown]`,
    );
  }, 60_000);
});

describe("a library caller's string where a list of folders goes", () => {
  it('scoreRuns({ results: "path" }) is refused at once in one problem, as the CLI would never pass it; the walk takes no string apart', async () => {
    const t0 = Date.now();
    const doc = await scoreRuns({ results: "/" as unknown as string[], bootstrap: { resamples: 0 } });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(doc.exitCode).toBe(2);
    expect(doc.problems).toEqual([
      { code: "bad-argument", severity: "error", message: 'results must be a list of folders (string[]), not a string ("/"); give ["/"]' },
    ]);
    const scores = await scoreRuns({ results: [join(main, "result")], scores: [""], bootstrap: { resamples: 0 } });
    expect(scores.problems.map((p) => p.message)).toEqual([
      "scores must be a list of folders (string[]), not a list with an entry that is not a non-empty string",
    ]);
    const walk = walkBfclTree("/" as unknown as string[], tmp, "result");
    expect(walk.problems.map((p) => p.message)).toEqual(["--results must be a list of folders, not string"]);
  });
});

describe("texts of millions of characters", () => {
  it("the report embeds at most REPORT_TEXT_LIMIT characters of a text, and says how much it cut", () => {
    const long = "y".repeat(3_000_000);
    const cut = boundedText(long);
    expect(cut.length).toBeLessThan(REPORT_TEXT_LIMIT + 200);
    expect(cut.startsWith("y".repeat(REPORT_TEXT_LIMIT) + " … ")).toBe(true);
    expect(
      cut.endsWith(
        `[cut by the report: ${3_000_000 - REPORT_TEXT_LIMIT} more characters of 3000000; the whole text is in the result file]`,
      ),
    ).toBe(true);
    expect(boundedText("short")).toBe("short");
  });
});
