import { describe, expect, it } from "vitest";
import { renderRows, type Column } from "./printout.js";

const cols: Column<{ m: string; v: number }>[] = [
  { header: "model", value: (r) => r.m },
  { header: "decision", value: (r) => r.v, align: "right" },
];
const rows = [{ m: "a,b", v: 83.2 }, { m: "c|d", v: 9 }];

describe("renderRows", () => {
  it("quotes CSV cells that need it", () => {
    expect(renderRows(rows, cols, "csv")).toBe('model,decision\n"a,b",83.2\nc|d,9\n');
  });
  it("escapes pipes in markdown and right-aligns numbers", () => {
    expect(renderRows(rows, cols, "markdown")).toBe("| model | decision |\n| --- | ---: |\n| a,b | 83.2 |\n| c\\|d | 9 |\n");
  });
  it("pads a terminal table", () => {
    expect(renderRows(rows, cols, "table")).toBe("model  decision\n-----  --------\na,b        83.2\nc|d           9\n");
  });
});
