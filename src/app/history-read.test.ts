/**
 * Reading runs whose turns before the anchor were played from the reference (`run --history reference`):
 * `score` reads them as exact twins, `check` and the official companion do not take the played calls for the
 * model's, and `compare` gives the change the history causes. More in this folder's README.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPrintout } from "../report/printout.js";
import { scorePrintout } from "../cli/views/score.js";
import { comparePrintout } from "../cli/views/compare.js";
import { readingPairs, readingById } from "../decision/readings.js";
import { SCRIPTED_CLOSING_TEXT } from "../testing/policies.js";
import { policyResponder, policyRun, v4Manifest, type PolicyResponder } from "../testing/policy-runs.js";
import { readForTest } from "../testing/read-models.js";
import { rolloutRunDir } from "../testing/shared.js";
import { bfclDataDir } from "../testing/shared.js";
import { runCheck } from "./check-run.js";
import { compareArms } from "./compare.js";
import { buildReport } from "./report.js";
import { scoreRuns } from "./score.js";
import type { RunDocument } from "./run/index.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-history-read-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const manifest = v4Manifest();
const table1 = readingPairs(manifest, readingById("table-1")!);
const files = (run: string, c: string) => join(run, "scripted_policy", "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`);
const env = { cwd: "/", env: {} };

/**
 * A policy whose decision depends on the history: on a withheld anchor turn it guesses
 * (the base twin's calls) when its own closing text of an earlier turn is in the history,
 * and asks otherwise; everywhere else it is the oracle. Under its own history every turn
 * before the anchor ends with that text; a played turn has none.
 */
function historySensitive(): PolicyResponder {
  const oracle = policyResponder("oracle");
  const act = policyResponder("always-act");
  return (body, id) => {
    const messages = (Array.isArray(body.messages) ? body.messages : []) as { role?: string; content?: unknown }[];
    return messages.some((m) => m.role === "assistant" && m.content === SCRIPTED_CLOSING_TEXT) ? act(body, id) : oracle(body, id);
  };
}

const runs = {
  oracle: join(tmp, "reference", "oracle"),
  act: join(tmp, "reference", "always-act"),
  ask: join(tmp, "reference", "always-ask"),
  oracleContinued: join(tmp, "reference-continued", "oracle"),
  oracleOwn: join(tmp, "own", "oracle"),
  sensitiveOwn: join(tmp, "own", "sensitive"),
  sensitiveReference: join(tmp, "reference", "sensitive"),
};
const docs: Record<string, RunDocument> = {};

beforeAll(async () => {
  docs.oracle = await policyRun("oracle", runs.oracle, { history: "reference" });
  docs.act = await policyRun("always-act", runs.act, { history: "reference" });
  docs.ask = await policyRun("always-ask", runs.ask, { history: "reference" });
  docs.oracleContinued = await policyRun("oracle", runs.oracleContinued, { history: "reference", continueAfterAnchor: true });
  docs.oracleOwn = await policyRun("oracle", runs.oracleOwn);
  docs.sensitiveOwn = await policyRun("oracle", runs.sensitiveOwn, {}, historySensitive());
  docs.sensitiveReference = await policyRun("oracle", runs.sensitiveReference, { history: "reference" }, historySensitive());
  for (const d of Object.values(docs)) expect(d.errors).toEqual([]);
}, 300_000);

describe("score on runs played from the reference", () => {
  it("oracle: act = hold = 100 on all 223 pairs, every pair an exact twin, and the title says so", async () => {
    const doc = await scoreRuns({ results: [runs.oracle], bootstrap: { resamples: 0 }, ...env });
    expect(doc.exitCode, JSON.stringify(doc.problems)).toBe(0);
    const m = doc.models[0];
    expect(m.numbers).toMatchObject({ n: 223, act: 100, hold: 100, decision: 100 });
    expect(m.history).toEqual({
      protocol: "reference",
      lines: { own: 0, reference: docs.oracle.selected },
      pairs: { exact: 223, partial: 0, anchorPlayed: 0, selected: 223 },
    });
    // one line per item and anchor: 151 base twins, 184 distinct base anchor turns
    expect(readFileSync(files(runs.oracle, "base"), "utf8").trim().split("\n").length).toBe(184);
    expect(m.filesUsed.base).toMatchObject({ lines: 184, distinctIds: 151 });
    const title = renderPrintout(scorePrintout(doc), "table").stdout.split("\n")[0];
    expect(title).toContain("; exact twins: reference history before the anchor");
    expect(title).not.toContain("pairs exact");
  });

  it("each pair reads the base line generated for its anchor: the 33 base twins with two anchors included", () => {
    const read = readForTest([runs.oracle], { pairs: { headline: { pairSet: "certified", countLogin: false } } });
    const records = read.models[0].score!.records;
    expect(records.length).toBe(223);
    const anchors = new Map<string, Set<number>>();
    for (const p of table1) anchors.set(p.baseId, new Set([...(anchors.get(p.baseId) ?? []), p.anchorTurn]));
    const twoAnchors = [...anchors].filter(([, a]) => a.size > 1).map(([id]) => id);
    expect(twoAnchors.length).toBe(33);
    for (const r of records) {
      expect([r.base.history, r.miss.history], r.missId).toEqual(["reference", "reference"]);
      // the played turns hold the reference's calls: the same names on both twins, turn for turn
      expect(r.base.preAnchorCallNames).toEqual(r.miss.preAnchorCallNames);
      expect(r.base.preAnchorCallNames.length).toBe(r.anchorTurn);
    }
    // on a base twin of two anchors, the earlier pair's base line holds fewer played turns than the later one's
    const id = twoAnchors[0];
    const [early, late] = [...anchors.get(id)!].sort((a, b) => a - b);
    const onId = records.filter((r) => r.baseId === id);
    expect(onId.find((r) => r.anchorTurn === early)!.base.preAnchorCallNames.length).toBe(early);
    expect(onId.find((r) => r.anchorTurn === late)!.base.preAnchorCallNames.length).toBe(late);
  });

  it("always-act and always-ask score 50; with --continue the numbers are the oracle's of the stopped run", async () => {
    for (const [run, act, hold] of [
      [runs.act, 100, 0],
      [runs.ask, 0, 100],
    ] as const) {
      const doc = await scoreRuns({ results: [run], bootstrap: { resamples: 0 }, ...env });
      expect(doc.models[0].numbers).toMatchObject({ n: 223, act, hold, decision: 50 });
      expect(doc.models[0].history?.pairs.exact).toBe(223);
    }
    const stopped = await scoreRuns({ results: [runs.oracle], bootstrap: { resamples: 0 }, ...env });
    const continued = await scoreRuns({ results: [runs.oracleContinued], bootstrap: { resamples: 0 }, ...env });
    expect(continued.models[0].numbers).toEqual(stopped.models[0].numbers);
    expect(continued.models[0].history?.pairs.exact).toBe(223);
  });

  it("the same-history sensitivity keeps every pair, computed, and says why", async () => {
    for (const run of [runs.oracle, runs.act, runs.ask]) {
      const doc = await scoreRuns({ results: [run], bootstrap: { resamples: 0 }, sensitivity: true, ...env });
      const rows = doc.sensitivity!.rows;
      const all = rows.find((r) => r.reading === "table-1")!;
      const same = rows.find((r) => r.reading === "same-history")!;
      expect(same.n).toBe(all.n);
      expect(same.decision).toBe(all.decision);
      expect(same.note).toBe("all pairs: both twins played the reference before the anchor");
      expect(rows.filter((r) => r.note !== undefined).length).toBe(1);
    }
    // the own-history oracle's closing texts differ in nothing the filter reads, and carry no note
    const own = await scoreRuns({ results: [runs.oracleOwn], bootstrap: { resamples: 0 }, sensitivity: true, ...env });
    expect(own.models[0].history).toBeUndefined();
    expect(own.sensitivity!.rows.some((r) => r.note !== undefined)).toBe(false);
  });

  it("the real gpt-oss rollouts read as their own history: no history field, no exact-twins title", async () => {
    const doc = await scoreRuns({ results: [rolloutRunDir("2025-11-12-main")], bootstrap: { resamples: 0 }, ...env });
    expect(doc.models.length).toBe(2);
    for (const m of doc.models) expect("history" in m).toBe(false);
    expect(renderPrintout(scorePrintout(doc), "table").stdout).not.toContain("exact twins");
    const read = readForTest([rolloutRunDir("2025-11-12-main")]);
    for (const m of read.models) {
      expect(m.history.protocol).toBe("own");
      expect(m.history.lines.reference).toBe(0);
      expect(m.score!.records.every((r) => r.base.history !== "reference" && r.miss.history !== "reference")).toBe(true);
    }
  });
});

describe("what must not take the played reference calls for the model's", () => {
  it("check leaves every line played from the reference out, with one warning per file, stopped or continued", async () => {
    for (const [run, doc] of [
      [runs.oracle, docs.oracle],
      [runs.oracleContinued, docs.oracleContinued],
    ] as const) {
      const checked = await runCheck({ resultsDir: run, bfclDataDir: bfclDataDir(), env: {}, cwd: "/" });
      expect(checked.ok).toBe(true);
      if (!checked.ok) return;
      const notes = checked.value.problems.filter((p) => p.code === "played-from-reference");
      expect(notes.length).toBe(3);
      expect(notes.reduce((a, p) => a + Number(/^(\d+) line/.exec(p.message)?.[1]), 0)).toBe(doc.selected);
      expect(checked.value.problems.filter((p) => p.code === "stopped-at-anchor")).toEqual([]);
      expect(checked.value.files.reduce((a, f) => a + f.entries, 0)).toBe(0);
    }
  }, 120_000);

  it("score --scores leaves BFCL's verdicts on such a run out and says the official score is meaningless", async () => {
    // score files as BFCL would write them for the same items: check's of the own-history oracle run
    const scores = join(tmp, "oracle-own-scores");
    expect((await runCheck({ resultsDir: runs.oracleOwn, bfclDataDir: bfclDataDir(), outDir: scores, env: {}, cwd: "/" })).ok).toBe(true);
    const own = await scoreRuns({ results: [runs.oracleOwn], scores: [scores], bootstrap: { resamples: 0 }, ...env });
    expect(own.official?.models.map((m) => m.model)).toEqual(["scripted_policy"]);
    for (const run of [runs.oracle, runs.oracleContinued]) {
      const doc = await scoreRuns({ results: [run], scores: [scores], bootstrap: { resamples: 0 }, ...env });
      expect(doc.exitCode, JSON.stringify(doc.problems)).toBe(0);
      expect(doc.official?.models).toEqual([]);
      const said = doc.problems.filter((p) => p.code === "official-meaningless");
      expect(said.length).toBe(1);
      expect(said[0].message).toContain("the official score of such a run is meaningless");
      const out = renderPrintout(scorePrintout(doc), "table").stdout;
      expect(out).toContain("meaningless for scripted_policy, left out");
      expect(out).not.toContain("no model has complete score files");
    }
  }, 120_000);

  it("report says its models are exact twins and shows no official raw for them", async () => {
    const scores = join(tmp, "oracle-own-scores-report");
    expect((await runCheck({ resultsDir: runs.oracleOwn, bfclDataDir: bfclDataDir(), outDir: scores, env: {}, cwd: "/" })).ok).toBe(true);
    const doc = await buildReport({
      results: [runs.oracle, runs.oracleOwn],
      scores: [scores, scores],
      bootstrap: { resamples: 0 },
      ...env,
    });
    expect(doc.html, JSON.stringify(doc.problems)).not.toBeNull();
    const html = doc.html!;
    expect(html).toContain(
      '<p class="note" data-exact-twins>Exact twins: oracle/scripted_policy played the turns before each anchor from the reference',
    );
    expect(doc.problems.filter((p) => p.code === "official-meaningless").length).toBe(1);
    const own = await buildReport({ results: [runs.oracleOwn], bootstrap: { resamples: 0 }, ...env });
    expect(own.html).not.toContain("data-exact-twins");
  }, 120_000);

  it("a model whose lines mix both histories is not scored: one error naming the counts, exit 1", async () => {
    const mixed = join(tmp, "mixed");
    mkdirSync(join(mixed, "scripted_policy", "multi_turn"), { recursive: true });
    copyFileSync(files(runs.oracleOwn, "base"), files(mixed, "base"));
    for (const c of ["miss_func", "miss_param"]) copyFileSync(files(runs.oracle, c), files(mixed, c));
    const doc = await scoreRuns({ results: [mixed, runs.ask], bootstrap: { resamples: 0 }, ...env });
    expect(doc.exitCode).toBe(1);
    const mixedModel = doc.models.find((m) => m.model.startsWith("mixed/"))!;
    expect(mixedModel.numbers).toBeNull();
    expect(mixedModel.scored).toBe(false);
    const error = mixedModel.problems.find((p) => p.code === "history-mixed");
    expect(error?.severity).toBe("error");
    expect(error?.message).toContain("223 played from the reference (twinscore run --history reference) and 151 generated by the model");
    // the other model is scored as ever
    expect(doc.models.find((m) => m.model.startsWith("always-ask/"))!.numbers).toMatchObject({ n: 223, decision: 50 });
  });

  it("a pair with no line for its anchor is missing and named with the anchor; a malformed history skips the line", async () => {
    const cut = join(tmp, "cut");
    mkdirSync(join(cut, "scripted_policy", "multi_turn"), { recursive: true });
    for (const c of ["miss_func", "miss_param"]) copyFileSync(files(runs.oracle, c), files(cut, c));
    const lines = readFileSync(files(runs.oracle, "base"), "utf8").trim().split("\n");
    const pair = table1.find((p) => p.anchorTurn > 0 && table1.filter((q) => q.baseId === p.baseId).length === 1)!;
    const at = lines.findIndex((l) => l.startsWith(`{"id": "${pair.baseId}",`));
    expect(at).toBeGreaterThanOrEqual(0);
    const other = table1.find((p) => p.baseId !== pair.baseId && table1.filter((q) => q.baseId === p.baseId).length === 1)!;
    const bad = lines.findIndex((l) => l.startsWith(`{"id": "${other.baseId}",`));
    const kept = lines
      .filter((_, i) => i !== at)
      .map((l, i, all) => (all[i] === lines[bad] ? l.replace('"twinscore_history": "reference"', '"twinscore_history": "theirs"') : l));
    writeFileSync(files(cut, "base"), kept.join("\n") + "\n");
    const doc = await scoreRuns({ results: [cut], bootstrap: { resamples: 0 }, ...env });
    const m = doc.models[0];
    expect(m.numbers?.n).toBe(221);
    expect(m.problems.find((p) => p.code === "rollout-missing")?.message).toBe(
      `${pair.baseId} has no line for anchor turn ${pair.anchorTurn} in this file; the pairs on it are not scored for scripted_policy`,
    );
    expect(m.problems.find((p) => p.code === "history-malformed")?.message).toBe(
      '`twinscore_history` is "theirs": neither "reference" nor "own"; the line is skipped',
    );
  });
});

describe("compare of an own-history arm and a reference-history arm", () => {
  it("gives the paired change the history causes, labels both arms, and makes no injection check between them", async () => {
    const doc = await compareArms({ a: runs.sensitiveOwn, b: runs.sensitiveReference, bootstrap: { resamples: 1000 }, ...env });
    expect(doc.exitCode, JSON.stringify(doc.problems)).toBe(0);
    expect(doc.histories).toEqual([{ model: "scripted_policy", a: "own", b: "reference" }]);
    expect(doc.injection).toEqual([]);
    // not even when asked: the first requests differ by the played turns, not by a prompt block
    expect(
      (await compareArms({ a: runs.sensitiveOwn, b: runs.sensitiveReference, bootstrap: { resamples: 0 }, injectionCheck: true, ...env }))
        .injection,
    ).toEqual([]);
    const c = doc.models[0].comparison;
    expect(c.pairs).toBe(223);
    // under its own history the policy guesses on every withheld anchor after turn 0; played from the reference it asks
    const later = table1.filter((p) => p.anchorTurn > 0).length;
    expect(c.all.act).toMatchObject({ a: 100, b: 100 });
    expect(c.all.hold.test).toMatchObject({ aOnly: 0, bOnly: later });
    expect(c.all.hold.b).toBe(100);
    expect(c.decision.change).toBeCloseTo((100 * later) / 223 / 2, 10);
    expect(c.decision.ci95).not.toBeNull();
    expect(c.decision.ci95![0]).toBeGreaterThan(0);
    expect(c.all.hold.test.p).toBeLessThan(1e-6);
    const out = renderPrintout(comparePrintout(doc), "table").stdout;
    expect(out).toContain(`Arm A: ${runs.sensitiveOwn} (own history before the anchor)`);
    expect(out).toContain(`Arm B: ${runs.sensitiveReference} (reference history before the anchor: exact twins)`);
    expect(out).toContain("B-A is the change the history before the anchor causes");
  });

  it("two reference arms keep the injection check when asked, on the first step the model generated", async () => {
    // nothing was injected in either arm: no check unless asked
    const unasked = await compareArms({ a: runs.oracle, b: runs.oracleContinued, bootstrap: { resamples: 0 }, ...env });
    expect(unasked.injection).toEqual([]);
    const doc = await compareArms({ a: runs.oracle, b: runs.oracleContinued, bootstrap: { resamples: 0 }, injectionCheck: true, ...env });
    expect(doc.histories).toEqual([{ model: "scripted_policy", a: "reference", b: "reference" }]);
    expect(doc.injection.length).toBe(1);
    // the same model and prompt in both arms: no token difference on any item
    expect(doc.injection[0].check).toMatchObject({ paired: docs.oracle.selected, unpaired: 0, mode: 0, breaks: [] });
    // read per item and anchor, off the anchor turn: the played turns made no request and count 0 tokens
    const tokens = readForTest([runs.oracle], { needs: { firstStepTokens: true } }).models[0].firstStepTokens!;
    expect(tokens.size).toBe(docs.oracle.selected);
    expect([...tokens.values()].every((n) => typeof n === "number" && n > 0)).toBe(true);
    expect(renderPrintout(comparePrintout(doc), "table").stdout).not.toContain("the change the history");
    // two own arms: no history field, as before
    const own = await compareArms({ a: runs.oracleOwn, b: runs.sensitiveOwn, bootstrap: { resamples: 0 }, ...env });
    expect("histories" in own).toBe(false);
  });
});
