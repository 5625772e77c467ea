import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { pyFloat, pyInt, pyRound } from "./convert.js";
import { pyRepr } from "./repr.js";
import { compareOutcome, decodeTagged, type Outcome, type TaggedValue } from "./testing/test-vectors.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

describe("round() matches CPython (half-even on the exact binary value, type-preserving)", () => {
  const cases = load<({ x: TaggedValue; n: TaggedValue } & Outcome)[]>("round");
  test(`${cases.length} generated roundings`, () => {
    const bad: string[] = [];
    for (const c of cases) {
      const x = decodeTagged(c.x);
      const n = decodeTagged(c.n);
      const d = compareOutcome(() => (n === null ? pyRound(x) : pyRound(x, n)), c, pyRepr);
      if (d) bad.push(`round(${pyRepr(x)}, ${pyRepr(n)}): ${d}`);
    }
    expect(bad).toEqual([]);
  });
  test("round(2.5, 0) → 2.0 and round(3, 0) → 3", () => {
    expect(pyRepr(pyRound(2.5, 0n))).toBe("2.0");
    expect(pyRepr(pyRound(3n, 0n))).toBe("3");
  });
});

describe("float()/int() conversions match CPython", () => {
  const cases = load<{ input: TaggedValue; float: Outcome; int: Outcome }[]>("convert");
  test.each(cases.map((c) => [pyRepr(decodeTagged(c.input)), c] as const))("%s", (_, c) => {
    const v = decodeTagged(c.input);
    expect(compareOutcome(() => pyFloat(v), c.float, pyRepr)).toBeNull();
    expect(compareOutcome(() => pyInt(v), c.int, pyRepr)).toBeNull();
  });
});
