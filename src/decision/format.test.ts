import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatDecimal1, formatPercent } from "./format.js";

// Vectors written by CPython 3.11 ('%.1f' % x) — see the generator note inside the file.
const vectors = JSON.parse(readFileSync(new URL("./testdata/format-vectors.json", import.meta.url), "utf8")) as {
  vectors: [string, string][];
};

describe("formatDecimal1", () => {
  it("prints every CPython vector the same way (percentages of 223, 225, 231, 365 … pairs and exact ties)", () => {
    expect(vectors.vectors.length).toBeGreaterThan(300);
    const wrong = vectors.vectors.filter(([x, want]) => formatDecimal1(Number(x)) !== want);
    expect(wrong).toEqual([]);
  });

  it("breaks exact binary ties to even like Python, unlike toFixed", () => {
    expect((12.25).toFixed(1)).toBe("12.3");
    expect(formatDecimal1(12.25)).toBe("12.2");
    expect(formatDecimal1(12.75)).toBe("12.8");
    expect(formatDecimal1(0.25)).toBe("0.2");
    expect(formatDecimal1(0.15)).toBe("0.1"); // 0.15 is below the tie in binary
  });

  it("prints an empty cell for a missing number", () => {
    expect(formatPercent(null)).toBe("");
    expect(formatPercent(50)).toBe("50.0");
  });
});
