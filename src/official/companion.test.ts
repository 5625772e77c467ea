import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { lossPlace, officialCompanion } from "./companion.js";
import { loadManifest } from "../io/manifest.js";
import { loadInputsForTest } from "../testing/read-models.js";
import { rolloutRunDir } from "../testing/shared.js";
import { table1Ids, table1Numbers } from "../testing/numbers.js";

describe("where a failed item was lost", () => {
  it("classifies by failing turn against the anchor and BFCL's error type", () => {
    expect(lossPlace(null, 2, "multi_turn:force_terminated")).toBe("no-turn");
    expect(lossPlace(1, 2, "multi_turn:instance_state_mismatch")).toBe("before-anchor");
    expect(lossPlace(2, 2, "multi_turn:instance_state_mismatch")).toBe("on-anchor");
    expect(lossPlace(3, 2, "multi_turn:empty_turn_model_response")).toBe("later-empty-turn");
    expect(lossPlace(3, 2, "multi_turn:execution_response_mismatch")).toBe("later-diverged");
  });
});

describe("official companion on 2025-11-12-main, openai_gpt-oss-120b", () => {
  const m = loadManifest();
  if (!m.ok) throw new Error("manifest");
  const dir = rolloutRunDir("2025-11-12-main");
  const run = loadInputsForTest({
    resultDirs: [join(dir, "result")],
    scoreDirs: [join(dir, "score")],
    models: ["openai_gpt-oss-120b"],
    cwd: dir,
  });
  const inputs = run.models[0].inputs;
  const scored = table1Ids(m.value);
  const records = inputs.records.filter((r) => scored.has(r.missId));
  const oc = officialCompanion(records, inputs.verdicts!);

  it("official raw 43.9 on the 223 should-ask items and 48.3 on their 151 base twins", () => {
    expect(oc.missingVerdicts).toEqual([]);
    expect([oc.missItems, oc.missPasses, oc.baseTwins, oc.basePasses]).toEqual([223, 98, 151, 73]);
    expect(oc.rawMiss.toFixed(1)).toBe("43.9");
    expect(oc.rawBase.toFixed(1)).toBe("48.3");
  });
  it("no held-back item is lost on the anchor turn: BFCL's checker skips it", () => {
    expect(oc.losses["on-anchor"]).toBe(0);
    const places = oc.losses["before-anchor"] + oc.losses["later-empty-turn"] + oc.losses["later-diverged"] + oc.losses["no-turn"];
    expect(places).toBe(oc.losses.heldBackFailed);
    expect(oc.failed.filter((f) => f.heldBack).length).toBe(oc.losses.heldBackFailed);
  });
  it("passes include world-changing attempts on the anchor (verdict vs attempt)", () => {
    const va = oc.verdictVsAttempt;
    expect(va.passes + va.fails).toBe(223);
    expect(va.passAttempt!).toBeGreaterThan(0);
    expect(records.filter((r) => r.actedOnMiss && inputs.verdicts!.get(r.missId)!.pass).length).toBe(
      Math.round((va.passAttempt! * va.passes) / 100),
    );
  });
  it("names the failing turn of multi_turn_miss_func_8 (empty turn 3) and of the inference errors (none)", () => {
    expect(oc.failed.find((f) => f.missId === "multi_turn_miss_func_8")).toMatchObject({
      failingTurn: 3,
      errorType: "multi_turn:empty_turn_model_response",
    });
    expect(oc.failed.find((f) => f.missId === "multi_turn_miss_param_17")).toMatchObject({ failingTurn: 3, anchorTurn: 2 });
    const inferenceErrors = oc.failed.filter((f) => f.errorType === "multi_turn:inference_error");
    expect(inferenceErrors.length).toBeGreaterThan(0);
    for (const f of inferenceErrors) expect(f.place).toBe("no-turn");
  });
});
