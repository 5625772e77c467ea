import { describe, expect, test } from "vitest";
import { PyRandom } from "./random.js";

describe("PyRandom reproduces CPython's random.Random(int)", () => {
  test("TravelAPI seed 141053: token, card id, balance (brief §5.3)", () => {
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
