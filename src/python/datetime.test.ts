import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { PyDatetime, pyStrptime } from "./datetime.js";
import { compareOutcome, decodeTagged, type Outcome, type TaggedValue } from "./testing/test-vectors.js";
import { pyRepr } from "./repr.js";
import { PyDict } from "./containers.js";
import { pyLe, pyLt } from "./compare.js";
import { PyRandom } from "./random.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

describe("datetime.strptime matches CPython's _strptime", () => {
  const cases = load<({ text: TaggedValue; format: string } & Outcome)[]>("strptime");
  test.each(cases.map((c) => [`${JSON.stringify(c.text)} ${c.format}`, c] as const))("%s", (_, c) => {
    // valid inputs are compared through strftime; non-str inputs raise before formatting
    const got = compareOutcome(
      () => pyStrptime(decodeTagged(c.text), c.format).strftime("%Y-%m-%d %H:%M:%S"),
      c,
      (v) => pyRepr(v),
    );
    expect(got).toBeNull();
  });
  test("non-str argument is a TypeError", () => {
    expect(() => pyStrptime(20240105n, "%Y-%m-%d")).toThrow("strptime() argument 1 must be str, not int");
    // CPython 3.11: datetime.strptime({}, "%Y-%m-%d") -> TypeError '... not dict' (containers by their type name)
    expect(() => pyStrptime(new PyDict([]), "%Y-%m-%d")).toThrow("strptime() argument 1 must be str, not dict");
  });
});

describe("datetime values", () => {
  test("TradingBot's first transaction timestamp: 2024-09-01 10:30 + randint offset from Random(1053520)", () => {
    const t0 = new PyDatetime(2024, 9, 1, 10, 30);
    const offset = new PyRandom(1053520n).randint(0n, 86400n);
    expect(t0.plusSeconds(Number(offset)).strftime("%Y-%m-%d %H:%M:%S")).toBe("2024-09-02 05:40:15");
    expect(t0.strftime("%I:%M %p")).toBe("10:30 AM");
  });
  test("ordering with min/max, comparisons against str raise, repr/str", () => {
    const d = pyStrptime("2024-1-5", "%Y-%m-%d");
    expect(pyLe(PyDatetime.min, d) && pyLe(d, PyDatetime.max)).toBe(true);
    expect(() => pyLt(d, "2024")).toThrow("'<' not supported between instances of 'datetime.datetime' and 'str'");
    expect(pyRepr(d)).toBe("datetime.datetime(2024, 1, 5, 0, 0)");
    expect(pyRepr(new PyDatetime(2024, 9, 1, 10, 30))).toBe("datetime.datetime(2024, 9, 1, 10, 30)");
    expect(d.pyStr()).toBe("2024-01-05 00:00:00");
  });
});
