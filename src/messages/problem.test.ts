import { describe, expect, it } from "vitest";
import { countByCode, problem, renderProblemLine } from "./index.js";

describe("renderProblemLine", () => {
  it("puts file and line first so editors can jump to it", () => {
    const p = problem("json-malformed", "malformed JSON line", { file: "a.json", line: 3 });
    expect(renderProblemLine(p)).toBe("a.json:3: error: malformed JSON line [json-malformed]");
  });
  it("omits the location when there is none", () => {
    const p = problem("no-models", "no model has base, miss_func and miss_param", { severity: "warning" });
    expect(renderProblemLine(p)).toBe("warning: no model has base, miss_func and miss_param [no-models]");
  });
  it("counts by code", () => {
    const c = countByCode([problem("a", "x"), problem("a", "y"), problem("b", "z")]);
    expect([...c.entries()]).toEqual([["a", 2], ["b", 1]]);
  });
});
