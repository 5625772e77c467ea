/**
 * Real-data acceptance: on the two stored gpt-oss runs the numbers equal the paper's
 * own scorer on the same files, to the printed decimal.
 */
import { describe, expect, it } from "vitest";
import { scoreRow } from "../decision/table.js";
import { headlineSpec, summarize } from "../decision/readings.js";
import type { ScoreOptions, SideRule } from "../decision/types.js";
import { rolloutRunDir } from "../testing/shared.js";
import { loadManifest } from "../io/manifest.js";
import { readForTest } from "../testing/read-models.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("committed manifest does not load");
  return m.value;
})();

type Run = "2025-11-12-main" | "2025-11-12-harmony-fixes";

/** A model's Table 1 row as `score` prints it, under the release reading (the paper's numbers) or the default. */
async function row(run: Run, model: string, options: ScoreOptions, rule: SideRule = "release"): Promise<string> {
  const outcome = await readForTest([rolloutRunDir(run)], { models: [model], pairs: { headline: options }, cwd: process.cwd() });
  expect(outcome.problems).toEqual([]);
  const score = outcome.models[0].score!;
  const numbers = summarize(score.records, manifest, headlineSpec(options), rule);
  const r = scoreRow({ model, numbers, pairs: numbers.pairs, undecided: numbers.undecided, counts: score.counts, note: null });
  return [r.n, r.act, r.hold, r.decision, r.holdCredited, r.decisionCredited, r.pair, r.byCategory.miss_func, r.byCategory.miss_param].join(
    " / ",
  );
}

const table1: ScoreOptions = { pairSet: "certified", countLogin: false };

describe("acceptance on ../shared/rollouts/gpt-oss", () => {
  it.each([
    ["2025-11-12-main", "openai_gpt-oss-120b", "223 / 96.9 / 69.5 / 83.2 / 74.9 / 85.9 / 67.3 / 81.9 / 84.6"],
    ["2025-11-12-main", "openai_gpt-oss-20b", "223 / 89.7 / 74.4 / 82.1 / 78.0 / 83.9 / 66.8 / 81.9 / 82.2"],
    ["2025-11-12-harmony-fixes", "openai_gpt-oss-120b", "223 / 94.6 / 69.1 / 81.8 / 76.2 / 85.4 / 64.6 / 78.9 / 85.0"],
    ["2025-11-12-harmony-fixes", "openai_gpt-oss-20b", "223 / 89.7 / 70.0 / 79.8 / 75.3 / 82.5 / 61.0 / 78.4 / 81.3"],
  ] as const)("%s %s: Table 1 under the release reading", async (run, model, expected) => {
    expect(await row(run, model, table1)).toBe(expected);
  });

  it.each([
    ["2025-11-12-main", "openai_gpt-oss-120b", "213 / 96.7 / 68.1 / 82.4 / 73.7 / 85.2 / 65.7 / 80.2 / 84.6"],
    ["2025-11-12-main", "openai_gpt-oss-20b", "200 / 93.5 / 73.5 / 83.5 / 77.5 / 85.5 / 68.0 / 83.3 / 83.7"],
    ["2025-11-12-harmony-fixes", "openai_gpt-oss-120b", "216 / 94.9 / 68.1 / 81.5 / 75.5 / 85.2 / 63.9 / 78.0 / 85.0"],
    ["2025-11-12-harmony-fixes", "openai_gpt-oss-20b", "211 / 91.5 / 68.7 / 80.1 / 74.4 / 82.9 / 61.1 / 77.8 / 82.4"],
  ] as const)("%s %s: Table 1 on the pairs decided on both twins", async (run, model, expected) => {
    expect(await row(run, model, table1, "decided")).toBe(expected);
  });

  it("2025-11-12-main gpt-oss-120b --count-login: 225 pairs", async () => {
    expect(await row("2025-11-12-main", "openai_gpt-oss-120b", { pairSet: "certified", countLogin: true })).toBe(
      "225 / 96.9 / 68.9 / 82.9 / 73.8 / 85.3 / 66.7 / 81.2 / 84.7",
    );
  });

  it("2025-11-12-main gpt-oss-120b --uncertified: 231 pairs", async () => {
    expect(await row("2025-11-12-main", "openai_gpt-oss-120b", { pairSet: "uncertified", countLogin: false })).toBe(
      "231 / 97.0 / 67.5 / 82.3 / 72.7 / 84.8 / 65.4 / 82.1 / 82.5",
    );
  });

  it("2025-11-12-main gpt-oss-120b --all-pairs: 365 pairs", async () => {
    expect(await row("2025-11-12-main", "openai_gpt-oss-120b", { pairSet: "all", countLogin: false })).toBe(
      "365 / 62.2 / 77.5 / 69.9 / 80.8 / 71.5 / 41.9 / 69.5 / 70.2",
    );
  });
});
