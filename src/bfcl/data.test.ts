import { describe, expect, it } from "vitest";
import {
  alignCategory,
  categoryOfId,
  detectVersion,
  indexOfId,
  parseAnswers,
  parseFuncDocs,
  parseQuestions,
  toolList,
  type FuncDoc,
  type MultiTurnClass,
} from "./data.js";

const q = (id: string, turns: unknown[][], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, question: turns, initial_config: {}, path: [], involved_classes: ["MathAPI"], ...extra });
const userTurn = (text: string) => [{ role: "user", content: text }];

describe("detectVersion", () => {
  it("prefers BFCL_v4_ and accepts BFCL_v3_", () => {
    expect(detectVersion("d", ["BFCL_v3_multi_turn_base.json", "BFCL_v4_multi_turn_base.json"])).toEqual({ ok: true, value: "v4" });
    expect(detectVersion("d", ["BFCL_v3_multi_turn_base.json", "possible_answer"])).toEqual({ ok: true, value: "v3" });
  });
  it("names the wrong prefix it found", () => {
    const r = detectVersion("d", ["BFCL_v2_multi_turn_base.json"]);
    expect(!r.ok && r.problems[0]).toMatchObject({
      code: "bfcl-prefix",
      file: "d",
      message:
        "wrong file prefix: found BFCL_v2_multi_turn_base.json, expected BFCL_v4_multi_turn_base.json or BFCL_v3_multi_turn_base.json",
    });
    expect(!detectVersion("d", ["README.md"]).ok).toBe(true);
  });
});

describe("parseQuestions", () => {
  it("reads entries with their line numbers and skips blank lines", () => {
    const text = [q("multi_turn_base_0", [userTurn("hi")]), "", q("multi_turn_base_1", [userTurn("a"), userTurn("b")])].join("\n") + "\n";
    const r = parseQuestions(text, "f.json", "base");
    expect(r.ok && r.value.map((e) => [e.id, e.line, e.question.length])).toEqual([
      ["multi_turn_base_0", 1, 1],
      ["multi_turn_base_1", 3, 2],
    ]);
  });
  it("reports a malformed line with file and line", () => {
    const r = parseQuestions(q("multi_turn_base_0", [userTurn("hi")]) + '\n{"id": "multi_turn_base_1", ', "f.json", "base");
    expect(!r.ok && r.problems[0]).toMatchObject({ code: "json-malformed", file: "f.json", line: 2 });
  });
  it("reports an entry that breaks the schema, naming the field", () => {
    const r = parseQuestions(q("multi_turn_base_0", [userTurn("hi")], { involved_classes: ["NoSuchAPI"] }), "f.json", "base");
    expect(!r.ok && r.problems[0]).toMatchObject({ code: "schema", line: 1 });
    expect(!r.ok && r.problems[0].message).toMatch(/^unexpected entry: involved_classes\.0: /);
  });
  it("reports an id of another category and a duplicate id", () => {
    const r = parseQuestions(q("multi_turn_miss_func_0", []), "f.json", "base");
    expect(!r.ok && r.problems[0]).toMatchObject({
      code: "id-category",
      message: "id multi_turn_miss_func_0 does not belong to category base",
    });
    const d = parseQuestions([q("multi_turn_base_0", []), q("multi_turn_base_0", [])].join("\n"), "f.json", "base");
    expect(!d.ok && d.problems[0]).toMatchObject({ code: "duplicate-id", line: 2 });
  });
});

describe("alignCategory", () => {
  const qs = parseQuestions(
    [q("multi_turn_base_0", [userTurn("a")]), q("multi_turn_base_1", [userTurn("b")])].join("\n"),
    "q.json",
    "base",
  );
  if (!qs.ok) throw new Error("fixture");
  it("pairs questions and references by id", () => {
    const as = parseAnswers(
      '{"id": "multi_turn_base_1", "ground_truth": [[]]}\n{"id": "multi_turn_base_0", "ground_truth": [["add(a=1, b=2)"]]}',
      "a.json",
    );
    const r = as.ok ? alignCategory("base", qs.value, as.value, "a.json") : as;
    expect(r.ok && r.value.answers.map((a) => a.groundTruth)).toEqual([[["add(a=1, b=2)"]], [[]]]);
    expect(r.ok && r.value.unusable).toEqual([]);
  });
  it("leaves out, with a reason, an item without reference, a stray reference and a turn-count mismatch", () => {
    const as = parseAnswers(
      '{"id": "multi_turn_base_0", "ground_truth": [[]]}\n{"id": "multi_turn_base_7", "ground_truth": [[]]}',
      "a.json",
    );
    const r = as.ok ? alignCategory("base", qs.value, as.value, "a.json") : as;
    expect(r.ok && r.value.questions.map((q) => q.id)).toEqual(["multi_turn_base_0"]);
    expect(r.ok && r.value.unusable).toEqual([
      {
        id: "multi_turn_base_1",
        code: "reference-missing",
        reason: "has no reference",
        file: "a.json",
        line: null,
        question: qs.value[1],
        answer: null,
      },
      {
        id: "multi_turn_base_7",
        code: "question-missing",
        reason: "is a reference without a question",
        file: "a.json",
        line: 2,
        question: null,
        answer: expect.objectContaining({ id: "multi_turn_base_7" }),
      },
    ]);
    const turns = parseAnswers(
      '{"id": "multi_turn_base_0", "ground_truth": [[], []]}\n{"id": "multi_turn_base_1", "ground_truth": [[]]}',
      "a.json",
    );
    const t = turns.ok ? alignCategory("base", qs.value, turns.value, "a.json") : turns;
    expect(t.ok && t.value.questions.map((q) => q.id)).toEqual(["multi_turn_base_1"]);
    expect(t.ok && t.value.unusable[0]).toMatchObject({
      id: "multi_turn_base_0",
      code: "turns-misaligned",
      line: 1,
      reason: "has 2 reference turns but its question has 1",
    });
  });
});

describe("ids and tool lists", () => {
  it("reads category and index off an id like BFCL", () => {
    expect(categoryOfId("multi_turn_miss_param_122")).toBe("miss_param");
    expect(indexOfId("multi_turn_miss_param_122")).toBe(122);
    expect(indexOfId("multi_turn_base_x")).toBeNaN();
  });
  it("concatenates docs in involved_classes order and keeps miss_func's removed function", () => {
    const docs = (names: string[]): FuncDoc[] =>
      names.map((name, i) => ({ name, description: "", parameters: {}, response: null, line: i + 1 }));
    const byClass = { TradingBot: docs(["place_order", "get_stock_info"]), MessageAPI: docs(["send_message"]) } as unknown as Record<
      MultiTurnClass,
      FuncDoc[]
    >;
    const entry = parseQuestions(
      q("multi_turn_miss_func_3", [userTurn("a"), []], {
        involved_classes: ["MessageAPI", "TradingBot"],
        missed_function: { "1": ["place_order"] },
      }),
      "f.json",
      "miss_func",
    );
    if (!entry.ok) throw new Error("fixture");
    expect(toolList(entry.value[0], byClass)).toEqual({
      tools: ["send_message", "place_order", "get_stock_info"],
      removed: ["place_order"],
    });
  });
  it("parses a doc line and reports one without a name", () => {
    expect(parseFuncDocs('{"name": "add", "description": "d", "parameters": {}}', "m.json").ok).toBe(true);
    const r = parseFuncDocs('{"description": "d", "parameters": {}}', "m.json");
    expect(!r.ok && r.problems[0]).toMatchObject({ code: "schema", file: "m.json", line: 1 });
  });
});
