import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rolloutRunDir } from "../testing/shared.js";
import {
  decodeResult,
  decodeResultBytes,
  lineHistory,
  repeatedKeyMessage,
  scanLineHead,
  scanTurns,
  stoppedAfterTurn,
  type LineHead,
} from "./results.js";

const enc = new TextEncoder();
const bytesOf = (s: string) => enc.encode(s);
const where = { file: "f.json", line: 3 };

function realLines(category: string): string[] {
  const file = join(
    rolloutRunDir("2025-11-12-main"),
    "result",
    "openai_gpt-oss-120b",
    "multi_turn",
    `BFCL_v4_multi_turn_${category}_result.json`,
  );
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
}

describe("scanLineHead on the real gpt-oss-120b lines (2025-11-12-main)", () => {
  it("finds id and the exact result slice on every base line, as JSON.parse does", () => {
    const lines = realLines("base");
    expect(lines.length).toBe(200);
    for (const line of lines) {
      const bytes = bytesOf(line);
      const head = scanLineHead(bytes, 0, bytes.length);
      if ("error" in head) throw new Error(head.error);
      const full = JSON.parse(line) as { id: string; result: unknown };
      expect(head.id).toBe(full.id);
      const decoded = decodeResultBytes(bytes, head, 1000, where);
      expect(decoded).toMatchObject({ kind: "turns", turns: full.result });
    }
  });

  it("keeps only the turns asked for but counts them all (multi_turn_base_0)", () => {
    const line = realLines("base")[0];
    const bytes = bytesOf(line);
    const head = scanLineHead(bytes, 0, bytes.length);
    if ("error" in head) throw new Error(head.error);
    expect(head.id).toBe("multi_turn_base_0");
    const full = JSON.parse(line) as { result: unknown[] };
    const two = decodeResultBytes(bytes, head, 2, where);
    expect(two).toEqual({ kind: "turns", turns: full.result.slice(0, 2), turnCount: full.result.length });
    expect(decodeResultBytes(bytes, head, 0, where)).toEqual({ kind: "turns", turns: [], turnCount: full.result.length });
  });

  it("reads the inference-error line of multi_turn_miss_func_101 as an error string", () => {
    const line = realLines("miss_func").find((l) => l.startsWith('{"id": "multi_turn_miss_func_101"'))!;
    const bytes = bytesOf(line);
    const head = scanLineHead(bytes, 0, bytes.length);
    if ("error" in head) throw new Error(head.error);
    expect(decodeResultBytes(bytes, head, 3, where)).toEqual({
      kind: "inference-error",
      message: "Error during inference: Holdout turn should not have user message.",
    });
  });
});

describe("scanLineHead on hand-made lines", () => {
  it("respects strings: brackets, braces and escaped quotes inside them do not count", () => {
    const line =
      '{"x": "a]}\\"[{", "id": "multi_turn_base_7", "result": [[["]\\"}"], []], [[{"ls": "{\\"a\\": \\"]\\"}"}]]], "inference_log": ["}\\\\", {"id": "not this"}]}';
    const bytes = bytesOf(line);
    const head = scanLineHead(bytes, 0, bytes.length);
    if ("error" in head) throw new Error(head.error);
    expect(head.id).toBe("multi_turn_base_7");
    expect(JSON.parse(line.slice(head.resultStart, head.resultEnd))).toEqual([[[']"}'], []], [[{ ls: '{"a": "]"}' }]]]);
  });

  it("reads a repeated key by its last value, as Python's json.loads does, and says which keys repeat", () => {
    const line =
      '{"id": "multi_turn_base_1", "result": [["first"]], "inference_log": [{"id": "x", "result": 1}], "res\\u0075lt": [["second"]], "id": "multi_turn_base_2"}';
    const bytes = bytesOf(line);
    const head = scanLineHead(bytes, 0, bytes.length);
    if ("error" in head) throw new Error(head.error);
    const python = JSON.parse(line) as { id: string; result: unknown };
    expect(head.id).toBe(python.id);
    expect(JSON.parse(line.slice(head.resultStart, head.resultEnd))).toEqual(python.result);
    expect(head.repeated).toEqual(["result", "id"]);
    expect(repeatedKeyMessage(head)).toBe(
      "multi_turn_base_2: the line gives `result` and `id` more than once; read as BFCL's json.loads reads it, by the last one",
    );
    const once = bytesOf('{"id": "multi_turn_base_1", "result": [], "ids": 1, "result_x": 2}');
    expect(scanLineHead(once, 0, once.length)).toMatchObject({ id: "multi_turn_base_1", repeated: [] });
  });

  it("a line cut short after its result is malformed, as json.loads finds it; asked for the id only, it still gives its first id", () => {
    const line = '{"id": "multi_turn_base_7", "result": [[]], "inference_log": [{"role": "us';
    const bytes = bytesOf(line);
    expect(scanLineHead(bytes, 0, bytes.length)).toEqual({ error: "a value does not close (truncated or malformed JSON)" });
    expect(scanLineHead(bytes, 0, bytes.length, true)).toMatchObject({
      id: "multi_turn_base_7",
      resultStart: -1,
      resultEnd: -1,
      repeated: [],
      historyStart: -1,
      playedStart: -1,
      stoppedStart: -1,
    });
  });

  it("finds result before id, and works inside a larger buffer (offsets are absolute)", () => {
    const line = 'xx{"result": "Error during inference: boom", "id": "multi_turn_miss_param_3"}yy';
    const bytes = bytesOf(line);
    const head = scanLineHead(bytes, 2, bytes.length - 2);
    if ("error" in head) throw new Error(head.error);
    expect(head.id).toBe("multi_turn_miss_param_3");
    expect(line.slice(head.resultStart, head.resultEnd)).toBe('"Error during inference: boom"');
  });

  it("locates the user simulator's key only where it is a top-level key, the last one when repeated", () => {
    const sim = (v: string) => `"twinscore_user_simulator": {"answer_turn": ${v}}`;
    const top = `{"id": "a", "result": [], "inference_log": [{"k": {${sim("1")}}}], ${sim("2")}, ${sim("3")}}`;
    const head = scanLineHead(bytesOf(top), 0, top.length);
    if ("error" in head) throw new Error(head.error);
    expect(top.slice(head.simulatorKeyStart)).toBe(`${sim("3")}}`);
    // nested in another value, or inside a string, it is no key of the line
    const nested = `{"id": "a", "result": [], "inference_log": [{"k": {${sim("1")}}}], "t": "${sim("2").replaceAll('"', '\\"')}"}`;
    const none = scanLineHead(bytesOf(nested), 0, nested.length);
    if ("error" in none) throw new Error(none.error);
    expect(none.simulatorKeyStart).toBe(-1);
    // a scan that stops early cannot say: the reader searches the tail instead
    const cut = scanLineHead(bytesOf(top.slice(0, -3)), 0, top.length - 3, true);
    if ("error" in cut) throw new Error(cut.error);
    expect(cut.simulatorKeyStart).toBe(-2);
  });

  it("handles non-ASCII (raw UTF-8, as gpt-oss files carry) before and inside the result", () => {
    const line = '{"id": "multi_turn_base_1", "note": "café ✓", "result": [["déjà vu"]]}';
    const bytes = bytesOf(line);
    const head = scanLineHead(bytes, 0, bytes.length);
    if ("error" in head) throw new Error(head.error);
    expect(decodeResultBytes(bytes, head, 5, where)).toEqual({ kind: "turns", turns: [["déjà vu"]], turnCount: 1 });
  });

  it.each([
    ["not an object", '["id"]', "not a JSON object"],
    ["truncated", '{"id": "multi_turn_base_1", "result": [[[', "does not close"],
    ["no result", '{"id": "multi_turn_base_1", "latency": 3}', "no `result`"],
    ["no id", '{"result": []}', "no `id`"],
    ["numeric id", '{"id": 3, "result": []}', "`id` is not a string"],
    ["missing colon", '{"id" "x"}', "expected ':'"],
    [
      "two objects on one line",
      '{"id": "multi_turn_base_1", "result": []}{"id": "multi_turn_base_2", "result": []}',
      "byte 42: data after",
    ],
    ["text after the object", '{"id": "multi_turn_base_1", "result": []} x', "byte 43: data after the object's closing '}' (Extra data)"],
  ])("reports a malformed line: %s", (_label, line, message) => {
    const bytes = bytesOf(line);
    const head = scanLineHead(bytes, 0, bytes.length);
    expect("error" in head && head.error).toContain(message);
  });

  it("whitespace after the object is no extra data (json.loads allows it)", () => {
    const line = '{"id": "multi_turn_base_1", "result": []} \t\r';
    const head = scanLineHead(bytesOf(line), 0, line.length);
    if ("error" in head) throw new Error(head.error);
    expect(head.id).toBe("multi_turn_base_1");
  });
});

describe("decodeResult", () => {
  it("rejects a result that is neither turns nor an error string, with file:line", () => {
    expect(decodeResult("{}", 2, where)).toMatchObject({ code: "result-shape", file: "f.json", line: 3 });
    expect(decodeResult("[3]", 2, where)).toMatchObject({ code: "result-shape" });
    expect(decodeResult("[[", 2, where)).toMatchObject({ code: "json-malformed" });
  });
});

describe("scanTurns", () => {
  it("counts turns and cuts after the ones kept", () => {
    const text = '[[1], ["]"], [[2]]]';
    const b = bytesOf(text);
    expect(scanTurns(b, 0, b.length, 1)).toEqual({ cut: 4, count: 3 }); // just past "[1]"
    expect(scanTurns(b, 0, b.length, 3)).toEqual({ cut: -1, count: 3 });
    expect(scanTurns(bytesOf("[]"), 0, 2, 1)).toEqual({ cut: -1, count: 0 });
    expect(scanTurns(bytesOf('"x"'), 0, 3, 1)).toEqual({ cut: -1, count: null });
  });
});

describe("the history a line says it has (twinscore run --history reference)", () => {
  const headOf = (line: string): { bytes: Uint8Array; head: LineHead } => {
    const bytes = bytesOf(line);
    const head = scanLineHead(bytes, 0, bytes.length);
    if ("error" in head) throw new Error(head.error);
    return { bytes, head };
  };
  const historyOf = (line: string) => {
    const { bytes, head } = headOf(line);
    return lineHistory(bytes, head);
  };

  it("every real gpt-oss line is the model's own, and decodes with no played turns", () => {
    for (const category of ["base", "miss_func", "miss_param"]) {
      for (const line of realLines(category)) {
        const { bytes, head } = headOf(line);
        expect(lineHistory(bytes, head)).toEqual({ kind: "own" });
        expect(stoppedAfterTurn(bytes, head)).toBeNull();
        const decoded = decodeResultBytes(bytes, head, 3, where);
        expect("played" in decoded).toBe(false);
      }
    }
  });

  it("reads the played turns wherever the keys stand, the stopped turn too", () => {
    const real = realLines("base")[0];
    const played = real.replace(
      /\}$/,
      ', "twinscore_history": "reference", "twinscore_played_turns": [0, 1], "twinscore_stopped_after_turn": 2}',
    );
    const { bytes, head } = headOf(played);
    expect(lineHistory(bytes, head)).toEqual({ kind: "reference", played: [0, 1] });
    expect(stoppedAfterTurn(bytes, head)).toBe(2);
    expect(decodeResultBytes(bytes, head, 3, where)).toMatchObject({ kind: "turns", played: [0, 1] });
    // keys before `result`, and the stopped turn not last: the same reading
    const first =
      '{"twinscore_stopped_after_turn": 1, "twinscore_played_turns": [0], "id": "multi_turn_base_3", "twinscore_history": "reference", "result": [[[]], [[]]]}';
    const h = headOf(first);
    expect(lineHistory(h.bytes, h.head)).toEqual({ kind: "reference", played: [0] });
    expect(stoppedAfterTurn(h.bytes, h.head)).toBe(1);
    // an anchor at turn 0 plays nothing: still a line of the reference history
    expect(historyOf('{"id": "x", "result": [], "twinscore_history": "reference", "twinscore_played_turns": []}')).toEqual({
      kind: "reference",
      played: [],
    });
    expect(historyOf('{"id": "x", "result": [], "twinscore_history": "own"}')).toEqual({ kind: "own" });
  });

  it("a history that cannot say whose the turns are is an error sentence, and decoding the line is a problem", () => {
    const bad = [
      ['{"id": "x", "result": [], "twinscore_played_turns": [0]}', "without `twinscore_history`"],
      ['{"id": "x", "result": [], "twinscore_history": "reference"}', "has no `twinscore_played_turns`"],
      ['{"id": "x", "result": [], "twinscore_history": "theirs", "twinscore_played_turns": []}', '"theirs": neither'],
      ['{"id": "x", "result": [], "twinscore_history": "reference", "twinscore_played_turns": [1, 0]}', "increasing order"],
      ['{"id": "x", "result": [], "twinscore_history": "reference", "twinscore_played_turns": [0, 0.5]}', "increasing order"],
      ['{"id": "x", "result": [], "twinscore_history": "own", "twinscore_played_turns": [0]}', "lists turns"],
    ] as const;
    for (const [line, says] of bad) {
      const got = historyOf(line);
      expect("error" in got && got.error, line).toContain(says);
      const { bytes, head } = headOf(line);
      expect(decodeResultBytes(bytes, head, 1, where)).toMatchObject({ code: "history-malformed", file: "f.json", line: 3 });
    }
  });
});
