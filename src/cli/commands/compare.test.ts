import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { projectRoot, rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { formatP } from "./compare.js";

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("twinscore compare", () => {
  it("main vs harmony-fixes for gpt-oss-120b: decision 83.2 → 81.8 with a paired interval; official raw on the miss items 43.9 → 50.2", async () => {
    const a = rolloutRunDir("2025-11-12-main");
    const b = rolloutRunDir("2025-11-12-harmony-fixes");
    const r = await run(["compare", "--reading", "release", "--a", join(a, "result"), "--b", join(b, "result"), "--model", "openai_gpt-oss-120b", "--scores-a", join(a, "score"), "--scores-b", join(b, "score"), "--format", "csv"]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    // the interval of the change is two numeric columns in csv, its bracketed text in the table
    expect(lines[0]).toBe("model,measure,slice,N,A,B,B-A,A only,B only,McNemar p,ci_low,ci_high");
    expect(lines).toContain("openai_gpt-oss-120b,decision,all,223,83.2,81.8,-1.3,,,,-3.6,1.1");
    expect(lines).toContain("openai_gpt-oss-120b,official raw,scored miss items,223,43.9,50.2,+6.3,18,32,0.065,,");
    expect(lines).toContain("openai_gpt-oss-120b,act (base anchor),all,223,96.9,94.6,-2.2,8,3,0.23,,");
    const table = await run(["compare", "--reading", "release", "--a", join(a, "result"), "--b", join(b, "result"), "--model", "openai_gpt-oss-120b"]);
    expect(table.out).toMatch(/\nopenai_gpt-oss-120b +decision +all +223 +83\.2 +81\.8 +-1\.3 +\[-3\.6, \+1\.1\]\n/);
  }, 120_000);
  it("needs both arms", async () => {
    const r = await run(["compare", "--a", "x"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/give both --a DIR and --b DIR/);
  });
  it("formats p-values as the paper does", () => {
    expect(formatP(5.7e-6)).toBe("5.7e-6");
    expect(formatP(0.053)).toBe("0.053");
    expect(formatP(1)).toBe("1");
    expect(formatP(0.5)).toBe("0.5");
  });
});
