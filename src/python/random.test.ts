import { describe, expect, test } from "vitest";
import { PyRandom } from "./random.js";

describe("PyRandom reproduces CPython's random.Random(int)", () => {
  test("TravelAPI seed 141053: token, card id, balance", () => {
    const r = new PyRandom(141053n);
    expect(r.randint(100000n, 999999n)).toBe(251675n);
    expect(r.randint(100000000000n, 999999999999n)).toBe(391310425148n);
    expect(r.randint(10000n, 99999n)).toBe(58617n);
  });
  test("TravelAPI fresh seed: booking id 3426812 then transaction id 45451592", () => {
    const r = new PyRandom(141053n);
    expect(r.randint(1000000n, 9999999n)).toBe(3426812n);
    expect(r.randint(10000000n, 99999999n)).toBe(45451592n);
  });
  test("MessageAPI seed 200191: message ids 67410, 41772, 24547", () => {
    const r = new PyRandom(200191n);
    expect([r.randint(10000n, 99999n), r.randint(10000n, 99999n), r.randint(10000n, 99999n)]).toEqual([67410n, 41772n, 24547n]);
  });
  test("VehicleControlAPI seed 141053: uniform(-10, 40) = 36.63485703790535", () => {
    expect(new PyRandom(141053n).uniform(-10, 40)).toBe(36.63485703790535);
  });
  test("TradingBot seed 1053520: first timestamp offset 69015 s", () => {
    expect(new PyRandom(1053520n).randint(0n, 86400n)).toBe(69015n);
  });
});

import { readFileSync } from "node:fs";
import { decodeTagged, type TaggedValue } from "./testing/test-vectors.js";
import { pyRepr } from "./repr.js";
import type { PyValue } from "./value.js";

describe("PyRandom streams match CPython call by call", () => {
  const cases = JSON.parse(readFileSync(new URL("./vectors/random.json", import.meta.url), "utf8")) as {
    seed: string;
    calls: [string, TaggedValue[], TaggedValue][];
  }[];
  test.each(cases.map((c) => [c.seed, c] as const))(
    "seed %s: random, getrandbits, randint, randrange, uniform, choice, shuffle",
    (_, c) => {
      const r = new PyRandom(BigInt(c.seed));
      for (const [method, rawArgs, rawWant] of c.calls) {
        const args = rawArgs.map(decodeTagged);
        const want = decodeTagged(rawWant);
        let got: PyValue;
        switch (method) {
          case "random":
            got = r.random();
            break;
          case "getrandbits":
            got = r.getrandbits(Number(args[0]));
            break;
          case "randint":
            got = r.randint(args[0] as bigint, args[1] as bigint);
            break;
          case "randrange":
            got = r.randrange(args[0] as bigint, args[1] as bigint, args[2] as bigint);
            break;
          case "uniform":
            got = r.uniform(args[0] as number, args[1] as number);
            break;
          case "choice":
            got = r.choice(args[0] as PyValue[]);
            break;
          case "shuffle": {
            const xs: PyValue[] = Array.from({ length: Number(args[0]) }, (_, i) => BigInt(i));
            r.shuffle(xs);
            got = xs;
            break;
          }
          default:
            throw new Error(method);
        }
        expect(`${method} ${pyRepr(got)}`).toBe(`${method} ${pyRepr(want)}`);
      }
    },
  );
  test("empty ranges raise Python >= 3.12's messages", () => {
    const r = new PyRandom(1n);
    expect(() => r.randint(5n, 4n)).toThrow("empty range in randrange(5, 5)");
    expect(() => r.choice([])).toThrow("Cannot choose from an empty sequence");
  });
});
