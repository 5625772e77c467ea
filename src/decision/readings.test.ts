import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeResult, type RecordedRollout } from "../bfcl/results.js";
import { loadManifest } from "../io/manifest.js";
import { rolloutRunDir, rolloutRuns } from "../testing/shared.js";
import {
  headlineOf,
  pairRates,
  pairUnder,
  rate,
  rateOf,
  readingById,
  readingPairs,
  readingRates,
  readings,
  scoredUnder,
  selectUnder,
  summarize,
} from "./readings.js";
import { scoreModel } from "./score.js";
import type { PairRecord } from "./types.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("committed manifest does not load");
  return m.value;
})();
const reading = (id: string) => readingById(id)!;

/** One model of a real gpt-oss run, scored on every pair any reading reads. */
function realRecords(run: (typeof rolloutRuns)[number], model: string): PairRecord[] {
  const byCategory: Record<string, Map<string, RecordedRollout>> = {};
  for (const category of ["base", "miss_func", "miss_param"]) {
    const out = new Map<string, RecordedRollout>();
    const file = join(rolloutRunDir(run), "result", model, "multi_turn", `BFCL_v4_multi_turn_${category}_result.json`);
    readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .forEach((line, i) => {
        const o = JSON.parse(line) as { id: string; result: unknown };
        const r = decodeResult(JSON.stringify(o.result), 100, { file, line: i + 1 });
        if ("code" in r) throw new Error(r.message);
        out.set(o.id, r);
      });
    byCategory[category] = out;
  }
  const pairs = [...manifest.pairs, ...manifest.restoredPairs];
  return scoreModel(model, pairs, { base: byCategory.base, miss_func: byCategory.miss_func, miss_param: byCategory.miss_param }).records;
}

const main20 = realRecords("2025-11-12-main", "openai_gpt-oss-20b");
const main120 = realRecords("2025-11-12-main", "openai_gpt-oss-120b");

describe("the readings table", () => {
  it("names every reading once, Table 1 first, with the paper's pair counts on BFCL v4", () => {
    expect(readings[0].id).toBe("table-1");
    expect(new Set(readings.map((r) => r.id)).size).toBe(readings.length);
    const pairs = (id: string) => readingPairs(manifest, reading(id)).length;
    expect([pairs("table-1"), pairs("logins"), pairs("uncertified"), pairs("all-pairs"), pairs("bad-keys-restored")]).toEqual([
      223, 225, 231, 365, 230,
    ]);
  });
});

describe("the side rules on the real gpt-oss runs", () => {
  it("decided: only pairs decided on both twins are scored; release: error and short sides read as no call (today's numbers)", () => {
    const t1 = reading("table-1");
    const release = summarize(main20, manifest, t1, "release");
    const decided = summarize(main20, manifest, t1, "decided");
    expect([release.n, release.act.toFixed(1), release.hold.toFixed(1), release.decision.toFixed(1)]).toEqual([
      223,
      "89.7",
      "74.4",
      "82.1",
    ]);
    expect(decided.undecided).toEqual({ missing: 0, "inference-error": 21, "not-reached": 2, undecidable: 0 });
    expect(decided.n).toBe(200);
    // every pair scored under both keeps its act and hold
    for (const r of main20) {
      const d = pairUnder(r, t1, "decided");
      const rel = pairUnder(r, t1, "release");
      if (d.scored) expect([rel.scored, rel.act, rel.hold]).toEqual([true, d.act, d.hold]);
    }
    // leaving the error pairs out moves act up: 89.7 -> 93.5 on 200 pairs
    expect(decided.act.toFixed(1)).toBe("93.5");
  });

  it("the reached reading equals Table 1 under decided, and drops the error and short pairs under release", () => {
    const reached = (rule: "decided" | "release") => readingRates(main120, manifest, reading("reached"), rule);
    const t1 = (rule: "decided" | "release") => readingRates(main120, manifest, reading("table-1"), rule);
    expect(reached("decided")).toEqual(t1("decided"));
    expect(reached("release").n).toBe(t1("decided").n);
    expect(t1("release").n).toBe(223);
  });

  it("the release and decided rows read the same pairs under either run rule", () => {
    for (const rule of ["decided", "release"] as const) {
      expect(readingRates(main20, manifest, reading("release"), rule)).toEqual(
        readingRates(main20, manifest, reading("table-1"), "release"),
      );
      expect(readingRates(main20, manifest, reading("decided"), rule)).toEqual(
        readingRates(main20, manifest, reading("table-1"), "decided"),
      );
    }
  });

  it("bfcl-decoded counts only what BFCL's decoder decodes: 2025-11-12-main gpt-oss-120b has undecodable anchor attempts", () => {
    const t1 = readingRates(main120, manifest, reading("table-1"), "decided");
    const bfcl = readingRates(main120, manifest, reading("bfcl-decoded"), "decided");
    expect(bfcl.n).toBe(t1.n); // FC records: no undecidable turn to become a decision
    // an attempt whose arguments BFCL could not decode is no call there: act can only fall, hold only rise
    expect(bfcl.act).toBeLessThan(t1.act);
    expect(bfcl.hold).toBeGreaterThanOrEqual(t1.hold);
    const moved = selectUnder(main120, manifest, reading("table-1"), "decided").scored.filter((s) => {
      const b = pairUnder(s.record, reading("bfcl-decoded"), "decided");
      return b.act !== s.act || b.hold !== s.hold;
    });
    expect(moved.length).toBeGreaterThan(0);
    for (const s of moved)
      expect(
        s.record.base.anchorCalls.some((c) => c.worldChanging && !c.bfclDecoded) ||
          s.record.miss.anchorCalls.some((c) => c.worldChanging && !c.bfclDecoded),
      ).toBe(true);
  });

  it("logins counted: the two login-only pairs join and a login is an attempt", () => {
    const logins = readingRates(main120, manifest, reading("logins"), "release");
    expect(logins.pairs).toBe(225);
    expect(logins.n).toBe(225);
  });
});

describe("the headline gate", () => {
  const t1 = reading("table-1");
  it("withholds act, hold and decision past --max-undecided: 23 of 223 undecided on 2025-11-12-main gpt-oss-20b is 10.3 %", () => {
    const h = headlineOf(main20, manifest, t1, "decided", 10, null);
    expect(h.undecided.total).toBe(23);
    expect(h.undecided.share.toFixed(1)).toBe("10.3");
    expect(h.noHeadline).toMatch(
      /^no act, hold or decision: 23 of 223 pairs undecided \(10\.3 % > --max-undecided 10 %: 21 with an inference-error side, 2 with a side that ended before the anchor\); .*run --retry-errors/,
    );
    expect(headlineOf(main20, manifest, t1, "decided", 11, null).noHeadline).toBeNull();
    // release leaves none out on this run, so it has its headline
    expect(headlineOf(main20, manifest, t1, "release", 10, null).noHeadline).toBeNull();
  });

  it("a run of inference errors gets no headline under the default, and the paper's number under release", () => {
    const broken = main120.map((r) => ({
      ...r,
      base: { ...r.base, status: "inference-error" as const, acted: false },
      status: "inference-error" as const,
    }));
    const h = headlineOf(broken, manifest, t1, "decided", 10, null);
    expect(h.numbers.n).toBe(0);
    expect(h.noHeadline).toMatch(/^no pair decided on both twins \(223 of 223 undecided: 223 with an inference-error side\)/);
    const rel = headlineOf(broken, manifest, t1, "release", 10, null);
    expect([rel.noHeadline, rel.numbers.n, rel.numbers.act]).toEqual([null, 223, 0]);
  });
});

describe("one rate function and one empty-set convention", () => {
  it("an empty set has no rate: NaN, written as null in JSON, never 0", () => {
    expect(rate(0, 0)).toBeNaN();
    expect(rateOf([])).toBeNaN();
    expect(JSON.stringify({ act: pairRates([]).act, decision: pairRates([]).decision })).toBe('{"act":null,"decision":null}');
    expect(rate(1, 3)).toBe(100 / 3);
    expect(rateOf([true, false, false, true])).toBe(50);
  });

  it("records read by scoredUnder act and hold as the selection of the same reading scores them (2025-11-12-main, both models)", () => {
    for (const records of [main20, main120]) {
      for (const id of ["table-1", "credited", "logins", "bfcl-decoded"]) {
        const selection = selectUnder(records, manifest, reading(id), "decided");
        const again = scoredUnder(
          selection.scored.map((s) => s.record),
          reading(id),
        );
        expect(again.map((s) => [s.act, s.hold])).toEqual(selection.scored.map((s) => [s.act, s.hold]));
        expect(pairRates(again)).toEqual(pairRates(selection.scored));
      }
    }
    // Table 1's act and hold are the records' own flags; the credited reading's hold is the compound credit
    const t1 = selectUnder(main120, manifest, reading("table-1"), "decided").scored.map((s) => s.record);
    expect(scoredUnder(t1).map((s) => [s.act, s.hold])).toEqual(t1.map((r) => [r.actedOnBase, r.heldBack]));
    expect(scoredUnder(t1, reading("credited")).map((s) => s.hold)).toEqual(t1.map((r) => r.heldBackCredited));
    expect(scoredUnder(t1, reading("credited")).filter((s, i) => s.hold !== !t1[i].actedOnMiss).length).toBeGreaterThan(0);
  });
});
