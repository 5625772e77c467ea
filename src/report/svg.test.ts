import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { sharedPath } from "../testing/shared.js";
import { fmt1, fmtP, fmtSigned } from "./html.js";
import { rankReversalSvg, ranks } from "./svg.js";

/** The paper's Figure 1b inputs: official raw on the 223 should-ask items and decision accuracy, per model (published.tsv). */
function paperFigure1b(): { name: string; official: number; decision: number }[] {
  const rows = readFileSync(sharedPath("paper-numbers", "published.tsv"), "utf8").trim().split("\n");
  const byKey = new Map(rows.map((r) => r.split("\t") as [string, string]));
  const models = [...byKey.keys()]
    .map((k) => /^companions\.official_raw\.(.+)\.miss$/.exec(k)?.[1])
    .filter((m): m is string => m !== undefined);
  return models.map((m) => ({
    name: m,
    official: Number(byKey.get(`companions.official_raw.${m}.miss`)),
    decision: Number(byKey.get(`companions.official_raw.${m}.decision`)),
  }));
}

describe("rankReversalSvg on the paper's seven models", () => {
  const models = paperFigure1b();
  const svg = rankReversalSvg(models);
  const labels = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)" class="series-label[^"]*"( text-anchor="end")?>([^<]*)<\/text>/g)].map(
    (m) => ({
      x: Number(m[1]),
      y: Number(m[2]),
      left: m[3] !== undefined,
      text: m[4],
    }),
  );
  it("ranks gpt-5.4 sixth on the official score and first on the decision (the reversal)", () => {
    expect(models).toHaveLength(7);
    expect(labels.filter((l) => l.left).map((l) => l.text)).toContain("gpt-5.4-FC  32.7  #6");
    expect(labels.filter((l) => !l.left).map((l) => l.text)).toContain("#1  80.7  gpt-5.4-FC");
    expect(labels.filter((l) => !l.left).map((l) => l.text)).toContain("#5  77.1  Qwen3.6-27B-FC");
  });
  it("spreads close labels at least one line apart and keeps them inside the chart", () => {
    const width = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
    for (const side of [true, false]) {
      const ys = labels
        .filter((l) => l.left === side)
        .map((l) => l.y)
        .sort((a, b) => a - b);
      for (let i = 1; i < ys.length; i++) expect(ys[i] - ys[i - 1]).toBeGreaterThanOrEqual(15.9);
    }
    // 7.2 px per character is the width the chart reserves; the labels must fit it.
    for (const l of labels) {
      if (l.left) expect(l.x - l.text.length * 7.2).toBeGreaterThanOrEqual(0);
      else expect(l.x + l.text.length * 7.2).toBeLessThanOrEqual(width);
    }
  });
});

describe("chart and table formatting", () => {
  it("ranks ties at the better rank", () => {
    expect(ranks([50, 50, 40, 60])).toEqual([2, 2, 4, 1]);
  });
  it("prints percentages as every other output does, with a dash when absent", () => {
    expect(fmt1(83.18385650224215)).toBe("83.2");
    expect(fmt1(0.25)).toBe("0.2"); // ties to even, like Python's '%.1f'
    expect(fmt1(null)).toBe("–");
    expect(fmt1(Number.NaN)).toBe("–");
    expect(fmtSigned(-1.345)).toBe("−1.3");
    expect(fmtSigned(6.3)).toBe("+6.3");
  });
  it("prints p-values as the paper does (§5.4)", () => {
    expect(fmtP(5.7e-6)).toBe("5.7×10<sup>−6</sup>");
    expect(fmtP(0.065)).toBe("0.065");
    expect(fmtP(0.5)).toBe("0.5");
    expect(fmtP(1)).toBe("1");
    expect(fmtP(null)).toBe("–");
  });
});
