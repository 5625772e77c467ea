import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { projectRoot, rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const main = rolloutRunDir("2025-11-12-main");

describe("twinscore score: interval, --scores, --sensitivity", () => {
  it("shows the 95% interval beside decision: [79.7, 86.5] and [78.2, 85.8] on 2025-11-12-main; csv gives its bounds as two numeric columns", async () => {
    const r = await run(["score", "--reading", "release", "--results", join(main, "result"), "--format", "csv"]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    const header = lines[0].split(",");
    expect(header.slice(header.indexOf("decision"), header.indexOf("decision") + 3)).toEqual(["decision", "ci_low", "ci_high"]);
    expect(lines.find((l) => l.startsWith("openai_gpt-oss-120b,"))).toContain(",83.2,79.7,86.5,");
    expect(lines.find((l) => l.startsWith("openai_gpt-oss-20b,"))).toContain(",82.1,78.2,85.8,");
    expect(r.out).not.toContain('"');
    const table = await run(["score", "--reading", "release", "--results", join(main, "result")]);
    expect(table.out).toMatch(/\nopenai_gpt-oss-120b +223 +96\.9 +69\.5 +83\.2 +\[79\.7, 86\.5\] /);
    const markdown = await run(["score", "--reading", "release", "--results", join(main, "result"), "--format", "markdown"]);
    expect(markdown.out).toContain("| 83.2 | [79.7, 86.5] |");
  }, 120_000);
  it("--format json carries the unrounded interval; --bootstrap 0 turns it off; --seed changes it", async () => {
    const j = JSON.parse(
      (
        await run([
          "score",
          "--reading",
          "release",
          "--results",
          join(main, "result"),
          "--model",
          "openai_gpt-oss-120b",
          "--format",
          "json",
        ])
      ).out,
    );
    expect(j.models[0].ci95.map((x: number) => x.toFixed(4))).toEqual(["79.7235", "86.4869"]);
    expect(j.bootstrap).toEqual({ resamples: 10000, seed: 20260612 });
    expect(j.models[0].rank1).toBeNull(); // one model: no ranking
    const both = JSON.parse((await run(["score", "--reading", "release", "--results", join(main, "result"), "--format", "json"])).out);
    expect(both.models.map((m: { rank1: number }) => m.rank1.toFixed(2))).toEqual(["74.05", "25.95"]);
    const off = await run([
      "score",
      "--reading",
      "release",
      "--results",
      join(main, "result"),
      "--model",
      "openai_gpt-oss-120b",
      "--bootstrap",
      "0",
      "--format",
      "csv",
    ]);
    expect(off.out.split("\n")[0]).not.toContain("ci_low");
    const seeded = JSON.parse(
      (
        await run([
          "score",
          "--reading",
          "release",
          "--results",
          join(main, "result"),
          "--model",
          "openai_gpt-oss-120b",
          "--seed",
          "1",
          "--format",
          "json",
        ])
      ).out,
    );
    expect(seeded.models[0].ci95).not.toEqual(j.models[0].ci95);
    const bad = await run(["score", "--reading", "release", "--results", join(main, "result"), "--bootstrap", "-3"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--bootstrap must be an integer from 0 to 100000, got -3/);
  }, 120_000);
  it("--scores adds BFCL's verdict on the same items (43.9 / 48.3 for gpt-oss-120b); --sensitivity the readings", async () => {
    const r = await run([
      "score",
      "--reading",
      "release",
      "--results",
      join(main, "result"),
      "--scores",
      join(main, "score"),
      "--sensitivity",
      "--model",
      "openai_gpt-oss-120b",
      "--bootstrap",
      "1000",
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Official score on the same items");
    expect(r.out).toMatch(/openai_gpt-oss-120b\s+43\.9\s+48\.3\s+83\.2\s+98\s+19\.4\s+125\s+39\.2/);
    expect(r.out).toContain("Sensitivity of the table (Appendix F):");
    expect(r.out).toMatch(/openai_gpt-oss-120b\s+logins\s+225\s/);
    expect(r.out).toMatch(/openai_gpt-oss-120b\s+all-pairs\s+365\s+62\.2\s+77\.5\s+69\.9/);
    expect(r.out).toMatch(/openai_gpt-oss-120b\s+act-per-anchor\s+184\s+96\.2/);
  }, 120_000);
});
