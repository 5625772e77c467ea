/**
 * A run folder (BFCL's layout: `result/` and `score/` side by side) given to `--results`
 * with no `--scores`: score, compare and report read its `score/` as if it were given, and
 * say so in one note line; a `--scores` given wins. On the real gpt-oss runs.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot, rolloutRunDir, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-scores-beside-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const main = rolloutRunDir("2025-11-12-main");
const fixes = rolloutRunDir("2025-11-12-harmony-fixes");
const notes = (err: string) => err.split("\n").filter((l) => l.includes("[scores-beside]"));
const besideNote = (dirs: string[], others = "--scores DIR reads others") =>
  `note: BFCL's verdicts read from the score/ folder${dirs.length === 1 ? "" : "s"} beside result/: ${dirs.join(", ")} (${others}) [scores-beside]`;

describe("score on a run folder without --scores", () => {
  const fast = ["--reading", "release", "--bootstrap", "0", "--format", "json"];

  it("reads its score/: the official section is the one --scores gives (off.miss 43.9 for gpt-oss-120b), said in one note", async () => {
    const beside = await run(["score", "--results", main, ...fast]);
    const given = await run(["score", "--results", main, "--scores", main, ...fast]);
    expect(beside.code).toBe(given.code);
    const a = JSON.parse(beside.out);
    const b = JSON.parse(given.out);
    expect(a.official).not.toBeNull();
    expect(a.official).toEqual(b.official);
    expect(a.official.models.map((m: { model: string; rawMiss: number }) => [m.model, m.rawMiss.toFixed(1)])).toEqual([
      ["openai_gpt-oss-120b", "43.9"],
      ["openai_gpt-oss-20b", "44.8"],
    ]);
    expect(a.models).toEqual(b.models);
    expect(a.scoresBeside).toEqual([join(main, "score")]);
    expect(notes(beside.err)).toEqual([besideNote([join(main, "score")])]);
    expect(b.scoresBeside).toEqual([]);
    expect(notes(given.err)).toEqual([]);
  }, 120_000);

  it("a folder of runs: each run's score/ beside its result/, the four models' official rows as with --scores", async () => {
    const parent = sharedPath("rollouts", "gpt-oss");
    const a = JSON.parse((await run(["score", "--results", parent, ...fast])).out);
    const b = JSON.parse((await run(["score", "--results", parent, "--scores", parent, ...fast])).out);
    expect(a.official.models.map((m: { model: string }) => m.model)).toHaveLength(4);
    expect(a.official).toEqual(b.official);
    expect(a.scoresBeside).toEqual([join(fixes, "score"), join(main, "score")]);
  }, 120_000);

  it("--scores given wins over the score/ beside result/", async () => {
    const r = await run(["score", "--results", main, "--scores", fixes, "--model", "openai_gpt-oss-120b", ...fast]);
    const doc = JSON.parse(r.out);
    // the other run's verdicts on the same model: off.miss 50.2, not 43.9
    expect(doc.official.models[0].rawMiss.toFixed(1)).toBe("50.2");
    expect(doc.scoresBeside).toEqual([]);
    expect(notes(r.err)).toEqual([]);
  }, 120_000);

  it("a result root or a model folder names no run folder: no score/ is looked for", async () => {
    for (const results of [join(main, "result"), join(main, "result", "openai_gpt-oss-120b")]) {
      const r = await run(["score", "--results", results, ...fast]);
      const doc = JSON.parse(r.out);
      expect([results, doc.official, doc.scoresBeside, notes(r.err)]).toEqual([results, null, [], []]);
    }
  }, 120_000);
});

describe("compare and report on run folders without --scores", () => {
  it("compare: both arms' score/ give the official change (43.9 → 50.2 on the scored miss items), said in one note", async () => {
    const argv = ["compare", "--reading", "release", "--a", main, "--b", fixes, "--model", "openai_gpt-oss-120b", "--format", "csv"];
    const r = await run(argv);
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n")).toContain("openai_gpt-oss-120b,official raw,scored miss items,223,43.9,50.2,+6.3,18,32,0.065,,");
    expect(notes(r.err)).toEqual([besideNote([join(main, "score"), join(fixes, "score")], "--scores-a and --scores-b read others")]);
    const given = await run([...argv, "--scores-a", main, "--scores-b", fixes]);
    expect(given.out).toBe(r.out);
    expect(notes(given.err)).toEqual([]);
  }, 120_000);

  it("compare: an arm with no score/ beside its result/ leaves the official change out for both", async () => {
    const r = await run([
      "compare",
      "--reading",
      "release",
      "--a",
      main,
      "--b",
      join(fixes, "result"),
      "--model",
      "openai_gpt-oss-120b",
      "--format",
      "csv",
    ]);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain("official raw");
    expect(notes(r.err)).toEqual([]);
  }, 120_000);

  it("report: the page with each run's score/ is the page --scores gives, but for the score folders it names", async () => {
    const common = ["--reading", "release", "--bootstrap", "0", "--results", main, "--results", fixes];
    const beside = await run(["report", ...common, "--out", join(tmp, "beside.html")]);
    const given = await run(["report", ...common, "--scores", main, "--scores", fixes, "--out", join(tmp, "given.html")]);
    expect(beside.code).toBe(given.code);
    expect(notes(beside.err)).toEqual([besideNote([join(main, "score"), join(fixes, "score")])]);
    expect(notes(given.err)).toEqual([]);
    const page = readFileSync(join(tmp, "beside.html"), "utf8");
    expect(page).toContain(`results ${main}, scores ${join(main, "score")}`);
    expect(
      page
        .replaceAll(`, scores ${join(main, "score")}`, `, scores ${main}`)
        .replaceAll(`, scores ${join(fixes, "score")}`, `, scores ${fixes}`),
    ).toBe(readFileSync(join(tmp, "given.html"), "utf8"));
  }, 240_000);
});
