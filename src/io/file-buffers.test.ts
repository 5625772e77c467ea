import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rolloutRunDir } from "../testing/shared.js";
import { ReusedBuffers } from "./file-buffers.js";
import { nodeFileSystem } from "./file-system.js";

const file = (model: string, c: string) =>
  join(rolloutRunDir("2025-11-12-main"), "result", model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`);

describe("ReusedBuffers: result files read into reused memory (real 2025-11-12-main result files)", () => {
  it("gives each file's exact bytes, reusing one slot's memory for a smaller file and growing it for a larger one", () => {
    const cache = new ReusedBuffers(nodeFileSystem);
    // sizes: 120b miss_param 2,597,160 B > 120b base 2,227,470 B
    const big = cache.readFile(file("openai_gpt-oss-120b", "miss_param"), 0);
    expect(Buffer.from(big).equals(readFileSync(file("openai_gpt-oss-120b", "miss_param")))).toBe(true);
    const small = cache.readFile(file("openai_gpt-oss-120b", "base"), 0);
    expect(Buffer.from(small).equals(readFileSync(file("openai_gpt-oss-120b", "base")))).toBe(true);
    expect(small.buffer).toBe(big.buffer);
    // another slot has its own memory, so a job's files never overwrite each other
    const other = cache.readFile(file("openai_gpt-oss-20b", "base"), 1);
    expect(other.buffer).not.toBe(big.buffer);
    expect(Buffer.from(small).equals(readFileSync(file("openai_gpt-oss-120b", "base")))).toBe(true);
    // a slot grows when a file does not fit
    const grown = cache.buffer("in0", big.buffer.byteLength + 1);
    expect(grown.length).toBeGreaterThan(big.buffer.byteLength);
  });
});
