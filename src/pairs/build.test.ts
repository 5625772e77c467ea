import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { BfclData } from "../bfcl/data.js";
import { readBfclDataDir } from "../io/bfcl-data.js";
import { join } from "node:path";
import { bfclDataDir, projectRoot, sharedPath } from "../testing/shared.js";
import { buildManifest, exclusionReasons } from "./build.js";
import type { NamedText } from "./certification.js";
import type { Manifest, ManifestPair } from "./types.js";

let data: BfclData;
let badKeys: NamedText;
let rulings: NamedText;
let certifiedContent: NamedText;
let manifest: Manifest;

const cert = (name: string): NamedText => ({ file: name, text: readFileSync(sharedPath("certification", name), "utf8") });
const pair = (id: string): ManifestPair => {
  const p = manifest.pairs.find((x) => x.missId === `multi_turn_${id}`);
  if (!p) throw new Error(`no pair ${id}`);
  return p;
};
const drop = (id: string) => manifest.dropped.find((d) => d.missId === `multi_turn_${id}`);

beforeAll(() => {
  const read = readBfclDataDir(bfclDataDir(), ["base", "miss_func", "miss_param"]);
  if (!read.ok) throw new Error(read.problems.map((p) => p.message).join("; "));
  data = read.value;
  badKeys = cert("bad-keys.tsv");
  rulings = cert("rulings.tsv");
  certifiedContent = {
    file: "certified-content.tsv",
    text: readFileSync(join(projectRoot, "data", "certification", "certified-content.tsv"), "utf8"),
  };
  const built = buildManifest({ data, badKeys, rulings, certifiedContent });
  if (!built.ok) throw new Error(built.problems.map((p) => p.message).join("; "));
  manifest = built.value;
});

describe("pair builder on ../shared/bfcl-v4", () => {
  it("produces the paper's funnel exactly", () => {
    expect(manifest.funnel).toEqual({
      shouldAskItems: 400,
      droppedBadKeys: 14,
      droppedMisaligned: 0,
      droppedMultiAnchor: 4,
      droppedShape: 2,
      afterStructural: 380,
      droppedCallsDiffer: 6,
      droppedDialogueDiffers: 9,
      contentVerified: 365,
      contentVerifiedByCategory: { miss_func: 182, miss_param: 183 },
      candidates: 231,
      readOnly: 132,
      loginOnly: 2,
      constructionErrors: 8,
      scored: 223,
      scoredByCategory: { miss_func: 116, miss_param: 107 },
      distinctBaseTwins: 151,
      compound: 27,
      uncertified: 0,
      badKeysNotApplied: 0,
      rulingsNotApplied: 0,
      restoredBadKeyPairs: 7,
      scoredWithBadKeysRestored: 230,
      distinctBaseTwinsContentVerified: 188,
      distinctBaseAnchorTurnsScored: 184,
    });
    expect(manifest.pairs).toHaveLength(365);
    expect(manifest.dropped).toHaveLength(35);
  });

  it("agrees with every counts.* key of the published numbers it can derive", () => {
    const published = new Map(
      readFileSync(sharedPath("paper-numbers", "published.tsv"), "utf8")
        .split("\n")
        .slice(1)
        .filter((l) => l.startsWith("counts."))
        .map((l) => l.split("\t") as [string, string]),
    );
    const scored = manifest.pairs.filter((p) => p.status === "scored");
    const excluded = manifest.pairs.filter((p) => p.status === "excluded");
    const candidates = manifest.pairs.filter((p) => p.certification !== null);
    const readOnly = manifest.pairs.filter((p) => p.certification === null);
    const verdicts = (v: string) => candidates.filter((p) => p.certification?.verdict === v).length;
    const reasons = (r: string) => excluded.filter((p) => p.exclusionReason === r).length;
    const derived: Record<string, number> = {
      "counts.content_verified_pairs": manifest.pairs.length,
      "counts.certified_pairs": candidates.length,
      "counts.construction_errors": verdicts("construction"),
      "counts.compound_pairs": verdicts("compound"),
      "counts.certification_verdicts.valid": verdicts("valid"),
      "counts.certification_verdicts.compound": verdicts("compound"),
      "counts.certification_verdicts.construction": verdicts("construction"),
      "counts.scored_pairs": scored.length,
      "counts.excluded_pairs": excluded.length,
      "counts.scored_miss_func": scored.filter((p) => p.category === "miss_func").length,
      "counts.scored_miss_param": scored.filter((p) => p.category === "miss_param").length,
      "counts.excluded_miss_func": excluded.filter((p) => p.category === "miss_func").length,
      "counts.excluded_miss_param": excluded.filter((p) => p.category === "miss_param").length,
      "counts.excluded_reasons.gold anchor turn is read-only": reasons(exclusionReasons.readOnly),
      "counts.excluded_reasons.gold anchor turn is login only": reasons(exclusionReasons.loginOnly),
      "counts.excluded_reasons.anchor certification: construction error": reasons(exclusionReasons.construction),
      "counts.read_only_excluded_pairs": readOnly.length,
      "counts.read_only_excluded_miss_func": readOnly.filter((p) => p.category === "miss_func").length,
      "counts.read_only_excluded_miss_param": readOnly.filter((p) => p.category === "miss_param").length,
      "counts.distinct_base_twins_all": manifest.funnel.distinctBaseTwinsContentVerified,
      "counts.distinct_base_twins_scored": manifest.funnel.distinctBaseTwins,
      "counts.distinct_base_anchor_turns_scored": manifest.funnel.distinctBaseAnchorTurnsScored,
      "counts.bad_key_restored_pairs": manifest.funnel.scoredWithBadKeysRestored,
      "counts.bad_key_restored_added": manifest.restoredPairs.length,
    };
    // top functions among the reference calls of the 134 read-only anchors (get_zipcode_based_on_city 39, …)
    const calls = readOnly.flatMap((p) => p.goldAnchorCalls.map((c) => c.slice(0, c.indexOf("("))));
    for (const key of published.keys()) {
      const fn = /^counts\.excluded_top_gold_functions\.(.+)$/.exec(key)?.[1];
      if (fn) derived[key] = calls.filter((c) => c === fn).length;
    }
    for (const [key, value] of Object.entries(derived)) expect([key, value]).toEqual([key, Number(published.get(key))]);
    expect(Object.keys(derived).length).toBeGreaterThanOrEqual(28);
  });

  it("drops the should-ask items on the bad-key list but keeps pairs whose base twin is on it", () => {
    expect(drop("miss_func_4")).toMatchObject({ stage: "bad-key", reason: "on the bad-key list (family A)", baseId: "multi_turn_base_4" });
    expect(drop("miss_param_195")).toMatchObject({ stage: "bad-key", reason: "on the bad-key list (family C)" });
    // multi_turn_base_176 and _187 are bad keys; their should-ask twins stay
    expect(pair("miss_func_176").baseId).toBe("multi_turn_base_176");
    expect(pair("miss_func_187").baseId).toBe("multi_turn_base_187");
    expect(pair("miss_param_176").baseId).toBe("multi_turn_base_176");
  });

  it("drops items 167 and 180 in both categories for having more than one empty reference turn", () => {
    const multi = manifest.dropped.filter((d) => d.stage === "multi-anchor").map((d) => d.missId);
    expect(multi).toEqual([
      "multi_turn_miss_func_167",
      "multi_turn_miss_func_180",
      "multi_turn_miss_param_167",
      "multi_turn_miss_param_180",
    ]);
    expect(drop("miss_func_180")).toMatchObject({ anchorTurn: null, reason: "3 reference turns are empty (turns 0, 4, 5)" });
  });

  it("drops item 154 in both categories: its reference without the empty turn does not have the base shape", () => {
    expect(manifest.dropped.filter((d) => d.stage === "shape-differs").map((d) => d.missId)).toEqual([
      "multi_turn_miss_func_154",
      "multi_turn_miss_param_154",
    ]);
  });

  it("drops the six whose call strings differ and the nine whose dialogue before the anchor differs", () => {
    expect(manifest.dropped.filter((d) => d.stage === "calls-differ").map((d) => d.missId.replace("multi_turn_", ""))).toEqual([
      "miss_func_29",
      "miss_func_140",
      "miss_func_143",
      "miss_param_68",
      "miss_param_140",
      "miss_param_143",
    ]);
    expect(manifest.dropped.filter((d) => d.stage === "dialogue-differs").map((d) => d.missId.replace("multi_turn_", ""))).toEqual([
      "miss_func_2",
      "miss_func_9",
      "miss_func_11",
      "miss_func_33",
      "miss_func_178",
      "miss_param_8",
      "miss_param_9",
      "miss_param_33",
      "miss_param_163",
    ]);
    expect(drop("miss_func_2")?.reason).toBe("user turn 0 before the anchor differs from multi_turn_base_2");
  });

  it("excludes read-only and login-only anchors and the eight construction errors, with the release's reasons", () => {
    // multi_turn_base_0 turn 2 is sort('final_report.pdf'): a read
    expect(pair("miss_func_0")).toMatchObject({
      status: "excluded",
      goldAnchorKind: "read-only",
      exclusionReason: "gold anchor turn is read-only",
      certification: null,
    });
    const login = manifest.pairs.filter((p) => p.goldAnchorKind === "login-only");
    expect(login).toHaveLength(2);
    for (const p of login) expect(p.exclusionReason).toBe("gold anchor turn is login only");
    const construction = manifest.pairs
      .filter((p) => p.certification?.verdict === "construction")
      .map((p) => p.missId.replace("multi_turn_", ""));
    expect(construction.sort()).toEqual(
      [
        "miss_func_42",
        "miss_param_101",
        "miss_param_104",
        "miss_param_115",
        "miss_param_185",
        "miss_param_199",
        "miss_param_88",
        "miss_param_95",
      ].sort(),
    );
    expect(pair("miss_param_199")).toMatchObject({ status: "excluded", exclusionReason: "anchor certification: construction error" });
  });

  it("carries the compound turns' independent and gated steps (miss_func_37, miss_param_17)", () => {
    expect(pair("miss_func_37").certification).toEqual({
      verdict: "compound",
      withheld: ["echo"],
      independent: ["touch"],
      gated: ["echo"],
      contentDiffers: [],
    });
    expect(pair("miss_func_37").status).toBe("scored");
    expect(pair("miss_param_17").certification).toEqual({
      verdict: "compound",
      withheld: [],
      independent: ["add_contact"],
      gated: ["send_message"],
      contentDiffers: [],
    });
  });

  it("keeps the removed function on miss_func's tool list and records both user requests at the anchor", () => {
    const p = pair("miss_func_1");
    expect(p.removedFunctions).toEqual(["mv"]);
    expect(p.tools).toContain("mv");
    expect(p.tools).toHaveLength(18);
    expect(p.goldAnchorCalls).toEqual(["cd(folder='workspace')", "mv(source='log.txt',destination='archive')"]);
    expect(p.turnCount).toEqual({ base: 4, miss: 5 });
    const q = pair("miss_param_122");
    expect(q.anchorRequest.base).not.toBe(q.anchorRequest.miss);
    expect(q.anchorRequest.base).toContain("AAPL");
    expect(q.removedFunctions).toEqual([]);
  });

  it("lists the 7 pairs the bad keys bring back, all scored", () => {
    expect(manifest.restoredPairs.map((p) => p.missId.replace("multi_turn_", ""))).toEqual([
      "miss_func_83",
      "miss_func_133",
      "miss_param_4",
      "miss_param_30",
      "miss_param_178",
      "miss_param_195",
      "miss_param_197",
    ]);
    for (const p of manifest.restoredPairs) expect(p.status).toBe("scored");
  });

  it("counts the two login-only pairs when logins count (225 scored, the paper's sensitivity)", () => {
    const built = buildManifest({ data, badKeys, rulings, certifiedContent }, { worldChanging: { countLogin: true } });
    expect(built.ok && built.value.funnel.scored).toBe(225);
    expect(built.ok && built.value.funnel.loginOnly).toBe(0);
  });

  it("rejects a ruling that disagrees with the data, naming the rulings line", () => {
    const wrong = { file: "rulings.tsv", text: rulings.text.replace("multi_turn_miss_func_37\t2\t", "multi_turn_miss_func_37\t1\t") };
    const built = buildManifest({ data, badKeys, rulings: wrong, certifiedContent });
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.problems[0]).toMatchObject({ code: "ruling-anchor", file: "rulings.tsv", line: 3 });
    const readOnly = { file: "rulings.tsv", text: rulings.text + "multi_turn_miss_func_0\t2\t\tconstruction\t\t\n" };
    const built2 = buildManifest({ data, badKeys, rulings: readOnly, certifiedContent });
    expect(!built2.ok && built2.problems[0].code).toBe("ruling-not-candidate");
  });
});

describe("pair builder on ../shared/bfcl-v3 (the hand rulings were made on v4's items)", () => {
  let v3: Manifest;
  let v3Data: BfclData;
  beforeAll(() => {
    const read = readBfclDataDir(sharedPath("bfcl-v3"), ["base", "miss_func", "miss_param"]);
    if (!read.ok) throw new Error(read.problems.map((p) => p.message).join("; "));
    v3Data = read.value;
    const built = buildManifest({ data: v3Data, badKeys, rulings, certifiedContent });
    if (!built.ok) throw new Error(built.problems.map((p) => p.message).join("; "));
    v3 = built.value;
  });

  it("builds despite multi_turn_base_154 (six reference turns, five question turns), dropping its two twins as misaligned", () => {
    expect(v3.source.bfclVersion).toBe("v3");
    expect(v3.unusable).toEqual([{ id: "multi_turn_base_154", reason: "has 6 reference turns but its question has 5" }]);
    expect(v3Data.categories.base?.unusable[0]).toMatchObject({ code: "turns-misaligned", line: 155 });
    const misaligned = v3.dropped.filter((d) => d.stage === "misaligned");
    expect(misaligned.map((d) => [d.missId, d.reason])).toEqual([
      ["multi_turn_miss_func_154", "base twin multi_turn_base_154 has 6 reference turns but its question has 5"],
      ["multi_turn_miss_param_154", "base twin multi_turn_base_154 has 6 reference turns but its question has 5"],
    ]);
    // its question turns are still recorded, to check rollouts generated on it
    expect(v3.items.find((i) => i.id === "multi_turn_base_154")?.turns).toHaveLength(5);
    expect(v3.items).toHaveLength(600);
  });

  it("gives the v3 funnel, uncertified pairs counted apart", () => {
    expect(v3.funnel).toEqual({
      shouldAskItems: 400,
      droppedBadKeys: 5,
      droppedMisaligned: 2,
      droppedMultiAnchor: 4,
      droppedShape: 0,
      afterStructural: 389,
      droppedCallsDiffer: 13,
      droppedDialogueDiffers: 8,
      contentVerified: 368,
      contentVerifiedByCategory: { miss_func: 183, miss_param: 185 },
      candidates: 237,
      readOnly: 129,
      loginOnly: 2,
      constructionErrors: 3,
      scored: 234,
      scoredByCategory: { miss_func: 119, miss_param: 115 },
      distinctBaseTwins: 154,
      compound: 22,
      uncertified: 121,
      badKeysNotApplied: 9,
      rulingsNotApplied: 10,
      restoredBadKeyPairs: 3,
      scoredWithBadKeysRestored: 237,
      distinctBaseTwinsContentVerified: 188,
      distinctBaseAnchorTurnsScored: 191,
    });
    const uncertified = v3.pairs.filter((p) => p.certification?.verdict === "uncertified");
    expect(uncertified.every((p) => p.status === "scored" && p.certification!.contentDiffers.length > 0)).toBe(true);
  });

  it("keeps a hand ruling exactly where both twins equal v4's items: such a pair is v4's pair but for the function docs", () => {
    const v4ById = new Map(manifest.pairs.map((p) => [p.missId, p]));
    const kept = v3.pairs.filter((p) => p.certification !== null && p.certification.verdict !== "uncertified");
    expect(kept).toHaveLength(116);
    for (const p of kept) {
      const twin = v4ById.get(p.missId);
      expect({ ...p, tools: [] }).toEqual({ ...twin, tools: [] });
    }
    // the rulings that are kept, by verdict
    const verdicts = (v: string) => kept.filter((p) => p.certification!.verdict === v).length;
    expect([verdicts("valid"), verdicts("compound"), verdicts("construction")]).toEqual([91, 22, 3]);
  });

  it("names, for every uncertified pair, exactly the fields that differ from v4's items", () => {
    const raw = (d: BfclData, id: string) => {
      for (const c of Object.values(d.categories)) {
        const i = c!.questions.findIndex((q) => q.id === id);
        if (i >= 0) return { q: c!.questions[i], a: c!.answers[i] };
      }
      throw new Error(`no ${id}`);
    };
    const fields = (d: BfclData, id: string) => {
      const { q, a } = raw(d, id);
      return {
        question: q.question,
        initial_config: q.initialConfig,
        involved_classes: q.involvedClasses,
        missed_function: q.missedFunction,
        reference: a.groundTruth,
      };
    };
    const sameJson = (x: unknown, y: unknown): boolean => {
      if (Array.isArray(x) || Array.isArray(y))
        return Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => sameJson(v, y[i]));
      if (x && y && typeof x === "object" && typeof y === "object") {
        const kx = Object.keys(x).sort();
        const ky = Object.keys(y).sort();
        return sameJson(kx, ky) && kx.every((k) => sameJson((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]));
      }
      return x === y;
    };
    let checked = 0;
    for (const p of v3.pairs.filter((x) => x.certification !== null)) {
      const expected: string[] = [];
      for (const [twin, id] of [
        ["miss", p.missId],
        ["base", p.baseId],
      ] as const) {
        const a = fields(v3Data, id);
        const b = fields(data, id);
        for (const f of Object.keys(a) as (keyof typeof a)[]) if (!sameJson(a[f], b[f])) expected.push(`${twin}.${f}`);
      }
      expect([p.missId, p.certification!.contentDiffers]).toEqual([p.missId, expected]);
      checked++;
    }
    expect(checked).toBe(237);
  });

  it("applies a bad key only where the should-ask item equals v4's, and says which were not applied", () => {
    expect(v3.dropped.filter((d) => d.stage === "bad-key").map((d) => d.missId.replace("multi_turn_", ""))).toEqual([
      "miss_func_4",
      "miss_func_30",
      "miss_func_83",
      "miss_param_4",
      "miss_param_30",
    ]);
    const notApplied = v3.notApplied.filter((n) => n.ruling === "bad-key");
    expect(notApplied.map((n) => n.id.replace("multi_turn_", ""))).toEqual([
      "miss_func_15",
      "miss_func_133",
      "miss_func_172",
      "miss_func_197",
      "miss_param_172",
      "miss_param_178",
      "miss_param_187",
      "miss_param_195",
      "miss_param_197",
    ]);
    expect(notApplied.every((n) => n.contentDiffers.length > 0 && n.contentDiffers.every((f) => f.startsWith("miss.")))).toBe(true);
  });
});

describe("certified content", () => {
  it("turns a certified pair into an uncertified one when one of its items no longer matches, and stops applying its ruling", () => {
    const lines = certifiedContent.text.split("\n");
    const at = lines.findIndex((l) => l.startsWith("multi_turn_base_37\t"));
    const cells = lines[at].split("\t");
    cells[5] = "0000000000000000"; // reference
    lines[at] = cells.join("\t");
    const built = buildManifest({ data, badKeys, rulings, certifiedContent: { file: "c.tsv", text: lines.join("\n") } });
    if (!built.ok) throw new Error(built.problems[0].message);
    const p = built.value.pairs.find((x) => x.missId === "multi_turn_miss_func_37");
    expect(p?.certification).toEqual({
      verdict: "uncertified",
      withheld: ["echo"],
      independent: [],
      gated: [],
      contentDiffers: ["base.reference"],
    });
    expect(built.value.notApplied).toEqual(
      [
        { id: "multi_turn_miss_func_37", ruling: "compound", contentDiffers: ["base.reference"] },
        { id: "multi_turn_miss_param_37", ruling: "compound", contentDiffers: ["base.reference"] },
      ].filter((n) => rulings.text.includes(`${n.id}\t`)),
    );
    expect(built.value.funnel.uncertified).toBeGreaterThanOrEqual(1);
  });
  it("reports a malformed row at its line", () => {
    const built = buildManifest({
      data,
      badKeys,
      rulings,
      certifiedContent: { file: "c.tsv", text: certifiedContent.text.replace(/\t[0-9a-f]{16}\n/, "\tXYZ\n") },
    });
    expect(!built.ok && built.problems[0]).toMatchObject({ code: "content-digest", file: "c.tsv", line: 2 });
  });
});

describe("miss_func items BFCL cannot run", () => {
  it("drops, as misaligned, an item whose missed_function names a turn with a user message (as the 8 items of early-November v4 data did)", () => {
    const mf = data.categories.miss_func!;
    const i = mf.questions.findIndex((q) => q.id === "multi_turn_miss_func_101");
    const q = mf.questions[i];
    const [key] = Object.keys(q.missedFunction!);
    const moved = { ...q, missedFunction: { [String(Number(key) - 1)]: q.missedFunction![key] } };
    const beyond = { ...mf.questions[i + 1], missedFunction: { "9": ["x"] } };
    const questions = mf.questions.map((x, j) => (j === i ? moved : j === i + 1 ? beyond : x));
    const edited = { ...data, categories: { ...data.categories, miss_func: { ...mf, questions } } };
    const built = buildManifest({ data: edited, badKeys, rulings, certifiedContent });
    if (!built.ok) throw new Error(built.problems[0].message);
    const d = built.value.dropped.filter((x) => x.stage === "misaligned");
    expect(d.map((x) => [x.missId, x.reason])).toEqual([
      [
        "multi_turn_miss_func_101",
        `missed_function gives functions back on turn ${Number(key) - 1}, whose question is not empty (BFCL stops the item: "Holdout turn should not have user message.")`,
      ],
      [beyond.id, `missed_function gives functions back on turn 9, which its ${beyond.question.length}-turn question does not have`],
    ]);
    expect(built.value.funnel.droppedMisaligned).toBe(2);
  });
});
