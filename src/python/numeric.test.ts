import { describe, expect, test } from "vitest";
import { bitLength, floatToRatio, powPositive, ratioToFloat, roundDecimalString } from "./numeric.js";

describe("exact float helpers", () => {
  test("floatToRatio is exact and reduced", () => {
    expect(floatToRatio(0.5)).toEqual({ num: 1n, den: 2n });
    expect(floatToRatio(-3)).toEqual({ num: -3n, den: 1n });
    expect(floatToRatio(0.1)).toEqual({ num: 3602879701896397n, den: 36028797018963968n });
    expect(floatToRatio(5e-324)).toEqual({ num: 1n, den: 1n << 1074n });
  });
  test("ratioToFloat rounds to nearest, ties to even, including subnormals and overflow", () => {
    expect(ratioToFloat(1n, 3n)).toBe(1 / 3);
    expect(ratioToFloat(10n ** 30n, 7n)).toBe(1.4285714285714286e29);
    expect(ratioToFloat((1n << 53n) + 1n, 1n)).toBe(2 ** 53); // tie → even
    expect(ratioToFloat((1n << 53n) + 3n, 1n)).toBe(2 ** 53 + 4);
    expect(ratioToFloat(1n, 1n << 1075n)).toBe(0); // half of the smallest subnormal → even (0)
    expect(ratioToFloat(3n, 1n << 1076n)).toBe(5e-324);
    expect(ratioToFloat(10n ** 400n, 1n)).toBe(Infinity);
  });
  test("roundDecimalString rounds the exact binary value half-even", () => {
    expect(roundDecimalString(2.675, 2)).toEqual({ negative: false, text: "2.67" }); // 2.67499999…
    expect(roundDecimalString(0.125, 2)).toEqual({ negative: false, text: "0.12" });
    expect(roundDecimalString(1250, -2)).toEqual({ negative: false, text: "1200" });
    expect(roundDecimalString(-0.5, 0)).toEqual({ negative: true, text: "0" });
  });
  test("powPositive is correctly rounded where V8's Math.pow is not", () => {
    expect(powPositive(2.5, 2.5)).toBe(9.882117688026186);
    expect(powPositive(4, 0.5)).toBe(2);
    expect(powPositive(10, 308.5)).toBe(Infinity);
    expect(bitLength(255n)).toBe(8);
  });
});
