import { describe, expect, it } from "vitest";
import { replayErrorPaths, replayGroundTruth, replayModelCalls, signatureDifferences } from "../../testing/class-vectors.js";

describe("MathAPI against BFCL's Python class (vectors of tools/class-vectors.py)", () => {
  it("declares every public method with Python's parameter names, order and defaults", () => {
    expect(signatureDifferences("MathAPI")).toEqual([]);
  });

  it("replays every MathAPI reference call of base, miss_func, miss_param and long_context (on the synthetic filler testdata/synthetic-long-context.py) from initial_config, turn by turn: same result strings, same public state", () => {
    const r = replayGroundTruth("MathAPI");
    expect(r.failures).toEqual([]);
    expect(r.sequences).toBeGreaterThan(0);
    expect(r.passed).toBe(r.calls);
    expect(r.statesPassed).toBe(r.states);
  });

  it("replays the sampled MathAPI calls gpt-oss-120b/20b made in both stored runs: same result strings, same public state", () => {
    const r = replayModelCalls("MathAPI");
    expect(r.failures).toEqual([]);
    expect(r.calls).toBeGreaterThan(0);
    expect(r.passed).toBe(r.calls);
    expect(r.statesPassed).toBe(r.states);
  });

  it("reproduces the hand-written error paths (wrong types, missing items, quirks) on real scenarios", () => {
    const r = replayErrorPaths("MathAPI");
    expect(r.failures).toEqual([]);
    expect(r.calls).toBeGreaterThan(0);
    expect(r.passed).toBe(r.calls);
    expect(r.statesPassed).toBe(r.states);
  });

  it("reproduces seeded random calls with awkward arguments (None, bools, huge ints, nan, lists, dicts, paths) on real base scenarios", () => {
    const r = replayErrorPaths("MathAPI", "fuzz");
    expect(r.failures).toEqual([]);
    expect(r.calls).toBeGreaterThanOrEqual(1000);
    expect(r.passed).toBe(r.calls);
    expect(r.statesPassed).toBe(r.states);
  });
});

describe("MathAPI of BFCL v3 final against its Python class (vectors of tools/class-vectors.py --version v3)", () => {
  it("declares every public method with v3's parameter names, order and defaults", () => {
    expect(signatureDifferences("MathAPI", "v3")).toEqual([]);
  });

  it("replays every MathAPI reference call of the v3 data from initial_config, turn by turn: same result strings, same public state", () => {
    const r = replayGroundTruth("MathAPI", "v3");
    expect(r.failures).toEqual([]);
    expect(r.sequences).toBeGreaterThan(0);
    expect(r.passed).toBe(r.calls);
    expect(r.statesPassed).toBe(r.states);
  });

  it("replays the sampled MathAPI calls of the xLAM v3 run (as BFCL logged their decoding): same result strings, same public state", () => {
    const r = replayModelCalls("MathAPI", "v3");
    expect(r.failures).toEqual([]);
    expect(r.calls).toBeGreaterThan(0);
    expect(r.passed).toBe(r.calls);
    expect(r.statesPassed).toBe(r.states);
  });

  it("reproduces the hand-written error paths and the seeded random calls on v3 scenarios", () => {
    for (const family of ["error-paths", "fuzz"] as const) {
      const r = replayErrorPaths("MathAPI", family, "v3");
      expect(r.failures).toEqual([]);
      expect(r.calls).toBeGreaterThan(0);
      expect(r.passed).toBe(r.calls);
      expect(r.statesPassed).toBe(r.states);
    }
  });
});
