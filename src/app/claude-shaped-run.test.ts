/**
 * A real run written the way BFCL's ClaudeHandler writes it (text replies and user turns as content blocks),
 * scored and checked with no override: the registry's decoder, the data check passing, every pair decided as in
 * the original run. More in this folder's README.md.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PyDict } from "../python/containers.js";
import type { PyValue } from "../python/value.js";
import { jsonDumps, jsonLoadsOrThrow } from "../python/json.js";
import { bfclDataDir, rolloutRunDir } from "../testing/shared.js";
import { checkRuns } from "./check.js";
import { scoreRuns } from "./score.js";

const ORIGINAL = "openai_gpt-oss-120b";
const CLAUDE = "claude-sonnet-4-5-20250929-FC";
const run = rolloutRunDir("2025-11-12-main");
const tmp = mkdtempSync(join(tmpdir(), "twinscore-claude-shaped-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A step as ClaudeHandler stores it: records unchanged (`{name: json.dumps(input)}`), a text reply as the list of its text blocks. */
function claudeStep(step: PyValue): PyValue {
  if (typeof step === "string") return step === "" ? [] : [step];
  if (step === null) return [];
  return step;
}

const isDict = (v: PyValue | undefined): v is PyDict => v instanceof PyDict;

/** Logged messages as ClaudeHandler logs them: each content string a list of one text block. */
function claudeMessages(messages: PyValue, cacheControl: boolean): PyValue {
  if (!Array.isArray(messages)) return messages;
  return messages.map((m, i) => {
    if (!isDict(m) || typeof m.get("content") !== "string") return m;
    const block = new PyDict([
      ["type", "text"],
      ["text", m.get("content")!],
    ]);
    // ClaudeHandler marks the last user messages for caching, in place: the log keeps the mark
    if (cacheControl && i === messages.length - 1) block.set("cache_control", new PyDict([["type", "ephemeral"]]));
    const out = new PyDict(m.entries());
    out.set("content", [block]);
    return out;
  });
}

/**
 * One result line rewritten into ClaudeHandler's shapes, written as BFCL's `write` writes
 * it (Python's json.dumps: ASCII escapes, Python's separators and float forms; the read
 * keeps ints and floats apart). Inference-error lines stay as they are.
 */
function claudeLine(line: string): string {
  const o = jsonLoadsOrThrow(line) as PyDict;
  const result = o.get("result");
  if (!Array.isArray(result)) return line;
  o.set(
    "result",
    result.map((turn) => (turn as PyValue[]).map(claudeStep)),
  );
  const log = o.get("inference_log");
  if (Array.isArray(log)) {
    const turns = log.filter((e) => isDict(e) && e.has("begin_of_turn_query")).length;
    let t = 0;
    for (const rec of log) {
      if (!isDict(rec)) continue;
      if (rec.has("begin_of_turn_query")) rec.set("begin_of_turn_query", claudeMessages(rec.get("begin_of_turn_query")!, ++t === turns));
      for (const [k, v] of rec.entries())
        if (typeof k === "string" && k.startsWith("step_") && Array.isArray(v))
          for (const m of v) if (isDict(m) && m.get("role") === "assistant") m.set("content", claudeStep(m.get("content")!));
    }
  }
  return jsonDumps(o);
}

let textReplies = 0;

beforeAll(() => {
  const from = join(run, "result", ORIGINAL, "multi_turn");
  const to = join(tmp, "result", CLAUDE, "multi_turn");
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) {
    const lines = readFileSync(join(from, f), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
    const out = lines.map(claudeLine);
    for (const l of out) textReplies += (l.match(/\[\[?"(?:[^"\\]|\\.)*"\]/g) ?? []).length;
    writeFileSync(join(to, f), out.join("\n") + "\n");
  }
  // the run's own score files, under the new folder (BFCL names the model in every line)
  const scoreFrom = join(run, "score", ORIGINAL);
  const scoreTo = join(tmp, "score", CLAUDE);
  cpSync(scoreFrom, scoreTo, { recursive: true });
  for (const f of readdirSync(join(scoreTo, "multi_turn"))) {
    const p = join(scoreTo, "multi_turn", f);
    writeFileSync(p, readFileSync(p, "utf8").replaceAll(`"model_name": "${ORIGINAL}"`, `"model_name": "${CLAUDE}"`));
  }
});

describe("a Claude-shaped run (gpt-oss-120b of 2025-11-12-main written as ClaudeHandler writes)", () => {
  it("is written in Claude's shapes", () => {
    const base = readFileSync(join(tmp, "result", CLAUDE, "multi_turn", "BFCL_v4_multi_turn_base_result.json"), "utf8");
    expect(base).toContain('"begin_of_turn_query": [{"role": "user", "content": [{"type": "text", "text": ');
    expect(textReplies).toBeGreaterThan(500);
  });

  it("is scored with no override: the registry's decoder, every pair decided as in the original run", async () => {
    const itemsOriginal = join(tmp, "original.csv");
    const itemsClaude = join(tmp, "claude.csv");
    const original = await scoreRuns({ results: [join(run, "result", ORIGINAL)], perItem: itemsOriginal, bootstrap: { resamples: 0 } });
    const claude = await scoreRuns({ results: [join(tmp, "result", CLAUDE)], perItem: itemsClaude, bootstrap: { resamples: 0 } });
    expect(claude.exitCode).toBe(0);
    const [o] = original.models;
    const [c] = claude.models;
    expect(c.model).toBe(CLAUDE);
    expect(c.decoder).toMatchObject({ name: "fc", source: "registry" });
    // the same notes as the original (its inference errors), nothing about decoding or data
    expect(c.problems.map((p) => p.message)).toEqual(o.problems.map((p) => p.message));
    expect([c.numbers?.n, c.numbers?.act, c.numbers?.hold, c.numbers?.decision]).toEqual([
      o.numbers?.n,
      o.numbers?.act,
      o.numbers?.hold,
      o.numbers?.decision,
    ]);
    expect(c.numbers?.n).toBe(213);
    // no pair is left out for the shapes: the undecided ones are the original run's inference errors and short rollouts
    expect(c.undecided).toEqual(o.undecided);
    expect(c.undecided?.byStatus.undecidable).toBe(0);
    // pair by pair, the same reading
    const rows = (f: string) =>
      readFileSync(f, "utf8")
        .replaceAll(ORIGINAL, CLAUDE)
        .replaceAll(join(run, "result"), "")
        .split("\n")
        .slice(1)
        .filter((l) => l !== "")
        .sort();
    expect(rows(itemsClaude).length).toBe(223);
    expect(rows(itemsClaude)).toEqual(rows(itemsOriginal).map((r) => r.replaceAll(join(tmp, "result"), "")));
  }, 120_000);

  it("is checked with no override against BFCL's stored verdicts", async () => {
    const doc = await checkRuns({ results: join(tmp, "result"), bfclData: bfclDataDir(), scores: join(tmp, "score"), threads: 1 });
    expect(doc.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(doc.exitCode).toBe(0);
    expect(doc.files.map((f) => `${f.model}/${f.category}`)).toEqual([`${CLAUDE}/base`, `${CLAUDE}/miss_func`, `${CLAUDE}/miss_param`]);
    for (const f of doc.files) {
      expect(f.decoder).toMatchObject({ name: "fc", source: "registry" });
      const a = f.agreement!;
      expect(a.entries).toBe(200);
      expect([a.verdictAgree, a.errorTypeAgree, a.messageAgree]).toEqual([200, 200, 200]);
      expect(a.disagreeingIds).toEqual([]);
    }
  }, 300_000);
});
