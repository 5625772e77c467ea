import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { defaultRng, generateState64, Pcg64 } from "./pcg64.js";

interface RngVector {
  seed: string;
  stateWords: string[];
  raw: string[];
  integers: Record<string, number[]>;
  chained151: number[][];
  chainedOdd7: number[][];
}
const vectors = JSON.parse(readFileSync(new URL("./testdata/vectors.json", import.meta.url), "utf8")) as { rng: RngVector[] };

describe("NumPy's default_rng re-implemented (vectors from tools/gen-stats-vectors.py)", () => {
  for (const v of vectors.rng) {
    const seed = BigInt(v.seed);
    it(`seed ${v.seed}: SeedSequence.generate_state(4, uint64)`, () => {
      expect(generateState64(seed, 4).map(String)).toEqual(v.stateWords);
    });
    it(`seed ${v.seed}: PCG64 random_raw`, () => {
      const g = new Pcg64(seed);
      expect(v.raw.map(() => String(g.nextUint64()))).toEqual(v.raw);
    });
    it(`seed ${v.seed}: integers(0, n, size) for ${Object.keys(v.integers).length} bounds`, () => {
      for (const [n, expected] of Object.entries(v.integers)) {
        const got = Array.from(defaultRng(seed).integers(Number(n), expected.length));
        expect(got, `n=${n}`).toEqual(expected);
        if (Number(n) < 2 ** 21) {
          const fast = new Int32Array(expected.length);
          defaultRng(seed).integersInto(Number(n), expected.length, fast);
          expect(Array.from(fast), `fast path n=${n}`).toEqual(expected);
        }
      }
    });
    it(`seed ${v.seed}: consecutive integers calls share the buffered 32-bit half`, () => {
      const g = defaultRng(seed);
      expect(v.chained151.map((row) => Array.from(g.integers(151, row.length)))).toEqual(v.chained151);
      const f = defaultRng(seed);
      const buf = new Int32Array(151);
      const fast = v.chained151.map(() => (f.integersInto(151, 151, buf), Array.from(buf)));
      expect(fast).toEqual(v.chained151);
      const h = defaultRng(seed);
      expect(v.chainedOdd7.map((row) => Array.from(h.integers(7, row.length)))).toEqual(v.chainedOdd7);
      // Mixing the fast path and the generic path keeps the shared 32-bit buffer in step.
      const k = defaultRng(seed);
      const small = new Int32Array(5);
      const mixed = v.chainedOdd7.map((row, i) =>
        i % 2 === 0 ? (k.integersInto(7, 5, small), Array.from(small)) : Array.from(k.integers(7, row.length)),
      );
      expect(mixed).toEqual(v.chainedOdd7);
    });
  }
  it("rejects bounds outside NumPy's 32-bit path", () => {
    expect(() => defaultRng(1).integers(0, 3)).toThrow(RangeError);
    expect(() => defaultRng(1).integers(2 ** 32 + 1, 3)).toThrow(RangeError);
  });
});
