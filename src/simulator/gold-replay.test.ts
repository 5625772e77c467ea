import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answersFile, docFile, multiTurnDocFiles, questionsFile, type MultiTurnCategory } from "../bfcl/data.js";
import { bfclDataDir } from "../testing/shared.js";
import { readLongContext, findLongContextModule } from "../io/long-context.js";
import { checkDecoded } from "./checker.js";
import { prepareCategory } from "./run-check.js";
import { newEvaluatorProcess } from "./runtime.js";
import type { LongContextData } from "./types.js";

/**
 * Replaying each reference trajectory as the model's output (one step per turn with
 * reference calls, nothing on empty turns) must pass every entry: it exercises every
 * reference call of the real BFCL v4 data through the executor and the eight classes.
 */
function replay(category: MultiTurnCategory, filler?: LongContextData): { passed: number; failed: string[] } {
  const dir = bfclDataDir();
  const docs = new Map(Object.keys(multiTurnDocFiles).map((c) => [c, readFileSync(join(dir, docFile(c as keyof typeof multiTurnDocFiles)), "utf8")]));
  const inputs = prepareCategory(
    readFileSync(join(dir, questionsFile("v4", category)), "utf8"),
    category,
    readFileSync(join(dir, answersFile("v4", category)), "utf8"),
    category,
    docs,
  );
  if (!inputs.ok) throw new Error(JSON.stringify(inputs.problems));
  const process = newEvaluatorProcess(filler);
  let passed = 0;
  const failed: string[] = [];
  for (const [id, q] of inputs.value.questions) {
    const gt = inputs.value.groundTruth.get(id) as string[][];
    const verdict = checkDecoded(
      gt.map((t) => (t.length > 0 ? [[...t]] : [])),
      gt,
      q.prompt,
      { modelName: "gold_replay", process },
    );
    if (verdict.valid) passed++;
    else failed.push(`${id}: ${verdict.errorMessage}`);
  }
  return { passed, failed };
}

describe("gold replay on the real BFCL v4 data", () => {
  for (const category of ["base", "miss_func", "miss_param"] as const) {
    it(`passes 200/200 of multi_turn_${category}`, () => {
      const r = replay(category);
      expect(r.failed).toEqual([]);
      expect(r.passed).toBe(200);
    });
  }

  // long_context needs BFCL's long_context.py, which twinscore never ships: this test runs
  // only where BFCL_EVAL_DIR names a bfcl_eval folder (or checkout) holding it.
  const installation = process.env.BFCL_EVAL_DIR;
  it.runIf(installation !== undefined && installation !== "")("passes 200/200 of multi_turn_long_context (BFCL_EVAL_DIR set)", () => {
    const module = findLongContextModule({ env: { BFCL_EVAL_DIR: installation }, cwd: "/", askPython: false });
    expect(module).not.toBeNull();
    const filler = readLongContext(module as string);
    if (!filler.ok) throw new Error(JSON.stringify(filler.problems));
    const r = replay("long_context", filler.value);
    expect(r.failed).toEqual([]);
    expect(r.passed).toBe(200);
  });
});
