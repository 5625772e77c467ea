import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { describeVectorReplay, runCall, syntheticFiller } from "../../testing/class-vectors.js";
import { newVehicleControlApi } from "./vehicle-control.js";
import { PythonProcess } from "./process.js";

describeVectorReplay({
  className: "VehicleControlAPI",
  vectors: "vehicle-control",
  make: (p) => newVehicleControlApi(p),
  gtCases: 200,
  gtExample: "multi_turn_base_100",
  inlineCovers: "the error paths, wrong-typed arguments and long_context filler",
  minInlineCalls: 90,
  modelCases: 36,
  modelStored: 581,
  modelExample: ["2025-11-12-harmony-fixes", "openai_gpt-oss-120b", "multi_turn_base_50"],
});

describeVectorReplay({
  className: "VehicleControlAPI",
  vectors: "vehicle-control",
  version: "v3",
  make: (p) => newVehicleControlApi(p),
  gtCases: 200,
  gtExample: "multi_turn_base_50",
  inlineCovers: "the error paths, wrong-typed arguments and long_context filler",
  minInlineCalls: 100,
  modelCases: 4,
  modelStored: 150,
  modelExample: ["", "Salesforce_Llama-xLAM-2-8b-fc-r", "multi_turn_base_50"],
});

describe("VehicleControlAPI: behaviours checked by hand", () => {
  it("draws uniform(-10, 40) from Random(141053) and recomputes the unlocked-door count at load", () => {
    const v = newVehicleControlApi();
    v.loadScenario(
      new PyDict([
        ["remainingUnlockedDoors", 4n],
        [
          "doorStatus",
          new PyDict([
            ["driver", "locked"],
            ["passenger", "locked"],
            ["rear_left", "unlocked"],
            ["rear_right", "locked"],
          ]),
        ],
      ]),
      false,
    );
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
    v.loadScenario(new PyDict(), true, syntheticFiller());
    w.loadScenario(new PyDict(), true, syntheticFiller());
    const first = v.methods.get("get_outside_temperature_from_google")!.invoke([], v);
    const second = w.methods.get("get_outside_temperature_from_google")!.invoke([], w);
    expect(first).toBe(second);
    expect((second as PyDict).get("outsideTemperature")).toBe(36.63485703790535);
  });
});
