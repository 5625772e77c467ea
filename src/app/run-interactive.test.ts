/**
 * Interactive runs (`run --user-sim llm`) against scripted models and a stub of the simulated user, on the 223
 * scored pairs, in process: each policy scores as it must, and the files keep BFCL's shape for every command
 * that reads them. More in this folder's README.md.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readCategoryInputs } from "./bfcl-inputs.js";
import { runCheck } from "./check-run.js";
import { loadManifest } from "../io/manifest.js";
import { PyDict } from "../python/containers.js";
import { jsonLoadsFast } from "../python/json.js";
import type { PyValue } from "../python/value.js";
import { parseUserSimPrompt, type UserSimPrompt } from "../rollout/user-sim.js";
import type { AlignedRow } from "../official/aligned.js";
import type { CategoryInputs } from "../simulator/run-check.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import { inProcessEndpoint } from "../testing/replay.js";
import {
  anchorQuestion,
  askingOracle,
  confirmingPolicy,
  expectedFacts,
  guessingPolicy,
  inProcessUserSim,
  keepAskingPolicy,
  paramNamesOf,
  policyResponder,
  userSimStub,
  type InteractivePolicy,
  type UserSimStubLog,
} from "../testing/interactive.js";
import { bfclDataDir, projectRoot } from "../testing/shared.js";
import { compareArms } from "./compare.js";
import { judgeHeldBack } from "./judge.js";
import { loadRunEntries, runModel, type RunRequest } from "./run/index.js";
import { scoreRuns, type ScoredModel } from "./score.js";
import { inProcessRun } from "../testing/run-fixtures.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("the committed manifest does not load");
  return m.value;
})();
const scored = manifest.pairs.filter((p) => p.status === "scored");
const categories = ["base", "miss_func", "miss_param"] as const;
const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-interactive-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const entries = (() => {
  const e = loadRunEntries(bfclDataDir());
  if (!e.ok) throw new Error("the BFCL data does not load");
  return e.value;
})();
const inputs = (() => {
  const read = (c: (typeof categories)[number]): CategoryInputs => {
    const r = readCategoryInputs(bfclDataDir(), "v4", c);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    return r.value;
  };
  return { base: read("base"), miss_func: read("miss_func"), miss_param: read("miss_param") };
})();
const groundTruth = new Map<string, readonly (readonly string[])[]>();
for (const c of categories) for (const [id, gt] of inputs[c].groundTruth) groundTruth.set(id, gt);
const paramNames = paramNamesOf(entries, newEvaluatorProcess(undefined, true));
const facts = expectedFacts(manifest.pairs, entries);
const shippedPrompt = (() => {
  const p = parseUserSimPrompt(readFileSync(join(projectRoot, "data", "user-sim-prompt.md"), "utf8"));
  if (!p.ok) throw new Error(p.message);
  return p.prompt;
})();
const MODEL = "scripted/asker";
const MODEL_DIR = "scripted_asker";

function request(
  out: string,
  policy: InteractivePolicy,
  opts: { sim?: UserSimStubLog | null; maxClarifications?: number; prompt?: UserSimPrompt; emptyCalls?: boolean } = {},
): RunRequest {
  const sim = opts.sim === undefined ? { asks: [], mismatches: [] } : opts.sim;
  return inProcessRun({
    model: MODEL,
    outDir: out,
    items: "pairs",
    manifest,
    chat: inProcessEndpoint(policyResponder(policy, { pairs: manifest.pairs, entries, paramNames, emptyCalls: opts.emptyCalls }), MODEL),
    userSim:
      sim === null
        ? null
        : {
            endpoint: "in-process",
            model: "stub/user",
            apiKey: null,
            maxClarifications: opts.maxClarifications ?? 2,
            prompt: opts.prompt ?? shippedPrompt,
            chat: inProcessUserSim(userSimStub(facts, sim), "stub/user"),
          },
  });
}

/**
 * `score --bfcl-data` on a run, as a user would read it: the decision and, from BFCL's
 * checker on the twins' turn prefixes, "asked, then did it" and the aligned pair score.
 */
async function scoreOf(out: string, perItem?: string): Promise<{ model: ScoredModel; aligned: AlignedRow }> {
  const doc = await scoreRuns({ results: [out], bfclData: bfclDataDir(), bootstrap: { resamples: 0 }, cwd: "/", env: {}, perItem });
  expect(doc.exitCode, JSON.stringify(doc.problems)).toBe(0);
  const model = doc.models.find((m) => m.model === MODEL_DIR);
  const aligned = doc.aligned?.models.find((m) => m.model === MODEL_DIR);
  expect(model?.numbers).toBeTruthy();
  expect(aligned?.n).toBe(223);
  return { model: model!, aligned: aligned! };
}

function lines(out: string, category: string): PyDict[] {
  return readFileSync(join(out, MODEL_DIR, "multi_turn", `BFCL_v4_multi_turn_${category}_result.json`), "utf8")
    .trim()
    .split("\n")
    .map((l) => jsonLoadsFast(l) as PyDict);
}

const pairOf = new Map(manifest.pairs.map((p) => [p.missId, p]));
const oracleOut = join(tmp, "oracle");
let oracleRun: Promise<void> | null = null;
const oracleLog: UserSimStubLog = { asks: [], mismatches: [] };
let oracleRequests = 0;
/** The asking oracle's interactive run, made once and read by several tests. */
function oracle(): Promise<void> {
  oracleRun ??= (async () => {
    const doc = await runModel(request(oracleOut, askingOracle(groundTruth), { sim: oracleLog }));
    if (!doc.ok || doc.value.errors.length > 0)
      throw new Error(`the oracle run failed: ${JSON.stringify(doc.ok ? doc.value.errors.slice(0, 3) : doc.problems)}`);
    oracleRequests = doc.value.requests;
  })();
  return oracleRun;
}

describe("interactive runs against scripted models and a stub simulated user", () => {
  it("the asking oracle: every scored pair asked-then-completed, decision 100; every request to the simulator carried the question and the withheld facts", async () => {
    await oracle();
    expect(oracleLog.mismatches).toEqual([]);
    const csv = join(tmp, "oracle-items.csv");
    const { model, aligned: a } = await scoreOf(oracleOut, csv);
    // the per-item completion columns, read off the interactive files like any others
    const [header, ...rows] = readFileSync(csv, "utf8").trim().split("\n");
    expect(header.endsWith(",base_completed,miss_completed")).toBe(true); // the last two columns (text columns before them may hold commas)
    expect(rows).toHaveLength(223);
    expect(rows.every((r) => r.endsWith(",1,1"))).toBe(true);
    expect(model.numbers?.n).toBe(223);
    expect([model.numbers?.act, model.numbers?.hold, model.numbers?.decision]).toEqual([100, 100, 100]);
    expect([a.n, a.withheld["held-completed"], a.baseActedCompleted, a.aligned, a.missingCompletion]).toEqual([223, 223, 223, 223, 0]);
    expect([a.askedThenDidPct, a.alignedPct]).toEqual([100, 100]);
    // one opening per should-ask item (answered: the oracle asks), one "Done." per answer turn (NO_QUESTION), nothing else
    const shouldAsk = new Set(scored.map((p) => p.missId));
    expect(
      oracleLog.asks
        .filter((a) => a.answered)
        .map((a) => a.itemId)
        .sort(),
    ).toEqual([...shouldAsk].sort());
    expect(oracleLog.asks.filter((a) => a.answered).every((a) => a.message === anchorQuestion(a.itemId))).toBe(true);
    expect(oracleLog.asks.filter((a) => !a.answered)).toHaveLength(223);
    console.log(
      `interactive stubs: asking oracle, decision ${model.numbers?.decision}, asked-then-did-it ${a.withheld["held-completed"]}/223, aligned ${a.aligned}/223, ${oracleLog.asks.length} simulator requests`,
    );
    // the answer replaced the scripted line on T+1, and the line says so
    for (const c of ["miss_func", "miss_param"] as const) {
      for (const line of lines(oracleOut, c)) {
        const id = line.get("id") as string;
        const pair = pairOf.get(id)!;
        const summary = line.get("twinscore_user_simulator") as PyDict;
        expect(summary.get("answer_turn"), id).toBe(BigInt(pair.anchorTurn + 1));
        expect(summary.get("opening")).toBe("answered");
        expect(summary.get("clarifications")).toBe(0n);
        const turn = (line.get("inference_log") as PyValue[]).filter((x) => x instanceof PyDict)[pair.anchorTurn + 1] as PyDict;
        const sent = (turn.get("begin_of_turn_query") as PyDict[])[0].get("content") as string;
        const known = facts.get(id)!;
        expect(sent).toBe(c === "miss_func" ? `You can use ${known.removedFunctions.join(" and ")} now.` : known.scriptedLine.trim()); // an answer is sent trimmed
      }
    }
    // base twins run on BFCL's script: no simulator on them
    expect(lines(oracleOut, "base").every((l) => !l.has("twinscore_user_simulator"))).toBe(true);
  }, 300_000);

  it("check reads the interactive files unchanged: the oracle's withheld twins pass BFCL's checker through the answer turn", async () => {
    await oracle();
    const checked = await runCheck({
      resultsDir: oracleOut,
      bfclDataDir: bfclDataDir(),
      outDir: join(tmp, "oracle-scores"),
      env: {},
      cwd: "/",
    });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.value.files.reduce((a, f) => a + f.entries, 0)).toBe(374);
    expect(checked.value.problems.filter((p) => p.severity === "error")).toEqual([]);
  }, 300_000);

  it("the judge reads interactive files: each held-back anchor turn goes out with the model's question", async () => {
    await oracle();
    const doc = await judgeHeldBack({ results: [oracleOut], dryRun: true, cwd: "/", env: {} });
    expect(doc.exitCode).toBe(0);
    expect(doc.dryRun?.requests).toHaveLength(223);
    expect(doc.dryRun?.silent).toBe(0);
    for (const r of doc.dryRun?.requests ?? [])
      expect(JSON.stringify(r.request)).toContain(JSON.stringify(anchorQuestion(r.missId)).slice(1, -1));
  }, 300_000);

  it("--until-anchor stops interactive should-ask items after the answer turn: the same decision and aligned numbers, fewer requests", async () => {
    await oracle();
    const out = join(tmp, "oracle-until-anchor");
    const doc = await runModel({ ...request(out, askingOracle(groundTruth)), untilAnchor: true });
    expect(doc.ok && doc.value.errors).toEqual([]);
    if (!doc.ok) return;
    for (const c of ["miss_func", "miss_param"] as const) {
      for (const line of lines(out, c)) {
        const pair = pairOf.get(line.get("id") as string)!;
        const turns = (line.get("result") as PyValue[]).length;
        expect(turns).toBe(pair.anchorTurn + 2);
        if (pair.turnCount.miss > pair.anchorTurn + 2) expect(line.get("twinscore_stopped_after_turn")).toBe(BigInt(pair.anchorTurn + 1));
      }
    }
    const full = await scoreOf(oracleOut);
    const cut = await scoreOf(out);
    expect(cut.model.numbers).toEqual(full.model.numbers);
    expect([cut.aligned.aligned, cut.aligned.withheld["held-completed"], cut.aligned.missingCompletion]).toEqual([223, 223, 0]);
    expect(doc.value.stoppedAtAnchor).toBeGreaterThan(0);
    expect(doc.value.requests).toBeLessThan(oracleRequests);
  }, 300_000);

  it("--history reference: the simulated user answers on the answer turn after the played prefix and the generated anchor; base lines stop at the anchor", async () => {
    await oracle();
    const out = join(tmp, "oracle-reference");
    const log: UserSimStubLog = { asks: [], mismatches: [] };
    const doc = await runModel({ ...request(out, askingOracle(groundTruth), { sim: log }), history: "reference" });
    expect(doc.ok && doc.value.errors).toEqual([]);
    if (!doc.ok) return;
    expect(log.mismatches).toEqual([]);
    for (const c of ["miss_func", "miss_param"] as const) {
      for (const line of lines(out, c)) {
        const pair = pairOf.get(line.get("id") as string)!;
        expect((line.get("twinscore_played_turns") as PyValue[]).length).toBe(pair.anchorTurn);
        // through the answer turn, as under --until-anchor, where the simulated user answered the model's question
        expect((line.get("result") as PyValue[]).length).toBe(pair.anchorTurn + 2);
        expect((line.get("twinscore_user_simulator") as PyDict).get("opening")).toBe("answered");
      }
    }
    for (const line of lines(out, "base"))
      expect((line.get("result") as PyValue[]).length).toBe((line.get("twinscore_played_turns") as PyValue[]).length + 1);
    expect(doc.value.userSimulator?.interactiveItems).toBe(223);
    const scoredDoc = await scoreRuns({ results: [out], bootstrap: { resamples: 0 }, cwd: "/", env: {} });
    const model = scoredDoc.models.find((m) => m.model === MODEL_DIR);
    expect([model?.numbers?.n, model?.numbers?.act, model?.numbers?.hold]).toEqual([223, 100, 100]);
    expect(doc.value.requests).toBeLessThan(oracleRequests);
  }, 300_000);

  it("a guesser acts on the anchor: acted on every withheld twin, the simulated user asked nothing of it, the scripted line sent", async () => {
    const out = join(tmp, "guesser");
    const log: UserSimStubLog = { asks: [], mismatches: [] };
    const doc = await runModel(request(out, guessingPolicy(groundTruth), { sim: log }));
    expect(doc.ok && doc.value.errors).toEqual([]);
    expect(log.mismatches).toEqual([]);
    const { model, aligned: a } = await scoreOf(out);
    expect([model.numbers?.act, model.numbers?.hold, model.numbers?.decision]).toEqual([100, 0, 50]);
    expect(log.asks.every((a) => !a.answered)).toBe(true);
    expect(doc.ok && doc.value.userSimulator?.openings).toEqual({ answered: 0, noQuestion: 223, silent: 0 });
    expect(doc.ok && doc.value.userSimulator?.requests).toBe(446); // the anchor turn's "Done.", the answer turn's "Done."
    expect(a.withheld["held-completed"] + a.withheld["held-not-completed"]).toBe(0); // acted on every withheld twin
    expect(a.aligned).toBe(0);
  }, 300_000);

  it("a model that keeps asking: the clarification bound holds (2 and 0), no withheld twin is completed, and the judge still reads its question", async () => {
    for (const max of [2, 0]) {
      const out = join(tmp, `keeps-asking-${max}`);
      const log: UserSimStubLog = { asks: [], mismatches: [] };
      // vLLM's form this time: no-call steps carry `tool_calls: []`, so BFCL records `[]` and the question lives in the history and the simulator's log
      const doc = await runModel(request(out, keepAskingPolicy(groundTruth), { sim: log, maxClarifications: max, emptyCalls: true }));
      expect(doc.ok && doc.value.errors).toEqual([]);
      if (!doc.ok) return;
      expect(log.mismatches).toEqual([]);
      expect(doc.value.userSimulator).toMatchObject({ interactiveItems: 223, clarifications: 223 * max, requests: 223 * (1 + max) });
      for (const c of ["miss_func", "miss_param"] as const) {
        for (const line of lines(out, c)) {
          const pair = pairOf.get(line.get("id") as string)!;
          const answerTurn = (line.get("result") as PyValue[][])[pair.anchorTurn + 1];
          expect(answerTurn).toHaveLength(max + 1);
          expect(answerTurn.every((s) => Array.isArray(s) && s.length === 0)).toBe(true);
        }
      }
      const { model, aligned: a } = await scoreOf(out);
      expect([model.numbers?.act, model.numbers?.hold, model.numbers?.decision]).toEqual([100, 100, 100]);
      expect([a.withheld["held-completed"], a.withheld["held-not-completed"], a.aligned]).toEqual([0, 223, 0]);
      // BFCL recorded `[]` for every question; the judge reads the anchor reply the simulated user was given
      const judged = await judgeHeldBack({ results: [out], dryRun: true, cwd: "/", env: {} });
      expect(judged.dryRun?.silent).toBe(0);
      expect(judged.dryRun?.requests).toHaveLength(223);
      for (const r of judged.dryRun?.requests ?? [])
        expect(JSON.stringify(r.request)).toContain(JSON.stringify(anchorQuestion(r.missId)).slice(1, -1));
    }
  }, 300_000);

  it("the stub refuses a request without the withheld facts: a prompt that leaves them out gives error lines, never a quiet pass", async () => {
    const bare = parseUserSimPrompt(
      "Answer the user's assistant. Say NO_QUESTION when nothing is asked.\n---user---\nThe assistant's latest message, which you reply to now:\n{{message}}",
    );
    expect(bare.ok).toBe(true);
    if (!bare.ok) return;
    const log: UserSimStubLog = { asks: [], mismatches: [] };
    const doc = await runModel({
      ...request(join(tmp, "bare-prompt"), askingOracle(groundTruth), { sim: log, prompt: bare.prompt }),
      onlyIds: ["multi_turn_miss_param_122", "multi_turn_miss_func_1", "multi_turn_base_122"],
    });
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect(doc.value.exitCode).toBe(1);
    expect(doc.value.errors.map((e) => e.id)).toEqual(["multi_turn_miss_func_1", "multi_turn_miss_param_122"]);
    expect(doc.value.errors[0].message).toMatch(/^user simulator: Error code: 422 - .*the complete base-twin request is missing/);
    expect(log.mismatches).toHaveLength(2);
  }, 120_000);

  it("compare takes a scripted arm and an interactive arm: a model that confirms once on the answer turn completes only when the user answers", async () => {
    const scriptedArm = join(tmp, "arm-scripted");
    const interactiveArm = join(tmp, "arm-interactive");
    const a = await runModel(request(scriptedArm, confirmingPolicy(groundTruth), { sim: null }));
    const b = await runModel(request(interactiveArm, confirmingPolicy(groundTruth)));
    expect(a.ok && b.ok && a.value.errors.length + b.value.errors.length).toBe(0);
    expect(a.ok && a.value.userSimulator).toBeNull();
    // the base files are the same bytes: base twins run on BFCL's script in both arms
    const base = (out: string) => readFileSync(join(out, MODEL_DIR, "multi_turn", "BFCL_v4_multi_turn_base_result.json"), "utf8");
    expect(base(interactiveArm)).toBe(base(scriptedArm));
    // nothing was injected: the token check is asked for, to see both arms send the same first request
    const doc = await compareArms({
      a: scriptedArm,
      b: interactiveArm,
      bfclData: bfclDataDir(),
      cwd: "/",
      env: {},
      bootstrap: { resamples: 200 },
      injectionCheck: true,
    });
    expect(doc.exitCode).toBe(0);
    expect(doc.models).toHaveLength(1);
    const cmp = doc.models[0].comparison;
    expect(cmp.pairs).toBe(223);
    expect([cmp.decision.a, cmp.decision.b]).toEqual([100, 100]); // the decision on T is the same: both arms ask
    expect(doc.injection[0].check.mode).toBe(0); // the same first request in both arms
    // answering the actual question changes what the model completes: the scripted user never answers the confirmation
    const shift = cmp.aligned!;
    expect(shift.pairs).toBe(223);
    expect([shift.aligned.a, shift.aligned.b]).toEqual([0, 100]);
    expect([shift.cells["held-completed"].a, shift.cells["held-completed"].b]).toEqual([0, 100]);
    const [sa, ia] = [(await scoreOf(scriptedArm)).aligned, (await scoreOf(interactiveArm)).aligned];
    expect([sa.withheld["held-completed"], sa.aligned]).toEqual([0, 0]);
    expect([ia.withheld["held-completed"], ia.aligned]).toEqual([223, 223]);
    expect(b.ok && b.value.userSimulator).toMatchObject({ requests: 669, clarifications: 223 }); // the anchor question, the confirmation, the closing "Done."
    console.log(
      `interactive stubs: confirming policy, asked-then-did-it scripted ${sa.withheld["held-completed"]}/223 → interactive ${ia.withheld["held-completed"]}/223; aligned ${sa.aligned} → ${ia.aligned}`,
    );
  }, 300_000);
});
