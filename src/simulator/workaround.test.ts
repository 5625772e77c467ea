import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readingById, summarize } from "../decision/readings.js";
import { loadManifest } from "../io/manifest.js";
import { loadInputsForTest } from "../testing/read-models.js";
import { rolloutRunDir } from "../testing/shared.js";
import { table1Ids } from "../testing/numbers.js";
import { workaroundCredit } from "./workaround.js";

const noProcess = () => {
  throw new Error("no replay input was given, so no evaluator process may start");
};

describe("Table F1's accuracies come from the readings table", () => {
  const m = loadManifest();
  if (!m.ok) throw new Error("manifest");
  const manifest = m.value;
  const dir = rolloutRunDir("2025-11-12-main");
  const run = loadInputsForTest({ resultDirs: [join(dir, "result")], models: ["openai_gpt-oss-120b"], cwd: dir });
  const scored = table1Ids(manifest);
  const records = run.models[0].inputs.records.filter((r) => scored.has(r.missId) && r.status === "decided");

  it("with no workaround replayed, acc and acc' are Table 1's decision and the credited one its credited column (2025-11-12-main, gpt-oss-120b)", () => {
    const s = workaroundCredit(records, new Map(), noProcess);
    const table = summarize(records, manifest, readingById("table-1")!, "decided");
    expect(s.pairs).toBe(table.n);
    expect(s.acc).toBe(table.decision);
    expect(s.accWorkaround).toBe(table.decision);
    expect(s.accCredited).toBe(table.decisionCredited);
    // the table's row: 213 pairs decided on both twins, decision 82.4, credited 85.2
    expect([s.pairs, s.acc.toFixed(1), s.accCredited.toFixed(1)]).toEqual([213, "82.4", "85.2"]);
  });

  it("with no pair there is no rate: null in JSON, not a 0 that reads like a score", () => {
    const s = workaroundCredit([], new Map(), noProcess);
    expect([s.pairs, s.attempts, s.workarounds]).toEqual([0, 0, 0]);
    expect(JSON.parse(JSON.stringify({ acc: s.acc, accWorkaround: s.accWorkaround, accCredited: s.accCredited }))).toEqual({
      acc: null,
      accWorkaround: null,
      accCredited: null,
    });
  });
});
