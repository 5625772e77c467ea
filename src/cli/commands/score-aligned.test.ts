import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadManifest } from "../../io/manifest.js";
import { readingPairs } from "../../decision/readings.js";
import { bfclDataDir, projectRoot, rolloutRunDir, rolloutRuns, sharedDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

/** BFCL's own multi_turn_checker on the twins' prefixes (tools/gen-aligned-vectors.py): "1" = completed. */
const prefixVectors = JSON.parse(readFileSync(join(projectRoot, "src", "simulator", "testdata", "prefix-check-vectors.json"), "utf8")) as {
  pairs: [string, string, number][];
  runs: Record<string, { base: string; miss: string }>;
};
/** BFCL's own multi_turn_checker and multi_turn_irrelevance_checker on every entry (same tool). */
const irrelevanceVectors = JSON.parse(
  readFileSync(join(projectRoot, "src", "simulator", "testdata", "irrelevance-vectors.json"), "utf8"),
) as {
  files: Record<string, Record<string, { total: number; correct: number; strictCorrect: number }>>;
};

const models = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"] as const;
const tmp = mkdtempSync(join(tmpdir(), "twinscore-score-aligned-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(argv: string[]) {
  const io = memoryIo();
  const code = await runCli(argv, io);
  const clean = (s: string) => s.split(sharedDir()).join("<SHARED>").split(tmp).join("<TMP>");
  return { code, out: clean(io.out.join("")), err: clean(io.err.join("")) };
}

/** The folder holding both runs: `score` names its models `<run>/<model>`. */
const bothRuns = join(rolloutRunDir(rolloutRuns[0]), "..");

interface AlignedJson {
  model: string;
  n: number;
  withheld: Record<string, number>;
  heldNotCompletedWhy: Record<string, number>;
  baseActedCompleted: number;
  aligned: number;
  alignedPct: number;
  askedThenDidPct: number;
  baseActedCompletedPct: number;
  ci95: [number, number] | null;
  missingCompletion: number;
}
interface EmptyTurnJson {
  model: string;
  category: string;
  entries: number;
  bfcl: { correct: number; accuracy: number; rank: number };
  strict: { correct: number; accuracy: number; rank: number };
  worldChanging: { correct: number; accuracy: number; rank: number };
}

describe("score --bfcl-data on both gpt-oss runs (4 models): the completion columns, the aligned score, the skipped turn scored", () => {
  const items = join(tmp, "items.csv");
  let doc: {
    aligned: { models: AlignedJson[] };
    emptyTurns: EmptyTurnJson[];
    models: { model: string; numbers: { pair: number; n: number } }[];
    problems: unknown[];
    exitCode: number;
  };
  let rows: Record<string, string>[] = [];

  it("--format json: the document carries both, numbers as numbers", async () => {
    const r = await run([
      "score",
      "--reading",
      "release",
      "--results",
      bothRuns,
      "--bfcl-data",
      bfclDataDir(),
      "--per-item",
      items,
      "--format",
      "json",
    ]);
    expect(r.code, r.err).toBe(0);
    doc = JSON.parse(r.out);
    // the one thing said: each model's 8 inference errors were run on the data from before 06ae1c76 (their score files' prompts tell)
    const olderData = (doc.problems as { code: string; severity: string; message: string }[]).map((p) => [
      p.severity,
      p.code,
      p.message.replace(/^model ([^:]+): generated on BFCL v4 data from before (\w+) .*: (8 items differ: .*)$/, "$1 $2 $3"),
    ]);
    expect(olderData).toEqual(
      rolloutRuns
        .flatMap((run) => models.map((m) => `${run}/${m}`))
        .sort()
        .map((m) => [
          "warning",
          "rollouts-older-data",
          `${m} 06ae1c76 8 items differ: multi_turn_miss_func 101, 102, 115, 120, 122, 124, 129, 130`,
        ]),
    );
    expect(JSON.stringify({ aligned: doc.aligned, emptyTurns: doc.emptyTurns })).not.toMatch(/"\d+(\.\d+)?"/);
    expect(doc.aligned.models.map((m) => m.model)).toEqual(rolloutRuns.flatMap((run) => models.map((m) => `${run}/${m}`)).sort());
    const lines = readFileSync(items, "utf8").trimEnd().split("\n");
    const header = lines[0].split(",");
    expect(header.slice(-2)).toEqual(["base_completed", "miss_completed"]);
    // the last two cells of each row are the completion bits (miss_text, before them, may hold commas)
    rows = lines.slice(1).map((l) => {
      const cells = l.split(",");
      return {
        model: cells[0],
        miss_id: cells[1],
        act: cells[header.indexOf("act")],
        hold: cells[header.indexOf("hold")],
        base_completed: cells[cells.length - 2],
        miss_completed: cells[cells.length - 1],
      };
    });
    expect(rows).toHaveLength(4 * 223);
  });

  it("base_completed and miss_completed equal BFCL's prefix checks (its own multi_turn_checker) on every scored pair of both runs", () => {
    const pairs = loadManifest();
    if (!pairs.ok) throw new Error("manifest");
    const scored = readingPairs(pairs.value, { pairSet: "certified", countLogin: false });
    const index = new Map(prefixVectors.pairs.map(([missId], i) => [missId, i]));
    let compared = 0;
    const differ: string[] = [];
    for (const run of rolloutRuns) {
      for (const model of models) {
        const v = prefixVectors.runs[`${run}/${model}`];
        const base = v.base.split(" ");
        const miss = v.miss.split(" ");
        for (const p of scored) {
          const row = rows.find((r) => r.model === `${run}/${model}` && r.miss_id === p.missId);
          const i = index.get(p.missId)!;
          const expected = `${base[i] === "1" ? 1 : 0}${miss[i] === "1" ? 1 : 0}`;
          if (row === undefined || `${row.base_completed}${row.miss_completed}` !== expected)
            differ.push(`${run}/${model} ${p.missId}: ${row?.base_completed}${row?.miss_completed}, BFCL ${expected}`);
          compared++;
        }
      }
    }
    expect(differ).toEqual([]);
    expect(compared).toBe(4 * 223);
    // both values occur on both sides
    expect(new Set(rows.map((r) => r.base_completed))).toEqual(new Set(["0", "1"]));
    expect(new Set(rows.map((r) => r.miss_completed))).toEqual(new Set(["0", "1"]));
  });

  it("the aligned table is recounted from the per-item rows: cells, base acted+done, aligned, the interval around it, under the decision's pair rate", () => {
    for (const m of doc.aligned.models) {
      const own = rows.filter((r) => r.model === m.model);
      const count = (f: (r: Record<string, string>) => boolean) => own.filter(f).length;
      expect(m.withheld).toEqual({
        "held-completed": count((r) => r.hold === "1" && r.miss_completed === "1"),
        "held-not-completed": count((r) => r.hold === "1" && r.miss_completed === "0"),
        "acted-completed": count((r) => r.hold === "0" && r.miss_completed === "1"),
        "acted-not-completed": count((r) => r.hold === "0" && r.miss_completed === "0"),
      });
      expect(m.baseActedCompleted).toBe(count((r) => r.act === "1" && r.base_completed === "1"));
      expect(m.aligned).toBe(count((r) => r.act === "1" && r.base_completed === "1" && r.hold === "1" && r.miss_completed === "1"));
      expect([m.n, m.missingCompletion]).toEqual([223, 0]);
      expect(m.alignedPct).toBeCloseTo((100 * m.aligned) / 223, 12);
      expect(Object.values(m.heldNotCompletedWhy).reduce((a, b) => a + b, 0)).toBe(m.withheld["held-not-completed"]);
      expect(m.ci95![0]).toBeLessThan(m.alignedPct);
      expect(m.ci95![1]).toBeGreaterThan(m.alignedPct);
      expect(m.alignedPct).toBeLessThanOrEqual(doc.models.find((x) => x.model === m.model)!.numbers.pair);
    }
    const main120 = doc.aligned.models.find((m) => m.model === "2025-11-12-main/openai_gpt-oss-120b")!;
    expect([
      main120.withheld["held-completed"],
      main120.withheld["held-not-completed"],
      main120.withheld["acted-completed"],
      main120.withheld["acted-not-completed"],
      main120.baseActedCompleted,
      main120.aligned,
    ]).toEqual([104, 51, 25, 43, 140, 94]);
    expect(main120.ci95!.map((x) => x.toFixed(1))).toEqual(["34.9", "49.8"]);
  });

  it("the worked example of the README: multi_turn_miss_func_111 (main, 120b) is aligned", () => {
    const row = rows.find((r) => r.model === "2025-11-12-main/openai_gpt-oss-120b" && r.miss_id === "multi_turn_miss_func_111")!;
    expect(row).toMatchObject({ act: "1", hold: "1", base_completed: "1", miss_completed: "1" });
  });

  it("the skipped turn: BFCL's counts and the strict counts equal BFCL's own checkers on every file; world-changing lies between; the ranking under each", () => {
    let files = 0;
    for (const run of rolloutRuns) {
      for (const model of models) {
        for (const category of ["base", "miss_func", "miss_param"]) {
          const v = irrelevanceVectors.files[`${run}/${model}`][category];
          const row = doc.emptyTurns.find((r) => r.model === `${run}/${model}` && r.category === category)!;
          expect([row.entries, row.bfcl.correct, row.strict.correct], `${run}/${model} ${category}`).toEqual([
            v.total,
            v.correct,
            v.strictCorrect,
          ]);
          expect(row.worldChanging.correct).toBeGreaterThanOrEqual(row.strict.correct);
          expect(row.worldChanging.correct).toBeLessThanOrEqual(row.bfcl.correct);
          files++;
        }
      }
    }
    expect(files).toBe(12);
    // ranks: 1 + the number of models strictly ahead in the category
    for (const row of doc.emptyTurns) {
      const peers = doc.emptyTurns.filter((r) => r.category === row.category);
      for (const s of ["bfcl", "strict", "worldChanging"] as const)
        expect(row[s].rank).toBe(1 + peers.filter((p) => p[s].accuracy > row[s].accuracy).length);
    }
    // the strict reading reverses the main run's two models on the mean of the categories
    const mean = (m: string) => doc.emptyTurns.find((r) => r.model === `2025-11-12-main/${m}` && r.category === "mean")!;
    expect(mean("openai_gpt-oss-120b").bfcl.accuracy).toBeGreaterThan(mean("openai_gpt-oss-20b").bfcl.accuracy);
    expect(mean("openai_gpt-oss-120b").strict.accuracy).toBeLessThan(mean("openai_gpt-oss-20b").strict.accuracy);
  });
});

describe("score --bfcl-data under the default reading on 2025-11-12-main, whose gpt-oss-20b has no headline", () => {
  it("the skipped-turn table has both models, as report's has (it does not hang on the decision); the aligned table only 120b", async () => {
    const main = rolloutRunDir("2025-11-12-main");
    const args = ["--results", main, "--bfcl-data", bfclDataDir(), "--bootstrap", "0", "--format", "json"];
    const score = JSON.parse((await run(["score", ...args])).out) as { aligned: { models: AlignedJson[] }; emptyTurns: EmptyTurnJson[] };
    const report = JSON.parse((await run(["report", ...args, "--out", join(tmp, "default-reading.html")])).out) as {
      emptyTurns: EmptyTurnJson[];
    };
    expect(score.aligned.models.map((m) => m.model)).toEqual(["openai_gpt-oss-120b"]);
    expect([...new Set(score.emptyTurns.map((r) => r.model))].sort()).toEqual([...models].sort());
    expect(score.emptyTurns).toEqual(report.emptyTurns);
    // 20b's rows are BFCL's own checkers on its files (tools/gen-aligned-vectors.py), not read off the decision
    for (const category of ["base", "miss_func", "miss_param"]) {
      const v = irrelevanceVectors.files[`2025-11-12-main/openai_gpt-oss-20b`][category];
      const row = score.emptyTurns.find((r) => r.model === "openai_gpt-oss-20b" && r.category === category)!;
      expect([row.entries, row.bfcl.correct, row.strict.correct], category).toEqual([v.total, v.correct, v.strictCorrect]);
    }
  }, 180_000);
});

describe("score --bfcl-data in the text formats (2025-11-12-main, gpt-oss-120b)", () => {
  const base = [
    "score",
    "--reading",
    "release",
    "--results",
    rolloutRunDir("2025-11-12-main"),
    "--model",
    "openai_gpt-oss-120b",
    "--bfcl-data",
    bfclDataDir(),
  ];
  it("table: the aligned and the empty-turn tables (snapshot)", async () => {
    const r = await run(base);
    expect(r.code).toBe(0);
    const from = r.out.indexOf("\nAsked, then did it");
    const to = r.out.indexOf("\nFiles used:");
    expect(from).toBeGreaterThan(0);
    expect(r.out.slice(from, to < 0 ? undefined : to)).toMatchSnapshot();
  });
  it("csv and markdown: one row per model in the aligned table, one per category and model in the empty-turn table", async () => {
    const csv = await run([...base, "--format", "csv", "--bootstrap", "0"]);
    const lines = csv.out.trimEnd().split("\n");
    const header = lines[0].split(",");
    expect(header[0]).toBe("table");
    const aligned = lines.filter((l) => l.startsWith("aligned,"));
    expect(aligned).toHaveLength(1);
    const cell = (line: string, name: string) => line.split(",")[header.indexOf(name)];
    expect([
      cell(aligned[0], "held+done"),
      cell(aligned[0], "held+not"),
      cell(aligned[0], "acted+done"),
      cell(aligned[0], "acted+not"),
      cell(aligned[0], "base+done"),
      cell(aligned[0], "aligned"),
    ]).toEqual(["104", "51", "25", "43", "140", "42.2"]);
    const empty = lines.filter((l) => l.startsWith("empty-turns,"));
    expect(empty.map((l) => [cell(l, "category"), cell(l, "bfcl"), cell(l, "strict")])).toEqual([
      ["base", "50.0", "49.5"],
      ["miss_func", "45.5", "16.5"],
      ["miss_param", "41.5", "31.5"],
      ["mean", "45.7", "32.5"],
    ]);
    const md = await run([...base, "--format", "markdown", "--bootstrap", "0"]);
    expect(md.out).toContain("### aligned");
    expect(md.out).toContain("### empty-turns");
    expect(md.out).toMatch(/\| openai_gpt-oss-120b \| 223 \| 104 \| 51 \| \d+ \| 25 \| 43 \| 140 \| 46\.6 \| 42\.2 \|/);
  });
  it("without --bfcl-data nothing is checked: no aligned or empty-turn table, no completion columns", async () => {
    const r = await run([
      "score",
      "--reading",
      "release",
      "--results",
      rolloutRunDir("2025-11-12-main"),
      "--model",
      "openai_gpt-oss-120b",
      "--format",
      "json",
      "--bootstrap",
      "0",
      "--per-item",
      join(tmp, "plain.csv"),
    ]);
    const d = JSON.parse(r.out);
    expect([d.aligned, d.emptyTurns]).toEqual([null, null]);
    expect(readFileSync(join(tmp, "plain.csv"), "utf8").split("\n")[0]).not.toContain("completed");
  });
  it("a BFCL data folder that is not one: one error, the decision table still printed, exit 1", async () => {
    const r = await run([
      "score",
      "--reading",
      "release",
      "--results",
      rolloutRunDir("2025-11-12-main"),
      "--model",
      "openai_gpt-oss-120b",
      "--bfcl-data",
      tmp,
      "--format",
      "csv",
      "--bootstrap",
      "0",
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/<TMP>: error: .*\[[a-z-]+\]\n/);
    // (the run folder's score/ adds the official table: csv names each row's table)
    expect(r.out.split("\n")[1]).toMatch(/^decision,openai_gpt-oss-120b,223,96\.9,/);
  });
  it("its help topic says what the numbers mean and why they are not BFCL's score", async () => {
    const r = await run(["help", "aligned"]);
    expect(r.out).toContain("1. Asked, then did it.");
    expect(r.out).toMatch(/\n {2}held\+done +withheld twin held back on T and completed through T\+1/);
    expect(r.out).toContain("How to read it beside decision");
    expect(r.out).toContain("2. The skipped turn, scored.");
    expect(r.out).toContain("Neither is BFCL's score");
  });
});

describe("score --bfcl-data on lines stopped by `run --until-anchor`", () => {
  it("a withheld twin stopped after its anchor turn has no completion: the pair is left out of the aligned numbers (warned, empty cells), and check's rule leaves the line out of the empty-turn table", async () => {
    const manifest = loadManifest();
    if (!manifest.ok) throw new Error("manifest");
    const anchors = new Map(
      readingPairs(manifest.value, { pairSet: "certified", countLogin: false })
        .filter((p) => p.category === "miss_param")
        .map((p) => [p.missId, p.anchorTurn]),
    );
    // a copy of main's gpt-oss-120b whose scored miss_param lines end after their anchor turn, as `run --until-anchor` writes them
    const dir = join(tmp, "until-anchor", "openai_gpt-oss-120b", "multi_turn");
    mkdirSync(dir, { recursive: true });
    const source = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
    for (const c of ["base", "miss_func"])
      copyFileSync(join(source, `BFCL_v4_multi_turn_${c}_result.json`), join(dir, `BFCL_v4_multi_turn_${c}_result.json`));
    let stopped = 0;
    const lines = readFileSync(join(source, "BFCL_v4_multi_turn_miss_param_result.json"), "utf8")
      .split("\n")
      .map((line) => {
        if (line.trim() === "") return line;
        const entry = JSON.parse(line) as { id: string; result: unknown };
        const t = anchors.get(entry.id);
        if (t === undefined || !Array.isArray(entry.result)) return line;
        stopped++;
        return JSON.stringify({ ...entry, result: entry.result.slice(0, t + 1) }).slice(0, -1) + `, "twinscore_stopped_after_turn": ${t}}`;
      });
    writeFileSync(join(dir, "BFCL_v4_multi_turn_miss_param_result.json"), lines.join("\n"));
    expect(stopped).toBeGreaterThan(90);
    const csv = join(tmp, "until-anchor.csv");
    const r = await run([
      "score",
      "--reading",
      "release",
      "--results",
      join(tmp, "until-anchor"),
      "--bfcl-data",
      bfclDataDir(),
      "--bootstrap",
      "0",
      "--per-item",
      csv,
      "--format",
      "json",
    ]);
    expect(r.code, r.err).toBe(0);
    const d = JSON.parse(r.out);
    const a = d.aligned.models[0];
    expect([a.n, a.missingCompletion]).toEqual([223 - stopped, stopped]);
    const warnings = d.problems.map((p: { code: string; message: string }) => `${p.code}: ${p.message}`);
    expect(
      warnings.some((w: string) =>
        w.startsWith(`completion-unknown: model openai_gpt-oss-120b: ${stopped} ${stopped === 1 ? "pair has" : "pairs have"}`),
      ),
    ).toBe(true);
    expect(warnings.some((w: string) => w.includes("stopped after their anchor turn"))).toBe(true);
    const rows = readFileSync(csv, "utf8").trimEnd().split("\n").slice(1);
    const blank = rows.filter((l) => l.endsWith(",,")).map((l) => l.split(",")[1]);
    expect(blank.sort()).toEqual([...anchors.keys()].filter((id) => rows.some((l) => l.split(",")[1] === id)).sort());
    const mp = d.emptyTurns.find((e: { category: string }) => e.category === "miss_param");
    expect(mp.entries).toBe(200 - stopped);
  });
});
