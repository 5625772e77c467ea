import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { PyDict, PySet, PyTuple } from "./containers.js";
import { pyTruthy, pyTypeName } from "./kinds.js";
import { pyRepr } from "./repr.js";
import { decodeTagged, type TaggedValue } from "./testing/test-vectors.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

describe("truthiness matches CPython's bool()", () => {
  const cases = load<{ a: TaggedValue; truthy: boolean }[]>("unary");
  test.each(cases.map((c) => [pyRepr(decodeTagged(c.a)), c] as const))("%s", (_, c) => {
    expect(pyTruthy(decodeTagged(c.a))).toBe(c.truthy);
  });
});

test("type names as type(x).__name__ prints them", () => {
  expect([null, true, 1n, 1.5, "s", [], new PyTuple([]), new PyDict(), new PySet()].map(pyTypeName)).toEqual([
    "NoneType",
    "bool",
    "int",
    "float",
    "str",
    "list",
    "tuple",
    "dict",
    "set",
  ]);
});
