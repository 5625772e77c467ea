import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skipValue } from "./json-bytes.js";
import { simdRegion, skipValueIn } from "./skip-nested-simd.js";
import { rolloutRuns, rolloutRunDir, sharedPath } from "../testing/shared.js";
import { compile, source } from "../../tools/gen-skip-wasm.mjs";

const OPENS = new Set([0x5b, 0x7b]);

/** The result files of every real run: both gpt-oss runs' models and xlam-v3's. */
function realResultFiles(): string[] {
  const folders = [
    ...rolloutRuns.flatMap((run) => {
      const result = join(rolloutRunDir(run), "result");
      return readdirSync(result).map((model) => join(result, model, "multi_turn"));
    }),
    ...readdirSync(sharedPath("rollouts", "xlam-v3", "result")).map((model) => sharedPath("rollouts", "xlam-v3", "result", model)),
  ];
  return folders.flatMap((folder) => readdirSync(folder).map((f) => join(folder, f)));
}

/** Each line of `bytes` as [start, end). */
function lines(bytes: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  for (let start = 0; start < bytes.length;) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    if (end > start) out.push([start, end]);
    start = end + 1;
  }
  return out;
}

describe("simdRegion", () => {
  it("is the module tools/gen-skip-wasm.mjs compiles from its WAT text", async () => {
    const written = readFileSync(new URL("./skip-nested-wasm.ts", import.meta.url), "utf8");
    expect(source(await compile())).toBe(written);
  });

  it("ends every list and object of every real result line where skipValue does", () => {
    let compared = 0;
    let regions = 0;
    for (const file of realResultFiles()) {
      const bytes = readFileSync(file);
      for (const [start, end] of lines(bytes)) {
        const region = simdRegion(bytes, start, end);
        if (region === null) continue;
        regions++;
        // every bracket, those inside strings too: from any start both walk the same way
        for (let i = start; i < end; i++) {
          if (!OPENS.has(bytes[i])) continue;
          const expected = skipValue(bytes, i, end);
          if (region.skip(i, end) !== expected) expect.fail(`${file}: byte ${i - start} of a line: ${region.skip(i, end)} vs ${expected}`);
          compared++;
        }
      }
    }
    expect(regions).toBeGreaterThan(2_000);
    expect(compared).toBeGreaterThan(500_000);
  });

  it("agrees with skipValue on malformed text: stray backslashes, unclosed strings and lists, escapes at block edges", () => {
    let seed = 20261206;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const alphabet = '[]{}"\\\\ab ,:';
    let handedBack = 0;
    for (let trial = 0; trial < 3_000; trial++) {
      const length = 600 + Math.floor(random() * 1_500);
      const text = (random() < 0.5 ? "[" : "{") + Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
      const bytes = new TextEncoder().encode(text);
      const end = bytes.length - Math.floor(random() * 64);
      const region = simdRegion(bytes, 0, end);
      expect(region).not.toBeNull();
      for (let i = 0; i < end; i += 1 + Math.floor(random() * 40)) {
        if (!OPENS.has(bytes[i])) continue;
        expect(region!.skip(i, end), `${text} from ${i} to ${end}`).toBe(skipValue(bytes, i, end));
      }
      if (/^[^"\\]*\\/.test(text)) handedBack++;
    }
    expect(handedBack).toBeGreaterThan(0);
  });

  it("closes lists that cross 64-byte blocks, deep nesting and long strings with escaped quotes", () => {
    const deep = "[".repeat(300) + '"x\\"]"' + "]".repeat(300) + " tail";
    const long = '{"a": "' + 'q\\"'.repeat(400) + '\\\\", "b": [1, 2, {"c": "]"}]} tail';
    for (const text of [deep, long]) {
      const bytes = new TextEncoder().encode(text);
      const region = simdRegion(bytes, 0, bytes.length)!;
      expect(region.skip(0, bytes.length)).toBe(text.length - " tail".length);
      expect(region.skip(0, bytes.length)).toBe(skipValue(bytes, 0, bytes.length));
      expect(region.skip(0, bytes.length - 6)).toBe(-1);
    }
  });

  it("stays right when a later region overwrites its copy, and is not made for short or huge regions", () => {
    const first = new TextEncoder().encode("[" + '"]",'.repeat(200) + "1] rest");
    const second = new TextEncoder().encode("{" + " ".repeat(700) + "}");
    const a = simdRegion(first, 0, first.length)!;
    simdRegion(second, 0, second.length);
    expect(a.skip(0, first.length)).toBe(first.length - " rest".length);
    expect(simdRegion(first, 0, 100)).toBeNull();
    expect(simdRegion(new Uint8Array(5 << 20), 0, 5 << 20)).toBeNull();
    expect(skipValueIn(null, first, 0, first.length)).toBe(skipValue(first, 0, first.length));
  });
});
