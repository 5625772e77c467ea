import { describe, expect, test } from "vitest";
import { dumpScoreValue, dumpScoreValueBounded, redumpTopLevel } from "./scorefile.js";
import { JSON_DECODE_MAX_DEPTH, JSON_ENCODE_MAX_DEPTH } from "../python/limits.js";
import type { PyValue } from "../python/value.js";

describe("the score-file writer stops at json's limits instead of the JavaScript stack", () => {
  const list = (n: number) => "[".repeat(n) + "]".repeat(n);
  test("dumpScoreValue: 1497 nested lists are written, one more raises json.dumps' RecursionError", () => {
    const nested = (n: number): PyValue => {
      let x: PyValue = [];
      for (let i = 1; i < n; i++) x = [x];
      return x;
    };
    expect(dumpScoreValue(nested(JSON_ENCODE_MAX_DEPTH))).toBe(list(JSON_ENCODE_MAX_DEPTH).replaceAll("][", "], ["));
    expect(() => dumpScoreValue(nested(JSON_ENCODE_MAX_DEPTH + 1))).toThrow(
      "maximum recursion depth exceeded while encoding a JSON object",
    );
  });
  test("dumpScoreValueBounded writes the RecursionError's text in place of the value too deep, and says so", () => {
    let deep: PyValue = [];
    for (let i = 1; i < JSON_ENCODE_MAX_DEPTH + 5; i++) deep = [deep];
    const ok = dumpScoreValueBounded(["a", 1]);
    expect(ok).toEqual({ text: dumpScoreValue(["a", 1]), tooDeep: null });
    const bounded = dumpScoreValueBounded(["a", deep]);
    expect(bounded.tooDeep).toBe("RecursionError: maximum recursion depth exceeded while encoding a JSON object");
    expect(bounded.text.startsWith('["a", [[')).toBe(true);
    expect(bounded.text).toContain('"RecursionError: maximum recursion depth exceeded while encoding a JSON object"');
    expect(JSON.parse(bounded.text)).toHaveLength(2);
  });
  test("redumpTopLevel leaves a line nested past json.loads' limit to json.loads (which refuses it)", () => {
    const line = (n: number) => `{"result": ${list(n)}}`;
    expect(redumpTopLevel(line(JSON_DECODE_MAX_DEPTH - 1))?.get("result")).toBe(list(JSON_DECODE_MAX_DEPTH - 1));
    expect(redumpTopLevel(line(JSON_DECODE_MAX_DEPTH))).toBeNull();
    expect(redumpTopLevel(line(100_000))).toBeNull();
  });
});
