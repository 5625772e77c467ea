import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { cpythonSetOrder, hashInt, pyHash } from "./set-order.js";
import { PySet, PyTuple } from "./containers.js";
import { pyRepr } from "./repr.js";
import { decodeTagged, type TaggedValue } from "./testing/test-vectors.js";
import type { PyValue } from "./value.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

describe("sets iterate in CPython's hash-table order", () => {
  const cases = load<{ inserted: TaggedValue; iterated: TaggedValue; repr: string }[]>("set-order");
  test.each(cases.map((c, i) => [i, c] as const))("case %i", (_, c) => {
    const inserted = decodeTagged(c.inserted) as PyValue[];
    expect(pyRepr(cpythonSetOrder(inserted))).toBe(pyRepr(decodeTagged(c.iterated)));
    expect(pyRepr(new PySet(inserted))).toBe(c.repr);
  });
  test("MessageAPI's generated_ids as BFCL reports it: {67410, 41772}", () => {
    expect(pyRepr(new PySet([67410n, 41772n]))).toBe("{67410, 41772}");
  });
  test("hashes: ints modulo 2^61-1, -1 → -2, floats equal to ints hash alike, strings are process-dependent", () => {
    expect(hashInt(-1n)).toBe(-2n);
    expect(hashInt((1n << 61n) - 1n)).toBe(0n);
    expect(pyHash(2.0)).toBe(2n);
    expect(pyHash(new PyTuple([]))).toBe(5740354900026072187n);
    expect(pyHash("a")).toBeUndefined();
  });
});
