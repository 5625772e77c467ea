import { expect, test } from "vitest";
import { PyComplex } from "./complex.js";
import { pyPow } from "./arithmetic.js";
import { pyEquals } from "./compare.js";
import { pyRepr } from "./repr.js";

test("complex repr and equality as CPython prints and compares them", () => {
  expect(pyRepr(pyPow(-8.0, 0.5))).toBe("(1.7319121124709868e-16+2.8284271247461903j)");
  expect(pyRepr(new PyComplex(0, 2))).toBe("2j");
  expect(pyRepr(new PyComplex(-0, 2))).toBe("(-0+2j)");
  expect(pyRepr(new PyComplex(1.5, -1))).toBe("(1.5-1j)");
  expect(pyEquals(new PyComplex(3, 0), 3n)).toBe(true);
  expect(pyEquals(new PyComplex(3, 1), 3n)).toBe(false);
});
