import { describe, expect, test } from "vitest";
import { JSON_DECODE_MAX_DEPTH } from "../python/limits.js";
import { loadsJson } from "./json-args.js";

describe("argument JSON nested past Python's json.loads limit", () => {
  test("is refused with json.loads' RecursionError message although JSON.parse reads it", () => {
    const args = (n: number) => `{"a": ${"[".repeat(n)}${"]".repeat(n)}}`;
    expect(loadsJson(args(JSON_DECODE_MAX_DEPTH - 1))).toMatchObject({ ok: true });
    expect(loadsJson(args(JSON_DECODE_MAX_DEPTH))).toEqual({
      ok: false,
      message: "maximum recursion depth exceeded while decoding a JSON array from a unicode string",
    });
    expect(loadsJson(args(100_000))).toMatchObject({ ok: false });
  });
});
