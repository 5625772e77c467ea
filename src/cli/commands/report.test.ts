import { afterAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatDecimal1 } from "../../decision/format.js";
import { escapeHtml, fmt1, fmtSigned } from "../../report/html.js";
import { hostileText, plantHostileText } from "../../testing/report-fixture.js";
import { bfclDataDir, projectRoot, rolloutRunDir, rolloutRuns, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { cliArgs } from "../../testing/cli-args.js";

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** Table 1's cells by model and column, as the report marks them. */
function tableCells(html: string): Map<string, string> {
  const cells = new Map<string, string>();
  for (const m of html.matchAll(/data-model="([^"]+)" data-col="(\w+)">([^<]*)</g)) cells.set(`${m[1]}|${m[2]}`, m[3]);
  return cells;
}

interface CompareJson {
  official: { rawMiss: { a: number; b: number }; rawBase: { a: number; b: number } };
  decision: { a: number; b: number; ci95: [number, number] };
}

interface ScoreJson {
  models: {
    model: string;
    numbers: { n: number; act: number; hold: number; decision: number; holdCredited: number; decisionCredited: number };
  }[];
}

const tmp = mkdtempSync(join(tmpdir(), "twinscore-report-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const [main, fixes] = rolloutRuns;
const bothRunsArgs = (out: string) => [
  "report",
  "--reading",
  "release",
  "--results",
  rolloutRunDir(main),
  "--scores",
  rolloutRunDir(main),
  "--results",
  rolloutRunDir(fixes),
  "--scores",
  rolloutRunDir(fixes),
  "--compare",
  main,
  fixes,
  "--out",
  out,
];

describe("twinscore report on both gpt-oss runs", () => {
  const first = join(tmp, "first.html");
  it("Table 1 equals `score --format json` per run, official raw equals `compare --format json`, models named <run>/<model>", async () => {
    const r = await run(bothRunsArgs(first));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/report: scoring 2025-11-12-main/);
    expect(r.err).toMatch(/wrote .*first\.html \(4 models, 223 pairs, 2 comparisons?/);
    const html = readFileSync(first, "utf8");
    const cells = tableCells(html);
    let checked = 0;
    for (const runName of rolloutRuns) {
      // the point numbers only (no resamples): the intervals shown are checked against compare's below
      const s = await run(cliArgs("score", { reading: "release", results: rolloutRunDir(runName), bootstrap: 0, format: "json" }));
      expect(s.code).toBe(0);
      const json = JSON.parse(s.out) as ScoreJson;
      expect(json.models.map((m) => m.model)).toEqual(["openai_gpt-oss-120b", "openai_gpt-oss-20b"]);
      for (const m of json.models) {
        const name = `${runName}/${m.model}`;
        expect(cells.get(`${name}|n`)).toBe(String(m.numbers.n));
        expect(cells.get(`${name}|act`)).toBe(formatDecimal1(m.numbers.act));
        expect(cells.get(`${name}|hold`)).toBe(formatDecimal1(m.numbers.hold));
        expect(cells.get(`${name}|decision`)).toBe(formatDecimal1(m.numbers.decision));
        expect(cells.get(`${name}|hold_c`)).toBe(formatDecimal1(m.numbers.holdCredited));
        expect(cells.get(`${name}|dec_c`)).toBe(formatDecimal1(m.numbers.decisionCredited));
        checked += 6;
      }
    }
    expect(checked).toBe(24);
    // Official raw on the scored items: arm A and arm B of `compare` for each model.
    for (const model of ["openai_gpt-oss-120b", "openai_gpt-oss-20b"]) {
      const c = await run(
        cliArgs("compare", {
          reading: "release",
          a: rolloutRunDir(main),
          b: rolloutRunDir(fixes),
          "scores-a": rolloutRunDir(main),
          "scores-b": rolloutRunDir(fixes),
          model,
          format: "json",
        }),
      );
      expect(c.code).toBe(0);
      const comparison = (JSON.parse(c.out) as { models: { comparison: CompareJson }[] }).models[0].comparison;
      const raw = comparison.official;
      // Figure 2's right panel: the paired decision change and its interval, as `compare` computes them.
      const d = comparison.decision;
      expect(html).toContain(
        `<td>decision accuracy</td><td>${fmt1(d.a)}</td><td>${fmt1(d.b)}</td><td>${fmtSigned(d.b - d.a)}</td><td>[${fmtSigned(d.ci95[0])}, ${fmtSigned(d.ci95[1])}]</td>`,
      );
      expect(cells.get(`${main}/${model}|official_miss`)).toBe(formatDecimal1(raw.rawMiss.a));
      expect(cells.get(`${fixes}/${model}|official_miss`)).toBe(formatDecimal1(raw.rawMiss.b));
      expect(cells.get(`${main}/${model}|official_base`)).toBe(formatDecimal1(raw.rawBase.a));
      expect(cells.get(`${fixes}/${model}|official_base`)).toBe(formatDecimal1(raw.rawBase.b));
    }
    // The paper's published pair: gpt-oss-120b main 83.2 with official raw 43.9 (compare.test.ts has the same numbers).
    expect(cells.get(`${main}/openai_gpt-oss-120b|decision`)).toBe("83.2");
    expect(cells.get(`${main}/openai_gpt-oss-120b|official_miss`)).toBe("43.9");
    expect(html).toContain("<td>decision accuracy</td><td>83.2</td><td>81.8</td><td>−1.3</td><td>[−3.6, +1.1]</td>");
    // The sections and the browser are all there.
    for (const id of ["table1", "reversal", "categories", "sensitivities", "lost", "compare", "pairs"])
      expect(html).toContain(`<h2 id="${id}">`);
    expect(html.match(/<details class="pair"/g)).toHaveLength(223);
    expect(html).toContain('id="multi_turn_miss_param_122"');
    expect(html).toContain("<h3>openai_gpt-oss-120b: A = 2025-11-12-main, B = 2025-11-12-harmony-fixes</h3>");
    // Self-contained: no external resource of any kind.
    expect(html).not.toMatch(/(src|href)="(https?:|\/\/)/);
    // No path of this test's own temporary folder leaks into the page (inputs are listed as given).
    expect(html).not.toContain(tmp);
  });

  it("is byte-identical when built again from the same inputs", async () => {
    const second = join(tmp, "second.html");
    const r = await run(bothRunsArgs(second));
    expect(r.code).toBe(0);
    expect(readFileSync(second).equals(readFileSync(first))).toBe(true);
  });
});

describe("twinscore report under the default reading (2025-11-12-main)", () => {
  it("a model past --max-undecided has no headline, and a side with an inference error is shown as no decision, never right or wrong", async () => {
    const out = join(tmp, "decided.html");
    const r = await run(["report", "--results", rolloutRunDir(main), "--bootstrap", "0", "--out", out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error: model openai_gpt-oss-20b: no act, hold or decision: 23 of 223 pairs undecided/);
    const html = readFileSync(out, "utf8");
    const cells = tableCells(html);
    expect([cells.get("openai_gpt-oss-120b|n"), cells.get("openai_gpt-oss-120b|decision")]).toEqual(["213", "82.4"]);
    expect([cells.get("openai_gpt-oss-20b|decision"), cells.get("openai_gpt-oss-20b|rank_decision")]).toEqual(["–", "–"]);
    expect(html).toContain('data-no-headline="openai_gpt-oss-20b"');
    // multi_turn_miss_func_101 is an inference-error line for both models (the holdout assertion)
    const pair = html.slice(html.indexOf('id="multi_turn_miss_func_101"'));
    const body = pair.slice(0, pair.indexOf("</details>"));
    expect(body).toContain(
      '<div class="undecided" data-status="inference-error">not a decision: the result line is an inference error; this pair is left out of the numbers</div>',
    );
    expect(body).not.toMatch(/should hold back/);
    expect(body).toContain('title="openai_gpt-oss-120b: not a decision on one twin (left out)"');
  });
});

describe("twinscore report counts what it leaves out as score does (both real gpt-oss runs)", () => {
  it("the table of pairs left out equals `score --format json`: pairs, scored, each status, error lines, decode failures", async () => {
    const results = sharedPath("rollouts", "gpt-oss");
    const out = join(tmp, "left-out.html");
    const r = await run(["report", "--results", results, "--bootstrap", "0", "--out", out]);
    expect(r.code).toBe(1); // main/gpt-oss-20b has no headline, as in score
    const html = readFileSync(out, "utf8");
    const section = html.slice(
      html.indexOf("<summary>Pairs left out"),
      html.indexOf("</details>", html.indexOf("<summary>Pairs left out")),
    );
    const rows = [...section.matchAll(/<tr><td>([^<]+)<\/td>((?:<td>\d+<\/td>)+)<\/tr>/g)].map((m) => [
      m[1],
      ...[...m[2].matchAll(/<td>(\d+)<\/td>/g)].map((c) => Number(c[1])),
    ]);
    const s = await run(["score", "--results", results, "--bootstrap", "0", "--format", "json"]);
    type Counts = { decodeFailures: number; shortRollouts: number; inferenceErrors: number };
    type Undecided = {
      pairs: number;
      total: number;
      byStatus: Record<"missing" | "inference-error" | "not-reached" | "undecidable", number>;
    };
    const models = (JSON.parse(s.out) as { models: { model: string; counts: Counts; undecided: Undecided }[] }).models;
    expect(models).toHaveLength(4);
    expect(rows).toEqual(
      models.map((m) => [
        m.model,
        m.undecided.pairs,
        m.undecided.pairs - m.undecided.total,
        m.undecided.byStatus["inference-error"],
        m.undecided.byStatus["not-reached"],
        m.undecided.byStatus.missing,
        m.undecided.byStatus.undecidable,
        m.counts.inferenceErrors,
        m.counts.decodeFailures,
      ]),
    );
    // what there is to count: main/gpt-oss-120b's 9 error lines and 16 undecodable anchor steps
    expect(rows.find((row) => row[0] === "2025-11-12-main/openai_gpt-oss-120b")).toEqual([
      "2025-11-12-main/openai_gpt-oss-120b",
      223,
      213,
      9,
      1,
      0,
      0,
      9,
      16,
    ]);
  }, 120_000);
});

describe("twinscore report escapes model text", () => {
  it("shows <script> and raw HTML planted in gpt-oss-120b's output literally, and runs none of it", async () => {
    const planted = plantHostileText(join(tmp, "planted"), main, "openai_gpt-oss-120b");
    const out = join(tmp, "planted.html");
    const r = await run(
      cliArgs("report", { reading: "release", results: planted.runDir, model: "openai_gpt-oss-120b", bootstrap: 0, out }),
    );
    expect(r.code, r.err).toBe(0);
    const html = readFileSync(out, "utf8");
    const start = html.indexOf(`<details class="pair" id="${planted.missId}"`);
    expect(start).toBeGreaterThan(0);
    const pair = html.slice(start, html.indexOf("</details>", start));
    expect(pair).toContain(`<pre class="text">${escapeHtml(hostileText)}</pre>`);
    expect(html).not.toContain("<script>window.pwned");
    expect(html).not.toContain("<img src=x");
    expect(html.match(/<script>/g)).toHaveLength(1);
    // The planted text step changes no number: the table still equals the real run's.
    const real = JSON.parse(
      (
        await run(
          cliArgs("score", {
            reading: "release",
            results: rolloutRunDir(main),
            model: "openai_gpt-oss-120b",
            bootstrap: 0,
            format: "json",
          }),
        )
      ).out,
    ) as ScoreJson;
    const cells = tableCells(html);
    expect(cells.get("openai_gpt-oss-120b|decision")).toBe(formatDecimal1(real.models[0].numbers.decision));
    expect(cells.get("openai_gpt-oss-120b|hold")).toBe(formatDecimal1(real.models[0].numbers.hold));
  });
});

describe("twinscore report --bfcl-data", () => {
  it("adds Table F1 and the credited column, equal to `score --bfcl-data --format json` on main", async () => {
    const out = join(tmp, "credited.html");
    const r = await run(
      cliArgs("report", { reading: "release", results: rolloutRunDir(main), "bfcl-data": bfclDataDir(), bootstrap: 0, out }),
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/replaying miss_func attempts of 2025-11-12-main\/openai_gpt-oss-120b/);
    const s = await run(
      cliArgs("score", { reading: "release", results: rolloutRunDir(main), "bfcl-data": bfclDataDir(), bootstrap: 0, format: "json" }),
    );
    const rows = (JSON.parse(s.out) as { workaround: { model: string; attempts: number; workaround: number; credited: number }[] })
      .workaround;
    expect(rows.map((w) => w.model)).toEqual(["openai_gpt-oss-120b", "openai_gpt-oss-20b"]);
    const html = readFileSync(out, "utf8");
    const cells = tableCells(html);
    for (const w of rows) {
      expect(cells.get(`${w.model}|credited`)).toBe(formatDecimal1(w.credited));
      expect(html).toContain(`<tr><td>${w.model}</td><td>${w.attempts}</td>`);
    }
    expect(html).toContain('<h3 id="workaround">');
  });
});

describe("twinscore report --labels", () => {
  it("shows the judge's label shares for gpt-oss-20b's held-back turns on main", async () => {
    const csv = join(tmp, "per-item-20b.csv");
    const s = await run(
      cliArgs("score", {
        reading: "release",
        results: rolloutRunDir(main),
        model: "openai_gpt-oss-20b",
        "per-item": csv,
        bootstrap: 0,
        format: "json",
      }),
    );
    expect(s.code).toBe(0);
    const [header, ...rows] = readFileSync(csv, "utf8").trim().split("\n");
    const cols = header.split(",");
    const at = (row: string, k: string) => row.split(",")[cols.indexOf(k)];
    const held = rows.filter((r) => at(r, "hold") === "1" && at(r, "miss_status") === "decided").map((r) => at(r, "miss_id"));
    expect(held.length).toBeGreaterThan(3);
    // Three labels for real held-back turns, one for a turn the model did not hold back on (ignored).
    const acted = rows.find((r) => at(r, "hold") === "0")!;
    const labels = [
      { model: "openai_gpt-oss-20b", missId: held[0], requestKey: "k0", label: "asks_removed", raw: "" },
      { model: "openai_gpt-oss-20b", missId: held[1], requestKey: "k1", label: "asks_removed", raw: "" },
      { model: "openai_gpt-oss-20b", missId: held[2], requestKey: "k2", label: "refuses", raw: "" },
      { model: "openai_gpt-oss-20b", missId: at(acted, "miss_id"), requestKey: "k3", label: "refuses", raw: "" },
    ];
    const file = join(tmp, "labels.jsonl");
    writeFileSync(file, labels.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const out = join(tmp, "labels.html");
    const r = await run(
      cliArgs("report", { reading: "release", results: rolloutRunDir(main), model: "openai_gpt-oss-20b", bootstrap: 0, labels: file, out }),
    );
    expect(r.code, r.err).toBe(0);
    const html = readFileSync(out, "utf8");
    const section = html.slice(html.indexOf('<h2 id="judge">'));
    const row = /<tr><td>openai_gpt-oss-20b<\/td>((?:<td>[^<]*<\/td>)+)<\/tr>/
      .exec(section)![1]
      .match(/<td>([^<]*)<\/td>/g)!
      .map((c) => c.slice(4, -5));
    const holdCount = rows.filter((x) => at(x, "hold") === "1").length;
    // held back, not reached, silent, labelled, then asks_removed, asks_other, refuses, proceeds_in_prose, none (%)
    expect(row[0]).toBe(String(holdCount));
    expect(row[3]).toBe("3");
    expect(row.slice(4)).toEqual(["66.7", "0.0", "33.3", "0.0", "0.0"]);
  });
});

describe("twinscore report: bad input", () => {
  it("needs --results and --out, one line each, exit 2", async () => {
    const a = await run(["report", "--out", join(tmp, "x.html")]);
    expect(a.code).toBe(2);
    expect(a.err).toBe("error: give at least one --results DIR (a BFCL result tree) [bad-argument]\n");
    const b = await run(["report", "--reading", "release", "--results", rolloutRunDir(main)]);
    expect(b.code).toBe(2);
    expect(b.err).toBe("error: give --out FILE (the HTML file to write) [bad-argument]\n");
  });
  it("pairs --scores with --results by position", async () => {
    const r = await run([
      "report",
      "--reading",
      "release",
      "--results",
      rolloutRunDir(main),
      "--results",
      rolloutRunDir(fixes),
      "--scores",
      rolloutRunDir(main),
      "--out",
      join(tmp, "x.html"),
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/give one --scores per --results, in the same order \(got 2 --results and 1 --scores\)/);
  });
  it("names an unknown --compare run and writes nothing", async () => {
    const out = join(tmp, "nope.html");
    const r = await run([
      "report",
      "--reading",
      "release",
      "--results",
      rolloutRunDir(main),
      "--model",
      "openai_gpt-oss-20b",
      "--bootstrap",
      "0",
      "--compare",
      main,
      "elsewhere",
      "--out",
      out,
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--compare elsewhere: no such run \(runs: 2025-11-12-main\)/);
    expect(existsSync(out)).toBe(false);
  });
  it("reports a missing results directory and an output folder that does not exist", async () => {
    const a = await run(["report", "--reading", "release", "--results", join(tmp, "no-such-run"), "--out", join(tmp, "x.html")]);
    expect(a.code).toBe(2);
    // the missing folder is found before anything is read: one line, nothing else
    expect(a.err.trim().split("\n")).toEqual([`${join(tmp, "no-such-run")}: error: results directory not found [results-missing]`]);
    const out = join(tmp, "missing-folder", "r.html");
    const b = await run(
      cliArgs("report", { reading: "release", results: rolloutRunDir(main), model: "openai_gpt-oss-20b", bootstrap: 0, out }),
    );
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/output folder does not exist/);
    expect(existsSync(out)).toBe(false);
  });
});
