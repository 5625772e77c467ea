import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { formatFixed } from "./format.js";
import { compareOutcome, decodeTagged, type Outcome, type TaggedValue } from "./testing/test-vectors.js";
import { pyRepr } from "./repr.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

describe('format(x, ".Nf") matches CPython (half-even on the exact binary value)', () => {
  const cases = load<({ x: TaggedValue; digits: number } & Outcome)[]>("format-fixed");
  test(`${cases.length} generated formattings of floats, ints and bools`, () => {
    const bad: string[] = [];
    for (const c of cases) {
      const x = decodeTagged(c.x);
      const d = compareOutcome(
        () => formatFixed(x, c.digits),
        c,
        (v) => pyRepr(v),
      );
      if (d) bad.push(`format(${pyRepr(x)}, ".${c.digits}f"): ${d}`);
    }
    expect(bad).toEqual([]);
  });
  test("53.125 → 53.12 (TradingBot money), 0.125 → 0.12, -0.001 → -0.00", () => {
    expect(formatFixed(53.125, 2)).toBe("53.12");
    expect(formatFixed(0.125, 2)).toBe("0.12");
    expect(formatFixed(-0.001, 2)).toBe("-0.00");
    expect(formatFixed(7n, 2)).toBe("7.00");
    expect(() => formatFixed("a", 2)).toThrow("Unknown format code 'f' for object of type 'str'");
  });
});
