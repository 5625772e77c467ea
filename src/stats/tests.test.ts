import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { averageRanks, binomialCdf, mcnemarExact, mcnemarPaired, regularizedBeta, spearman } from "./tests.js";

const vectors = JSON.parse(readFileSync(new URL("./testdata/vectors.json", import.meta.url), "utf8")) as {
  binom: { k: number; n: number; cdf: string }[];
  mcnemar: { b: number; c: number; p: string }[];
  spearman: { x: number[]; y: number[]; rho: string; p: string }[];
  betainc: { a: number; b: number; x: number; value: string }[];
};

/** Agreement to ~12 significant digits (scipy and this code take different routes). */
function close(got: number, want: number, rel = 1e-11): void {
  if (want === 0 || got === 0) expect(Math.abs(got - want)).toBeLessThan(1e-300 + rel);
  else expect(Math.abs(got - want) / Math.abs(want)).toBeLessThan(rel);
}

describe("regularized incomplete beta and binomial cdf (scipy vectors)", () => {
  it(`betainc on ${vectors.betainc.length} grid points`, () => {
    for (const v of vectors.betainc) close(regularizedBeta(v.a, v.b, v.x), Number(v.value), 1e-10);
  });
  it(`binom.cdf(k, n, 0.5) on ${vectors.binom.length} points`, () => {
    for (const v of vectors.binom) close(binomialCdf(v.k, v.n, 0.5), Number(v.cdf));
  });
});

describe("exact two-sided McNemar", () => {
  it(`matches min(1, 2·binom.cdf(min(b,c), b+c, 0.5)) on ${vectors.mcnemar.length} count pairs`, () => {
    for (const v of vectors.mcnemar) close(mcnemarExact(v.b, v.c).p, Number(v.p));
  });
  it("counts the discordant pairs of two aligned arms", () => {
    const a = [true, true, false, false, true];
    const b = [true, false, true, true, false];
    expect(mcnemarPaired(a, b)).toMatchObject({ aOnly: 2, bOnly: 2, p: 1 });
    expect(mcnemarExact(0, 0).p).toBe(1);
  });
});

describe("Spearman rank correlation (scipy.stats.spearmanr)", () => {
  it("average ranks for ties", () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });
  for (const v of vectors.spearman) {
    it(`n=${v.x.length}: rho and two-sided p`, () => {
      const got = spearman(v.x, v.y);
      close(got.rho, Number(v.rho), 1e-12);
      close(got.p, Number(v.p), 1e-9);
    });
  }
  it("the paper's seven models: official raw vs decision accuracy gives rho = -0.11, p = 0.82", () => {
    const official = [47.1, 32.7, 58.7, 50.7, 52.0, 52.5, 22.9];
    const decision = [78.3, 80.7, 77.1, 78.5, 75.8, 77.4, 67.7];
    const got = spearman(official, decision);
    expect(got.rho.toFixed(2)).toBe("-0.11");
    expect(got.p.toFixed(2)).toBe("0.82");
  });
});
