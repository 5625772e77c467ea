import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { strLStrip, strRStrip, strSplit, strSplitlines, strStrip } from "./strings.js";
import { pyLen } from "./iterables.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

interface StrCase {
  s: string;
  splitlines: string[];
  splitlinesKeep: string[];
  split: string[];
  split1: string[];
  splitSpace: string[];
  strip: string;
  lstrip: string;
  rstrip: string;
  len: number;
}

describe("str methods match CPython", () => {
  const cases = load<StrCase[]>("strings");
  test.each(cases.map((c) => [JSON.stringify(c.s), c] as const))("%s", (_, c) => {
    expect(strSplitlines(c.s)).toEqual(c.splitlines);
    expect(strSplitlines(c.s, true)).toEqual(c.splitlinesKeep);
    expect(strSplit(c.s)).toEqual(c.split);
    expect(strSplit(c.s, null, 1)).toEqual(c.split1);
    expect(strSplit(c.s, " ")).toEqual(c.splitSpace);
    expect(strStrip(c.s)).toBe(c.strip);
    expect(strLStrip(c.s)).toBe(c.lstrip);
    expect(strRStrip(c.s)).toBe(c.rstrip);
    expect(pyLen(c.s)).toBe(c.len);
  });
  test("explicit separators and strip characters", () => {
    expect(strSplit("a,b,,c", ",")).toEqual(["a", "b", "", "c"]);
    expect(strSplit("a,b,c", ",", 1)).toEqual(["a", "b,c"]);
    expect(() => strSplit("a", "")).toThrow("empty separator");
    expect(strStrip("xxhixx", "x")).toBe("hi");
  });
});
