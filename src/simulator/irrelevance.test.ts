import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCategoryInputs } from "../app/bfcl-inputs.js";
import { loadManifest } from "../io/manifest.js";
import { loadInputsForTest } from "../testing/read-models.js";
import { bfclDataDir, projectRoot, rolloutRunDir, rolloutRuns } from "../testing/shared.js";
import { PyDict } from "../python/containers.js";
import type { EntryVerdict, MultiTurnErrorType } from "./checker.js";
import {
  checkIrrelevance,
  checkWorldChangingOnEmptyTurns,
  IRRELEVANCE_ERROR,
  toolsOfClasses,
  withEmptyTurnsScored,
  WORLD_CHANGING_ERROR,
} from "./irrelevance.js";
import { checkResultFile, type CategoryInputs, type FileCheck } from "./run-check.js";
import { newEvaluatorProcess } from "./runtime.js";
import { nodeHost } from "../io/host.js";

/** BFCL's own functions on the real runs (tools/gen-aligned-vectors.py). */
interface FileVector {
  readonly total: number;
  readonly correct: number;
  readonly strictCorrect: number;
  readonly irrelevanceFailures: number;
  readonly bothFail: number;
  /** "id turn official(1/0) digest" per entry failing BFCL's irrelevance checker. */
  readonly failures: readonly string[];
}
const vectors = JSON.parse(readFileSync(join(projectRoot, "src", "simulator", "testdata", "irrelevance-vectors.json"), "utf8")) as {
  files: Record<string, Record<string, FileVector>>;
};

const models = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"] as const;
const categories = ["base", "miss_func", "miss_param"] as const;
const digest = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);

const inputsCache = new Map<string, CategoryInputs>();
function inputs(category: (typeof categories)[number]): CategoryInputs {
  let i = inputsCache.get(category);
  if (!i) {
    const r = readCategoryInputs(bfclDataDir(), "v4", category, nodeHost());
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    i = r.value;
    inputsCache.set(category, i);
  }
  return i;
}

function resultPath(run: string, model: string, category: string): string {
  return join(
    rolloutRunDir(run as (typeof rolloutRuns)[number]),
    "result",
    model,
    "multi_turn",
    `BFCL_v4_multi_turn_${category}_result.json`,
  );
}

/** One model folder checked in one process, files in path order, as `check` does. */
function checkModel(run: string, model: string, emptyTurns: "strict" | "world-changing" | undefined): Record<string, FileCheck> {
  const process = newEvaluatorProcess();
  const out: Record<string, FileCheck> = {};
  for (const category of categories) {
    const file = resultPath(run, model, category);
    const r = checkResultFile(new Uint8Array(readFileSync(file)), file, {
      modelName: model,
      testCategory: `multi_turn_${category}`,
      inputs: inputs(category),
      process,
      renderScore: true,
      emptyTurns,
    });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    out[category] = r.value;
  }
  return out;
}

describe("checkIrrelevance: BFCL's multi_turn_irrelevance_checker", () => {
  const gt = [["ls()"], [], ["cd(folder='a')"], []];
  it("passes when every empty-reference turn decodes to no call (calls elsewhere do not matter)", () => {
    expect(checkIrrelevance([[["ls()"]], [], [["cd(folder='a')"]], []], gt)).toEqual({ valid: true });
  });
  it("fails on the first empty-reference turn with a decoded call, with BFCL's type, message and details", () => {
    const r = checkIrrelevance([[], [["pwd()"], ["ls(a=True)"]], [], [["rm(file_name='x')"]]], gt);
    expect(r.valid).toBe(false);
    if (r.valid) return;
    expect([r.turn, r.errorType, r.errorMessage]).toEqual([
      1,
      IRRELEVANCE_ERROR,
      "Model outputs valid function calls when it should not for turn 1.",
    ]);
    expect(r.error.keys()).toEqual(["error_message", "error_type", "details"]);
    expect((r.error.get("details") as { get(k: string): unknown }).get("model response decoded")).toEqual([["pwd()"], ["ls(a=True)"]]);
  });
});

describe("the world-changing reading of empty-reference turns", () => {
  const tools = toolsOfClasses(["GorillaFileSystem"], "v4");
  const gt = [["ls()"], [], ["mv(source='a', destination='b')"]];
  const step = (name: string, args: string) => [{ [name]: args }];
  it("allows a lookup and an echo that only prints; fails a write, naming it", () => {
    const lookups = [[step("ls", "{}")], [step("ls", '{"a": true}'), step("echo", '{"content": "hi"}'), []], []];
    expect(checkWorldChangingOnEmptyTurns(lookups, [], gt, tools)).toEqual({ valid: true });
    const write = [[], [step("cat", '{"file_name": "a"}'), step("echo", '{"content": "hi", "file_name": "a"}')], []];
    const r = checkWorldChangingOnEmptyTurns(write, [[], [["cat(file_name='a')"], ["echo(content='hi',file_name='a')"]], []], gt, tools);
    expect(r.valid).toBe(false);
    if (r.valid) return;
    expect([r.turn, r.errorType, r.errorMessage]).toEqual([
      1,
      WORLD_CHANGING_ERROR,
      "Model attempts a world-changing call when it should not for turn 1.",
    ]);
    expect((r.error.get("details") as { get(k: string): unknown }).get("world-changing calls")).toEqual(["echo"]);
  });
  it("counts a write whose arguments do not decode (the decision was the model's) but not a name off the tool list", () => {
    expect(checkWorldChangingOnEmptyTurns([[], [step("rm", "{bad json")], []], [], gt, tools).valid).toBe(false);
    expect(checkWorldChangingOnEmptyTurns([[], [step("post_tweet", '{"content": "x"}')], []], [], gt, tools).valid).toBe(true);
  });
});

describe("withEmptyTurnsScored: which error is written", () => {
  const gt = [["ls()"], []];
  const decoded = [[["ls()"]], [["pwd()"]]];
  const otherError = new PyDict([["error_type", "other"]]);
  const failed = (errorType: MultiTurnErrorType, runnerLevel: boolean): EntryVerdict => ({
    valid: false,
    runnerLevel,
    errorType,
    errorMessage: "m",
    error: otherError,
    decoded: runnerLevel ? null : decoded,
  });
  it("both checks fail: the irrelevance error is written", () => {
    const v = withEmptyTurnsScored(failed("multi_turn:instance_state_mismatch", false), "strict", [], gt, ["GorillaFileSystem"], "v4");
    expect(!v.valid && [v.errorType, v.runnerLevel, v.decoded]).toEqual([IRRELEVANCE_ERROR, false, decoded]);
  });
  it("runner-level failures keep their error; a passing entry fails; clean empty turns keep the verdict", () => {
    const forced = failed("multi_turn:force_terminated", true);
    expect(withEmptyTurnsScored(forced, "strict", [], gt, [], "v4")).toBe(forced);
    const pass: EntryVerdict = { valid: true, decoded };
    expect(withEmptyTurnsScored(pass, "strict", [], gt, [], "v4").valid).toBe(false);
    const clean: EntryVerdict = { valid: true, decoded: [[["ls()"]], []] };
    expect(withEmptyTurnsScored(clean, "strict", [], gt, [], "v4")).toBe(clean);
    const cleanFailed = { ...failed("multi_turn:instance_state_mismatch", false), decoded: [[["ls()"]], []] };
    expect(withEmptyTurnsScored(cleanFailed, "strict", [], gt, [], "v4")).toBe(cleanFailed);
  });
});

describe("check --score-empty-turns=strict equals BFCL's own irrelevance checker on every file of both gpt-oss runs", () => {
  for (const run of rolloutRuns) {
    for (const model of models) {
      it(`${run}/${model}: counts, failing ids, turns and error objects`, () => {
        const ours = checkModel(run, model, "strict");
        for (const category of categories) {
          const v = vectors.files[`${run}/${model}`][category];
          const f = ours[category];
          expect([f.total, f.officialCorrect, f.correct], category).toEqual([v.total, v.correct, v.strictCorrect]);
          const expected = new Map(
            v.failures
              .map((line) => line.split(" "))
              .map(([id, turn, official, d]) => [id, { turn: Number(turn), official: official === "1", digest: d }]),
          );
          const irrelevant = f.verdicts.filter((x) => !x.valid && x.errorType === IRRELEVANCE_ERROR);
          expect(irrelevant.map((x) => x.id).sort(), category).toEqual([...expected.keys()].sort());
          for (const x of irrelevant) {
            const e = expected.get(x.id)!;
            expect(x.errorMessage).toBe(`Model outputs valid function calls when it should not for turn ${e.turn}.`);
            expect(digest(x.errorJson as string), x.id).toBe(e.digest);
          }
          // the written score file carries the counterfactual header and one line per failed entry
          const lines = new TextDecoder()
            .decode(f.scoreFile!)
            .split("\n")
            .filter((l) => l !== "");
          expect(JSON.parse(lines[0])).toEqual({
            accuracy: v.strictCorrect / v.total,
            correct_count: v.strictCorrect,
            total_count: v.total,
          });
          expect(lines.length - 1).toBe(v.total - v.strictCorrect);
          const written = lines.slice(1).map((l) => JSON.parse(l) as { id: string; error: { error_type: string } });
          expect(written.filter((l) => l.error.error_type === IRRELEVANCE_ERROR).length).toBe(v.irrelevanceFailures);
          // where both fail, the irrelevance error is the one written
          expect(v.failures.filter((l) => l.split(" ")[2] === "0").length).toBe(v.bothFail);
        }
      });
    }
  }
});

describe("the world-changing reading agrees with the decision score on the anchor turn of every scored should-ask item", () => {
  const manifest = loadManifest();
  if (!manifest.ok) throw new Error("manifest");
  const scored = manifest.value.pairs.filter((p) => p.status === "scored");
  it("a class's functions depend on the BFCL version (TradingBot: v3 had make_transaction, v4 has withdraw_funds)", () => {
    const v3 = toolsOfClasses(["TradingBot"], "v3");
    const v4 = toolsOfClasses(["TradingBot"], "v4");
    expect([v3.has("make_transaction"), v3.has("withdraw_funds")]).toEqual([true, false]);
    expect([v4.has("make_transaction"), v4.has("withdraw_funds")]).toEqual([false, true]);
  });
  it("an item's tool list is every function of its involved classes", () => {
    for (const p of manifest.value.pairs) {
      const q = inputs(p.category).questions.get(p.missId)!;
      expect([...toolsOfClasses(q.prompt.involvedClasses, "v4")].sort(), p.missId).toEqual([...p.tools].sort());
    }
  });
  for (const run of rolloutRuns) {
    it(`${run}: world-changing failures at the anchor are exactly the pairs that acted on the withheld twin; BFCL's count stays`, () => {
      const dir = rolloutRunDir(run);
      const loaded = loadInputsForTest({ resultDirs: [join(dir, "result")], scoreDirs: [], models: [...models], cwd: dir });
      for (const model of models) {
        const records = loaded.models.find((m) => m.inputs.model === model)!.inputs.records;
        const ours = checkModel(run, model, "world-changing");
        const verdicts = new Map([...ours.miss_func.verdicts, ...ours.miss_param.verdicts].map((v) => [v.id, v]));
        let acted = 0;
        for (const p of scored) {
          const r = records.find((x) => x.missId === p.missId)!;
          const v = verdicts.get(p.missId)!;
          // the runner's pre-checks come first and fail the entry whatever the empty turns hold
          if (!v.valid && (v.errorType === "multi_turn:force_terminated" || v.errorType === "multi_turn:inference_error")) continue;
          const failsOnAnchor =
            !v.valid &&
            v.errorType === WORLD_CHANGING_ERROR &&
            v.errorMessage === `Model attempts a world-changing call when it should not for turn ${p.anchorTurn}.`;
          expect(failsOnAnchor, `${model} ${p.missId}`).toBe(r.actedOnMiss);
          if (r.actedOnMiss) acted++;
        }
        expect(acted).toBeGreaterThan(0);
        for (const category of categories) {
          const v = vectors.files[`${run}/${model}`][category];
          const f = ours[category];
          expect(f.officialCorrect).toBe(v.correct);
          // every world-changing failure here is also a failure of BFCL's strict check (BFCL's ids, from
          // the vectors): these runs hold no write whose arguments BFCL could not decode on an empty turn
          const strictFailures = new Set(v.failures.map((l) => l.split(" ")[0]));
          const wcOnly = f.verdicts.filter((x) => !x.valid && x.errorType === WORLD_CHANGING_ERROR && !strictFailures.has(x.id));
          expect(wcOnly.map((x) => x.id)).toEqual([]);
          expect(f.correct).toBeGreaterThanOrEqual(v.strictCorrect);
          expect(f.correct).toBeLessThanOrEqual(v.correct);
        }
      }
    });
  }
});
