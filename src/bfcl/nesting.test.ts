import { describe, expect, test } from "vitest";
import { JSON_DECODE_MAX_DEPTH } from "../python/limits.js";
import { decodeResult } from "./results.js";
import { parseFailedLine } from "./scores.js";

const list = (n: number) => "[".repeat(n) + "]".repeat(n);

describe("BFCL readers refuse what Python's json.loads refuses for depth (JSON.parse reads any depth)", () => {
  const where = { file: "r.json", line: 7 };
  test("a `result` one level short of the line's limit is read; at the limit it is malformed", () => {
    expect(decodeResult(`[${list(JSON_DECODE_MAX_DEPTH - 2)}]`, 9, where)).toMatchObject({ kind: "turns", turnCount: 1 });
    expect(decodeResult(`[${list(JSON_DECODE_MAX_DEPTH - 1)}]`, 9, where)).toMatchObject({ code: "json-malformed", line: 7 });
    expect(decodeResult(`[${list(100_000)}]`, 9, where)).toMatchObject({ code: "json-malformed" });
  });
  test("a stored score line nested 100,000 deep is one problem (the one score-file reader), not a stack overflow in String() or JSON.stringify", () => {
    const line = `{"id": "multi_turn_base_1", "error": {"error_type": "x", "error_message": ${list(100_000)}}}`;
    expect(parseFailedLine(line, "s.json", 3)).toMatchObject({ code: "score-line-malformed", line: 3 });
  });
});
