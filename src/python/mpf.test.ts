import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { dpsToPrec, mpLogRatio, mpPrecFromDps, PyMpf, rawFromNumber } from "./mpf.js";
import { PyDict } from "./containers.js";
import { pyRepr } from "./repr.js";
import { decodeTagged, type Outcome, type TaggedValue } from "./testing/test-vectors.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

/** MathAPI.logarithm's body as BFCL runs it, returning the repr of its result dict or the exception. */
function logarithm(value: unknown, base: unknown, precision: unknown): string {
  try {
    const prec = mpPrecFromDps(precision as never);
    return pyRepr(new PyDict([["result", mpLogRatio(value as never, base as never, prec)]]));
  } catch (e) {
    const x = e as { pyType: string; pyMessage: string };
    return `${x.pyType}: ${x.pyMessage}`;
  }
}

describe("mpmath 1.3.0 logarithm: log(value)/log(base) at mp.dps = precision", () => {
  test("the ground-truth vectors of the brief (§5.3)", () => {
    expect(logarithm(20n, 10n, 2n)).toBe("{'result': mpf('1.3027')}");
    expect(logarithm(3287.0, 6.0, 4n)).toBe("{'result': mpf('4.51947')}");
    expect(logarithm(36.0, 6.0, 4n)).toBe("{'result': mpf('2.0')}");
    expect(logarithm(630.0, 10n, 5n)).toBe("{'result': mpf('2.7993393')}");
    expect(logarithm(980.0, 20n, 10n)).toBe("{'result': mpf('2.299121531134')}");
  });
  test("dps → bits as mpmath maps them (2→10, 4→17, 5→20, 10→37)", () => {
    expect([2n, 4n, 5n, 10n].map(dpsToPrec)).toEqual([10, 17, 20, 37]);
  });
  const cases = load<({ value: TaggedValue; base: TaggedValue; precision: TaggedValue } & Outcome)[]>("mp-log");
  test(`${cases.length} generated calls: repr text, complex results, special values and errors`, () => {
    const bad: string[] = [];
    for (const c of cases) {
      const want = c.error !== undefined ? `${c.error}: ${c.message}` : (decodeTagged(c.ok!) as string);
      const got = logarithm(decodeTagged(c.value), decodeTagged(c.base), decodeTagged(c.precision));
      if (got !== want)
        bad.push(`log(${JSON.stringify(c.value)}, ${JSON.stringify(c.base)}, ${JSON.stringify(c.precision)}): want ${want} got ${got}`);
    }
    expect(bad).toEqual([]);
  });
  test("mpf equality and truthiness", () => {
    const two = new PyMpf(rawFromNumber(2n), 17);
    expect(two.pyEq(2n)).toBe(true);
    expect(two.pyEq(2.0)).toBe(true);
    expect(two.pyEq("2")).toBe(false);
    expect(new PyMpf(rawFromNumber(0n), 17).pyBool()).toBe(false);
  });
});

describe("huge precision does not hang", () => {
  test("dps 1000 is computed; an absurd dps is refused with MemoryError", () => {
    const r = mpLogRatio(2n, 10n, mpPrecFromDps(1000n));
    expect(r.pyRepr().startsWith("mpf('0.30102999566398119521373889472449302676818988146210")).toBe(true);
    expect(() => mpLogRatio(2n, 10n, mpPrecFromDps(10n ** 9n))).toThrow(/MemoryError/);
  });
});
