import { describe, expect, it } from "vitest";
import {
  bfclFileName,
  categoryOfItemId,
  itemId,
  parseBfclFileName,
  parseItemId,
  scoredResultCategories,
  shouldAskCategories,
} from "./categories.js";

describe("BFCL file names", () => {
  it("reads v4 and v3 multi-turn result and score names and nothing else", () => {
    expect(parseBfclFileName("BFCL_v4_multi_turn_miss_param_result.json")).toEqual({
      version: "v4",
      category: "miss_param",
      kind: "result",
    });
    expect(parseBfclFileName("BFCL_v3_multi_turn_base_result.json")).toEqual({ version: "v3", category: "base", kind: "result" });
    expect(parseBfclFileName("BFCL_v4_multi_turn_long_context_score.json")).toEqual({
      version: "v4",
      category: "long_context",
      kind: "score",
    });
    expect(parseBfclFileName("BFCL_v4_simple_python_result.json")).toBeNull();
    expect(parseBfclFileName("BFCL_v5_multi_turn_base_result.json")).toBeNull();
    expect(parseBfclFileName("BFCL_v4_multi_turn_base_result.json.bak")).toBeNull();
  });
  it("builds the names it reads", () => {
    for (const c of scoredResultCategories)
      expect(parseBfclFileName(bfclFileName("v3", c, "score"))).toEqual({ version: "v3", category: c, kind: "score" });
  });
});

describe("BFCL item ids", () => {
  it("reads the category and index of a multi-turn id, and builds it back", () => {
    expect(parseItemId("multi_turn_miss_func_12")).toEqual({ category: "miss_func", index: 12 });
    expect(categoryOfItemId("multi_turn_long_context_199")).toBe("long_context");
    expect(categoryOfItemId("simple_3")).toBeNull();
    expect(categoryOfItemId("multi_turn_miss_func_x")).toBeNull();
    expect(itemId("miss_param", 7)).toBe("multi_turn_miss_param_7");
  });
  it("an index with a leading zero is no item id (BFCL writes multi_turn_base_1, never _01): its line would be read under an id no pair has", () => {
    expect(parseItemId("multi_turn_base_01")).toBeNull();
    expect(parseItemId("multi_turn_base_00")).toBeNull();
    expect(parseItemId("multi_turn_base_0")).toEqual({ category: "base", index: 0 });
  });
  it("knows the should-ask categories and the three the decision is scored on", () => {
    expect(shouldAskCategories).toEqual(["miss_func", "miss_param"]);
    expect(scoredResultCategories).toEqual(["base", "miss_func", "miss_param"]);
  });
});
