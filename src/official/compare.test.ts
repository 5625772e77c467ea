import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { compareArms, comparisonRows } from "./compare.js";
import { loadManifest } from "../io/manifest.js";
import { loadInputsForTest } from "../testing/read-models.js";
import { rolloutRunDir } from "../testing/shared.js";
import { table1Ids, table1Numbers } from "../testing/numbers.js";

describe("compare: the two gpt-oss runs as arms of gpt-oss-120b (main → harmony-fixes)", () => {
  const m = loadManifest();
  if (!m.ok) throw new Error("manifest");
  const scored = table1Ids(m.value);
  const arm = (run: "2025-11-12-main" | "2025-11-12-harmony-fixes") => {
    const dir = rolloutRunDir(run);
    const loaded = loadInputsForTest({
      resultDirs: [join(dir, "result")],
      scoreDirs: [join(dir, "score")],
      models: ["openai_gpt-oss-120b"],
      cwd: dir,
    });
    const inputs = loaded.models[0].inputs;
    return { label: run, records: inputs.records.filter((r) => scored.has(r.missId)), verdicts: inputs.verdicts };
  };
  const a = arm("2025-11-12-main");
  const b = arm("2025-11-12-harmony-fixes");
  const c = compareArms(a, b, { resamples: 10000, seed: 20260612 });

  it("the decision barely moves, 83.2 → 81.8, and its paired interval covers 0", () => {
    expect(c.pairs).toBe(223);
    expect(c.decision.a.toFixed(1)).toBe("83.2");
    expect(c.decision.b.toFixed(1)).toBe("81.8");
    const [lo, hi] = c.decision.ci95!;
    expect(lo).toBeLessThan(0);
    expect(hi).toBeGreaterThan(0);
  });
  it("official raw on the scored miss items moves 43.9 → 50.2, with the flips counted both ways", () => {
    const o = c.official!;
    expect(o.rawMiss.a.toFixed(1)).toBe("43.9");
    expect(o.rawMiss.b.toFixed(1)).toBe("50.2");
    expect(o.rawMiss.failToPass - o.rawMiss.passToFail).toBe(Math.round(((o.rawMiss.b - o.rawMiss.a) * 223) / 100));
    expect(o.byCategory.base.n).toBe(200);
    expect(o.byCategory.base.a.toFixed(1)).toBe("50.0");
  });
  it("McNemar's discordant counts agree with the rate shifts on every side and category", () => {
    for (const s of [c.all, c.byCategory.miss_func, c.byCategory.miss_param]) {
      for (const side of [s.act, s.hold, s.attempt]) {
        expect(side.test.bOnly - side.test.aOnly).toBe(Math.round(((side.b - side.a) * side.n) / 100));
        expect(side.test.p).toBeGreaterThan(0);
        expect(side.test.p).toBeLessThanOrEqual(1);
      }
    }
    expect(c.byCategory.miss_func.act.n + c.byCategory.miss_param.act.n).toBe(223);
  });
  it("flattens into rows for every output format", () => {
    const rows = comparisonRows(c);
    expect(rows.map((r) => `${r.measure}/${r.slice}`)).toContain("decision/all");
    expect(rows.filter((r) => r.measure === "official (all items)").map((r) => r.slice)).toEqual(["base", "miss_func", "miss_param"]);
  });
});
