import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import type { PyValue } from "./value.js";
import { pySub, pyTrueDiv, pyPow } from "./arithmetic.js";
import { pyContains, pyLen, pyMinMax, pySorted, pySum } from "./iterables.js";
import { pyRepr } from "./repr.js";
import { compareOutcome, decodeTagged, type Outcome, type TaggedValue } from "./testing/test-vectors.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

describe("len() matches CPython", () => {
  const cases = load<{ a: TaggedValue; len: Outcome }[]>("unary");
  test.each(cases.map((c) => [pyRepr(decodeTagged(c.a)), c] as const))("%s", (_, c) => {
    const a = decodeTagged(c.a);
    expect(compareOutcome(() => BigInt(pyLen(a)), c.len, pyRepr)).toBeNull();
  });
});

describe("sum() reproduces CPython >= 3.12 (Neumaier-compensated floats)", () => {
  const cases = load<{ items: TaggedValue; sum: TaggedValue }[]>("sum");
  test(`${cases.length} generated sums`, () => {
    const bad = cases
      .map((c) => [decodeTagged(c.items) as PyValue[], decodeTagged(c.sum)] as const)
      .filter(([xs, want]) => pyRepr(pySum(xs)) !== pyRepr(want))
      .map(([xs, want]) => `${pyRepr(xs)}: want ${pyRepr(want)} got ${pyRepr(pySum(xs))}`);
    expect(bad).toEqual([]);
  });
  test("MathAPI standard_deviation([100, 95, 85, 90, 88, 92]) = 4.853406592853679 (multi_turn_miss_param_47)", () => {
    const xs = [100n, 95n, 85n, 90n, 88n, 92n];
    const mean = pyTrueDiv(pySum(xs), BigInt(xs.length));
    const variance = pyTrueDiv(pySum(xs.map((x) => pyPow(pySub(x, mean), 2n))), BigInt(xs.length));
    expect(pyRepr(Math.sqrt(variance as number))).toBe("4.853406592853679");
  });
  test("sum of strings is refused as in Python", () => {
    expect(() => pySum(["a"], "")).toThrow("sum() can't sum strings [use ''.join(seq) instead]");
    expect(() => pySum(["a", "b"])).toThrow("unsupported operand type(s) for +: 'int' and 'str'");
  });
});

describe("sorted() matches CPython, including which mixed pair raises", () => {
  const cases = load<({ items: TaggedValue; reverse: Outcome } & Outcome)[]>("sorted");
  test.each(cases.map((c, i) => [i, c] as const))("case %i", (_, c) => {
    const xs = decodeTagged(c.items) as PyValue[];
    expect(compareOutcome(() => pySorted(xs), c, pyRepr)).toBeNull();
    expect(compareOutcome(() => pySorted(xs, { reverse: true }), c.reverse, pyRepr)).toBeNull();
  });
});

describe("membership, min and max follow Python", () => {
  test("in / min / max", () => {
    expect(pyContains("hello", "ell")).toBe(true);
    expect(pyContains([1n, 2n], 2.0)).toBe(true);
    expect(() => pyContains("a", 1n)).toThrow("'in <string>' requires string as left operand, not int");
    expect(pyMinMax("max", [1n, 3.5, 2n])).toBe(3.5);
    expect(() => pyMinMax("min", [])).toThrow("min() arg is an empty sequence");
  });
});
