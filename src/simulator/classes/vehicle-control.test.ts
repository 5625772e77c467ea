import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { classVectorIo, replayClassVectors } from "../../testing/class-vector-files.js";
import { runCall, summarize } from "./class-vectors.js";
import { newVehicleControlApi } from "./vehicle-control.js";
import { PythonProcess } from "./process.js";

const outcomes = replayClassVectors("vehicle-control", (p) => newVehicleControlApi(p));

describe("VehicleControlAPI against BFCL's Python (tools/gen-class-vectors.py)", () => {
  it("replays every ground-truth call of base, miss_func, miss_param and long_context (e.g. multi_turn_base_100)", () => {
    const s = summarize(outcomes, "gt");
    expect(s.mismatches).toEqual([]);
    expect(s.cases).toBe(200);
  });
  it("matches on the error paths, wrong-typed arguments and long_context filler", () => {
    const s = summarize(outcomes, "inline");
    expect(s.mismatches).toEqual([]);
    expect(s.calls).toBeGreaterThan(90);
  });
  it("matches on the gpt-oss sequences that add coverage (36 of the 581 stored ones; e.g. 2025-11-12-harmony-fixes gpt-oss-120b multi_turn_base_50)", () => {
    // the generator keeps a model sequence only when it shows something the ground-truth and error sequences did not:
    // a line arc of BFCL's class, an error text, an argument/result/state type shape, or a way its FC steps decode and parse
    const s = summarize(outcomes, "model");
    expect(s.mismatches).toEqual([]);
    expect(s.cases).toBe(36);
    expect(outcomes.some((o) => o.name === "model 2025-11-12-harmony-fixes openai_gpt-oss-120b multi_turn_base_50" && o.calls > 0)).toBe(true);
  });
  it("draws uniform(-10, 40) from Random(141053) and recomputes the unlocked-door count at load", () => {
    const v = newVehicleControlApi();
    v.loadScenario(new PyDict([["remainingUnlockedDoors", 4n], ["doorStatus", new PyDict([["driver", "locked"], ["passenger", "locked"], ["rear_left", "unlocked"], ["rear_right", "locked"]])]]), false);
    expect(runCall(v, "get_outside_temperature_from_google()")).toBe('{"outsideTemperature": 36.63485703790535}');
    expect(v.publicState().find(([k]) => k === "remainingUnlockedDoors")?.[1]).toBe(1n);
    expect(runCall(v, "lockDoors(unlock=False, door=['rear_left', 'trunk'])")).toBe("Error during execution: 'trunk'");
    expect(v.publicState().find(([k]) => k === "remainingUnlockedDoors")?.[1]).toBe(0n);
  });
  it("returns the process-wide long_context weather dict, as BFCL's module-level LONG_WEATHER_EXTENSION", () => {
    // Python: both instances return the same dict object; the second call overwrote outsideTemperature.
    const process = new PythonProcess();
    const v = newVehicleControlApi(process);
    const w = newVehicleControlApi(process);
    v.loadScenario(new PyDict(), true, classVectorIo.filler());
    w.loadScenario(new PyDict(), true, classVectorIo.filler());
    const first = v.methods.get("get_outside_temperature_from_google")!.invoke([], v);
    const second = w.methods.get("get_outside_temperature_from_google")!.invoke([], w);
    expect(first).toBe(second);
    expect((second as PyDict).get("outsideTemperature")).toBe(36.63485703790535);
  });
});

