import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { join, resolve } from "node:path";
import { longContextPathIn } from "../../io/long-context.js";
import { projectRoot, sharedDir } from "../../testing/shared.js";
import { parseLongContextModule } from "../long-context.js";
import { replayVectorFile, runCall, summarize } from "./class-vectors.js";
import { newVehicleControlApi } from "./vehicle-control.js";
import { PythonProcess } from "./process.js";

/** BFCL's long_context.py from the checkout beside the project (or BFCL_EVAL_DIR); the tests fail loudly without it. */
function bfclFiller() {
  const dir = process.env.BFCL_EVAL_DIR ?? resolve(projectRoot, "..", "gorilla-src", "berkeley-function-call-leaderboard");
  const path = longContextPathIn(dir);
  if (!path) throw new Error(`BFCL's long_context.py not found under ${dir} (set BFCL_EVAL_DIR)`);
  // the executor helper's parseLongContextModule still trips on the space after `=`; feed it trimmed statements
  const text = readFileSync(path, "utf8").replace(/^([A-Z_][A-Z0-9_]*)[ \t]*=[ \t]*/gm, "$1 = ").replace(/^([A-Z_][A-Z0-9_]*) = /gm, "$1 =");
  const parsed = parseLongContextModule(text, path);
  if (!parsed.ok) throw new Error(`cannot read ${path}: ${parsed.problems.map((q) => q.message).join("; ")}`);
  return parsed.value;
}
let fillerCache: ReturnType<typeof bfclFiller> | undefined;
const io = { readShared: (p: string) => readFileSync(join(sharedDir(), p), "utf8"), filler: () => (fillerCache ??= bfclFiller()) };
const outcomes = replayVectorFile(readFileSync(new URL("./testdata/vehicle-control.vectors.json", import.meta.url), "utf8"), (p) => newVehicleControlApi(p), io);

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
  it("matches on gpt-oss's own calls (both stored runs, both models)", () => {
    const s = summarize(outcomes, "model");
    expect(s.mismatches).toEqual([]);
    expect(s.cases).toBeGreaterThan(200);
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
    v.loadScenario(new PyDict(), true, io.filler());
    w.loadScenario(new PyDict(), true, io.filler());
    const first = v.methods.get("get_outside_temperature_from_google")!.invoke([]);
    const second = w.methods.get("get_outside_temperature_from_google")!.invoke([]);
    expect(first).toBe(second);
    expect((second as PyDict).get("outsideTemperature")).toBe(36.63485703790535);
  });
});

