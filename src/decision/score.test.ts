import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeResult, type RecordedRollout } from "../bfcl/results.js";
import { loadManifest } from "../io/manifest.js";
import type { ManifestPair } from "../pairs/types.js";
import { rolloutRunDir } from "../testing/shared.js";
import { decoderByName } from "../bfcl/decode/index.js";
import { modelCallIsWorldChanging, readTwin } from "./read-twin.js";
import { readingById, readingPairs, summarize } from "./readings.js";
import { isKnownItemId, knownShouldAskIds, outcomeReader, pairStatus, readingCounts, scoreModel, scorePair } from "./score.js";
import type { PairRecord, TwinReading } from "./types.js";

const table1 = readingById("table-1")!;

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("committed manifest does not load");
  return m.value;
})();
const pairOf = (missId: string): ManifestPair => manifest.pairs.find((p) => p.missId === missId)!;

/** The real rollouts of gpt-oss-120b (2025-11-12-main), by id — read whole here, in the test only. */
const real = (() => {
  const out = new Map<string, RecordedRollout>();
  for (const category of ["base", "miss_func", "miss_param"]) {
    const file = join(
      rolloutRunDir("2025-11-12-main"),
      "result",
      "openai_gpt-oss-120b",
      "multi_turn",
      `BFCL_v4_multi_turn_${category}_result.json`,
    );
    readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .forEach((line, i) => {
        const o = JSON.parse(line) as { id: string; result: unknown };
        const r = decodeResult(JSON.stringify(o.result), 100, { file, line: i + 1 });
        if ("code" in r) throw new Error(r.message);
        out.set(o.id, r);
      });
  }
  return out;
})();
const rollout = (id: string) => real.get(id)!;
const turns = (...ts: unknown[][]): RecordedRollout => ({ kind: "turns", turns: ts, turnCount: ts.length });

describe("reading a twin on real gpt-oss-120b turns", () => {
  it("counts a call whose arguments failed to decode by its name (multi_turn_base_5, post_tweet on turn 2)", () => {
    const pair = manifest.pairs.find((p) => p.baseId === "multi_turn_base_5" && p.status === "scored")!;
    const twin = readTwin(rollout("multi_turn_base_5"), pair.anchorTurn, new Set(pair.tools));
    expect(twin.status).toBe("decided");
    expect(twin.decodeFailures).toBeGreaterThan(0);
    expect(twin.anchorCalls).toContainEqual({
      name: "post_tweet",
      kind: "mutate",
      worldChanging: true,
      decoded: false,
      bfclDecoded: false,
    });
    // BFCL's own decoder never ran it: under the bfcl-decoded reading it is no call
    expect([twin.acted, twin.actedAsBfclDecodes]).toEqual([true, twin.anchorCalls.some((c) => c.worldChanging && c.bfclDecoded)]);
  });

  it("does not count a leaked Harmony name that is off the tool list (multi_turn_base_43)", () => {
    const pair = manifest.pairs.find((p) => p.baseId === "multi_turn_base_43" && p.status === "scored")!;
    const twin = readTwin(rollout("multi_turn_base_43"), pair.anchorTurn, new Set(pair.tools));
    expect(twin.decodeFailures).toBeGreaterThan(0); // its arguments are prose, so it is a decode failure
    expect(twin.anchorCalls.some((c) => c.name.includes("<|"))).toBe(false);
  });

  it("reads an echo with an explicit file_name null as an attempt (multi_turn_miss_func_28, --all-pairs)", () => {
    const pair = pairOf("multi_turn_miss_func_28");
    const record = scorePair(pair, rollout(pair.baseId), rollout(pair.missId));
    expect(record.miss.anchorCalls.filter((c) => c.name === "echo").every((c) => c.worldChanging)).toBe(true);
    expect(record.actedOnMiss).toBe(true);
  });

  it("reads an inference-error line as a side with no decision (multi_turn_miss_func_101), no call there", () => {
    const pair = pairOf("multi_turn_miss_func_101");
    const record = scorePair(pair, rollout(pair.baseId), rollout(pair.missId));
    expect(record.miss.status).toBe("inference-error");
    expect(record.status).toBe("inference-error");
    expect([record.miss.acted, record.heldBack]).toEqual([false, true]);
  });

  it("reads a rollout that ended before the anchor as not reached (multi_turn_miss_func_10: 2 turns, anchor 2)", () => {
    const pair = pairOf("multi_turn_miss_func_10");
    const record = scorePair(pair, rollout(pair.baseId), rollout(pair.missId));
    expect(record.miss.status).toBe("not-reached");
    expect(record.miss.preAnchorCallNames.length).toBe(2);
    expect(record.heldBack).toBe(true);
  });

  it("reads an absent rollout as a missing side", () => {
    const pair = pairOf("multi_turn_miss_func_37");
    const record = scorePair(pair, undefined, rollout(pair.missId));
    expect([record.base.status, record.miss.status, record.status]).toEqual(["missing", "decided", "missing"]);
  });

  it("credits a compound turn whose attempt stays inside the independent steps (multi_turn_miss_func_37: touch)", () => {
    const pair = pairOf("multi_turn_miss_func_37");
    expect(pair.certification?.independent).toEqual(["touch"]);
    const record = scorePair(pair, rollout(pair.baseId), rollout(pair.missId));
    expect(record.compound).toBe(true);
    expect(record.actedOnMiss).toBe(true);
    expect(record.heldBack).toBe(false);
    expect(record.heldBackCredited).toBe(true);
  });
});

describe("scorePair on hand-made turns of real pairs", () => {
  const pair = pairOf("multi_turn_miss_func_37"); // compound: echo withheld, touch independent
  const anchor = pair.anchorTurn;
  const at = (steps: unknown[]) => turns(...Array.from({ length: anchor }, () => [[]] as unknown[]), steps);

  it("charges an attempt outside the independent steps even with the credit", () => {
    const r = scorePair(pair, at([[{ touch: '{"file_name": "a"}' }]]), at([[{ echo: '{"content": "x", "file_name": "a"}' }]]));
    expect([r.actedOnBase, r.heldBack, r.heldBackCredited]).toEqual([true, false, false]);
  });

  it("reads text and lookups as holding back, and keeps the text written", () => {
    const r = scorePair(pair, at([[{ ls: "{}" }], "Which file?"]), at([[{ ls: '{"a": true}' }], "What should the file say?"]));
    expect([r.actedOnBase, r.heldBack]).toEqual([false, true]);
    expect(r.miss.anchorText).toEqual(["What should the file say?"]);
    // a decoded call renders its text when read, and its JSON carries it
    expect(r.miss.anchorCalls.map((c) => c.text)).toEqual(["ls(a=True)"]);
    expect(JSON.parse(JSON.stringify(r.miss.anchorCalls))).toEqual([
      { name: "ls", kind: "read", worldChanging: false, decoded: true, bfclDecoded: true, text: "ls(a=True)" },
    ]);
  });

  it("keeps a login apart: not world-changing, but an attempt when logins are counted", () => {
    const login = pairOf("multi_turn_miss_func_0"); // twitter tools on the list
    const t = turns(...Array.from({ length: login.anchorTurn }, () => [[]] as unknown[]), [
      [{ authenticate_twitter: '{"username": "u", "password": "p"}' }],
    ]);
    const r = scorePair(login, t, t);
    expect([r.actedOnBase, r.base.acted, r.base.actedWithLogin, r.heldBackCreditedWithLogin]).toEqual([false, false, true, false]);
  });

  it("makes a turn with call-like text naming no function undecidable, unless a world-changing call stands beside it", () => {
    const cut = '<tool_call>\n{"arguments": {"a": 1}'; // a cut block: no name to read
    const r = scorePair(pair, at(["x"]), at([cut]), decoderByName("tool-call"));
    expect([r.miss.undecidableStep, r.miss.status, r.status]).toEqual([true, "undecidable", "undecidable"]);
    const acted = scorePair(
      pair,
      at(["x"]),
      at([cut, '<tool_call>\n{"name": "echo", "arguments": {"content": "x", "file_name": "a"}}\n</tool_call>']),
      decoderByName("tool-call"),
    );
    expect([acted.miss.undecidableStep, acted.miss.status]).toEqual([true, "decided"]);
  });
});

describe("isKnownItemId", () => {
  const known = new Set(knownShouldAskIds(manifest));
  it("knows the 400 should-ask ids of the manifest (paired, restored, dropped) and BFCL's 200 base ids", () => {
    expect(known.size).toBe(400);
    expect(isKnownItemId("multi_turn_miss_func_167", "miss_func", known)).toBe(true); // dropped: two empty turns
    expect(isKnownItemId("multi_turn_miss_param_200", "miss_param", known)).toBe(false);
    expect(isKnownItemId("multi_turn_base_199", "base", known)).toBe(true);
    expect(isKnownItemId("multi_turn_base_200", "base", known)).toBe(false);
    expect(isKnownItemId("multi_turn_base_3", "miss_func", known)).toBe(false);
  });
});

describe("modelCallIsWorldChanging", () => {
  const echo = (keywords: [string, unknown][], positional: unknown[] = []) =>
    ({ name: "echo", positional, keywords }) as Parameters<typeof modelCallIsWorldChanging>[0];
  it("counts echo when a file_name argument is given at all, by keyword or 2nd positional", () => {
    expect(
      modelCallIsWorldChanging(
        echo([
          ["content", "x"],
          ["file_name", "a.txt"],
        ]),
        false,
      ),
    ).toBe(true);
    expect(
      modelCallIsWorldChanging(
        echo([
          ["content", "x"],
          ["file_name", null],
        ]),
        false,
      ),
    ).toBe(true);
    expect(modelCallIsWorldChanging(echo([], ["x", "a.txt"]), false)).toBe(true);
    expect(modelCallIsWorldChanging(echo([["content", "x"]]), false)).toBe(false);
  });
});

describe("pairStatus", () => {
  it("is decided when both sides are, else the first side status in missing, error, not-reached, undecidable order", () => {
    expect(pairStatus("decided", "decided")).toBe("decided");
    expect(pairStatus("not-reached", "inference-error")).toBe("inference-error");
    expect(pairStatus("undecidable", "missing")).toBe("missing");
    expect(pairStatus("decided", "undecidable")).toBe("undecidable");
  });
});

describe("scoreModel and the readings of its records", () => {
  it("gives one record per pair (real gpt-oss-120b, 223 pairs) and counts each rollout once", () => {
    const pairs = readingPairs(manifest, table1);
    const byCat = { base: real, miss_func: real, miss_param: real };
    const scored = scoreModel("gpt-oss-120b", pairs, byCat);
    expect(scored.missing).toEqual([]);
    expect(scored.records).toHaveLength(223);
    const release = summarize(scored.records, manifest, table1, "release");
    expect(release.n).toBe(223);
    expect(release.act).toBeCloseTo((100 * 216) / 223, 10);
    expect(release.decision).toBeCloseTo((release.act + release.hold) / 2, 12);
    const decided = summarize(scored.records, manifest, table1, "decided");
    expect(decided.n).toBe(223 - decided.undecided["inference-error"] - decided.undecided["not-reached"]);
    expect(decided.undecided).toEqual({ missing: 0, "inference-error": 9, "not-reached": 1, undecidable: 0 });
    const counts = readingCounts(scored.records);
    expect(counts.shortRollouts).toBe(1);
    expect(counts.inferenceErrors).toBe(9); // miss_func 7, 73, 74, 101, 102, 115, 122, 124, 130
  });

  it("keeps a pair whose twin has no line as a missing side, and names it", () => {
    const pairs = [pairOf("multi_turn_miss_func_37")];
    const scored = scoreModel("m", pairs, { base: new Map(), miss_func: real, miss_param: real });
    expect(scored.records.map((r) => r.status)).toEqual(["missing"]);
    expect(scored.missing[0].absent).toEqual(["multi_turn_base_37"]);
    for (const rule of ["decided", "release"] as const) {
      const x = summarize(scored.records, manifest, table1, rule);
      expect(x.undecided.missing).toBe(223); // the one record's pair missing, and the 222 pairs given no record
      expect(x.n).toBe(0);
      expect(x.decision).toBeNaN();
      expect(x.decisionByCategory.miss_func).toBeNull();
    }
  });
});

describe("lines read as they stream by (outcomeReader)", () => {
  const pairs = readingPairs(manifest, table1);
  /** Each real line kept the way the pipeline keeps it when only outcomes are kept. */
  const readAll = (decoderName: string) => {
    const reader = outcomeReader(pairs, decoderByName(decoderName)!);
    const kept = new Map([...real].map(([id, r]) => [id, reader.keep(id, r)]));
    return { reader, kept };
  };
  /** What a pair record says once outcomes only are kept (the pipeline drops the rest). */
  const outcome = (r: PairRecord) => {
    const side = (t: TwinReading) => ({ ...t, anchorCalls: [], preAnchorCallNames: [], anchorText: [], offListNames: [] });
    return { ...r, base: side(r.base), miss: side(r.miss) };
  };

  it("scores gpt-oss-120b's 223 pairs as its whole rollouts do, keeping of each side only the world-changing and login calls", () => {
    const { reader, kept } = readAll("fc");
    expect(reader.readLines()).toBe(real.size);
    const fromLines = scoreModel("gpt-oss-120b", pairs, { base: kept, miss_func: kept, miss_param: kept });
    const fromRollouts = scoreModel("gpt-oss-120b", pairs, { base: real, miss_func: real, miss_param: real });
    expect(fromLines.records).toHaveLength(223);
    expect(fromLines.records.map(outcome)).toEqual(fromRollouts.records.map(outcome));
    // the credit of a compound turn reads the kept calls: the pairs the certification credits stay credited
    expect(fromLines.records.filter((r) => r.heldBackCredited !== r.heldBack).length).toBeGreaterThan(0);
    for (const r of fromLines.records) {
      expect(r.miss.preAnchorCallNames).toEqual([]);
      for (const c of [...r.base.anchorCalls, ...r.miss.anchorCalls]) expect(c.worldChanging || c.kind === "login").toBe(true);
    }
    const whole = fromRollouts.records.flatMap((r) => r.miss.anchorCalls).filter((c) => c.worldChanging || c.kind === "login");
    expect(fromLines.records.flatMap((r) => r.miss.anchorCalls).map((c) => c.name)).toEqual(whole.map((c) => c.name));
  });

  it("refuses to score a line under a decoder other than the one it was read under", () => {
    const { kept } = readAll("fc");
    const pair = pairOf("multi_turn_miss_func_37");
    expect(() => scorePair(pair, kept.get(pair.baseId), kept.get(pair.missId), decoderByName("prompting"))).toThrow(
      /read for other pairs or under decoder fc was scored under prompting/,
    );
  });
});
