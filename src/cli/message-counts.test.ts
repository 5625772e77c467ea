/**
 * What messages count and what tables rank, on real data: counts of one take the singular, `check` says how
 * many lines it left out and why, and Spearman's correlation is printed only from enough models to mean
 * something. More in this folder's README.md.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ScoreDocument } from "../app/score.js";
import { loadRunEntries, runModel } from "../app/run/index.js";
import { loadManifest } from "../io/manifest.js";
import { counted } from "../messages/index.js";
import { renderPrintout } from "../report/printout.js";
import { alwaysActScript, paramNamesOf, scriptedResponder } from "../testing/policies.js";
import { inProcessEndpoint } from "../testing/replay.js";
import { inProcessRun } from "../testing/run-fixtures.js";
import { bfclDataDir, projectRoot, rolloutRunDir } from "../testing/shared.js";
import { memoryIo } from "./io.js";
import { runCli } from "./program.js";
import { SPEARMAN_MIN_MODELS, scorePrintout } from "./views/score.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-message-counts-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const messageLines = (err: string) => err.split("\n").filter((l) => /^(\S[^:]*(:\d+)?: )?(error|warning|note): /.test(l));

describe("counts in messages", () => {
  it("counted: the singular for exactly one, an irregular plural when given", () => {
    expect(counted(1, "line")).toBe("1 line");
    expect(counted(0, "line")).toBe("0 lines");
    expect(counted(2, "error line")).toBe("2 error lines");
    expect(counted(1, "entry", "entries")).toBe("1 entry");
    expect(counted(3, "entry", "entries")).toBe("3 entries");
  });

  it("run's plan for one pair says 1 pair, not 1 pairs", async () => {
    const r = await cli([
      "run",
      "--endpoint",
      "http://127.0.0.1:9/v1",
      "--model",
      "m",
      "--out",
      join(tmp, "dry"),
      "--bfcl-data",
      bfclDataDir(),
      "--limit",
      "1",
      "--dry-run",
    ]);
    expect(r.code).toBe(0);
    expect(messageLines(r.err)).toEqual([
      expect.stringMatching(
        /^note: dry run, nothing sent or written: 2 items of 1 pair, 2 lines: 0 already in the output, 2 to generate; at least \d+ requests /,
      ),
    ]);
  });
});

describe("demo --sensitivity", () => {
  it("warns about nothing of its own data: every reading finds its pairs' lines", async () => {
    const r = await cli(["demo", "--sensitivity", "--bootstrap", "0"]);
    expect(r.code).toBe(0);
    expect(messageLines(r.err)).toEqual([]);
    expect(r.out).not.toContain("rollout-missing");
    // the readings beyond Table 1's pairs read them: all 365 pairs, not the 223 again
    expect(r.out).toMatch(/^always-act {4}all-pairs {10}365 /m);
  }, 120_000);
});

describe("Spearman's rank correlation", () => {
  const runs = dirname(rolloutRunDir("2025-11-12-main"));

  it(`is left out of the printout below ${SPEARMAN_MIN_MODELS} models (three of the real gpt-oss models have a headline), kept in the JSON document, printed from ${SPEARMAN_MIN_MODELS} on`, async () => {
    const json = await cli(["score", "--results", runs, "--bootstrap", "0", "--format", "json"]);
    const doc = JSON.parse(json.out) as ScoreDocument;
    expect(doc.official?.models).toHaveLength(3);
    expect(doc.official?.spearman).not.toBeNull();
    const table = await cli(["score", "--results", runs, "--bootstrap", "0"]);
    expect(table.out).toContain("Official score on the same items");
    expect(table.out).not.toContain("Spearman");
    // the same document with two more model rows (five): the line is printed
    const models = doc.official!.models;
    const five = {
      ...doc,
      official: { ...doc.official!, models: [...models, { ...models[0], model: "fourth" }, { ...models[1], model: "fifth" }] },
    };
    expect(renderPrintout(scorePrintout(five as unknown as ScoreDocument), "table").stdout).toContain(
      "Spearman rank correlation with decision accuracy: official raw on the miss items rho = ",
    );
  }, 180_000);
});

describe("check on run --until-anchor output", () => {
  it("says per file how many of its lines were left out and why, not a count of warnings", async () => {
    const manifest = (() => {
      const m = loadManifest();
      if (!m.ok) throw new Error("the committed manifest does not load");
      return m.value;
    })();
    const entries = loadRunEntries(bfclDataDir());
    if (!entries.ok) throw new Error("the BFCL data does not load");
    const groundTruth = new Map<string, string[][]>();
    for (const c of ["base", "miss_func", "miss_param"]) {
      for (const l of readFileSync(join(bfclDataDir(), "possible_answer", `BFCL_v4_multi_turn_${c}.json`), "utf8").split("\n")) {
        if (l.trim() === "") continue;
        const v = JSON.parse(l) as { id: string; ground_truth: string[][] };
        groundTruth.set(v.id, v.ground_truth);
      }
    }
    const out = join(tmp, "until-anchor");
    const chat = inProcessEndpoint(
      scriptedResponder(alwaysActScript(groundTruth, manifest.pairs), { paramNames: paramNamesOf(entries.value) }),
      "scripted/policy",
    );
    const run = await runModel(inProcessRun({ model: "scripted/policy", outDir: out, items: "pairs", manifest, chat, untilAnchor: true }));
    if (!run.ok) throw new Error("the run failed");
    expect(run.value.stoppedAtAnchor).toBeGreaterThan(0);

    const r = await cli(["check", "--results", out, "--bfcl-data", bfclDataDir()]);
    expect(r.code).toBe(0);
    const lines = messageLines(r.err);
    expect(lines.filter((l) => l.includes("[warnings]"))).toEqual([]);
    const leftOut = lines
      .map((l) =>
        /: warning: (\d+) lines? of (\d+) in this file stopped after their anchor turn \(twinscore run --until-anchor\), left out of this score: they hold the decision only, not a whole rollout \[stopped-at-anchor\]$/.exec(
          l,
        ),
      )
      .filter((m) => m !== null);
    expect(leftOut).toHaveLength(3);
    expect(leftOut.reduce((a, m) => a + Number(m[1]), 0)).toBe(run.value.stoppedAtAnchor);
    expect(leftOut.reduce((a, m) => a + Number(m[2]), 0)).toBe(run.value.selected);
  }, 300_000);
});
