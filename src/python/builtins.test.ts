import { describe, expect, test } from "vitest";
import { callBuiltin, MODELLED_BUILTINS } from "./builtins.js";
import { pyRepr } from "./repr.js";

describe("callBuiltin (vectors for every builtin run through evalLiteral in literal-eval.test.ts)", () => {
  test("results and messages for direct calls", () => {
    expect(pyRepr(callBuiltin("float", ["2"])!)).toBe("2.0");
    expect(pyRepr(callBuiltin("dict", [], [["a", 1n]])!)).toBe("{'a': 1}");
    expect(() => callBuiltin("len", [])).toThrow("len() takes exactly one argument (0 given)");
  });
  test("forms that cannot be modelled report undefined instead of guessing", () => {
    expect(callBuiltin("int", ["ff", 16n])).toBeUndefined();
    expect(callBuiltin("nosuch", [])).toBeUndefined();
    expect(MODELLED_BUILTINS.has("sorted")).toBe(true);
  });
});
