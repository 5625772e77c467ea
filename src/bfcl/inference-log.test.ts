import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sharedPath } from "../testing/shared.js";
import { scanTurnQueries, turnQueriesAt, turnQueriesOf } from "./inference-log.js";
import { scanLineHead } from "./results.js";

const enc = new TextEncoder();
const scan = (line: string, maxTurns?: number) => {
  const bytes = enc.encode(line);
  return scanTurnQueries(bytes, 0, bytes.length, maxTurns);
};

describe("turn queries of an inference_log", () => {
  const log = [
    [{ role: "state_info", class_name: "TwitterAPI", content: { tweets: { "0": 'a "quoted" {brace' } } }],
    { begin_of_turn_query: [{ role: "user", content: "first" }], step_0: [{ role: "assistant", content: [{ ls: "{}" }] }] },
    [{ role: "state_info", class_name: "TwitterAPI", content: {} }],
    {
      step_0: [],
      begin_of_turn_query: [
        { role: "system", content: "sys" },
        { role: "user", content: "second" },
      ],
    },
  ];
  const line = JSON.stringify({ id: "multi_turn_base_0", result: [[], []], inference_log: log });
  it("reads one entry per turn record, skipping state snapshots, from the parsed value and from the bytes alike", () => {
    const expected = [
      [{ role: "user", content: "first" }],
      [
        { role: "system", content: "sys" },
        { role: "user", content: "second" },
      ],
    ];
    expect(turnQueriesOf(log)).toEqual(expected);
    expect(scan(line)).toEqual(expected);
    expect(scan(line, 1)).toEqual(expected.slice(0, 1));
  });
  it("gives null for an inference-error line (no log) and for a line that is not an object", () => {
    expect(scan(JSON.stringify({ id: "multi_turn_base_0", result: "Error during inference: boom", traceback: "…" }))).toBeNull();
    expect(turnQueriesOf(undefined)).toBeNull();
    expect(scan("[1, 2]")).toBeNull();
    expect(scan('{"id": "x", "inference_log": [{"begin_of_turn_query": [')).toBeNull();
  });
  it("reads a user message logged as content blocks (Claude's, Nova's handlers) as its text, and leaves out tool-call and image content", () => {
    const blocks = [
      { begin_of_turn_query: [{ role: "user", content: [{ type: "text", text: "list my files" }] }] },
      {
        begin_of_turn_query: [
          {
            role: "user",
            content: [
              { type: "text", text: "part one, " },
              { type: "text", text: "part two" },
            ],
          },
          { role: "user", content: [{ type: "image", source: {} }] },
        ],
      },
      {
        begin_of_turn_query: [
          { role: "assistant", content: [{ ls: "{}" }] },
          { role: "user", content: [] },
        ],
      },
    ];
    const expected = [[{ role: "user", content: "list my files" }], [{ role: "user", content: "part one, \npart two" }], []];
    expect(turnQueriesOf(blocks)).toEqual(expected);
    expect(scan(JSON.stringify({ id: "multi_turn_base_0", result: [], inference_log: blocks }))).toEqual(expected);
  });
  it("reads a real xLAM line the same both ways", () => {
    const line = readFileSync(
      sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r", "BFCL_v3_multi_turn_miss_func_result.json"),
      "utf8",
    ).split("\n")[0];
    const parsed = turnQueriesOf((JSON.parse(line) as { inference_log: unknown }).inference_log);
    expect(parsed?.[0]).toEqual([
      {
        role: "user",
        content: "Move 'final_report.pdf' within document directory to 'temp' directory in document. Make sure to create the directory",
      },
    ]);
    expect(scan(line)).toEqual(parsed);
  });
});

describe("the turn queries the head scan locates", () => {
  const both = (line: string, maxTurns?: number) => {
    const bytes = enc.encode(line);
    const head = scanLineHead(bytes, 0, bytes.length, true);
    if ("error" in head) throw new Error(head.error);
    return {
      located: turnQueriesAt(bytes, 0, bytes.length, head, maxTurns),
      scanned: scanTurnQueries(bytes, 0, bytes.length, maxTurns),
      head,
    };
  };
  it("are the queries the lenient walk reads, on every line of the real runs, and the scan walks a plain log once", () => {
    const files = [
      sharedPath(
        "rollouts",
        "gpt-oss",
        "2025-11-12-main",
        "result",
        "openai_gpt-oss-120b",
        "multi_turn",
        "BFCL_v4_multi_turn_miss_param_result.json",
      ),
      sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r", "BFCL_v3_multi_turn_miss_func_result.json"),
    ];
    let lines = 0;
    let located = 0;
    for (const file of files) {
      for (const line of readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")) {
        const r = both(line);
        expect(r.located).toEqual(r.scanned);
        expect(both(line, 1).located).toEqual(r.scanned === null ? null : r.scanned.slice(0, 1));
        lines++;
        if (r.head.logQueries !== null) located++;
      }
    }
    expect(lines).toBeGreaterThan(300);
    // every line with a log has it located in the head scan (inference-error lines have none)
    expect(located).toBeGreaterThan(lines * 0.9);
  });
  it("fall back to the lenient walk where a log is not plain, and give the same answer", () => {
    const odd = [
      '{"id": "a", "result": [], "inference_log": [1, {"begin_of_turn_query": [{"role": "user", "content": "q"}]}]}',
      '{"id": "a", "result": [], "inference_log": [{"begin_of_turn_query": [{"role": "user", "content": "q"}] "x": 1}]}',
      '{"id": "a", "result": [], "inference_log": [{"n": tr]ue}, {"begin_of_turn_query": [{"role": "user", "content": "q"}]}]}',
      '{"id": "a", "result": [], "inference_log": "not a list"}',
      '{"id": "a", "result": [], "inference_log": [{"begin_of_turn_query": []}], "inference_log": []}',
      '{"id": "a", "result": [], "inference_log": [{"begin_of_turn_query": [{"role": "user", "content": "q"}]}]',
    ];
    for (const line of odd) {
      const r = both(line);
      expect(r.located, line).toEqual(r.scanned);
    }
    expect(both(odd[0]).head.logQueries).toBeNull();
    expect(both(odd[4]).head.logQueries).toEqual([expect.any(Number), expect.any(Number)]);
    expect(both(odd[5]).head.logStart).toBe(-2);
  });
});
