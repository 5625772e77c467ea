/**
 * Calls BFCL's Python would not return from: each stops at a stated bound of the emulation,
 * raises MemoryError and is noted as not emulated; just inside the bound, and where the
 * work does not depend on the argument, the result is BFCL's.
 */
import { describe, expect, it } from "vitest";
import { PyDict, PySet } from "../python/containers.js";
import type { PyValue } from "../python/value.js";
import { MAX_SQRT_DIGITS } from "./classes/math-api.js";
import { executeCalls, type EvaluatorProcess } from "./executor.js";
import { newEvaluatorProcess } from "./runtime.js";

function call(calls: string[], cls: string, config: PyDict = new PyDict()): { results: string[]; notes: string[] } {
  const process: EvaluatorProcess = newEvaluatorProcess();
  const results = executeCalls(process, calls, {
    initialConfig: new PyDict([[cls, config]]),
    involvedClasses: [cls],
    modelName: "m",
    entryId: "multi_turn_base_1",
    longContext: false,
    evalRun: true,
  }).results;
  return { results, notes: process.notes.map((n) => `${n.kind}: ${n.detail}`) };
}

describe("MathAPI precision bounds", () => {
  it("square_root past 100,000 digits stops at once with MemoryError and a note", () => {
    const r = call(["square_root(number=2, precision=100000000)"], "MathAPI");
    expect(r.results).toEqual(["Error during execution: "]);
    expect(r.notes).toEqual([
      "not-emulated: square_root() at a precision of 100000000 digits (CPython's decimal would compute for minutes or more; twinscore stops above 100,000)",
    ]);
  });

  it("square_root at the bound itself computes every digit, and zero at any precision is BFCL's Decimal('0')", () => {
    const r = call([`square_root(number=2, precision=${MAX_SQRT_DIGITS})`, "square_root(number=0, precision=100000000)"], "MathAPI");
    const digits = /Decimal\('1\.(\d+)'\)/.exec(r.results[0])?.[1] ?? "";
    expect(digits.length + 1).toBe(MAX_SQRT_DIGITS);
    expect(digits.startsWith("41421356237309504880")).toBe(true);
    expect(r.results[1]).toBe("{'result': Decimal('0')}");
    expect(r.notes).toEqual([]);
  });

  it("logarithm's bound is noted too; its result stays BFCL's error dict", () => {
    const r = call(["logarithm(value=2, base=10, precision=1000000)"], "MathAPI");
    expect(r.results).toEqual(['{"error": ""}']);
    expect(r.notes).toHaveLength(1);
    expect(r.notes[0]).toMatch(/^not-emulated: logarithm\(\) at \d+ bits of precision .*twinscore stops above 131072 bits/);
  });
});

describe("MessageAPI's id loop", () => {
  const ids = (from: number, to: number): PySet => {
    const s = new PySet();
    for (let i = from; i <= to; i++) s.add(BigInt(i));
    return s;
  };
  const config = (taken: PySet) =>
    new PyDict([
      ["generated_ids", taken as PyValue],
      ["current_user", "USR001"],
    ]);

  it("with all 90,000 ids taken, send_message stops with MemoryError and a note instead of looping for ever", () => {
    const r = call(["send_message(receiver_id='USR002', message='hi')"], "MessageAPI", config(ids(10000, 99999)));
    expect(r.results).toEqual(["Error during execution: "]);
    expect(r.notes).toEqual(["not-emulated: send_message() with all 90,000 message ids taken (BFCL's id loop never ends)"]);
  });

  it("with one id free, the draws go on until they find it, as in Python", () => {
    const taken = ids(10000, 99998);
    const r = call(["send_message(receiver_id='USR002', message='hi')"], "MessageAPI", config(taken));
    expect(r.results[0]).toContain('"message_id": {"new_id": 99999}');
    expect(r.notes).toEqual([]);
  });
});
