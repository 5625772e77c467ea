import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rolloutRunDir } from "../testing/shared.js";
import { indexOfBytes, lastIndexOfBytes } from "./results-read.js";

/** The first and last start of `pattern` in `bytes[from, to)`, found the plain way. */
function plainSearch(bytes: Uint8Array, pattern: Uint8Array, from: number, to: number): [number, number] {
  const starts: number[] = [];
  for (let at = from; at + pattern.length <= to; at++) if (pattern.every((b, k) => bytes[at + k] === b)) starts.push(at);
  return [starts[0] ?? -1, starts.at(-1) ?? -1];
}

describe("searching a stretch of a line's bytes", () => {
  const line = readFileSync(
    join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_result.json"),
  ).subarray(0, 20_000);
  const patterns = ['"role"', '"user"', "}", '"id": "multi_turn_base_0"', "no such text"].map((p) => new TextEncoder().encode(p));

  it("finds what a plain search finds, in stretches short (searched byte by byte) and long (searched natively)", () => {
    let found = 0;
    for (const pattern of patterns) {
      for (const [from, length] of [
        [0, 0],
        [0, 5],
        [3, 64],
        [100, 255],
        [100, 256],
        [100, 257],
        [7, 4000],
        [0, 20_000],
      ]) {
        const to = from + length;
        const [first, last] = plainSearch(line, pattern, from, to);
        expect([indexOfBytes(line, pattern, from, to), lastIndexOfBytes(line, pattern, from, to)]).toEqual([first, last]);
        if (first >= 0) found++;
      }
    }
    expect(found).toBeGreaterThan(10);
  });

  it("does not find a match that runs past the end of the stretch", () => {
    const pattern = new TextEncoder().encode('"id"');
    const at = indexOfBytes(line, pattern, 0, line.length);
    expect(at).toBeGreaterThanOrEqual(0);
    expect([indexOfBytes(line, pattern, at, at + 3), lastIndexOfBytes(line, pattern, at, at + 3)]).toEqual([-1, -1]);
    expect([indexOfBytes(line, pattern, at, at + 4), lastIndexOfBytes(line, pattern, at, at + 4)]).toEqual([at, at]);
  });
});
