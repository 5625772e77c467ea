import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { loadManifest } from "../io/manifest.js";
import { loadInputsForTest } from "../testing/read-models.js";
import { computeRunMetrics } from "../official/metrics.js";
import { metricsByName, type MetricsByName as Metrics } from "../official/metric-names.js";
import { rolloutRunDir, rolloutRuns } from "../testing/shared.js";
import { DEFAULT_BOOTSTRAP } from "../stats/index.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("committed manifest does not load");
  return m.value;
})();

const loaded = new Map<string, { run: ReturnType<typeof loadInputsForTest>; metrics: Metrics }>();
function metricsOf(run: (typeof rolloutRuns)[number]): { run: ReturnType<typeof loadInputsForTest>; metrics: Metrics } {
  let got = loaded.get(run);
  if (!got) {
    const dir = rolloutRunDir(run);
    const r = loadInputsForTest({
      resultDirs: [join(dir, "result")],
      scoreDirs: [join(dir, "score")],
      models: ["openai_gpt-oss-120b", "openai_gpt-oss-20b"],
      cwd: dir,
    });
    got = {
      run: r,
      metrics: metricsByName(
        computeRunMetrics(
          manifest,
          r.models.map((m) => m.inputs),
          { bootstrap: DEFAULT_BOOTSTRAP, rule: "release" },
        ),
      ),
    };
    loaded.set(run, got);
  }
  return got;
}

const f1 = (v: unknown) => (v as number).toFixed(1);
const f4 = (v: unknown) => Array.from(v as number[], (x) => x.toFixed(4));

describe("official companion and intervals on the real gpt-oss runs", () => {
  it("2025-11-12-main: decision intervals [79.7235, 86.4869] and [78.1659, 85.8108]; official raw 43.9/48.3 and 44.8/49.7", () => {
    const { run, metrics } = metricsOf("2025-11-12-main");
    expect(run.models.map((m) => m.inputs.model)).toEqual(["openai_gpt-oss-120b", "openai_gpt-oss-20b"]);
    expect(run.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(f1(metrics.get("tables.C.openai_gpt-oss-120b.decision"))).toBe("83.2");
    expect(f4(metrics.get("tables.C.openai_gpt-oss-120b.ci95"))).toEqual(["79.7235", "86.4869"]);
    expect(f4(metrics.get("tables.C.openai_gpt-oss-20b.ci95"))).toEqual(["78.1659", "85.8108"]);
    expect(f1(metrics.get("companions.official_raw.openai_gpt-oss-120b.miss"))).toBe("43.9");
    expect(f1(metrics.get("companions.official_raw.openai_gpt-oss-120b.base"))).toBe("48.3");
    expect(f1(metrics.get("companions.official_raw.openai_gpt-oss-20b.miss"))).toBe("44.8");
    expect(f1(metrics.get("companions.official_raw.openai_gpt-oss-20b.base"))).toBe("49.7");
    expect(metrics.get("companions.official_raw.openai_gpt-oss-120b.base_twins")).toBe(151);
    expect(metrics.get("companions.official_raw.openai_gpt-oss-120b.miss_items")).toBe(223);
  });
  it("2025-11-12-harmony-fixes: [78.2895, 85.3881] and [76.1161, 83.6208]; official raw 50.2/62.9 and 42.2/52.3", () => {
    const { metrics } = metricsOf("2025-11-12-harmony-fixes");
    expect(f1(metrics.get("tables.C.openai_gpt-oss-120b.decision"))).toBe("81.8");
    expect(f4(metrics.get("tables.C.openai_gpt-oss-120b.ci95"))).toEqual(["78.2895", "85.3881"]);
    expect(f4(metrics.get("tables.C.openai_gpt-oss-20b.ci95"))).toEqual(["76.1161", "83.6208"]);
    expect(f1(metrics.get("companions.official_raw.openai_gpt-oss-120b.miss"))).toBe("50.2");
    expect(f1(metrics.get("companions.official_raw.openai_gpt-oss-120b.base"))).toBe("62.9");
    expect(f1(metrics.get("companions.official_raw.openai_gpt-oss-20b.miss"))).toBe("42.2");
    expect(f1(metrics.get("companions.official_raw.openai_gpt-oss-20b.base"))).toBe("52.3");
  });
  it("sensitivities in one pass: 225 pairs with logins, 231 uncertified, 365 all, 230 with the bad keys restored, 184 anchors", () => {
    const { metrics } = metricsOf("2025-11-12-main");
    const m = "openai_gpt-oss-120b";
    expect(metrics.get(`tables.C-login.${m}.n`)).toBe(225);
    expect(metrics.get(`tables.C-uncertified.${m}.n`)).toBe(231);
    expect(metrics.get(`tables.C-all.${m}.n`)).toBe(365);
    expect(f1(metrics.get(`tables.C-all.${m}.hold`))).toBe("77.5");
    expect(metrics.get(`tables.C-restored.${m}.n`)).toBe(230);
    expect(metrics.get(`companions.act_per_anchor.${m}.anchors`)).toBe(184);
    expect(metrics.get(`companions.by_category.${m}.miss_func.n`)).toBe(116);
    // the reached reading drops the 8 holdout inference errors and the rollouts that ended early
    expect(metrics.get(`tables.C-reached.${m}.n`)).toBeLessThan(223);
    const rank1 = [metrics.get(`rank1.C.${m}`), metrics.get("rank1.C.openai_gpt-oss-20b")] as number[];
    expect(rank1[0] + rank1[1]).toBeCloseTo(100, 9);
  });
});

describe("act and hold intervals beside decision", () => {
  it("2025-11-12-main gpt-oss-120b: the act and hold intervals bracket their rates", () => {
    const { metrics } = metricsOf("2025-11-12-main");
    for (const side of ["act", "hold"] as const) {
      const [lo, hi] = metrics.get(`tables.C.openai_gpt-oss-120b.${side}_ci95`) as number[];
      const rate = metrics.get(`tables.C.openai_gpt-oss-120b.${side}`) as number;
      expect(lo).toBeLessThan(rate);
      expect(hi).toBeGreaterThan(rate);
    }
  });
});
