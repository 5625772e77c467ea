import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bfclDataDir, rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

describe("twinscore score with BFCL data: the Table F1 section", () => {
  it("adds one workaround row per model of the real 2025-11-12-harmony-fixes run (JSON)", async () => {
    const io = memoryIo();
    const code = await runCli(
      ["score", "--results", join(rolloutRunDir("2025-11-12-harmony-fixes"), "result"), "--bfcl-data", bfclDataDir(), "--format", "json"],
      io,
    );
    expect(code).toBe(0);
    const doc = JSON.parse(io.out.join("")) as {
      workaround: {
        model: string;
        attempts: number;
        aligned: number;
        workaround: number;
        acc: number;
        accWorkaround: number;
        credited: number;
      }[];
    };
    expect(doc.workaround.map((r) => r.model)).toEqual(["openai_gpt-oss-120b", "openai_gpt-oss-20b"]);
    for (const r of doc.workaround) {
      expect(r.workaround).toBeGreaterThan(0);
      expect(r.workaround).toBeLessThanOrEqual(r.aligned);
      expect(r.aligned).toBeLessThanOrEqual(r.attempts);
      expect(r.accWorkaround).toBeGreaterThan(r.acc);
      expect(r.credited).toBeGreaterThanOrEqual(r.accWorkaround);
    }
  });
});
