import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import type { PyValue } from "./value.js";
import { pyAbs, pyAdd, pyFloorDiv, pyMod, pyMul, pyNeg, pyPow, pySub, pyTrueDiv } from "./arithmetic.js";
import { pyRepr } from "./repr.js";
import { compareOutcome, decodeTagged, type Outcome, type TaggedValue } from "./testing/test-vectors.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

const ARITHMETIC: Record<string, (a: PyValue, b: PyValue) => PyValue> = {
  "+": pyAdd,
  "-": pySub,
  "*": pyMul,
  "/": pyTrueDiv,
  "//": pyFloorDiv,
  "%": pyMod,
  "**": pyPow,
};

describe("arithmetic operators match CPython over a value zoo", () => {
  const cases = load<({ op: string; a: TaggedValue; b: TaggedValue } & Outcome)[]>("binops").filter((c) => c.op in ARITHMETIC);
  test(`${cases.length} (op, a, b) results and exact TypeError/ZeroDivisionError/OverflowError messages`, () => {
    expect(cases.length).toBeGreaterThan(1000);
    const bad: string[] = [];
    for (const c of cases) {
      const a = decodeTagged(c.a);
      const b = decodeTagged(c.b);
      const d = compareOutcome(() => ARITHMETIC[c.op](a, b), c, pyRepr);
      if (d) bad.push(`${pyRepr(a)} ${c.op} ${pyRepr(b)}: ${d}`);
    }
    expect(bad).toEqual([]);
  });
  test("messages quoted in the brief", () => {
    expect(() => pyAdd(1n, "a")).toThrow("unsupported operand type(s) for +: 'int' and 'str'");
    expect(() => pyAdd("a", 1n)).toThrow('can only concatenate str (not "int") to str');
    expect(() => pyTrueDiv(1n, 0n)).toThrow("division by zero");
    expect(() => pyTrueDiv(1.5, 0n)).toThrow("float division by zero");
    expect(pyRepr(pyAdd(30.0, 10n))).toBe("40.0");
    expect(pyMul("ab", 3n)).toBe("ababab");
  });
});

describe("unary minus and abs()", () => {
  const cases = load<{ a: TaggedValue; neg: Outcome; abs: Outcome }[]>("unary");
  test.each(cases.map((c) => [pyRepr(decodeTagged(c.a)), c] as const))("%s", (_, c) => {
    const a = decodeTagged(c.a);
    expect(compareOutcome(() => pyNeg(a), c.neg, pyRepr)).toBeNull();
    expect(compareOutcome(() => pyAbs(a), c.abs, pyRepr)).toBeNull();
  });
});

describe("** matches CPython (exact int powers, correctly rounded float powers, complex results)", () => {
  const cases = load<({ a: TaggedValue; b: TaggedValue } & Outcome)[]>("pow");
  test(`${cases.length} generated powers`, () => {
    const bad: string[] = [];
    for (const c of cases) {
      const a = decodeTagged(c.a);
      const b = decodeTagged(c.b);
      const d = compareOutcome(() => pyPow(a, b), c, pyRepr);
      if (d) bad.push(`${pyRepr(a)} ** ${pyRepr(b)}: ${d}`);
    }
    // float ** non-integer float goes through libm pow, which is not guaranteed correctly rounded
    expect(bad.length, bad.join("\n")).toBeLessThanOrEqual(2);
  });
});

describe("huge values fail fast instead of exhausting the process", () => {
  test("repetition and powers beyond the limits raise MemoryError (CPython would try to allocate them)", () => {
    expect(() => pyMul([0n], 10n ** 9n)).toThrow(/MemoryError/);
    expect(() => pyMul("ab", 10n ** 12n)).toThrow(/MemoryError/);
    expect(() => pyPow(10n, 10n ** 10n)).toThrow(/MemoryError/);
    expect(() => pyMul("a", 2n ** 64n)).toThrow("cannot fit 'int' into an index-sized integer");
    expect((pyPow(10n, 100000n) as bigint).toString().length).toBe(100001);
  });
});
