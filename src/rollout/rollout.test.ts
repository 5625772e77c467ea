import { describe, expect, it } from "vitest";
import { decodeFcStep } from "../bfcl/decode/index.js";
import { PyDict, PySet } from "../python/containers.js";
import { jsonDumps } from "../python/json.js";
import type { PyValue } from "../python/value.js";
import { convertToTools, prepareEntry, PYTHON_HINT, type RolloutEntry } from "./entry.js";
import type { EntryExecutor } from "./executor.js";
import { compareIds, lineKey, readResultLine, renderLine, sniffResultLine } from "./lines.js";
import { ADDITIONAL_FUNCTION_NOTICE, runEntry, type ChatOutcome, type ChatRequest } from "./loop.js";
import { selectItems } from "./selection.js";
import { makeJsonSerializable } from "./serialize.js";
import { functionDocs } from "../testing/run-fixtures.js";

const docs = functionDocs(["GorillaFileSystem", "MathAPI", "VehicleControlAPI", "TicketAPI"]);

function question(extra: Record<string, PyValue>): PyDict {
  return new PyDict([
    ["id", "multi_turn_miss_func_900"],
    [
      "question",
      [
        [
          new PyDict([
            ["role", "user"],
            ["content", "hi"],
          ]),
        ],
        [],
      ],
    ],
    ["initial_config", new PyDict()],
    ["involved_classes", ["GorillaFileSystem", "MathAPI"]],
    ...Object.entries(extra),
  ]);
}

function entry(extra: Record<string, PyValue> = {}): RolloutEntry {
  const e = prepareEntry(question(extra), docs, { file: "q.json", line: 1 });
  if (!e.ok) throw new Error("entry");
  return e.value;
}

describe("entry preparation and tools", () => {
  it("hints every offered doc, takes held-back docs out unhinted, keeps BFCL order", () => {
    const e = entry({ missed_function: new PyDict([["1", ["mv"]]]) });
    const names = e.functions.map((d) => d.get("name"));
    expect(names).not.toContain("mv");
    expect(names[0]).toBe(docs.get("GorillaFileSystem")?.[0].get("name"));
    expect(e.functions.every((d) => String(d.get("description")).endsWith(PYTHON_HINT))).toBe(true);
    const held = e.heldBack.get("1") ?? [];
    expect(held.map((d) => d.get("name"))).toEqual(["mv"]);
    expect(String(held[0].get("description")).endsWith(PYTHON_HINT)).toBe(false);
    // the data's own docs are not touched
    expect(String(docs.get("GorillaFileSystem")?.[0].get("description")).endsWith(PYTHON_HINT)).toBe(false);
  });

  it("converts docs as convert_to_tool does (object parameters, float → number with format, dict → object, names with dots)", () => {
    const vehicle = docs.get("VehicleControlAPI") ?? [];
    const fill = vehicle.find((d) => d.get("name") === "fillFuelTank") as PyDict;
    const [tool] = convertToTools([fill]);
    const t = jsonDumps(tool);
    expect(t).toContain('"type": "function", "function": {"name": "fillFuelTank"');
    expect(t).toContain('"parameters": {"type": "object"');
    expect(t).toMatch(/"fuelAmount": \{"type": "number", "description": "[^"]* This is a float type value\.", "format": "float"\}/);
    expect(t).toContain('"response": {"type": "dict"'); // kept verbatim
    const ticket = (docs.get("TicketAPI") ?? []).find((d) => d.get("name") === "edit_ticket") as PyDict;
    expect(jsonDumps(convertToTools([ticket])[0])).toContain('"updates": {"type": "object"');
    const dotted = new PyDict([
      ["name", "a.b"],
      ["description", "d"],
      [
        "parameters",
        new PyDict([
          ["type", "dict"],
          [
            "properties",
            new PyDict([
              [
                "xs",
                new PyDict([
                  ["type", "list"],
                  ["items", new PyDict([["type", "float"]])],
                ]),
              ],
            ]),
          ],
        ]),
      ],
    ]);
    const conv = jsonDumps(convertToTools([dotted])[0]);
    expect(conv).toContain('"name": "a_b"');
    expect(conv).toContain('"xs": {"type": "array", "items": {"type": "number"}}');
    expect(jsonDumps(dotted)).toContain('"name": "a.b"'); // converted on a copy
  });
});

describe("result lines", () => {
  it("sorts ids as BFCL's sort_key does and renders json.dumps text (ASCII, Python separators)", () => {
    expect(["multi_turn_base_10", "multi_turn_base_9", "multi_turn_base_100"].sort(compareIds)).toEqual([
      "multi_turn_base_9",
      "multi_turn_base_10",
      "multi_turn_base_100",
    ]);
    const line = new PyDict([
      ["id", "x"],
      ["result", ["é", 1.5, 1n, new PySet([3n, 1n])]],
    ]);
    expect(renderLine(line)).toBe('{"id": "x", "result": ["\\u00e9", 1.5, 1, "{1, 3}"]}\n');
  });

  it("writes a float JSON cannot hold (inf, nan) as null, never as Python's bare Infinity token", () => {
    const line = new PyDict([
      ["id", "x"],
      ["input_token_count", [[Number.POSITIVE_INFINITY, 3n]]],
      ["latency", [[Number.NaN, -Number.POSITIVE_INFINITY, 0.5]]],
    ]);
    const text = renderLine(line);
    expect(text).toBe('{"id": "x", "input_token_count": [[null, 3]], "latency": [[null, null, 0.5]]}\n');
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it("reads a line for resume as Python reads it: error lines known, NaN and a byte-order mark accepted, anything else not a result line", () => {
    expect(readResultLine('{"id": "a", "result": []}')).toEqual({
      kind: "result",
      id: "a",
      isError: false,
      errorMessage: null,
      note: null,
      made: { mode: null, stepsShow: null, injected: null, stopped: false, turns: 0 },
    });
    // what a line records of how it was made: its mode key, else what its steps show
    expect(readResultLine('{"id": "a", "result": [[[{"cd": "{}"}]]], "twinscore_mode": "prompting"}')).toMatchObject({
      made: { mode: "prompting", stepsShow: null, turns: 1 },
    });
    expect(readResultLine('{"id": "a", "result": [[[{"cd": "{}"}]]]}')).toMatchObject({ made: { mode: null, stepsShow: "fc" } });
    expect(readResultLine('{"id": "a", "result": [["[cd(folder=\'x\')]"]]}')).toMatchObject({
      made: { mode: null, stepsShow: "prompting" },
    });
    expect(readResultLine('{"id": "b", "result": "Error during inference: x"}')).toMatchObject({
      kind: "result",
      id: "b",
      isError: true,
      errorMessage: "x",
    });
    expect(readResultLine('\uFEFF{"id": "c", "result": [[]]}')).toMatchObject({
      kind: "result",
      id: "c",
      isError: false,
      note: expect.stringContaining("byte-order mark"),
    });
    expect(readResultLine('{"id": "d", "result": [[]], "latency": [[NaN]]}')).toMatchObject({
      kind: "result",
      id: "d",
      isError: false,
      note: expect.stringContaining("NaN"),
    });
    for (const other of ["# a note", '{"result": []}', '{"id": 7, "result": []}', "[1, 2]", '{"id": "e", "res'])
      expect(readResultLine(other), other).toEqual({ kind: "other" });
    expect(sniffResultLine('{"id": "multi_turn_base_3", "result": [[{"cd": ')).toMatchObject({
      kind: "result",
      id: "multi_turn_base_3",
      isError: false,
    });
    expect(sniffResultLine('{"id": "multi_turn_base_\\u0033", "result": "Error during')).toMatchObject({
      kind: "result",
      id: "multi_turn_base_3",
      isError: true,
    });
    expect(sniffResultLine('{"result": [], "id": "x"}')).toEqual({ kind: "other" });
    // a --history reference line says which anchor it was generated for; a malformed record reads as none
    expect(readResultLine('{"id": "a", "result": [], "twinscore_history": "reference", "twinscore_played_turns": [0, 1]}')).toMatchObject({
      id: "a",
      anchorTurn: 2,
    });
    expect(
      readResultLine('{"id": "a", "result": "Error during inference: x", "twinscore_history": "reference", "twinscore_played_turns": []}'),
    ).toMatchObject({ isError: true, anchorTurn: 0 });
    expect(readResultLine('{"id": "a", "result": [], "twinscore_history": "reference", "twinscore_played_turns": [1]}')).not.toHaveProperty(
      "anchorTurn",
    );
    expect(readResultLine('{"id": "a", "result": [], "twinscore_played_turns": [0]}')).not.toHaveProperty("anchorTurn");
    expect(
      sniffResultLine(
        '{"id": "a", "result": [[',
        '"x"]], "twinscore_history": "reference", "twinscore_played_turns": [0, 1, 2], "twinscore_stopped_after_turn": 3}',
      ),
    ).toMatchObject({ id: "a", anchorTurn: 3 });
    expect(lineKey("a", 2)).not.toBe(lineKey("a", 3));
    expect(lineKey("a", null)).toBe("a");
  });

  it("make_json_serializable snapshots containers and stringifies what json.dumps refuses", () => {
    const list: PyValue[] = [1n];
    const snap = makeJsonSerializable(
      new PyDict([
        ["l", list],
        ["s", new PySet(["a"])],
      ]),
    ) as PyDict;
    list.push(2n);
    expect(jsonDumps(snap)).toBe('{"l": [1], "s": "{\'a\'}"}');
  });
});

describe("item selection", () => {
  it("pairs: the scored pairs' items; a base twin in several pairs stops after the latest anchor", () => {
    const pair = (missId: string, baseId: string, anchorTurn: number, status: "scored" | "excluded") =>
      ({ missId, baseId, anchorTurn, status }) as never;
    const s = selectItems(
      "pairs",
      [
        pair("multi_turn_miss_param_1", "multi_turn_base_1", 1, "scored"),
        pair("multi_turn_miss_func_1", "multi_turn_base_1", 3, "scored"),
        pair("multi_turn_miss_param_2", "multi_turn_base_2", 0, "excluded"),
      ],
      [],
    );
    expect(s.ids).toEqual(["multi_turn_base_1", "multi_turn_miss_func_1", "multi_turn_miss_param_1"]);
    expect(s.lastTurn.get("multi_turn_base_1")).toBe(3);
    expect(selectItems("all-pairs", [pair("multi_turn_miss_param_2", "multi_turn_base_2", 0, "excluded")], []).ids).toHaveLength(2);
  });
});

/** An executor that answers every call with its own text, and has no state. */
const echoExecutor: EntryExecutor = { run: (calls) => calls.map((c) => `ran ${c}`), state: () => [] };

function scripted(replies: (req: ChatRequest, n: number) => ChatOutcome) {
  let n = 0;
  return async (req: ChatRequest) => replies(req, n++);
}

const call = (name: string, args: string) => ({
  ok: true as const,
  message: { role: "assistant", content: null, tool_calls: [{ id: `c${name}`, type: "function", function: { name, arguments: args } }] },
  usage: { prompt_tokens: 10, completion_tokens: 2 },
});
const stop = {
  ok: true as const,
  message: { role: "assistant", content: "done", tool_calls: [] },
  usage: { prompt_tokens: 11, completion_tokens: 1 },
};

describe("the loop", () => {
  it("hands held-back tools back on their turn with BFCL's notice, and fails a holdout turn that has a query", async () => {
    const seen: ChatRequest[] = [];
    const e = entry({ missed_function: new PyDict([["1", ["mv"]]]) });
    const out = await runEntry(e, {
      mode: "fc",
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      chat: scripted((req) => (seen.push(req), stop)),
    });
    expect(out.error).toBeNull();
    const toolNames = (r: ChatRequest) => (r.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(toolNames(seen[0])).not.toContain("mv");
    expect(toolNames(seen[1]).at(-1)).toBe("mv");
    expect(seen[1].messages.at(-1)).toEqual({ role: "user", content: ADDITIONAL_FUNCTION_NOTICE });
    const bad = entry({ missed_function: new PyDict([["0", ["mv"]]]) });
    const failed = await runEntry(bad, {
      mode: "fc",
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      chat: scripted(() => stop),
    });
    expect(jsonDumps(failed.line)).toBe(
      '{"id": "multi_turn_miss_func_900", "result": "Error during inference: Holdout turn should not have user message.", "traceback": "twinscore run: the entry stopped here (no Python traceback; BFCL records one)"}',
    );
  });

  it("force-quits after 20 executed steps and stops the entry; logs decode errors with str(e)", async () => {
    const e = entry();
    const out = await runEntry(e, {
      mode: "fc",
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      chat: scripted(() => call("ls", '{"a": false}')),
    });
    const result = out.line.get("result") as unknown[][];
    expect(result).toHaveLength(1); // no later turn
    expect(result[0]).toHaveLength(21);
    expect(jsonDumps(out.line)).toContain('{"role": "handler_log", "content": "Model has been forced to quit after 20 steps."}]}');
    const bad = await runEntry(e, {
      mode: "fc",
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      chat: scripted((_r, n) => (n === 0 ? call("ls", "{oops") : stop)),
    });
    expect(jsonDumps(bad.line)).toContain('"error": "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"');
    // the assistant message is echoed as received, and a step without usage ends the entry as BFCL's AttributeError
    const noUsage = await runEntry(e, {
      mode: "fc",
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      chat: scripted(() => ({ ok: true, message: { role: "assistant", content: "x", tool_calls: [] }, usage: undefined })),
    });
    expect(noUsage.error).toBe("'NoneType' object has no attribute 'prompt_tokens'");
  });

  it("sends one tool message per call with its id, echoes each assistant message as received, and stops after lastTurn", async () => {
    const seen: ChatRequest[] = [];
    const pwd = call("pwd", "{}");
    const asReceived = {
      ...pwd,
      message: { ...pwd.message, content: "Let me look.", refusal: null, reasoning_content: "the user wants the folder", annotations: [] },
    };
    const e = entry({
      question: [
        [
          new PyDict([
            ["role", "user"],
            ["content", "a"],
          ]),
        ],
        [
          new PyDict([
            ["role", "user"],
            ["content", "b"],
          ]),
        ],
        [
          new PyDict([
            ["role", "user"],
            ["content", "c"],
          ]),
        ],
      ],
    });
    const out = await runEntry(e, {
      mode: "fc",
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      lastTurn: 1,
      chat: scripted((req, n) => (seen.push(req), n === 0 ? asReceived : stop)),
    });
    expect(seen[1].messages.slice(-1)).toEqual([{ role: "tool", content: "ran pwd()", tool_call_id: "cpwd" }]);
    // the assistant message goes back into the history as received: every key the server sent, unchanged
    expect(seen[1].messages.at(-2)).toEqual(asReceived.message);
    expect(seen[2].messages.filter((m) => (m as { role: string }).role === "assistant")).toEqual([asReceived.message, stop.message]);
    expect((out.line.get("result") as unknown[]).length).toBe(2);
    expect(out.line.get("twinscore_stopped_after_turn")).toBe(1n);
  });
});
