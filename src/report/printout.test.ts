import { describe, expect, it } from "vitest";
import { intervalCell, renderPrintout, renderRows, tableOf, type Column } from "./printout.js";

const cols: Column<{ m: string; v: number }>[] = [
  { header: "model", value: (r) => r.m },
  { header: "decision", value: (r) => r.v, align: "right" },
];
const rows = [
  { m: "a,b", v: 83.2 },
  { m: "c|d", v: 9 },
];

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

describe("an interval cell", () => {
  type Row = { m: string; ci: readonly [number, number] | null };
  const withCi: Column<Row>[] = [
    { header: "model", value: (r) => r.m },
    { header: "95% CI", value: (r) => intervalCell(r.ci, r.m === "change"), align: "right", csvPair: ["ci_low", "ci_high"] },
  ];
  const ciRows: Row[] = [
    { m: "a", ci: [79.7235, 86.4869] },
    { m: "change", ci: [-3.61, 1.12] },
    { m: "none", ci: null },
  ];

  it("is [low, high] in the table and markdown formats (signed for a change) and two numeric columns in csv", () => {
    expect(renderRows(ciRows, withCi, "table")).toBe(
      "model         95% CI\n------  ------------\na       [79.7, 86.5]\nchange  [-3.6, +1.1]\nnone\n",
    );
    expect(renderRows(ciRows, withCi, "markdown")).toContain("| a | [79.7, 86.5] |");
    expect(renderRows(ciRows, withCi, "csv")).toBe("model,ci_low,ci_high\na,79.7,86.5\nchange,-3.6,1.1\nnone,,\n");
  });

  it("keeps its two columns when several tables share one csv", () => {
    const other: Column<{ m: string }>[] = [{ header: "model", value: (r) => r.m }];
    const out = renderPrintout(
      {
        blocks: [
          { kind: "table", table: tableOf("decision", ciRows.slice(0, 1), withCi) },
          { kind: "table", table: tableOf("other", [{ m: "b" }], other) },
        ],
      },
      "csv",
    );
    expect(out.stdout).toBe("table,model,ci_low,ci_high\ndecision,a,79.7,86.5\nother,b,,\n");
  });
});
