import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import type { PyValue } from "./value.js";
import { PyDict, PySet, PyTuple } from "./containers.js";
import { pyEquals, pyGe, pyGt, pyLe, pyLt } from "./compare.js";
import { pyRepr } from "./repr.js";
import { compareOutcome, decodeTagged, type Outcome, type TaggedValue } from "./testing/test-vectors.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

const COMPARISONS: Record<string, (a: PyValue, b: PyValue) => PyValue> = {
  "<": pyLt,
  "<=": pyLe,
  ">": pyGt,
  ">=": pyGe,
  "==": pyEquals,
};

describe("comparison operators match CPython over a value zoo", () => {
  const cases = load<({ op: string; a: TaggedValue; b: TaggedValue } & Outcome)[]>("binops").filter((c) => c.op in COMPARISONS);
  test(`${cases.length} (op, a, b) results and exact '<' not supported … messages`, () => {
    expect(cases.length).toBeGreaterThan(500);
    const bad: string[] = [];
    for (const c of cases) {
      const a = decodeTagged(c.a);
      const b = decodeTagged(c.b);
      const d = compareOutcome(() => COMPARISONS[c.op](a, b), c, pyRepr);
      if (d) bad.push(`${pyRepr(a)} ${c.op} ${pyRepr(b)}: ${d}`);
    }
    expect(bad).toEqual([]);
  });
  test("message quoted in the brief", () => {
    expect(() => pyLt("a", 1n)).toThrow("'<' not supported between instances of 'str' and 'int'");
  });
});

describe("equality follows Python", () => {
  test("1 == 1.0 == True, containers deep, dict order ignored, list vs tuple differ", () => {
    expect(pyEquals(1n, 1.0)).toBe(true);
    expect(pyEquals(1n, true)).toBe(true);
    expect(pyEquals("1", 1n)).toBe(false);
    expect(pyEquals([1n, [2.0]], [1.0, [2n]])).toBe(true);
    expect(pyEquals([1n], new PyTuple([1n]))).toBe(false);
    expect(
      pyEquals(
        new PyDict([
          ["a", 1n],
          ["b", 2n],
        ]),
        new PyDict([
          ["b", 2.0],
          ["a", true],
        ]),
      ),
    ).toBe(true);
    expect(pyEquals(new PySet([1n, 2n]), new PySet([2.0, 1.0]))).toBe(true);
    expect(pyEquals(NaN, NaN)).toBe(false);
    expect(pyEquals(2n ** 60n + 1n, 2 ** 60)).toBe(false);
  });
});
