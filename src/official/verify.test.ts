import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkRun, matches, parseExpectedFile, renderCheckLine, summaryLine, type ExpectedRun } from "./verify.js";
import { computeRunMetrics, manifestCounts } from "./metrics.js";
import { countsByName, metricsByName } from "./metric-names.js";
import { loadManifest } from "../io/manifest.js";
import { loadInputsForTest } from "../testing/read-models.js";
import { projectRoot, rolloutRunDir, sharedPath } from "../testing/shared.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("manifest");
  return m.value;
})();

const run: ExpectedRun = {
  name: "t",
  match: null,
  models: [{ name: "m1", display: "M1" }],
  bootstrap: { resamples: 10, seed: 1 },
  numbers: [
    { name: "counts.scored_pairs", value: 223, tolerance: 0, rollouts: [], scores: false },
    { name: "tables.C.m1.decision", value: 80.7, tolerance: 0.05, rollouts: ["m1"], scores: false },
    { name: "companions.official_raw.m1.miss", value: 40, tolerance: 0.05, rollouts: ["m1"], scores: true },
    { name: "tables.C.m1.ci95", value: [77.3, 84.1], tolerance: 0.1, rollouts: ["m1"], scores: false },
  ],
};

describe("checking expected numbers", () => {
  it("SKIP when rollouts are absent, never a PASS — even if a value happens to be computed", () => {
    const computed = new Map<string, number | number[]>([
      ["counts.scored_pairs", 223],
      ["tables.C.m1.decision", 80.7],
    ]);
    const lines = checkRun(run, computed, { rollouts: new Set(), scores: new Set() });
    expect(lines.map((l) => l.status)).toEqual(["PASS", "SKIP", "SKIP", "SKIP"]);
    expect(summaryLine(lines)).toBe("1 PASS, 0 FAIL, 3 SKIP");
    expect(renderCheckLine(lines[1])).toBe("SKIP t: tables.C.m1.decision expected=80.7 ±0.05 (rollouts absent: m1)");
  });
  it("SKIP an official number when only the score files are absent; FAIL outside tolerance or not computed", () => {
    const computed = new Map<string, number | number[]>([
      ["counts.scored_pairs", 222],
      ["tables.C.m1.decision", 80.76],
      ["tables.C.m1.ci95", [77.35, 84.0]],
    ]);
    const lines = checkRun(run, computed, { rollouts: new Set(["m1"]), scores: new Set() });
    expect(lines.map((l) => l.status)).toEqual(["FAIL", "FAIL", "SKIP", "PASS"]);
    expect(lines[2].note).toBe("score files absent: m1");
    const noValue = checkRun({ ...run, numbers: [run.numbers[1]] }, new Map(), { rollouts: new Set(["m1"]), scores: new Set(["m1"]) });
    expect(noValue[0]).toMatchObject({ status: "FAIL", note: "not computed" });
  });
  it("tolerance is inclusive; labels compare exactly; lists element by element", () => {
    expect(matches(80.75, 80.7, 0.05)).toBe(true);
    expect(matches(80.7501, 80.7, 0.05)).toBe(false);
    expect(matches("gpt-5.4", "gpt-5.4", 0)).toBe(true);
    expect(matches(Number.NaN, 0.82, 0.005)).toBe(false);
    expect(matches([0, 1], [0, 1], 0)).toBe(true);
    expect(matches([0, 2], [0, 1], 0)).toBe(false);
  });
  it("a malformed expected file is one clear problem", () => {
    expect(parseExpectedFile("{", "e.json")).toMatchObject({ ok: false, problems: [{ code: "json-malformed", file: "e.json" }] });
    expect(parseExpectedFile('{"runs": [{"name": "x", "models": [], "numbers": [{"name": "a"}]}]}', "e.json")).toMatchObject({
      ok: false,
      problems: [{ code: "expected-malformed" }],
    });
    const twice = JSON.stringify({
      runs: [
        {
          name: "x",
          models: [],
          numbers: [
            { name: "a", value: 1 },
            { name: "a", value: 2 },
          ],
        },
      ],
    });
    expect(parseExpectedFile(twice, "e.json")).toMatchObject({ ok: false });
  });
  it.each([
    ["a negative tolerance", { name: "a", value: 1, tolerance: -1 }, {}, "runs[0]: a: tolerance must be a number >= 0, got -1"],
    ["a tolerance in words", { name: "a", value: 1, tolerance: "abc" }, {}, 'runs[0]: a: tolerance must be a number >= 0, got "abc"'],
    ["an empty name", { name: "", value: 1 }, {}, "runs[0].numbers[0] needs a name"],
    ["a seed in words", { name: "a", value: 1 }, { seed: "x" }, 'runs[0].bootstrap.seed must be an integer >= 0, got "x"'],
  ])("%s is an expected-malformed problem, not a FAIL read under a guessed default", (_label, number, bootstrap, message) => {
    const text = JSON.stringify({ runs: [{ name: "x", models: [], bootstrap, numbers: [number] }] });
    const parsed = parseExpectedFile(text, "e.json");
    expect(parsed).toMatchObject({ ok: false, problems: [{ code: "expected-malformed", file: "e.json" }] });
    if (!parsed.ok) expect(parsed.problems[0].message).toContain(message);
  });
  it("a number with no tolerance is exact (0), as before", () => {
    const parsed = parseExpectedFile(JSON.stringify({ runs: [{ name: "x", models: [], numbers: [{ name: "a", value: 1 }] }] }), "e.json");
    expect(parsed.ok && parsed.value.runs[0].numbers[0].tolerance).toBe(0);
  });
});

describe("data/expected/paper.json is published.tsv, and every key kind is recomputable", () => {
  const tsv = readFileSync(sharedPath("paper-numbers", "published.tsv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t"));
  const paper = parseExpectedFile(readFileSync(join(projectRoot, "data", "expected", "paper.json"), "utf8"), "paper.json");
  if (!paper.ok) throw new Error("paper.json does not parse");
  const numbers = paper.value.runs[0].numbers;

  it(`holds all ${tsv.length} published numbers with the paper's tolerances`, () => {
    expect(numbers.map((n) => n.name)).toEqual(tsv.map(([k]) => k));
    const byName = new Map(numbers.map((n) => [n.name, n]));
    for (const [k, v] of tsv) {
      const n = byName.get(k)!;
      expect(Array.isArray(n.value) ? n.value.join(",") : String(n.value), k).toBe(
        v.includes(",") ? v.split(",").map(Number).join(",") : String(typeof n.value === "number" ? Number(v) : v),
      );
    }
    expect(byName.get("tables.C.gpt-5.4-FC.decision")).toMatchObject({ tolerance: 0.05, rollouts: ["gpt-5.4-FC"] });
    expect(byName.get("tables.C.gpt-5.4-FC.ci95")).toMatchObject({ value: [77.3, 84.1], tolerance: 0.1 });
    expect(byName.get("rank1.C.gpt-5.4-FC")!.rollouts).toHaveLength(7);
    expect(byName.get("companions.spearman.miss_rho")).toMatchObject({ tolerance: 0.005, scores: true });
    expect(byName.get("counts.scored_pairs")).toMatchObject({ tolerance: 0, rollouts: [] });
  });

  it("the manifest-only counts PASS without any rollouts", () => {
    const lines = checkRun(paper.value.runs[0], countsByName(manifestCounts(manifest)), { rollouts: new Set(), scores: new Set() });
    const manifestOnly = lines.filter((l) => l.name.startsWith("counts."));
    expect(manifestOnly.length).toBeGreaterThan(30);
    expect(manifestOnly.filter((l) => l.status !== "PASS")).toEqual([]);
  });

  it("with real rollouts standing in for the seven models, every published key names a number twinscore computes", () => {
    const dir = rolloutRunDir("2025-11-12-main");
    const loaded = loadInputsForTest({ resultDirs: [join(dir, "result")], scoreDirs: [join(dir, "score")], models: [], cwd: dir });
    const models = loaded.models.map((m) => m.inputs);
    // Seven stand-ins: the two gpt-oss models repeated under the paper's names.
    const paperModels = paper.value.runs[0].models.map((m) => m.name);
    const standIns = paperModels.map((name, i) => ({ ...models[i % 2], model: name }));
    const computed = metricsByName(
      computeRunMetrics(manifest, standIns, {
        bootstrap: { resamples: 50, seed: 20260612 },
        displayNames: new Map(paper.value.runs[0].models.map((m) => [m.name, m.display ?? m.name])),
      }),
    );
    const missing = numbers.filter((n) => !computed.has(n.name)).map((n) => n.name);
    expect(missing).toEqual([]);
    const lines = checkRun(paper.value.runs[0], computed, { rollouts: new Set(paperModels), scores: new Set(paperModels) });
    expect(lines.some((l) => l.status === "SKIP")).toBe(false);
    // Without score files, every number not marked `scores` is still computed.
    const noScores = metricsByName(
      computeRunMetrics(
        manifest,
        standIns.map((m) => ({ ...m, verdicts: null })),
        { bootstrap: { resamples: 0, seed: 1 } },
      ),
    );
    const needsBootstrap = (name: string) => name.endsWith(".ci95") || name.startsWith("rank1.") || name.endsWith(".display");
    expect(numbers.filter((n) => !n.scores && !needsBootstrap(n.name) && !noScores.has(n.name)).map((n) => n.name)).toEqual([]);
  });
});
