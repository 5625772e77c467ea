/**
 * `report --trials-of` and the pair-set options on the real gpt-oss runs: the page's
 * repeated-trial numbers are `score --trials-of`'s, each pair carries its flip rate, the
 * unstable pairs are the ones whose outcome changed, and `--all-pairs` / `--uncertified`
 * give the page the pairs and numbers `score` gives with them.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ReportDocument } from "../../app/report.js";
import type { ScoreDocument } from "../../app/score.js";
import { formatDecimal1 } from "../../decision/format.js";
import { projectRoot, rolloutRunDir, rolloutRuns } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-report-trials-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** The two real runs of one model, as two trials. */
const trials = rolloutRuns.map((r) => join(rolloutRunDir(r), "result", "openai_gpt-oss-120b"));
const main = join(rolloutRunDir("2025-11-12-main"), "result");

/** The text of every `data-col` cell of the page: `model|column` → text. */
function cells(html: string): Map<string, string> {
  return new Map(
    [...html.matchAll(/<span data-model="([^"]*)" data-col="([^"]*)">([^<]*)<\/span>/g)].map((m) => [`${m[1]}|${m[2]}`, m[3]]),
  );
}

describe("twinscore report --trials-of", () => {
  it("shows the model over its trials with the numbers score --trials-of gives, and each pair's flip rate", async () => {
    const score = await run(["score", "--trials-of", ...trials, "--format", "json"]);
    expect(score.code, score.err).toBe(0);
    const t = (JSON.parse(score.out) as ScoreDocument).trials!;
    const out = join(tmp, "trials.html");
    const report = await run(["report", "--trials-of", ...trials, "--out", out, "--format", "json"]);
    expect(report.code, report.err).toBe(0);
    const doc = JSON.parse(report.out) as ReportDocument;
    // the same numbers, unrounded, in the same order (labels, pairs, flip rates, interval)
    expect(doc.trials).toEqual(t);
    expect([doc.models, t.trials, t.pairs, t.pairsWithTrials]).toEqual([2, 2, 216, 213]);
    const html = readFileSync(out, "utf8");
    const shown = cells(html);
    for (const [col, v] of [
      ["trials_act", t.act],
      ["trials_hold", t.hold],
      ["trials_decision", t.decision],
      ["trials_flip", t.meanFlipRate!],
      ["trials_stable", t.stableShare!],
      ["trials_spread", t.decisionSpread!],
    ] as const) {
      expect(shown.get(`openai_gpt-oss-120b|${col}`), col).toBe(formatDecimal1(v));
    }
    expect(html).toContain(`<span class="muted"> [${formatDecimal1(t.ci95![0])}, ${formatDecimal1(t.ci95![1])}]</span>`);
    expect(html).toContain(`<td>${t.decisionByTrial.map(formatDecimal1).join(" · ")}</td>`);
    // the unstable pairs are those whose outcome changed between the trials; each pair says its flip rate
    const unstable = t.pairRows.filter((p) => (p.flipRate ?? 0) > 0).map((p) => p.missId);
    expect(unstable.length).toBe(24);
    const marked = [...html.matchAll(/<details class="pair" id="([^"]+)"[^>]* data-unstable="">/g)].map((m) => m[1]);
    expect(marked).toEqual(unstable);
    for (const p of t.pairRows) {
      const summary = new RegExp(`<details class="pair" id="${p.missId}"[^>]*><summary>.*?</summary>`).exec(html)![0];
      const words =
        p.flipRate === null
          ? `· decided in ${p.trials} trial`
          : `· flip ${formatDecimal1(p.flipRate)} % over ${p.trials} trials (acted ${p.acted}, held ${p.held})`;
      expect(summary, p.missId).toContain(words);
    }
    expect(html).toContain(`<option value="unstable">unstable pairs: the outcome differs between trials</option>`);
    // each trial is a model of the page, named as score names it
    expect(doc.modelFiles.map((m) => m.model)).toEqual(t.runs);
  }, 180_000);

  it("refuses trials of two models, and --trials-of beside --results, with one line and exit 2", async () => {
    const out = join(tmp, "never.html");
    const other = join(rolloutRunDir("2025-11-12-harmony-fixes"), "result", "openai_gpt-oss-20b");
    const two = await run(["report", "--trials-of", trials[0], other, "--out", out, "--bootstrap", "0"]);
    expect(two.code).toBe(2);
    expect(two.err).toMatch(
      /^error: --trials-of takes the trials of one model; found openai_gpt-oss-120b, openai_gpt-oss-20b \[bad-argument\]$/m,
    );
    const beside = await run(["report", "--results", main, "--trials-of", ...trials, "--out", out]);
    expect(beside.code).toBe(2);
    expect(beside.err).toContain("give the trials of one model with --trials-of DIR… alone, not beside --results");
    expect(() => readFileSync(out)).toThrow();
  }, 120_000);
});

describe("twinscore report --all-pairs / --uncertified", () => {
  it("lists the pair set asked for in the pair browser, with the numbers score gives on it", async () => {
    for (const [flag, pairs] of [
      ["--all-pairs", 365],
      ["--uncertified", 231],
    ] as const) {
      const out = join(tmp, `${flag.slice(2)}.html`);
      const report = await run(["report", "--results", main, flag, "--bootstrap", "0", "--out", out, "--format", "json"]);
      expect(report.code, report.err).toBeLessThanOrEqual(1);
      expect((JSON.parse(report.out) as ReportDocument).pairs).toBe(pairs);
      const html = readFileSync(out, "utf8");
      expect(html.match(/<details class="pair"/g)).toHaveLength(pairs);
      expect(html).toContain(
        `<p class="note">The ${pairs} pairs of ${flag === "--all-pairs" ? "all content-verified pairs, read-only anchors included (--all-pairs)" : "the gold world-changing pairs before certification (--uncertified)"}, decided or not`,
      );
      const score = await run(["score", "--results", main, flag, "--bootstrap", "0", "--format", "json"]);
      const shown = cells(html);
      for (const m of (JSON.parse(score.out) as ScoreDocument).models) {
        if (m.numbers === null || m.noHeadline !== null) continue;
        expect(shown.get(`${m.model}|decision`), `${flag} ${m.model}`).toBe(formatDecimal1(m.numbers.decision));
        expect(shown.get(`${m.model}|n`)).toBe(String(m.numbers.n));
      }
    }
    const both = await run(["report", "--results", main, "--all-pairs", "--uncertified", "--out", join(tmp, "both.html")]);
    expect([both.code, both.err]).toEqual([2, "error: --uncertified and --all-pairs cannot be combined [bad-argument]\n"]);
  }, 180_000);

  it("says in the pair browser what it lists: Table 1's pairs, decided or not", async () => {
    const out = join(tmp, "table1.html");
    // exit 1: gpt-oss-20b on main has no headline (10.3 % undecided), and its pairs are still listed
    const report = await run(["report", "--results", main, "--bootstrap", "0", "--out", out]);
    expect(report.code, report.err).toBe(1);
    const html = readFileSync(out, "utf8");
    expect(html).toContain(
      `<p class="note">The 223 pairs of Table 1&#39;s pair set, decided or not (a pair a model did not decide on both twins is marked ?).`,
    );
    expect(html).not.toContain("Every scored pair");
    // no trials: no flip rates and no trials filter
    expect(html).not.toContain('id="f-trials"');
    expect(html).not.toContain(`data-unstable=""`);
  }, 120_000);
});
