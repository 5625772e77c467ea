import { describe, expect, it } from "vitest";
import { skipString, skipValue } from "./json-bytes.js";

const enc = new TextEncoder();
const end = (text: string, at = 0) => skipString(enc.encode(text), at, text.length);

describe("skipString finds the closing quote past escapes", () => {
  it("counts the backslashes before a quote: odd escapes it, even does not", () => {
    expect(end('"abc" tail')).toBe(5);
    expect(end('"a\\"b" tail')).toBe(6);
    expect(end('"a\\\\" tail')).toBe(5);
    expect(end('"a\\\\\\"b" tail')).toBe(8);
    expect(end('"\\\\\\\\"')).toBe(6);
    expect(end('""')).toBe(2);
  });
  it("is -1 when the string does not close before `end`, even if a quote follows", () => {
    expect(end('"abc')).toBe(-1);
    expect(end('"a\\"')).toBe(-1);
    const bytes = enc.encode('"abc" "');
    expect(skipString(bytes, 0, 3)).toBe(-1);
    expect(skipString(bytes, 6, bytes.length)).toBe(-1);
  });
  it("skips a long string and the values holding it", () => {
    const long = "x".repeat(1_000_000);
    const text = `{"a": ["${long}", "q\\"]"], "b": 1}`;
    expect(skipValue(enc.encode(text), 0, text.length)).toBe(text.length);
  });
});
