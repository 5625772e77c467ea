import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluatorRevision } from "../bfcl/evaluator-versions.js";
import type { MultiTurnCategory } from "../bfcl/data.js";
import type { ApiClass } from "../catalog/types.js";
import { readCategoryInputs } from "../io/bfcl-data.js";
import { loggedDecodes, loggedDecoder } from "../testing/logged-decodes.js";
import { sharedPath } from "../testing/shared.js";
import { apiFactories, PythonProcess } from "./classes/index.js";
import { EvaluatorProcess } from "./executor.js";
import { checkModelFiles, type ModelFileInput } from "./run-check.js";
import { newEvaluatorProcess } from "./runtime.js";
import { parseScoreFile } from "../bfcl/scores.js";
import { compareVerdicts } from "./agreement.js";

/**
 * `check` on the real xLAM run of BFCL v3 (600 entries), scored by BFCL v3 final, with
 * BFCL's own decoding of every step (the `inference_log`), so the executor, checker and
 * score-file writer are tested apart from twinscore's decoders.
 */
const model = "Salesforce_Llama-xLAM-2-8b-fc-r";
const categories = ["base", "miss_func", "miss_param"] as const;
const text = (b: Uint8Array | null) => new TextDecoder().decode(b ?? new Uint8Array());

function xlamFiles(): (ModelFileInput & { category: MultiTurnCategory })[] {
  return categories.map((category) => {
    const file = sharedPath("rollouts", "xlam-v3", "result", model, `BFCL_v3_multi_turn_${category}_result.json`);
    const inputs = readCategoryInputs(sharedPath("bfcl-v3"), "v3", category);
    if (!inputs.ok) throw new Error(JSON.stringify(inputs.problems));
    return { category, file, bytes: new Uint8Array(readFileSync(file)), testCategory: `multi_turn_${category}`, inputs: inputs.value };
  });
}

function storedScore(category: string): { text: string; path: string } {
  const path = sharedPath("rollouts", "xlam-v3", "score", model, `BFCL_v3_multi_turn_${category}_score.json`);
  return { text: readFileSync(path, "utf8"), path };
}

/**
 * A v3 process as BFCL's was when it reached this model: evaluations that ran before in
 * the same Python process had left `@technewsworld` in `TwitterAPI.post_tweet`'s shared
 * default `mentions` list (every tweet posted without mentions in the stored score files
 * carries it, the reference's included).
 */
function processAfterEarlierEvaluations(exact: boolean): EvaluatorProcess {
  const python = new PythonProcess("v3");
  python.global("posting_api.TwitterAPI.post_tweet.__defaults__", () => ({ tags: [], mentions: ["@technewsworld"] }));
  const factories = apiFactories(python);
  return new EvaluatorProcess((cls) => factories.get(cls as ApiClass)?.(), undefined, exact, evaluatorRevision("v3"));
}

describe("check on the real BFCL v3 xLAM run (600 entries) with BFCL's logged decoding", () => {
  const files = xlamFiles();
  const decodes = new Map(files.flatMap((f) => [...loggedDecodes(text(f.bytes))]));
  const run = (newProcess: (exact: boolean) => EvaluatorProcess) =>
    checkModelFiles(files, { modelName: model, newProcess, decode: loggedDecoder(decodes), renderScore: true }).map((r) => {
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      return r.value;
    });

  it("writes score files byte-identical to BFCL's stored ones (all 600 verdicts, types, messages and error objects) in a process in the state BFCL's was", () => {
    const checked = run(processAfterEarlierEvaluations);
    checked.forEach((c, i) => {
      const stored = storedScore(categories[i]);
      expect(text(c.scoreFile)).toBe(stored.text);
      const parsed = parseScoreFile(stored.text, stored.path);
      if (parsed.content === null || parsed.problems.length > 0) throw new Error("stored score file unreadable");
      const agreement = compareVerdicts(c.verdicts, parsed.content);
      expect(agreement.disagreeingIds).toEqual([]);
      expect(agreement.verdictAgree).toBe(200);
      expect(agreement.errorObjectAgree).toBe(agreement.bothFailed);
    });
    expect(checked.map((c) => c.correct)).toEqual([153, 109, 129]);
  });

  it("in a fresh v3 process, differs only where the inherited default shows: the three reference tweets of entry 109 and tweets posted without mentions", () => {
    const checked = run((exact) => newEvaluatorProcess(undefined, exact, "v3"));
    const disagreeing: number[] = [];
    checked.forEach((c, i) => {
      const stored = storedScore(categories[i]);
      const parsed = parseScoreFile(stored.text, stored.path);
      if (parsed.content === null || parsed.problems.length > 0) throw new Error("stored score file unreadable");
      const agreement = compareVerdicts(c.verdicts, parsed.content);
      // entry 109's reference posts without mentions: with the inherited default it mismatches the model's explicit `mentions=[]`
      expect(agreement.disagreeingIds).toContain(`multi_turn_${categories[i]}_109`);
      expect(agreement.verdictAgree).toBe(199);
      disagreeing.push(agreement.disagreeingIds.length);
      // every other difference is an error object that holds a tweet with the default mentions list
      const ours = new Map(text(c.scoreFile).split("\n").slice(1).map((l) => [JSON.parse(l).id as string, l]));
      for (const id of agreement.disagreeingIds) {
        if (id.endsWith("_109")) continue;
        expect(stored.text.split("\n").find((l) => l.includes(`"id": "${id}"`))).toContain("@technewsworld");
        expect(ours.get(id)).toBeDefined();
      }
    });
    // 109 plus the error objects that hold such tweets: 3, 7 and 2 of them
    expect(disagreeing).toEqual([4, 8, 3]);
  });

  it("v3's evaluator writes its own forms: ASCII escapes, no newline after the last line, no inference_log on runner-level lines, the prompt as stored", () => {
    const [base, missFunc] = run((exact) => newEvaluatorProcess(undefined, exact, "v3"));
    const baseText = text(base.scoreFile);
    expect(baseText.endsWith("\n")).toBe(false);
    expect(/[^\x00-\x7e]/.test(baseText)).toBe(false);
    const forceTerminated = baseText.split("\n").map((l) => JSON.parse(l)).filter((l) => l.error?.error_type === "multi_turn:force_terminated");
    expect(forceTerminated.length).toBe(2);
    for (const l of forceTerminated) expect(Object.keys(l)).toEqual(["id", "model_name", "test_category", "valid", "error", "prompt", "model_result", "possible_answer"]);
    const missLine = JSON.parse(text(missFunc.scoreFile).split("\n")[1]);
    expect(Object.values(missLine.prompt.missed_function)[0]).toEqual(expect.arrayContaining([expect.any(String)]));
  });
});
