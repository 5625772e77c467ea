import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { floatRepr, intRepr, pyRepr, pyStr, strRepr } from "./repr.js";
import { decodeTagged, type TaggedValue } from "./testing/test-vectors.js";
import { PyDict, PyTuple } from "./containers.js";
import type { PyValue } from "./value.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

function fromBits(hex: string): number {
  const bytes = new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)));
  return new DataView(bytes.buffer).getFloat64(0, true);
}

describe("repr(float) matches CPython", () => {
  const cases = load<{ bits: string; repr: string }[]>("float-repr");
  test(`${cases.length} generated floats (exponent thresholds, subnormals, inf/nan, -0.0)`, () => {
    const bad = cases.filter((c) => floatRepr(fromBits(c.bits)) !== c.repr).map((c) => `${c.repr} -> ${floatRepr(fromBits(c.bits))}`);
    expect(bad).toEqual([]);
  });
  test("the examples of BFCL's outputs", () => {
    expect([1e-5, 1e16, 40.0, -0, 30.0 + 10, Infinity, NaN].map(floatRepr)).toEqual([
      "1e-05",
      "1e+16",
      "40.0",
      "-0.0",
      "40.0",
      "inf",
      "nan",
    ]);
  });
});

describe("repr(str) matches CPython", () => {
  const cases = load<{ s: string; repr: string; unassignedHere: number[] }[]>("str-repr");
  test(`${cases.length} strings: quote choice, escapes, printable vs non-printable unicode`, () => {
    const bad = cases.filter((c) => strRepr(c.s) !== c.repr);
    // the generator's Python 3.11 knows Unicode 14; Node (like CPython 3.12) knows 15.x, so a code
    // point unassigned in 14 may now be printable. Only those may differ.
    const explained = bad.filter((c) => c.unassignedHere.some((cp) => !strRepr(String.fromCodePoint(cp)).includes("\\")));
    expect(bad.filter((c) => !explained.includes(c)).map((c) => `${JSON.stringify(c.s)}: want ${c.repr} got ${strRepr(c.s)}`)).toEqual([]);
    expect(explained.length).toBeLessThanOrEqual(3);
  });
  test("printable non-ASCII stays, separators and format characters are escaped", () => {
    expect(strRepr("é中😀")).toBe("'é中😀'");
    expect(strRepr("\u2028\x85\u200b\ud800")).toBe("'\\u2028\\x85\\u200b\\ud800'");
    expect(strRepr("it's")).toBe(`"it's"`);
    expect(strRepr(`it's "x"`)).toBe(`'it\\'s "x"'`);
  });
});

describe("repr/str of containers match CPython", () => {
  const cases = load<{ value: TaggedValue; repr: string; str: string }[]>("containers");
  test.each(cases.map((c) => [c.repr, c] as const))("%s", (_, c) => {
    const v = decodeTagged(c.value);
    // CPython orders sets by hash; only compare sets of size <= 1 or ints, whose order is insertion-like
    expect(pyRepr(v)).toBe(c.repr);
    expect(pyStr(v)).toBe(c.str);
  });
  test("1-tuple, empty set, bool and None spellings", () => {
    expect(pyRepr(new PyTuple([1n]))).toBe("(1,)");
    expect(pyRepr([true, false, null])).toBe("[True, False, None]");
  });
  test("ints beyond 4300 digits raise CPython's ValueError", () => {
    expect(() => intRepr(10n ** 4300n)).toThrow(
      /Exceeds the limit \(4300 digits\) for integer string conversion; use sys.set_int_max_str_digits\(\) to increase the limit/,
    );
    expect(intRepr(10n ** 4299n).length).toBe(4300);
    expect(intRepr(10n ** 4300n - 1n)).toBe("9".repeat(4300));
    expect(intRepr(-(10n ** 4300n) + 1n)).toBe("-" + "9".repeat(4300));
    expect(() => intRepr(-(10n ** 4300n))).toThrow(/Exceeds the limit \(4300 digits\)/);
    expect(() => intRepr(1n << 10_000_000n)).toThrow(/Exceeds the limit \(4300 digits\)/);
  });
});

describe("printability follows CPython 3.12's Unicode 15.0, not Node's newer ICU", () => {
  test("a Unicode 16 emoji (U+1FAE9) is escaped as CPython 3.12 does; a 15.0 CJK Ext-H ideograph prints", () => {
    expect(strRepr("\u{1FAE9}")).toBe("'\\U0001fae9'");
    expect(strRepr("\u{31350}")).toBe("'\u{31350}'");
    expect(strRepr("\u0378")).toBe("'\\u0378'");
  });
});

describe("self-referencing containers", () => {
  test("print as [...] and {...} like CPython", () => {
    const a: PyValue[] = [1n];
    a.push(a);
    expect(pyRepr(a)).toBe("[1, [...]]");
    const d = new PyDict([["k", 1n]]);
    d.set("self", d);
    expect(pyRepr(d)).toBe("{'k': 1, 'self': {...}}");
  });
});
