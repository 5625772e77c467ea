import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluatorRevision } from "../bfcl/evaluator-versions.js";
import type { MultiTurnCategory } from "../bfcl/data.js";
import type { ApiClass } from "../catalog/types.js";
import { readCategoryInputs } from "../app/bfcl-inputs.js";
import { loggedDecodes, loggedDecoder } from "../testing/logged-decodes.js";
import { sharedPath } from "../testing/shared.js";
import { apiFactories, PythonProcess } from "./classes/index.js";
import { POST_TWEET_DEFAULTS } from "./classes/twitter-api.js";
import { EvaluatorProcess } from "./executor.js";
import { checkModelFiles, type ModelFileInput } from "./run-check.js";
import { newEvaluatorProcess } from "./runtime.js";
import { parseScoreFile } from "../bfcl/scores.js";
import { compareVerdicts } from "./agreement.js";
import { nodeHost } from "../io/host.js";

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
    const inputs = readCategoryInputs(sharedPath("bfcl-v3"), "v3", category, nodeHost());
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
  const python = new PythonProcess("v3", new Map([[POST_TWEET_DEFAULTS, { mentions: ["@technewsworld"] }]]));
  const factories = apiFactories(python);
  return new EvaluatorProcess((cls) => factories.get(cls as ApiClass)?.(), undefined, exact, evaluatorRevision("v3"), python);
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
      const ours = new Map(
        text(c.scoreFile)
          .split("\n")
          .slice(1)
          .map((l) => [JSON.parse(l).id as string, l]),
      );
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
    const forceTerminated = baseText
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((l) => l.error?.error_type === "multi_turn:force_terminated");
    expect(forceTerminated.length).toBe(2);
    for (const l of forceTerminated)
      expect(Object.keys(l)).toEqual(["id", "model_name", "test_category", "valid", "error", "prompt", "model_result", "possible_answer"]);
    const missLine = JSON.parse(text(missFunc.scoreFile).split("\n")[1]);
    expect(Object.values(missLine.prompt.missed_function)[0]).toEqual(expect.arrayContaining([expect.any(String)]));
  });
});

describe("v3's runner on results that are not lists (the real xLAM base file with one line changed)", () => {
  const [base] = xlamFiles();
  const decodes = loggedDecodes(text(base.bytes));
  const withResult = (result: unknown): Uint8Array => {
    const lines = text(base.bytes).split("\n");
    const i = lines.findIndex((l) => l.startsWith('{"id": "multi_turn_base_0",'));
    const line = JSON.parse(lines[i]);
    line.result = result;
    lines[i] = JSON.stringify(line);
    return new TextEncoder().encode(lines.join("\n"));
  };
  const check = (bytes: Uint8Array, version: "v3" | "v4") =>
    checkModelFiles([{ ...base, bytes }], {
      modelName: model,
      newProcess: (exact) => newEvaluatorProcess(undefined, exact, version),
      decode: loggedDecoder(decodes),
      renderScore: true,
    })[0];

  it("writes an inference-error line and then the turn-count check's line for an error string (v4 writes one line)", () => {
    const bytes = withResult("Error during inference: the server hung up");
    const v3 = check(bytes, "v3");
    if (!v3.ok) throw new Error(JSON.stringify(v3.problems));
    const lines = text(v3.value.scoreFile)
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((l) => l.id === "multi_turn_base_0");
    expect(lines.map((l) => l.error.error_type)).toEqual(["multi_turn:inference_error", "multi_turn:force_terminated"]);
    expect(lines[1].error.error_message[0]).toContain("The length of the model result turns (42)");
    expect(lines.every((l) => !("inference_log" in l))).toBe(true);
    expect(v3.value.verdicts.filter((v) => v.id === "multi_turn_base_0").length).toBe(2);
    const v4 = check(bytes, "v4");
    if (!v4.ok) throw new Error(JSON.stringify(v4.problems));
    const v4lines = text(v4.value.scoreFile)
      .split("\n")
      .filter((l) => l.includes('"id": "multi_turn_base_0"'));
    expect(v4lines.map((l) => JSON.parse(l).error.error_type)).toEqual(["multi_turn:inference_error"]);
  });

  it("reports, with file:line, a result without len() (null), on which BFCL v3's whole evaluation stops", () => {
    const r = check(withResult(null), "v3");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => [p.code, p.line])).toEqual([["evaluator-stops", 1]]);
    expect(r.problems[0].message).toContain("object of type 'NoneType' has no len()");
  });
});
