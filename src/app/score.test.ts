// The score use case on its own: a typed request in, the document out, on the real runs.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readings } from "../decision/readings.js";
import { rolloutRunDir } from "../testing/shared.js";
import { scoreRuns } from "./score.js";

const main = rolloutRunDir("2025-11-12-main");
const r1 = (x: number | null | undefined) => (x === null || x === undefined ? null : Math.round(x * 10) / 10);

describe("scoreRuns on 2025-11-12-main (two models)", () => {
  it("the default reading: decided pairs only; gpt-oss-20b past the 10 % gate has no headline and the exit is 1", async () => {
    const doc = await scoreRuns({ results: [main], bootstrap: { resamples: 0 } });
    expect(doc.options).toMatchObject({ reading: "decided", maxUndecided: 10, pairSet: "certified", pairsSelected: 223 });
    const [big, small] = doc.models;
    expect([big.model, big.scored, big.numbers?.n, r1(big.numbers?.act), r1(big.numbers?.hold), r1(big.numbers?.decision)]).toEqual([
      "openai_gpt-oss-120b",
      true,
      213,
      96.7,
      68.1,
      82.4,
    ]);
    expect(big.undecided).toMatchObject({
      pairs: 223,
      total: 10,
      byStatus: { "inference-error": 9, "not-reached": 1, missing: 0, undecidable: 0 },
    });
    expect([small.model, small.scored, small.numbers, small.ci95]).toEqual(["openai_gpt-oss-20b", true, null, null]);
    expect(small.undecided).toMatchObject({ total: 23, byStatus: { "inference-error": 21, "not-reached": 2 } });
    expect(small.noHeadline).toMatch(/^no act, hold or decision: 23 of 223 pairs undecided \(10\.3 % > --max-undecided 10 %/);
    expect(doc.problems.filter((p) => p.code === "no-headline").map((p) => p.message)).toEqual([
      `model openai_gpt-oss-20b: ${small.noHeadline}`,
    ]);
    // one model with a headline: no rank-1 share
    expect(big.rank1).toBeNull();
    expect(doc.exitCode).toBe(1);
  });

  it("a wider gate gives gpt-oss-20b its row, ranked against 120b; the release reading gives the paper's numbers on every pair", async () => {
    const wide = await scoreRuns({ results: [main], maxUndecided: 15, bootstrap: { resamples: 200, seed: 1 } });
    expect(wide.models.map((m) => m.numbers?.n)).toEqual([213, 200]);
    expect(wide.models.every((m) => m.ci95 !== null && m.rank1 !== null)).toBe(true);
    expect(wide.models.reduce((s, m) => s + m.rank1!, 0)).toBeCloseTo(100, 10);
    expect(wide.exitCode).toBe(0);
    const release = await scoreRuns({ results: [main], reading: "release", bootstrap: { resamples: 0 } });
    expect(release.models.map((m) => [m.numbers?.n, r1(m.numbers?.decision)])).toEqual([
      [223, 83.2],
      [223, 82.1],
    ]);
    // the error and short sides read as no call: no pair left out, the statuses still counted
    expect(release.models.map((m) => [m.undecided!.total, m.undecided!.byStatus["inference-error"], m.noHeadline])).toEqual([
      [0, 9, null],
      [0, 21, null],
    ]);
    expect(release.exitCode).toBe(0);
  });

  it("sensitivity: one row per model and reading of the readings table (then its act per anchor), the headline's own row equal to it", async () => {
    const doc = await scoreRuns({ results: [main], sensitivity: true, maxUndecided: 15, bootstrap: { resamples: 0 } });
    const rows = doc.sensitivity!.rows;
    expect(rows.map((r) => `${r.model} ${r.reading}`)).toEqual(
      doc.models.flatMap((m) => [...readings.map((r) => `${m.model} ${r.id}`), `${m.model} act-per-anchor`]),
    );
    for (const m of doc.models) {
      const own = rows.find((r) => r.model === m.model && r.reading === "decided")!;
      expect([own.n, own.act, own.hold, own.decision]).toEqual([m.numbers!.n, m.numbers!.act, m.numbers!.hold, m.numbers!.decision]);
    }
  });

  it("per-item rows: one per model and pair, every side's status", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "twinscore-score-app-")), "items.csv");
    const doc = await scoreRuns({ results: [main], perItem: file, bootstrap: { resamples: 0 } });
    expect(doc.perItem).toEqual({ file, rows: 446 });
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(447);
    const header = lines[0].split(",");
    const status = header.indexOf("status");
    expect(status).toBeGreaterThanOrEqual(0);
    const counts = new Map<string, number>();
    for (const l of lines.slice(1)) counts.set(l.split(",")[status], (counts.get(l.split(",")[status]) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ decided: 213 + 200, "inference-error": 9 + 21, "not-reached": 1 + 2 });
  });

  it("a bad argument is said before anything is read, with exit 2", async () => {
    const doc = await scoreRuns({ results: [main], maxUndecided: 150 });
    expect([doc.exitCode, doc.models, doc.problems.map((p) => p.message)]).toEqual([
      2,
      [],
      ["--max-undecided must be a percentage from 0 to 100, got 150"],
    ]);
    const none = await scoreRuns({ results: [] });
    expect([none.exitCode, none.problems.map((p) => p.code)]).toEqual([2, ["bad-argument"]]);
  });
});
