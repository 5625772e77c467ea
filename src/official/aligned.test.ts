import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PairRecord } from "../decision/types.js";
import { loadManifest } from "../io/manifest.js";
import { loadInputsForTest } from "../testing/read-models.js";
import { DEFAULT_BOOTSTRAP, pairedDifferenceInterval } from "../stats/index.js";
import { projectRoot, rolloutRunDir, rolloutRuns } from "../testing/shared.js";
import { alignedClusterTotals, alignedOutcome, alignedScore, withheldCells, type TwinCompletion } from "./aligned.js";
import { table1Ids, table1Numbers } from "../testing/numbers.js";

/** BFCL's own multi_turn_checker on the twins' prefixes (tools/gen-aligned-vectors.py): "1" = completed. */
const prefixVectors = JSON.parse(readFileSync(join(projectRoot, "src", "simulator", "testdata", "prefix-check-vectors.json"), "utf8")) as {
  pairs: [string, string, number][];
  runs: Record<string, { base: string; miss: string }>;
};
function completionsOf(run: string, model: string): Map<string, TwinCompletion> {
  const v = prefixVectors.runs[`${run}/${model}`];
  const base = v.base.split(" ");
  const miss = v.miss.split(" ");
  return new Map(prefixVectors.pairs.map(([missId], i) => [missId, { baseCompleted: base[i] === "1", missCompleted: miss[i] === "1" }]));
}

const models = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"] as const;
const loadedManifest = loadManifest();
if (!loadedManifest.ok) throw new Error("manifest");
const manifest = loadedManifest.value;
const scored = table1Ids(manifest);

function recordsOf(run: (typeof rolloutRuns)[number]): Map<string, PairRecord[]> {
  const dir = rolloutRunDir(run);
  const loaded = loadInputsForTest({ resultDirs: [join(dir, "result")], scoreDirs: [], models: [...models], cwd: dir });
  return new Map(loaded.models.map((m) => [m.inputs.model, m.inputs.records.filter((r) => scored.has(r.missId))]));
}

describe("alignedOutcome: the four cells and the aligned pair", () => {
  const record = (act: boolean, hold: boolean) => ({
    record: { missId: "m", baseId: "b", category: "miss_param" } as PairRecord,
    act,
    hold,
  });
  it("places the withheld twin by held back × completed and requires both twins right and completed", () => {
    expect(alignedOutcome(record(true, true), { baseCompleted: true, missCompleted: true })).toMatchObject({
      withheld: "held-completed",
      baseActedCompleted: true,
      aligned: true,
    });
    expect(alignedOutcome(record(true, true), { baseCompleted: false, missCompleted: true })).toMatchObject({
      withheld: "held-completed",
      aligned: false,
    });
    expect(alignedOutcome(record(true, true), { baseCompleted: true, missCompleted: false })).toMatchObject({
      withheld: "held-not-completed",
      aligned: false,
    });
    expect(alignedOutcome(record(true, false), { baseCompleted: true, missCompleted: true })).toMatchObject({
      withheld: "acted-completed",
      aligned: false,
    });
    expect(alignedOutcome(record(false, false), { baseCompleted: true, missCompleted: false })).toMatchObject({
      withheld: "acted-not-completed",
      baseActedCompleted: false,
    });
  });
});

describe("aligned pair score on the 223 scored pairs of both gpt-oss runs (completion from BFCL's own prefix checks)", () => {
  const scores = new Map<string, ReturnType<typeof alignedScore>>();
  for (const run of rolloutRuns) {
    const byModel = recordsOf(run);
    for (const model of models) {
      it(`${run}/${model}: the cells partition the pairs and the aligned count is recounted independently`, () => {
        const records = byModel.get(model)!;
        expect(records).toHaveLength(223);
        const completions = completionsOf(run, model);
        const s = alignedScore(records, completions, DEFAULT_BOOTSTRAP);
        scores.set(`${run}/${model}`, s);
        expect([s.n, s.missingCompletion]).toEqual([223, []]);
        expect(withheldCells.reduce((t, c) => t + s.withheld[c], 0)).toBe(223);
        const held = records.filter((r) => r.heldBack).length;
        expect(s.withheld["held-completed"] + s.withheld["held-not-completed"]).toBe(held);
        expect(s.withheld["acted-completed"] + s.withheld["acted-not-completed"]).toBe(223 - held);
        // recount straight from the records and BFCL's prefix verdicts
        const c = (id: string) => completions.get(id)!;
        expect(s.aligned).toBe(
          records.filter((r) => r.actedOnBase && r.heldBack && c(r.missId).baseCompleted && c(r.missId).missCompleted).length,
        );
        expect(s.baseActedCompleted).toBe(records.filter((r) => r.actedOnBase && c(r.missId).baseCompleted).length);
        expect(s.withheld["acted-completed"]).toBe(records.filter((r) => r.actedOnMiss && c(r.missId).missCompleted).length);
        // aligned needs the decision right on both twins, so it sits under the decision's pair rate
        expect(s.alignedPct).toBeLessThanOrEqual(table1Numbers(records, manifest, "release").pair);
        expect(s.aligned).toBeLessThanOrEqual(Math.min(s.withheld["held-completed"], s.baseActedCompleted));
        expect(s.ci95![0]).toBeLessThan(s.alignedPct);
        expect(s.ci95![1]).toBeGreaterThan(s.alignedPct);
        expect(alignedScore(records, completions, { resamples: 0, seed: 1 }).ci95).toBeNull();
      });
    }
  }

  it("2025-11-12-main/openai_gpt-oss-120b: 104 asked then did it, 51 held back without completing, 25 lucky guesses, 43 acted and failed; 94 aligned pairs, 42.2 [34.9, 49.8]", () => {
    const s = scores.get("2025-11-12-main/openai_gpt-oss-120b")!;
    expect(s.withheld).toEqual({ "held-completed": 104, "held-not-completed": 51, "acted-completed": 25, "acted-not-completed": 43 });
    expect([s.baseActedCompleted, s.aligned]).toEqual([140, 94]);
    expect([s.alignedPct.toFixed(1), s.ci95!.map((x) => x.toFixed(1))]).toEqual(["42.2", ["34.9", "49.8"]]);
  });

  it("multi_turn_miss_param_122 (main, 120b) is aligned: no call on turn 0, place_order(AAPL) once the user names it; the base twin places it on turn 0", () => {
    const s = scores.get("2025-11-12-main/openai_gpt-oss-120b")!;
    expect(s.outcomes.find((o) => o.missId === "multi_turn_miss_param_122")).toMatchObject({
      withheld: "held-completed",
      baseActedCompleted: true,
      aligned: true,
    });
  });

  it("two serving builds as arms: the paired cluster-bootstrap interval of the change in aligned share (120b)", () => {
    const a = scores.get("2025-11-12-main/openai_gpt-oss-120b")!;
    const b = scores.get("2025-11-12-harmony-fixes/openai_gpt-oss-120b")!;
    const keys = [...new Set([...a.outcomes, ...b.outcomes].map((o) => o.baseId))].sort();
    const ci = pairedDifferenceInterval(alignedClusterTotals(a.outcomes, keys), alignedClusterTotals(b.outcomes, keys), DEFAULT_BOOTSTRAP);
    const change = b.alignedPct - a.alignedPct;
    expect(change.toFixed(1)).toBe("8.1");
    expect(ci[0]).toBeLessThan(change);
    expect(ci[1]).toBeGreaterThan(change);
  });
});
