import { describe, expect, it } from "vitest";
import type { BfclVersion, MultiTurnCategory } from "../bfcl/data.js";
import { readCategoryInputs } from "../app/bfcl-inputs.js";
import { findLongContextModule } from "../io/long-context.js";
import { readLongContext } from "../app/bfcl-inputs.js";
import type { PyValue } from "../python/value.js";
import { sharedPath } from "../testing/shared.js";
import { checkEntry } from "./checker.js";
import { newEvaluatorProcess } from "./runtime.js";
import type { LongContextData } from "./types.js";

/**
 * Each reference trajectory replayed as a model's result, shaped as a real run is, and checked by the runner
 * and checker of the data's BFCL release: an entry fails only when its reference cannot be what a run produces.
 * More in this folder's README.md.
 */
function replay(
  version: BfclVersion,
  category: MultiTurnCategory,
  filler?: LongContextData,
): { passed: number; failed: Map<string, string> } {
  const inputs = readCategoryInputs(sharedPath(`bfcl-${version}`), version, category);
  if (!inputs.ok) throw new Error(JSON.stringify(inputs.problems));
  const process = newEvaluatorProcess(filler, false, version);
  let passed = 0;
  const failed = new Map<string, string>();
  for (const [id, q] of inputs.value.questions) {
    const gt = inputs.value.groundTruth.get(id) as string[][];
    const questionTurns = (q.scorePrompt.get("question") as PyValue[]).length;
    const result: PyValue[] = Array.from({ length: questionTurns }, (_, t) => ((gt[t] ?? []).length > 0 ? [[...gt[t]]] : []));
    const verdict = checkEntry(result, gt, q.prompt, {
      modelName: "gold_replay",
      process,
      decode: (step) => ({ ok: true, calls: step as string[] }),
    });
    if (verdict.valid) passed++;
    else failed.set(id, `${verdict.errorType}: ${verdict.errorMessage}`);
  }
  return { passed, failed };
}

describe("gold replay on the real BFCL v4 data (bfcl-eval 2026.3.23's checker)", () => {
  for (const category of ["base", "miss_func", "miss_param"] as const) {
    it(`passes 200/200 of multi_turn_${category}`, () => {
      const r = replay("v4", category);
      expect([...r.failed]).toEqual([]);
      expect(r.passed).toBe(200);
    });
  }
});

describe("gold replay on the real BFCL v3 data (v3 final's checker and classes)", () => {
  it("passes 199/200 of multi_turn_base: multi_turn_base_154 cannot pass, its reference has six turns for a five-turn question (a run has five, so BFCL force-terminates it)", () => {
    const r = replay("v3", "base");
    expect([...r.failed]).toEqual([
      [
        "multi_turn_base_154",
        "multi_turn:force_terminated: Model was force-terminated during inference phase. The length of the model result turns (5) does not match the length of the ground truth turns (6).",
      ],
    ]);
    expect(r.passed).toBe(199);
  });
  for (const category of ["miss_func", "miss_param"] as const) {
    it(`passes 200/200 of multi_turn_${category}`, () => {
      const r = replay("v3", category);
      expect([...r.failed]).toEqual([]);
      expect(r.passed).toBe(200);
    });
  }
});

// long_context needs BFCL's long_context.py (the same file in v3 final and v4), which twinscore never
// ships: these run only where BFCL_EVAL_DIR names a bfcl_eval folder (or checkout) holding it.
describe("gold replay of multi_turn_long_context (BFCL_EVAL_DIR set)", () => {
  const installation = process.env.BFCL_EVAL_DIR;
  for (const version of ["v4", "v3"] as const) {
    it.runIf(installation !== undefined && installation !== "")(`passes 200/200 of the ${version} data`, () => {
      const module = findLongContextModule({ env: { BFCL_EVAL_DIR: installation }, cwd: "/", askPython: false });
      expect(module).not.toBeNull();
      const filler = readLongContext(module as string);
      if (!filler.ok) throw new Error(JSON.stringify(filler.problems));
      const r = replay(version, "long_context", filler.value);
      expect([...r.failed]).toEqual([]);
      expect(r.passed).toBe(200);
    });
  }
});
