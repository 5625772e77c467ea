/**
 * `run` against scripted models whose decisions are known: the oracle (every reference
 * call of each turn) passes `check` on every entry whose reference executes cleanly;
 * always-act and always-ask score 50 / 50 on the decision; `--until-anchor` gives `score`
 * the same numbers with fewer requests.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultScoreOptions } from "../decision/types.js";
import { runCheck } from "./check-run.js";
import { loadManifest } from "../io/manifest.js";
import { PyDict } from "../python/containers.js";
import { jsonLoadsFast } from "../python/json.js";
import { executeCalls } from "../simulator/executor.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import { bfclDataDir } from "../testing/shared.js";
import { alwaysActScript, alwaysAskScript, oracleScript, paramNamesOf, scriptedResponder, type CallScript } from "../testing/policies.js";
import { inProcessEndpoint } from "../testing/replay.js";
import { loadRunEntries, runModel, type RunRequest } from "./run/index.js";
import { scoreRuns } from "./score.js";
import { inProcessRun } from "../testing/run-fixtures.js";
import { table1Numbers } from "../testing/numbers.js";
import { readForTest } from "../testing/read-models.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("the committed manifest does not load");
  return m.value;
})();
const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-policies-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const categories = ["base", "miss_func", "miss_param"] as const;

const groundTruth = new Map<string, string[][]>();
for (const c of categories) {
  for (const l of readFileSync(join(bfclDataDir(), "possible_answer", `BFCL_v4_multi_turn_${c}.json`), "utf8").split("\n")) {
    if (l.trim() === "") continue;
    const v = JSON.parse(l) as { id: string; ground_truth: string[][] };
    groundTruth.set(v.id, v.ground_truth);
  }
}

const runEntries = (() => {
  const e = loadRunEntries(bfclDataDir());
  if (!e.ok) throw new Error("the BFCL data does not load");
  return e.value;
})();
const paramNames = paramNamesOf(runEntries);

function request(out: string, script: CallScript, extra: Partial<RunRequest> = {}): RunRequest {
  return inProcessRun({
    model: "scripted/policy",
    outDir: out,
    items: "pairs",
    manifest,
    chat: inProcessEndpoint(scriptedResponder(script, { paramNames }), "scripted/policy"),
    ...extra,
  });
}

async function decisionNumbers(out: string) {
  const scored = await readForTest([out], { pairs: { headline: defaultScoreOptions }, cwd: "/" });
  const run = scored.models.find((r) => r.model === "scripted_policy");
  expect(run?.score, JSON.stringify(scored.problems)).toBeTruthy();
  return run?.score ? table1Numbers(run.score.records, manifest) : undefined;
}

describe("run against scripted policies", () => {
  it("oracle: check passes every entry whose reference calls all execute", async () => {
    const out = join(tmp, "oracle");
    const doc = await runModel(request(out, oracleScript(groundTruth), { items: "all" }));
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect(doc.value.errors).toEqual([]);
    const scores = join(tmp, "oracle-scores");
    const checked = await runCheck({ resultsDir: out, bfclDataDir: bfclDataDir(), outDir: scores, env: {}, cwd: "/" });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const failed = new Set<string>();
    for (const c of categories) {
      const lines = readFileSync(join(scores, "scripted_policy", "multi_turn", `BFCL_v4_multi_turn_${c}_score.json`), "utf8")
        .trim()
        .split("\n")
        .slice(1);
      for (const l of lines) failed.add((JSON.parse(l) as { id: string }).id);
    }
    // which references do not execute cleanly (a call errors), run on their own
    const entries = { value: runEntries };
    const process = newEvaluatorProcess(undefined, true);
    const unclean = new Set<string>();
    for (const [id, e] of entries.value) {
      for (const turn of groundTruth.get(id) ?? []) {
        const out = executeCalls(process, turn, {
          initialConfig: e.initialConfig,
          involvedClasses: e.involvedClasses,
          modelName: "reference_probe",
          entryId: id,
          longContext: false,
          evalRun: false,
        });
        if (out.results.some((r) => r.startsWith("Error during execution"))) unclean.add(id);
      }
    }
    const passedAmongClean = [...entries.value.keys()].filter((id) => !unclean.has(id) && !failed.has(id)).length;
    console.log(
      `oracle: ${600 - failed.size}/600 pass check; ${unclean.size} references have a call that errors; failing with a clean reference: ${[...failed].filter((id) => !unclean.has(id)).join(", ") || "none"}`,
    );
    expect([...failed].filter((id) => !unclean.has(id))).toEqual([]);
    expect(passedAmongClean).toBe(600 - unclean.size);
    const total = checked.value.files.reduce((a, f) => a + f.entries, 0);
    expect(total).toBe(600);
  }, 300_000);

  it("always-ask and always-act score 50 / 50; --until-anchor gives score the same numbers with fewer requests", async () => {
    const ask = join(tmp, "ask");
    const askDoc = await runModel(request(ask, alwaysAskScript));
    expect(askDoc.ok && askDoc.value.selected).toBe(374);
    const askNumbers = await decisionNumbers(ask);
    expect(askNumbers?.act).toBe(0);
    expect(askNumbers?.hold).toBe(100);
    expect(askNumbers?.decision).toBe(50);

    const act = join(tmp, "act");
    const actDoc = await runModel(request(act, alwaysActScript(groundTruth, manifest.pairs)));
    expect(actDoc.ok).toBe(true);
    const actNumbers = await decisionNumbers(act);
    expect(actNumbers?.act).toBe(100);
    expect(actNumbers?.hold).toBe(0);
    expect(actNumbers?.decision).toBe(50);

    const cut = join(tmp, "act-until-anchor");
    const cutDoc = await runModel(request(cut, alwaysActScript(groundTruth, manifest.pairs), { untilAnchor: true }));
    expect(cutDoc.ok).toBe(true);
    if (!cutDoc.ok || !actDoc.ok) return;
    expect(await decisionNumbers(cut)).toEqual(actNumbers);
    expect(cutDoc.value.stoppedAtAnchor).toBeGreaterThan(0);
    expect(cutDoc.value.requests).toBeLessThan(actDoc.value.requests);
    // check leaves the stopped lines out, with one warning per file naming how many
    const checked = await runCheck({ resultsDir: cut, bfclDataDir: bfclDataDir(), env: {}, cwd: "/" });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const notes = checked.value.problems.filter((p) => p.code === "stopped-at-anchor");
    expect(notes.length).toBeGreaterThan(0);
    const leftOut = notes.reduce((a, p) => a + Number(/^(\d+) line/.exec(p.message)?.[1]), 0);
    expect(leftOut).toBe(cutDoc.value.stoppedAtAnchor);
    expect(checked.value.files.reduce((a, f) => a + f.entries, 0)).toBe(374 - leftOut);
    // the official companion leaves the stopped lines out too, with one warning per file, whether
    // the score files hold every line (BFCL's, here check's of the whole run) or leave them out (check's)
    const fullScores = join(tmp, "act-scores");
    const cutScores = join(tmp, "act-until-anchor-scores");
    expect((await runCheck({ resultsDir: act, bfclDataDir: bfclDataDir(), outDir: fullScores, env: {}, cwd: "/" })).ok).toBe(true);
    expect((await runCheck({ resultsDir: cut, bfclDataDir: bfclDataDir(), outDir: cutScores, env: {}, cwd: "/" })).ok).toBe(true);
    for (const scores of [fullScores, cutScores]) {
      const doc = await scoreRuns({ results: [cut], scores: [scores], bootstrap: { resamples: 0 }, cwd: "/", env: {} });
      expect(doc.exitCode, JSON.stringify(doc.problems)).toBe(0);
      expect(doc.problems.filter((p) => p.severity === "error")).toEqual([]);
      const stopped = doc.problems.filter((p) => p.code === "score-stopped-at-anchor");
      expect(stopped.map((p) => p.file?.split("/").at(-1)).sort()).toEqual([
        "BFCL_v4_multi_turn_base_result.json",
        "BFCL_v4_multi_turn_miss_func_result.json",
        "BFCL_v4_multi_turn_miss_param_result.json",
      ]);
      expect(stopped.reduce((a, p) => a + Number(/: (\d+) \S+ lines? stopped/.exec(p.message)?.[1]), 0)).toBe(cutDoc.value.stoppedAtAnchor);
      // no official number is computed from verdicts on cut rollouts
      expect(doc.official?.models ?? []).toEqual([]);
    }
    // and on the whole run the same score files give the official numbers
    const whole = await scoreRuns({ results: [act], scores: [fullScores], bootstrap: { resamples: 0 }, cwd: "/", env: {} });
    expect(whole.problems.filter((p) => p.code === "score-stopped-at-anchor")).toEqual([]);
    expect(whole.official?.models.map((m) => m.model)).toEqual(["scripted_policy"]);

    // every stopped line says where it stopped, and has exactly that many turns
    const text = readFileSync(join(cut, "scripted_policy", "multi_turn", "BFCL_v4_multi_turn_miss_param_result.json"), "utf8");
    for (const l of text.trim().split("\n")) {
      const v = jsonLoadsFast(l) as PyDict;
      const stop = v.get("twinscore_stopped_after_turn");
      if (stop !== undefined) expect((v.get("result") as unknown[]).length).toBe(Number(stop) + 1);
    }
  }, 300_000);
});
