/**
 * A v4 run generated on BFCL data from before the holdout-index commit (06ae1c76, 2025-11-19) is named as such.
 * The run is built here from the real gpt-oss-120b files, since the 8 items that commit fixed are inference
 * errors there, with no log. More in this folder's README.md.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { QuestionEntry } from "../bfcl/data.js";
import { readBfclDataDir } from "../io/bfcl-data.js";
import { loadCommittedRevisions } from "../io/manifest.js";
import { walkBfclTree } from "../io/tree.js";
import { memoryIo } from "../cli/io.js";
import { runCli } from "../cli/program.js";
import { shortDigest } from "../pairs/digest.js";
import type { ItemChange } from "../pairs/revisions.js";
import { ADDITIONAL_FUNCTION_NOTICE } from "../rollout/loop.js";
import { projectRoot, rolloutRunDir, sharedPath } from "../testing/shared.js";
import { contextOf } from "./common.js";
import { manifestsForModels } from "./data-version.js";

const holdoutFix = "06ae1c76";
const model = "openai_gpt-oss-120b";
const realDir = () => join(rolloutRunDir("2025-11-12-main"), "result", model, "multi_turn");
const fileOf = (c: string) => `BFCL_v4_multi_turn_${c}_result.json`;
const named =
  `model ${model}: generated on BFCL v4 data from before 06ae1c76 '[BFCL] Fix holdout function index for a few missed_function test cases (#1254)' (2025-11-19): ` +
  "8 items differ: multi_turn_miss_func 101, 102, 115, 120, 122, 124, 129, 130";

interface Line {
  id: string;
  result: unknown[];
  inference_log?: unknown[];
}
const linesOf = (file: string): Line[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Line);

/**
 * The line BFCL would have written for a miss_func item on the data before `change`: on the
 * turn the older data held the function back it sent its holdout prompt (the question's
 * text there was dropped), on today's holdout turn (an empty question turn) no user text;
 * every other turn is the question's, with the steps the base twin's real line took there.
 */
function lineOnOlderData(question: QuestionEntry, change: ItemChange, baseLine: Line): Line {
  const before = change.turnsBefore!;
  const after = change.turnsAfter!;
  const heldNow = after.findIndex((d, t) => d === null && question.question[t].length === 0);
  const heldBefore = before.findIndex((d, t) => d === null && after[t] !== null);
  expect([heldNow, heldBefore].every((t) => t >= 0)).toBe(true);
  const baseEntries = (baseLine.inference_log ?? []).filter(
    (e) => e !== null && typeof e === "object" && !Array.isArray(e) && "begin_of_turn_query" in e,
  );
  const result: unknown[] = [];
  const log: unknown[] = [];
  for (let t = 0; t < question.question.length; t++) {
    if (t === heldNow || t === heldBefore) {
      const query = t === heldBefore ? [{ role: "user", content: ADDITIONAL_FUNCTION_NOTICE }] : [];
      log.push({ begin_of_turn_query: query, step_0: [{ role: "assistant", content: [] }] });
      result.push([[]]);
      continue;
    }
    // the record's digest of this turn is the question's text, as BFCL sent it before the change
    const text = question.question[t].map((m) => m.content).join("\n\n");
    expect(shortDigest(text)).toBe(before[t]);
    const b = t < heldNow ? t : t - 1;
    log.push({
      ...(baseEntries[b] as object),
      begin_of_turn_query: question.question[t].map((m) => ({ role: m.role, content: m.content })),
    });
    result.push(baseLine.result[b]);
  }
  return { id: question.id, result, inference_log: log };
}

let runDir: string;
let changedIds: string[];
beforeAll(() => {
  const record = loadCommittedRevisions("v4");
  if (record === null || !record.ok) throw new Error("no valid data/revisions-v4.json");
  const data = readBfclDataDir(sharedPath("bfcl-v4"), ["miss_func"]);
  if (!data.ok) throw new Error(data.problems[0].message);
  const questions = new Map(data.value.categories.miss_func!.questions.map((q) => [q.id, q]));
  const changes = Object.entries(record.value.items).flatMap(([id, cs]) =>
    cs.filter((c) => c.commit === holdoutFix).map((c) => [id, c] as const),
  );
  changedIds = changes.map(([id]) => id);
  const base = new Map(linesOf(join(realDir(), fileOf("base"))).map((l) => [l.id, l]));
  const older = new Map(changes.map(([id, c]) => [id, lineOnOlderData(questions.get(id)!, c, base.get(id.replace("miss_func", "base"))!)]));
  runDir = mkdtempSync(join(tmpdir(), "twinscore-older-data-"));
  const dir = join(runDir, "result", model);
  mkdirSync(dir, { recursive: true });
  for (const c of ["base", "miss_param"]) copyFileSync(join(realDir(), fileOf(c)), join(dir, fileOf(c)));
  const missFunc = linesOf(join(realDir(), fileOf("miss_func"))).map((l) => older.get(l.id) ?? l);
  writeFileSync(join(dir, fileOf("miss_func")), missFunc.map((l) => JSON.stringify(l)).join("\n") + "\n");
});

/**
 * The same run cut to `kept` lines per file (plus the 8 items on the older data), so those
 * 8 are more than the few items a run may differ by; `changed` base lines get a first
 * question no revision of the data ever had.
 */
function cutRun(name: string, kept: number, changed: number): string {
  const dir = join(runDir, name, "result", model);
  mkdirSync(dir, { recursive: true });
  const from = join(runDir, "result", model);
  for (const c of ["base", "miss_func", "miss_param"]) {
    const lines = linesOf(join(from, fileOf(c)));
    const cut = lines.filter((l, i) => i < kept || (c === "miss_func" && changedIds.includes(l.id)));
    const out = cut.map((l, i) => {
      if (c !== "base" || i >= changed) return l;
      const log = (l.inference_log ?? []).map((e) =>
        e !== null && typeof e === "object" && "begin_of_turn_query" in e
          ? { ...e, begin_of_turn_query: [{ role: "user", content: `not BFCL's question ${i}` }] }
          : e,
      );
      return { ...l, inference_log: log };
    });
    writeFileSync(join(dir, fileOf(c)), out.map((l) => JSON.stringify(l)).join("\n") + "\n");
  }
  return join(runDir, name, "result");
}

describe("a v4 run generated on the data from before the holdout-index commit", () => {
  it("the record lists the 8 items that commit changed, and in the real run they are inference errors, which cannot be checked", () => {
    expect(changedIds).toEqual([101, 102, 115, 120, 122, 124, 129, 130].map((n) => `multi_turn_miss_func_${n}`));
    const real = new Map(linesOf(join(realDir(), fileOf("miss_func"))).map((l) => [l.id, l]));
    for (const id of changedIds) expect([typeof real.get(id)!.result, real.get(id)!.inference_log]).toEqual(["string", undefined]);
  });

  it("is named in one warning line with the 8 items, and still scored on the v4 manifest", () => {
    const ctx = contextOf({});
    const found = manifestsForModels(walkBfclTree([runDir], ctx.cwd, "result").models, undefined, ctx);
    if (!found.ok) throw new Error(found.problems[0].message);
    expect(found.value.problems.map((p) => [p.severity, p.code, p.message])).toEqual([["warning", "rollouts-older-data", named]]);
    expect(found.value.manifestOf.get(model)?.source.bfclVersion).toBe("v4");
    // the real run, the same files with those lines as the errors they are, is named nothing
    const real = manifestsForModels(
      walkBfclTree([join(rolloutRunDir("2025-11-12-main"), "result", model)], ctx.cwd, "result").models,
      undefined,
      ctx,
    );
    expect(real.ok && real.value.problems).toEqual([]);
  });

  it("score names it on stderr and --sensitivity reads the pairs unchanged across revisions", async () => {
    const io = memoryIo({ TWINSCORE_PYTHON: "/nonexistent/python3" }, projectRoot);
    const code = await runCli(["score", "--results", join(runDir, "result"), "--sensitivity", "--bootstrap", "0", "--format", "json"], io);
    const err = io.err.join("");
    expect(code).toBe(0);
    expect(err).toContain(`warning: ${named} [rollouts-older-data]`);
    const doc = JSON.parse(io.out.join("")) as { sensitivity: { rows: { model: string; reading: string; n: number }[] } };
    const rows = new Map(doc.sensitivity.rows.map((r) => [r.reading, r]));
    const unchanged = rows.get("unrevised-pairs")!;
    // 112 of Table 1's 223 pairs have neither twin changed since the v4 release; the 8 items are not among them
    expect(unchanged.n).toBeLessThanOrEqual(112);
    expect(unchanged.n).toBeGreaterThan(100);
    expect(unchanged.n).toBeLessThan(rows.get("table-1")!.n);
  });
  it("items that follow an older revision exactly do not count toward the few a run may differ by; items no revision explains do", () => {
    const ctx = contextOf({});
    const few = cutRun("few", 20, 0);
    const fewModels = walkBfclTree([few], ctx.cwd, "result").models;
    // 20 lines per file: at most 3 items may differ, and 8 follow the older data: named, and the run is still scored
    const fewFound = manifestsForModels(fewModels, undefined, ctx);
    if (!fewFound.ok) throw new Error(fewFound.problems[0].message);
    expect(fewFound.value.problems.map((p) => [p.severity, p.code, p.message])).toEqual([["warning", "rollouts-older-data", named]]);
    expect(fewFound.value.manifestOf.get(model)?.source.bfclVersion).toBe("v4");
    // 4 base lines asked questions no revision had: more than 3, so the run is refused, the older data named in the line
    const changed = cutRun("changed", 20, 4);
    const refused = manifestsForModels(walkBfclTree([changed], ctx.cwd, "result").models, undefined, ctx);
    if (!refused.ok) throw new Error(refused.problems[0].message);
    expect(refused.value.problems.map((p) => [p.severity, p.code])).toEqual([["error", "rollouts-other-data"]]);
    const line = refused.value.problems[0].message;
    expect(line).toMatch(
      /^model openai_gpt-oss-120b: 12 of \d+ rollouts were not generated on BFCL v4 data \(first: multi_turn_base_0, turn 0\); generated on BFCL v4 data from before 06ae1c76 /,
    );
    expect(line).toContain(
      "8 items differ: multi_turn_miss_func 101, 102, 115, 120, 122, 124, 129, 130; 4 other items differ from every revision known; pass --manifest to force",
    );
  });
});

describe("the real gpt-oss runs, whose 8 changed items are inference errors", () => {
  it("are named from the prompts BFCL's score files keep for those entries, read in the same pass as the verdicts; without the score files nothing can be said", async () => {
    const score = async (results: string) => {
      const io = memoryIo({ TWINSCORE_PYTHON: "/nonexistent/python3" }, projectRoot);
      const code = await runCli(["score", "--results", results, "--model", model, "--bootstrap", "0", "--format", "json"], io);
      const doc = JSON.parse(io.out.join("")) as { problems: { code: string; severity: string; message: string }[]; models: unknown[] };
      expect(code).toBe(0);
      return { doc, err: io.err.join("") };
    };
    for (const run of ["2025-11-12-main", "2025-11-12-harmony-fixes"] as const) {
      // the run folder: BFCL's score/ beside result/ is read, and its entries of 101, 102, … keep missed_function on the older turn
      const withScores = await score(rolloutRunDir(run));
      expect(withScores.doc.problems.filter((p) => p.code.startsWith("rollouts-")).map((p) => [p.severity, p.code, p.message])).toEqual([
        ["warning", "rollouts-older-data", named],
      ]);
      expect(withScores.err).toContain(`warning: ${named} [rollouts-older-data]`);
      const resultsOnly = await score(join(rolloutRunDir(run), "result"));
      expect(resultsOnly.doc.problems.filter((p) => p.code.startsWith("rollouts-"))).toEqual([]);
    }
  });
});

describe("check reads the prompts BFCL's score files keep for failed entries, as score does", () => {
  const rolloutProblems = async (args: string[]) => {
    const io = memoryIo({ TWINSCORE_PYTHON: "/nonexistent/python3" }, projectRoot);
    const code = await runCli([...args, "--format", "json"], io);
    const doc = JSON.parse(io.out.join("")) as { problems: { code: string; severity: string; message: string }[] };
    return {
      code,
      named: doc.problems.filter((p) => p.code.startsWith("rollouts-")).map((p) => [p.severity, p.code, p.message]),
      err: io.err.join(""),
    };
  };
  const check = (results: string) =>
    rolloutProblems(["check", "--results", results, "--model", model, "--bfcl-data", sharedPath("bfcl-v4")]);
  const score = (results: string) => rolloutProblems(["score", "--results", results, "--model", model, "--bootstrap", "0"]);

  it("on the real runs: the 8 inference errors on the changed items are named from their score-file prompts, with score/ beside result/ and not without", async () => {
    for (const run of ["2025-11-12-main", "2025-11-12-harmony-fixes"] as const) {
      const withScores = await check(rolloutRunDir(run));
      expect(withScores.code).toBe(0);
      expect(withScores.named).toEqual([["warning", "rollouts-older-data", named]]);
      expect(withScores.err).toContain(`warning: ${named} [rollouts-older-data]`);
      expect(withScores.named).toEqual((await score(rolloutRunDir(run))).named);
      const resultsOnly = await check(join(rolloutRunDir(run), "result"));
      expect([resultsOnly.code, resultsOnly.named]).toEqual([0, []]);
    }
  });

  it("a copy of a real run whose score files hold today's prompts for those entries is named nothing, by check as by score", async () => {
    const data = readBfclDataDir(sharedPath("bfcl-v4"), ["miss_func"]);
    if (!data.ok) throw new Error(data.problems[0].message);
    const today = new Map(
      data.value.categories.miss_func!.questions.map((q) => [q.id, q as QuestionEntry & { missed_function?: unknown }]),
    );
    const copy = mkdtempSync(join(tmpdir(), "twinscore-older-prompts-"));
    const real = rolloutRunDir("2025-11-12-main");
    let edited = 0;
    for (const kind of ["result", "score"] as const) {
      const from = join(real, kind, model, "multi_turn");
      const to = join(copy, kind, model, "multi_turn");
      mkdirSync(to, { recursive: true });
      for (const c of ["base", "miss_func", "miss_param"]) {
        const file = `BFCL_v4_multi_turn_${c}_${kind}.json`;
        if (kind === "result" || c !== "miss_func") {
          copyFileSync(join(from, file), join(to, file));
          continue;
        }
        const lines = readFileSync(join(from, file), "utf8")
          .split("\n")
          .filter((l) => l !== "");
        const out = lines.map((l) => {
          const entry = JSON.parse(l) as { id?: string; prompt?: { question: unknown; missed_function: unknown } };
          if (entry.id === undefined || !changedIds.includes(entry.id) || entry.prompt === undefined) return l;
          const now = today.get(entry.id)!;
          // the older data held the function back one turn earlier; today's prompt is the data file's
          expect(entry.prompt.missed_function).not.toEqual(now.missed_function);
          edited++;
          return JSON.stringify({ ...entry, prompt: { ...entry.prompt, question: now.question, missed_function: now.missed_function } });
        });
        writeFileSync(join(to, file), out.join("\n") + "\n");
      }
    }
    expect(edited).toBe(8);
    const checked = await check(copy);
    expect([checked.code, checked.named]).toEqual([0, []]);
    expect((await score(copy)).named).toEqual([]);
  });
});
