import { describe, expect, it } from "vitest";
import { countByCode, problem, renderProblemLine } from "./index.js";

describe("renderProblemLine", () => {
  it("puts file and line first so editors can jump to it", () => {
    const p = problem("json-malformed", "malformed JSON line", { file: "a.json", line: 3 });
    expect(renderProblemLine(p)).toBe("a.json:3: error: malformed JSON line [json-malformed]");
  });
  it("omits the location when there is none", () => {
    const p = problem("nothing-scored", "no model has base, miss_func and miss_param", { severity: "warning" });
    expect(renderProblemLine(p)).toBe("warning: no model has base, miss_func and miss_param [nothing-scored]");
  });
  it("counts by code", () => {
    const c = countByCode([problem("file-missing", "x"), problem("file-missing", "y"), problem("json-malformed", "z")]);
    expect([...c.entries()]).toEqual([
      ["file-missing", 2],
      ["json-malformed", 1],
    ]);
  });
});
