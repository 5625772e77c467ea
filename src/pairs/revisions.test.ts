import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BfclVersion } from "../bfcl/categories.js";
import { readBfclDataDir } from "../io/bfcl-data.js";
import { committedManifestPath, committedRevisionsPath } from "../io/manifest.js";
import { projectRoot, sharedPath } from "../testing/shared.js";
import { shortDigest } from "./digest.js";
import { parseManifest } from "./manifest-json.js";
import {
  itemRevisions,
  pairCommits,
  parseDataRevisions,
  recordMismatch,
  unchangedPairIds,
  withRevisions,
  type DataRevisions,
} from "./revisions.js";
import type { Manifest } from "./types.js";

const versions: BfclVersion[] = ["v3", "v4"];
const record = (version: BfclVersion): DataRevisions => {
  const parsed = parseDataRevisions(readFileSync(committedRevisionsPath(version), "utf8"), committedRevisionsPath(version));
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  return parsed.value;
};
const manifest = (version: BfclVersion): Manifest => {
  const parsed = parseManifest(readFileSync(committedManifestPath(version), "utf8"), committedManifestPath(version));
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  return parsed.value;
};
const holdoutFix = "06ae1c76";
const holdoutItems = [101, 102, 115, 120, 122, 124, 129, 130].map((n) => `multi_turn_miss_func_${n}`);

describe("the committed records of BFCL data commits", () => {
  for (const version of versions) {
    it(`${version}: each item's changes follow one another, in the record's commit order, and end at the data the manifest was built on`, () => {
      const r = record(version);
      const order = new Map(r.commits.map((c, k) => [c.commit, k]));
      const turnsOf = new Map(manifest(version).items.map((i) => [i.id, i.turns]));
      for (const [id, changes] of Object.entries(r.items)) {
        for (let k = 1; k < changes.length; k++) {
          expect(order.get(changes[k].commit)!).toBeGreaterThan(order.get(changes[k - 1].commit)!);
          expect(changes[k].turnsBefore).toEqual(changes[k - 1].turnsAfter);
        }
        expect(changes[changes.length - 1].turnsAfter, id).toEqual(turnsOf.get(id) ?? null);
      }
      expect(recordMismatch(manifest(version), r)).toBeNull();
    });

    it(`${version}: each commit's item count is the number of items that name it, and the commits are in date order after the release`, () => {
      const r = record(version);
      const named = new Map<string, number>();
      for (const changes of Object.values(r.items)) for (const c of changes) named.set(c.commit, (named.get(c.commit) ?? 0) + 1);
      for (const c of r.commits) expect(named.get(c.commit) ?? 0, c.commit).toBe(c.items);
      const dates = [r.release.date, ...r.commits.map((c) => c.date)];
      expect([...dates].sort()).toEqual(dates);
    });
  }

  it("v4: the holdout-index commit changed exactly the 8 miss_func items whose holdout turn moved, and nothing else of them", () => {
    const r = record("v4");
    const changed = Object.entries(r.items).filter(([, cs]) => cs.some((c) => c.commit === holdoutFix));
    expect(changed.map(([id]) => id)).toEqual(holdoutItems);
    expect(r.commits.find((c) => c.commit === holdoutFix)).toMatchObject({ date: "2025-11-19", items: 8 });
    // in ../shared/bfcl-v4 (Gorilla 6ea57973) the holdout turn is the one missed_function names: the turn BFCL sent
    // no user text on after the fix; before it, BFCL sent its holdout prompt on another turn, whose question it dropped
    const data = readBfclDataDir(sharedPath("bfcl-v4"), ["miss_func"]);
    if (!data.ok) throw new Error(data.problems[0].message);
    const entries = new Map(data.value.categories.miss_func!.questions.map((e) => [e.id, e]));
    for (const [id, changes] of changed) {
      const change = changes.find((c) => c.commit === holdoutFix)!;
      expect(change.fields).toEqual(["missed_function"]);
      const holdoutNow = Number(Object.keys(entries.get(id)!.missedFunction ?? {})[0]);
      const entry = entries.get(id)!;
      const nullsBefore = change.turnsBefore!.flatMap((d, t) => (d === null ? [t] : []));
      const nullsAfter = change.turnsAfter!.flatMap((d, t) => (d === null ? [t] : []));
      expect(nullsAfter).toEqual([holdoutNow]);
      expect(nullsBefore).toContain(holdoutNow);
      const movedFrom = nullsBefore.filter((t) => t !== holdoutNow);
      expect(movedFrom).toHaveLength(1);
      expect(change.turnsAfter![movedFrom[0]]).toBe(shortDigest(entry.question[movedFrom[0]].map((m) => m.content).join("\n\n")));
    }
  });

  it("v4: the manifest names the commits of each pair's twins; 06ae1c76 is among them exactly for the 8 miss_func pairs it changed", () => {
    const m = manifest("v4");
    expect(m.revisions?.release).toEqual({ commit: "58f57e91", date: "2025-08-25", subject: "BFCL V4 Release (#1019)" });
    expect(m.revisions?.supported).toBe("6ea57973");
    const withFix = m.pairs.filter((p) => pairCommits(p, m.revisions).some((c) => c.commit === holdoutFix)).map((p) => p.missId);
    expect(withFix).toEqual(holdoutItems.filter((id) => m.pairs.some((p) => p.missId === id)));
    const p101 = m.pairs.find((p) => p.missId === "multi_turn_miss_func_101")!;
    expect(pairCommits(p101, m.revisions).map((c) => `${c.commit} ${c.date}`)).toEqual(["26ad99ed 2025-11-07", "06ae1c76 2025-11-19"]);
    const unchanged = unchangedPairIds(m)!;
    expect([...unchanged].every((id) => m.pairs.find((p) => p.missId === id)!.revisions!.miss.length === 0)).toBe(true);
    expect(m.pairs.filter((p) => p.status === "scored" && unchanged.has(p.missId))).toHaveLength(112);
  });

  it("a manifest without a record names no revisions, and a record of other data is told apart", () => {
    const m = manifest("v4");
    const bare: Manifest = { ...m, revisions: undefined, pairs: m.pairs.map(({ revisions: _, ...p }) => p) };
    expect(unchangedPairIds(bare)).toBeNull();
    expect(pairCommits(bare.pairs[0], bare.revisions)).toEqual([]);
    expect(recordMismatch(m, record("v3"))).toBe("the record is of BFCL v3, the data of v4");
    const moved = { ...m, items: m.items.map((i) => (i.id === "multi_turn_miss_func_101" ? { ...i, turns: [...i.turns].reverse() } : i)) };
    expect(recordMismatch(moved, record("v4"))).toBe("multi_turn_miss_func_101 differs from its state at 6ea57973");
    expect(itemRevisions(record("v4").items["multi_turn_miss_func_101"]).map((r) => r.commit)).toEqual(["06ae1c76", "26ad99ed"]);
    expect(withRevisions(bare, record("v4")).items.find((i) => i.id === "multi_turn_miss_func_101")!.revisions).toHaveLength(2);
  });

  it("a record that names a commit it does not list, or is not a record, is one problem", () => {
    const r = record("v4");
    const stray = { ...r, items: { x: [{ commit: "00000000", fields: [], turnsBefore: null, turnsAfter: null }] } };
    expect(parseDataRevisions(JSON.stringify(stray), "r.json")).toMatchObject({
      ok: false,
      problems: [{ message: "invalid revision record: x names commit 00000000, which the record does not list" }],
    });
    expect(parseDataRevisions("{", "r.json")).toMatchObject({ ok: false, problems: [{ code: "json-malformed", file: "r.json" }] });
    expect(parseDataRevisions("{}", "r.json")).toMatchObject({ ok: false, problems: [{ code: "revisions-schema" }] });
  });
});

/**
 * Regeneration from Gorilla's git history (GORILLA_GIT_DIR = a clone or bare mirror of
 * ShishirPatil/gorilla): the committed records are exactly what tools/gen-data-revisions.py
 * writes. Skipped when no history is named; the records are checked above either way.
 */
const gitDir = process.env.GORILLA_GIT_DIR;
describe.skipIf(!gitDir)("regenerated from Gorilla's history", () => {
  it("tools/gen-data-revisions.py --check finds the committed revisions-v3.json and revisions-v4.json as it would write them", () => {
    const out = execFileSync("python3", [join(projectRoot, "tools", "gen-data-revisions.py"), "--git-dir", gitDir!, "--check"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(out).toBe("");
  }, 120_000);
});
