import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../testing/shared.js";
import { summarizeLabels } from "./aggregate.js";
import { parseJudgeReply } from "./labels.js";
import { buildJudgeRequest, parsePromptFile } from "./prompt.js";
import type { HeldBackTurn, JudgeRecord } from "./types.js";
import { isSilent } from "./types.js";

const shippedPrompt = readFileSync(join(projectRoot, "data", "judge-prompt.md"), "utf8");

const turn: HeldBackTurn = {
  model: "m",
  missId: "multi_turn_miss_param_122",
  baseId: "multi_turn_base_122",
  category: "miss_param",
  anchorTurn: 0,
  request: "Buy 100 shares at $150 each.",
  baseRequest: "Buy 100 shares of AAPL at $150 each.",
  removedFunctions: [],
  lookups: ["get_account_info()"],
  reply: "Which stock should I buy? {{reply}}",
};

describe("the shipped prompt file", () => {
  it("parses and carries every placeholder the judge needs", () => {
    const parsed = parsePromptFile(shippedPrompt);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    for (const ph of ["{{request}}", "{{base_request}}", "{{removed}}", "{{lookups}}", "{{reply}}"])
      expect(parsed.prompt.user).toContain(ph);
  });
  it("rejects a prompt file without the separator", () => {
    expect(parsePromptFile("just text {{reply}}").ok).toBe(false);
  });
});

describe("buildJudgeRequest", () => {
  const prompt = (parsePromptFile(shippedPrompt) as { ok: true; prompt: { system: string; user: string } }).prompt;
  it("shows exactly the turn, and never re-expands text inside the reply", () => {
    const req = buildJudgeRequest(turn, prompt, "judge-1");
    const user = req.body.messages[1].content;
    expect(user).toContain("Buy 100 shares at $150 each.");
    expect(user).toContain("Buy 100 shares of AAPL at $150 each.");
    expect(user).toContain("get_account_info()");
    expect(user).toContain("Which stock should I buy? {{reply}}");
    expect(user).toContain("a value was removed from the request");
    expect(req.body.model).toBe("judge-1");
    expect(req.body.temperature).toBe(0);
  });
  it("keys the cache by the request: same input same key, other judge model other key", () => {
    const a = buildJudgeRequest(turn, prompt, "judge-1");
    expect(buildJudgeRequest(turn, prompt, "judge-1").key).toBe(a.key);
    expect(buildJudgeRequest(turn, prompt, "judge-2").key).not.toBe(a.key);
    expect(a.key).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("parseJudgeReply", () => {
  it("reads JSON, fenced JSON and bare words", () => {
    expect(parseJudgeReply('{"label": "asks_removed"}')).toEqual({ ok: true, label: "asks_removed" });
    expect(parseJudgeReply('```json\n{"label":"refuses"}\n```')).toEqual({ ok: true, label: "refuses" });
    expect(parseJudgeReply("proceeds_in_prose")).toEqual({ ok: true, label: "proceeds_in_prose" });
  });
  it("refuses to guess", () => {
    expect(parseJudgeReply('{"label": "maybe"}').ok).toBe(false);
    expect(parseJudgeReply("asks_other or refuses").ok).toBe(false);
    expect(parseJudgeReply("I think the assistant did fine.").ok).toBe(false);
  });
});

describe("summarizeLabels", () => {
  it("gives per-model shares over labelled turns and counts silent turns apart", () => {
    const recs: JudgeRecord[] = [
      { model: "m", missId: "a", requestKey: "k1", label: "asks_removed", raw: "" },
      { model: "m", missId: "b", requestKey: "k2", label: "asks_removed", raw: "" },
      { model: "m", missId: "c", requestKey: "k3", label: "proceeds_in_prose", raw: "" },
      { model: "m", missId: "c", requestKey: "k3", label: "proceeds_in_prose", raw: "" },
      { model: "other", missId: "a", requestKey: "k4", label: "none", raw: "" },
    ];
    const [s] = summarizeLabels(new Map([["m", { heldBack: 5, notReached: 0, silent: 2, missIds: new Set(["a", "b", "c"]) }]]), recs);
    expect(s.labelled).toBe(3);
    expect(s.counts.asks_removed).toBe(2);
    expect(s.shares.asks_removed).toBeCloseTo(66.667, 2);
    expect(s.shares.proceeds_in_prose).toBeCloseTo(33.333, 2);
    expect(s.silent).toBe(2);
  });
  it("a model with no labelled turn has no share (null in JSON), not a 0 that reads like one", () => {
    const [s] = summarizeLabels(new Map([["m", { heldBack: 2, notReached: 0, silent: 2, missIds: new Set(["a", "b"]) }]]), []);
    expect(s.labelled).toBe(0);
    expect(JSON.parse(JSON.stringify(s.shares))).toEqual(Object.fromEntries(Object.keys(s.shares).map((l) => [l, null])));
  });
  it("calls a turn silent only when it has no text", () => {
    expect(isSilent({ ...turn, reply: "  \n" })).toBe(true);
    expect(isSilent(turn)).toBe(false);
  });
});
