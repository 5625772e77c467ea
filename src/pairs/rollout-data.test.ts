import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { scanTurnQueries, turnQueriesOf } from "../bfcl/inference-log.js";
import { committedManifestPath } from "../io/manifest.js";
import { rolloutRunDir, rolloutRuns, sharedPath } from "../testing/shared.js";
import { shortDigest } from "./digest.js";
import { parseManifest } from "./manifest-json.js";
import {
  allowedDifferences,
  checkRolloutData,
  compareItem,
  dataCandidate,
  dataVerdict,
  type DataCandidate,
  type RecordedItem,
} from "./rollout-data.js";

const enc = new TextEncoder();

/** Every line of a model folder: its id, whether `result` is an inference error, and the turn queries read from the bytes. */
function readGroup(dir: string): { items: RecordedItem[]; errorIds: string[]; parsedAgree: boolean } {
  const items: RecordedItem[] = [];
  const errorIds: string[] = [];
  let parsedAgree = true;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith("_result.json"))
    .sort()) {
    for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const json = JSON.parse(line) as { id: string; result: unknown; inference_log?: unknown };
      const bytes = enc.encode(line);
      const scanned = scanTurnQueries(bytes, 0, bytes.length);
      if (JSON.stringify(scanned) !== JSON.stringify(turnQueriesOf(json.inference_log))) parsedAgree = false;
      if (typeof json.result === "string") errorIds.push(json.id);
      items.push({ id: json.id, turns: scanned });
    }
  }
  return { items, errorIds, parsedAgree };
}

let v3: DataCandidate;
let v4: DataCandidate;
beforeAll(() => {
  for (const version of ["v3", "v4"] as const) {
    const m = parseManifest(readFileSync(committedManifestPath(version), "utf8"));
    if (!m.ok) throw new Error(m.problems[0].message);
    if (version === "v3") v3 = dataCandidate(m.value);
    else v4 = dataCandidate(m.value);
  }
});

const models = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"] as const;
const changedMissFunc = [101, 102, 115, 120, 122, 124, 129, 130].map((i) => `multi_turn_miss_func_${i}`);

describe("the real gpt-oss rollouts (BFCL v4)", () => {
  for (const run of rolloutRuns) {
    for (const model of models) {
      it(`${run}/${model}: every logged item matches v4 and about a third differ from v3`, () => {
        const { items, errorIds, parsedAgree } = readGroup(join(rolloutRunDir(run), "result", model, "multi_turn"));
        expect(items).toHaveLength(600);
        expect(parsedAgree).toBe(true);
        // the lines without a log are exactly the inference errors, among them the 8 miss_func items whose missed_function keys changed since
        expect(items.filter((i) => i.turns === null).map((i) => i.id)).toEqual(errorIds);
        for (const id of changedMissFunc) expect(errorIds).toContain(id);
        const check = checkRolloutData(items, [v3, v4]);
        const [onV3, onV4] = check.byVersion;
        expect(check.noLog).toBe(errorIds.length);
        expect(onV4).toMatchObject({ version: "v4", compared: 600 - errorIds.length, differing: [], unknown: 0, matches: true });
        expect(onV3.matches).toBe(false);
        expect(onV3.differing.length).toBeGreaterThan(190);
        expect(check.looksLike).toBe("v4");
        expect(dataVerdict(check, "v4", model)).toEqual({ ok: true, line: null, olderData: null });
        const wrong = dataVerdict(check, "v3", model);
        expect(wrong.ok).toBe(false);
        expect(wrong.line).toMatch(
          new RegExp(
            `^${model}: \\d+ of ${onV3.compared} rollouts were not generated on BFCL v3 data \\(first: multi_turn_base_\\d+, turn \\d\\); rollouts look like BFCL v4 data; pass --manifest to force$`,
          ),
        );
        // the first user turn alone tells them apart too
        const first = checkRolloutData(items, [v3, v4], "first");
        expect([first.byVersion[1].differing.length, first.looksLike]).toEqual([0, "v4"]);
        expect(first.byVersion[0].differing.length).toBeGreaterThan(120);
      });
    }
  }
});

describe("the real xLAM rollouts (BFCL v3)", () => {
  it("match v3 on all 600 items, multi_turn_base_154 included, and differ from v4 on 214 (133 on the first turn)", () => {
    const { items, parsedAgree } = readGroup(sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r"));
    expect(parsedAgree).toBe(true);
    const check = checkRolloutData(items, [v3, v4]);
    expect(check.byVersion[0]).toMatchObject({ version: "v3", compared: 600, equal: 600, differing: [], matches: true });
    // every item v3 and today's v4 differ on follows v4's data from before its first fixes: it fits v4 only through those older revisions
    expect(check.byVersion[1]).toMatchObject({ version: "v4", compared: 600, matches: true, fitsAsNow: false });
    expect(check.byVersion[1].differing).toHaveLength(214);
    expect(check.byVersion[1].olderData?.before.commit).toBe("e5148abe");
    expect(check.byVersion[1].olderData?.items).toHaveLength(214);
    expect(check.looksLike).toBe("v3");
    expect(checkRolloutData(items, [v3, v4], "first").byVersion[1].differing).toHaveLength(133);
    expect(dataVerdict(check, "v3", "xlam")).toEqual({ ok: true, line: null, olderData: null });
    expect(dataVerdict(check, "v4", "xlam").line).toBe(
      `xlam: 214 of 600 rollouts were not generated on BFCL v4 data (first: ${check.byVersion[1].differing[0].id}, turn ${check.byVersion[1].differing[0].turn}); rollouts look like BFCL v3 data; pass --manifest to force`,
    );
  });
});

describe("comparing one item", () => {
  const data: DataCandidate = {
    version: "v4",
    turnsById: new Map([["multi_turn_miss_func_1", [shortDigest("list my files"), null, shortDigest("now move it")]]]),
  };
  const item = (turns: string[][]): RecordedItem => ({
    id: "multi_turn_miss_func_1",
    turns: turns.map((t) => t.map((content) => ({ role: "user", content }))),
  });
  it("skips the holdout turn, where BFCL writes its own prompt, and stops at the turns the log has", () => {
    expect(
      compareItem(
        item([["list my files"], ["I have updated some more functions you can choose from. What about now?"], ["now move it"]]),
        data,
      ),
    ).toEqual({ kind: "equal", turnsCompared: 2 });
    expect(compareItem(item([["list my files"]]), data)).toEqual({ kind: "equal", turnsCompared: 1 });
  });
  it("accepts a system prompt that the handler merged in front of the first user message", () => {
    expect(compareItem(item([["You are a helpful assistant.\n\nTools: …\n\nlist my files"]]), data).kind).toBe("equal");
    expect(
      compareItem(
        {
          id: "multi_turn_miss_func_1",
          turns: [
            [
              { role: "system", content: "sys" },
              { role: "user", content: "list my files" },
            ],
          ],
        },
        data,
      ).kind,
    ).toBe("equal");
  });
  it("names the first turn that differs, and tells an unknown item and a missing log apart", () => {
    expect(compareItem(item([["list my files"], [], ["now copy it"]]), data)).toEqual({ kind: "differs", turn: 2 });
    expect(compareItem(item([["list my files"], [], ["now copy it"]]), data, "first")).toEqual({ kind: "equal", turnsCompared: 1 });
    expect(compareItem({ id: "multi_turn_base_9", turns: [[{ role: "user", content: "x" }]] }, data)).toEqual({ kind: "unknown-item" });
    expect(compareItem({ id: "multi_turn_miss_func_1", turns: null }, data)).toEqual({ kind: "no-log" });
  });
});

describe("the verdict on a group", () => {
  const ids = Array.from({ length: 200 }, (_, i) => `multi_turn_base_${i}`);
  const text = (id: string, v: string) => `${v} question of ${id}`;
  const candidate = (v: "v3" | "v4", changed: (i: number) => boolean): DataCandidate => ({
    version: v,
    turnsById: new Map(ids.map((id, i) => [id, [shortDigest(text(id, changed(i) ? v : "same"))]])),
  });
  const a = candidate("v3", (i) => i % 3 === 0);
  const b = candidate("v4", (i) => i % 3 === 0);
  const rollouts = (v: string, edited: number) =>
    ids.map((id, i): RecordedItem => ({
      id,
      turns: [[{ role: "user", content: i < edited ? "edited later" : text(id, i % 3 === 0 ? v : "same") }]],
    }));
  it("tolerates a few items edited after the run, not more", () => {
    expect(allowedDifferences(200)).toBe(4);
    expect(allowedDifferences(10)).toBe(3);
    expect(checkRolloutData(rollouts("v4", 4), [a, b]).looksLike).toBe("v4");
    const many = checkRolloutData(rollouts("v4", 5), [a, b]);
    expect(many.looksLike).toBe(null);
    expect(dataVerdict(many, "v4", "m").line).toBe(
      "m: 5 of 200 rollouts were not generated on BFCL v4 data (first: multi_turn_base_0, turn 0); pass --manifest to force",
    );
  });
  it("cannot tell the versions apart on items equal in both, and then accepts either", () => {
    const shared = rollouts("v4", 0).filter((_, i) => i % 3 !== 0);
    const check = checkRolloutData(shared, [a, b]);
    expect(check.looksLike).toBe(null);
    expect(dataVerdict(check, "v3", "m")).toEqual({ ok: true, line: null, olderData: null });
  });
  it("says so when no line has a log, and when the expected version has no manifest", () => {
    const none = checkRolloutData(
      ids.map((id) => ({ id, turns: null })),
      [a, b],
    );
    expect(dataVerdict(none, "v4", "m")).toEqual({
      ok: true,
      line: "m: no recorded question to check against BFCL v4 data (200 of 200 lines have no inference_log)",
      olderData: null,
    });
    expect(dataVerdict(checkRolloutData(rollouts("v4", 0), [b]), "v3", "m")).toEqual({
      ok: false,
      line: "m: no BFCL v3 manifest to check the rollouts against",
      olderData: null,
    });
  });
});

describe("items that follow older data of the version", () => {
  const now = [shortDigest("list my files"), shortDigest("now move it"), null, shortDigest("and copy it")];
  const older = [shortDigest("list my files"), null, null, shortDigest("and copy it")];
  const oldest = [shortDigest("list the files"), null, null, shortDigest("and copy it")];
  const commits = new Map([
    ["26ad99ed", { commit: "26ad99ed", date: "2025-11-07", subject: "Remove update_market_status" }],
    ["06ae1c76", { commit: "06ae1c76", date: "2025-11-19", subject: "Fix holdout function index" }],
  ]);
  const ids = Array.from({ length: 100 }, (_, i) => `multi_turn_miss_func_${i}`);
  const data: DataCandidate = {
    version: "v4",
    turnsById: new Map(ids.map((id) => [id, now])),
    olderById: new Map([
      [
        "multi_turn_miss_func_3",
        [
          { commit: "06ae1c76", turns: older },
          { commit: "26ad99ed", turns: oldest },
        ],
      ],
      ["multi_turn_miss_func_7", [{ commit: "06ae1c76", turns: older }]],
    ]),
    commits,
  };
  const sent = (first: string, second: string | null): RecordedItem["turns"] => [
    [{ role: "user", content: first }],
    second === null
      ? [{ role: "user", content: "I have updated some more functions you can choose from. What about now?" }]
      : [{ role: "user", content: second }],
    [],
    [{ role: "user", content: "and copy it" }],
  ];
  const run = (turnsOf: (id: string) => RecordedItem["turns"]) =>
    checkRolloutData(
      ids.map((id) => ({ id, turns: turnsOf(id) })),
      [data],
    );
  it("names the earliest commit the items were recorded before, and the items, in a warning when few enough differ", () => {
    const check = run((id) =>
      id.endsWith("_3")
        ? sent("list the files", null)
        : id.endsWith("_7")
          ? sent("list my files", null)
          : sent("list my files", "now move it"),
    );
    expect(check.byVersion[0].differing).toEqual([
      { id: "multi_turn_miss_func_3", turn: 0, before: "26ad99ed" },
      { id: "multi_turn_miss_func_7", turn: 1, before: "06ae1c76" },
    ]);
    expect(dataVerdict(check, "v4", "m")).toEqual({
      ok: true,
      line: null,
      olderData:
        "m: generated on BFCL v4 data from before 26ad99ed 'Remove update_market_status' (2025-11-07): 2 items differ: multi_turn_miss_func 3, 7",
    });
  });
  it("puts the named data in the error line when too many items differ, with the items no known revision explains", () => {
    const check = run((id) =>
      Number(id.split("_").pop()) < 4
        ? sent("something else", "x")
        : id.endsWith("_7")
          ? sent("list my files", null)
          : sent("list my files", "now move it"),
    );
    const verdict = dataVerdict(check, "v4", "m");
    expect(verdict.ok).toBe(false);
    expect(verdict.line).toBe(
      "m: 5 of 100 rollouts were not generated on BFCL v4 data (first: multi_turn_miss_func_0, turn 0); generated on BFCL v4 data from before 06ae1c76 'Fix holdout function index' (2025-11-19): 1 item differs: multi_turn_miss_func 7; 4 other items differ from every revision known; pass --manifest to force",
    );
    expect(run(() => sent("list my files", "now move it")).byVersion[0].olderData).toBeNull();
  });
});
