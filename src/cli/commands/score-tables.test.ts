/**
 * score's tables for scripts and papers, on both real gpt-oss runs: markdown keeps each
 * table's caption, `--format latex` sets each table for a paper (its numbers those of
 * `--format json`), `--table NAME` prints one table (`combined`: the decision and BFCL's
 * official score side by side, as the README's table), and `--out-dir` writes each table
 * to its own file.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bfclDataDir, rolloutRunDir, rolloutRuns, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-tables-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(argv: string[]) {
  const io = memoryIo({}, tmp);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

interface ScoreJson {
  models: { model: string; numbers: { n: number; act: number; hold: number; decision: number } | null; ci95: [number, number] | null }[];
  official: { models: { model: string; rawMiss: number; rawBase: number; decision: number }[] } | null;
}

const one = (x: number) => x.toFixed(1);

describe.each(rolloutRuns.map((r) => [r]))("score's tables on the real %s run", (name) => {
  const dir = rolloutRunDir(name);
  const args = ["score", "--results", dir, "--bootstrap", "1000"];

  it("--format latex: a booktabs table per table, captioned and labelled, whose numbers are score --format json's", async () => {
    const json = JSON.parse((await run([...args, "--format", "json"])).out) as ScoreJson;
    const tex = await run([...args, "--format", "latex"]);
    expect(tex.code).toBe(json.models.some((m) => m.numbers === null) ? 1 : 0);
    const tables = tex.out.split("\\end{table}\n").filter((t) => t.trim() !== "");
    expect(tables.map((t) => /\\label\{tab:([^}]+)\}/.exec(t)?.[1])).toEqual(["decision", "official"]);
    for (const t of tables) {
      expect(t.trimStart()).toMatch(/^\\begin\{table\}\[t\]\n\\centering\n\\caption\{.+\}\n\\label\{tab:/);
      expect(t).toContain("\\toprule");
      expect(t).toContain("\\bottomrule\n\\end{tabular}");
    }
    // the decision table's caption says what N counts; each row is the model's numbers, rounded
    expect(tables[0]).toContain("N counts the pairs decided on both twins");
    for (const m of json.models) {
      const row = tables[0].split("\n").find((l) => l.startsWith(`${m.model.replace(/_/g, "\\_")} &`))!;
      const cells = row.replace(/ \\\\$/, "").split(" & ");
      if (m.numbers === null) {
        expect(cells.slice(1, 5)).toEqual(["", "", "", ""]);
        expect(row).toContain("no headline");
        continue;
      }
      expect(cells.slice(1, 6)).toEqual([
        String(m.numbers.n),
        one(m.numbers.act),
        one(m.numbers.hold),
        one(m.numbers.decision),
        `[${one(m.ci95![0])}, ${one(m.ci95![1])}]`,
      ]);
    }
    for (const o of json.official!.models) {
      const row = tables[1].split("\n").find((l) => l.startsWith(`${o.model.replace(/_/g, "\\_")} &`))!;
      expect(row.split(" & ").slice(1, 4)).toEqual([one(o.rawMiss), one(o.rawBase), one(o.decision)]);
    }
  }, 120_000);

  it("--format markdown keeps each table's caption; --table combined is the README's table of decision and official score", async () => {
    const md = await run([...args, "--format", "markdown"]);
    expect(md.out).toMatch(
      /^### decision\n\nDecision to act on 223 certified pairs \(Table 1\); N counts the pairs decided on both twins[^\n]*\n\n\| model \| N \|/,
    );
    expect(md.out).toContain("### official\n\nOfficial score on the same items (BFCL's verdict, read from the score files)\n\n| model |");
    const json = JSON.parse((await run([...args, "--format", "json"])).out) as ScoreJson;
    const combined = await run([...args, "--format", "csv", "--table", "combined"]);
    const [head, ...rows] = combined.out.trimEnd().split("\n");
    const headers = head.split(",");
    expect(headers.slice(0, 4)).toEqual(["model", "N", "act", "hold"]);
    expect(headers).toContain("off.miss");
    expect(headers).not.toContain("table");
    expect(rows).toHaveLength(json.models.length);
    for (const m of json.models) {
      const cells = rows.find((r) => r.startsWith(`${m.model},`))!.split(",");
      const at = (h: string) => cells[headers.indexOf(h)];
      const off = json.official!.models.find((o) => o.model === m.model);
      expect(at("off.miss")).toBe(off === undefined ? "" : one(off.rawMiss));
      expect(at("off.base")).toBe(off === undefined ? "" : one(off.rawBase));
      expect(at("decision")).toBe(m.numbers === null ? "" : one(m.numbers.decision));
    }
  }, 120_000);

  it("--out-dir writes each table to its own file, one CSV per table with its own columns", async () => {
    const out = mkdtempSync(join(tmp, `${name}-`));
    const r = await run([...args, "--format", "csv", "--out-dir", out]);
    expect(r.err).toMatch(/note: wrote .* \(3 tables: decision\.csv, official\.csv, combined\.csv\) \[written\]/);
    expect(readdirSync(out).sort()).toEqual(["combined.csv", "decision.csv", "official.csv"]);
    const official = readFileSync(join(out, "official.csv"), "utf8").split("\n")[0].split(",");
    expect(official[0]).toBe("model");
    expect(official).toContain("off.miss");
    expect(official).not.toContain("act");
    const decision = readFileSync(join(out, "decision.csv"), "utf8").split("\n")[0].split(",");
    expect(decision).not.toContain("off.miss");
    expect(r.out).toBe("");
  }, 120_000);
});

describe("--table and --out-dir refuse what they cannot do, in one line", () => {
  const dir = rolloutRunDir("2025-11-12-main");
  it("an unknown table, json, both at once, a missing folder: exit 2 before reading; a table this run has not: exit 2", async () => {
    for (const [extra, message] of [
      [
        ["--table", "nope"],
        "--table must be one of decision, official, combined, sensitivity, table-f1, aligned, empty-turns, trials, unstable-pairs (got 'nope')",
      ],
      [
        ["--table", "decision", "--format", "json"],
        "--table prints tables: give --format table, csv, markdown or latex (json is the whole document)",
      ],
      [["--table", "decision", "--out-dir", tmp], "--table and --out-dir cannot be combined (--out-dir writes every table)"],
      [["--out-dir", join(tmp, "no", "such")], `--out-dir ${join(tmp, "no", "such")}: no such folder`],
    ] as const) {
      const r = await run(["score", "--results", dir, ...extra]);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toBe(`error: ${message} [bad-argument]\n`);
    }
    const none = await run(["score", "--results", join(dir, "result"), "--bootstrap", "0", "--table", "sensitivity"]);
    expect(none.code).toBe(2);
    expect(none.out).toBe("");
    expect(none.err).toContain(
      "error: --table sensitivity: this output has no such table (its tables: decision); what gives it: --sensitivity [table-missing]",
    );
    const aligned = await run(["score", "--results", join(dir, "result"), "--bootstrap", "0", "--table", "aligned"]);
    expect(aligned.code).toBe(2);
    expect(aligned.err).toContain("--table aligned: this output has no such table (its tables: decision); what gives it: --bfcl-data DIR");
  }, 120_000);

  it("--table NAME in the table format prints the table's caption above it, as markdown does", async () => {
    const args = ["score", "--results", dir, "--bootstrap", "0", "--table", "decision"];
    const table = await run(args);
    const [caption, blank, header] = table.out.split("\n");
    expect(caption).toMatch(/^Decision to act on 223 certified pairs \(Table 1\); N counts the pairs decided on both twins/);
    expect(blank).toBe("");
    expect(header).toMatch(/^model +N +act +hold +decision/);
    const md = await run([...args, "--format", "markdown"]);
    expect(md.out.split("\n")[0]).toBe(caption);
    const csv = await run([...args, "--format", "csv"]);
    expect(csv.out.split("\n")[0]).toMatch(/^model,N,act,hold,decision/);
  }, 120_000);
});

describe("the per-item file carries BFCL's verdict on each twin when its score files are read", () => {
  it("real 2025-11-12-main: the should-ask passes and fails of the scored rows are the official table's; every row has both twins' verdicts", async () => {
    const file = join(tmp, "items.csv");
    const dir = rolloutRunDir("2025-11-12-main");
    const r = await run(["score", "--results", dir, "--bootstrap", "0", "--per-item", file, "--format", "json"]);
    const doc = JSON.parse(r.out) as { official: { models: { model: string; passes: number; fails: number }[] } };
    const [head, ...rows] = readFileSync(file, "utf8").trimEnd().split("\n");
    const headers = head.split(",");
    expect(headers.slice(-2)).toEqual(["base_official", "miss_official"]);
    const at = (row: string[], h: string) => row[headers.indexOf(h)];
    const cells = rows.map((l) => l.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/));
    for (const o of doc.official.models) {
      const scored = cells.filter((c) => at(c, "model") === o.model && at(c, "scored") === "1");
      expect(scored.filter((c) => at(c, "miss_official") === "1")).toHaveLength(o.passes);
      expect(scored.filter((c) => at(c, "miss_official") === "0")).toHaveLength(o.fails);
    }
    // every row of both models has both verdicts: the runs' score files cover every item
    expect(cells.every((c) => ["0", "1"].includes(at(c, "base_official")) && ["0", "1"].includes(at(c, "miss_official")))).toBe(true);
    // without score files the columns are not there
    const bare = join(tmp, "bare.csv");
    await run(["score", "--results", join(dir, "result"), "--bootstrap", "0", "--per-item", bare]);
    expect(readFileSync(bare, "utf8").split("\n")[0].split(",")).not.toContain("miss_official");
  }, 120_000);
});

describe("score --bfcl-data of another BFCL version than the run's", () => {
  it("real xlam v3 run with the v4 data: one error line naming the data to give, exit 1, and the decision table still printed", async () => {
    const r = await run(["score", "--results", sharedPath("rollouts", "xlam-v3"), "--bfcl-data", bfclDataDir(), "--bootstrap", "0"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `${bfclDataDir()}: error: the BFCL checker's numbers (aligned, skipped turn, Table F1) leave out the BFCL v3 models: this BFCL data is v4; give the v3 data with --bfcl-data DIR (the folder holding BFCL_v3_multi_turn_base.json) [bfcl-version-differs]\n`,
    );
    expect(r.out).toMatch(/^Decision to act on 234 pairs/);
  }, 120_000);
});

describe("--model takes BFCL's model name as run --model does", () => {
  it("score --model openai/gpt-oss-120b scores the folder openai_gpt-oss-120b, as its folder name does (real 2025-11-12-main)", async () => {
    const dir = rolloutRunDir("2025-11-12-main");
    const byName = await run(["score", "--results", dir, "--bootstrap", "0", "--model", "openai/gpt-oss-120b", "--format", "json"]);
    const byFolder = await run(["score", "--results", dir, "--bootstrap", "0", "--model", "openai_gpt-oss-120b", "--format", "json"]);
    expect(byName.code).toBe(0);
    expect(byName.out).toBe(byFolder.out);
    expect((JSON.parse(byName.out) as { models: { model: string }[] }).models.map((m) => m.model)).toEqual(["openai_gpt-oss-120b"]);
    const none = await run(["score", "--results", dir, "--model", "openai/gpt-oss-999b"]);
    expect(none.code).toBe(2);
    expect(none.err).toContain(
      "error: --model openai/gpt-oss-999b: no such model directory under the results (found: openai_gpt-oss-120b, openai_gpt-oss-20b) [model-missing]",
    );
  }, 120_000);
});
