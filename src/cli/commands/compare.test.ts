import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { projectRoot, rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { formatP } from "./compare.js";
import { cliArgs } from "../../testing/cli-args.js";

async function run(argv: string[]) {
  const io = memoryIo({}, projectRoot);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

describe("twinscore compare", () => {
  it("main vs harmony-fixes for gpt-oss-120b: decision 83.2 → 81.8 with a paired interval; official raw on the miss items 43.9 → 50.2", async () => {
    const a = rolloutRunDir("2025-11-12-main");
    const b = rolloutRunDir("2025-11-12-harmony-fixes");
    const r = await run(
      cliArgs("compare", {
        reading: "release",
        a: join(a, "result"),
        b: join(b, "result"),
        model: "openai_gpt-oss-120b",
        "scores-a": join(a, "score"),
        "scores-b": join(b, "score"),
        format: "csv",
      }),
    );
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    // the interval of the change is two numeric columns in csv, its bracketed text in the table
    expect(lines[0]).toBe("model,measure,slice,N,A,B,B-A,A only,B only,McNemar p,ci_low,ci_high");
    expect(lines).toContain("openai_gpt-oss-120b,decision,all,223,83.2,81.8,-1.3,,,,-3.6,1.1");
    expect(lines).toContain("openai_gpt-oss-120b,official raw,scored miss items,223,43.9,50.2,+6.3,18,32,0.065,,");
    expect(lines).toContain("openai_gpt-oss-120b,act (base anchor),all,223,96.9,94.6,-2.2,8,3,0.23,,");
    const table = await run(
      cliArgs("compare", { reading: "release", a: join(a, "result"), b: join(b, "result"), model: "openai_gpt-oss-120b" }),
    );
    expect(table.out).toMatch(/\nopenai_gpt-oss-120b +decision +all +223 +83\.2 +81\.8 +-1\.3 +\[-3\.6, \+1\.1\]\n/);
  }, 120_000);
  it('two serving builds where nothing was injected: no injection check; --injection-check asks for it and says no "holds"', async () => {
    const a = join(rolloutRunDir("2025-11-12-main"), "result");
    const b = join(rolloutRunDir("2025-11-12-harmony-fixes"), "result");
    // under release both models have a headline in both arms (on the decided pairs main's 20b has none and is not compared)
    const plain = await run(["compare", "--a", a, "--b", b, "--bootstrap", "0", "--reading", "release"]);
    expect(plain.code).toBe(0);
    expect(plain.out + plain.err).not.toContain("injection check");
    const json = JSON.parse(
      (await run(["compare", "--a", a, "--b", b, "--bootstrap", "0", "--reading", "release", "--format", "json"])).out,
    ) as { injection: unknown[] };
    expect(json.injection).toEqual([]);
    const asked = await run(["compare", "--a", a, "--b", b, "--bootstrap", "0", "--reading", "release", "--injection-check"]);
    expect(asked.code).toBe(0);
    // the same builds' first-step prompts: B − A = +0 wherever both arms have a count, which confirms no block
    expect(asked.out.split("\n").filter((l) => l.includes(": injection check on "))).toEqual([
      "openai_gpt-oss-120b: injection check on 588 paired items: first-step input tokens B − A = +0 on 588; distribution +0 × 588; neither arm's lines record an injected block, so there is no block whose arrival this could confirm; 12 items without a count in one arm",
      "openai_gpt-oss-20b: injection check on 561 paired items: first-step input tokens B − A = +0 on 561; distribution +0 × 561; neither arm's lines record an injected block, so there is no block whose arrival this could confirm; 39 items without a count in one arm",
    ]);
    expect(asked.out).not.toContain("holds");
  }, 120_000);

  it("an arm whose lines record an injected block gets the check without asking (real lines of gpt-oss-120b, the key added to arm B's)", async () => {
    const { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const source = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
    const dir = mkdtempSync(join(tmpdir(), "twinscore-compare-injected-"));
    try {
      const b = join(dir, "injected", "openai_gpt-oss-120b", "multi_turn");
      mkdirSync(b, { recursive: true });
      const key = '{"twinscore_injected": {"placement": "developer-message", "text": "Ask before you guess."}, ';
      for (const f of readdirSync(source)) {
        const lines = readFileSync(join(source, f), "utf8")
          .split("\n")
          .map((l) => (l.startsWith("{") ? key + l.slice(1) : l));
        writeFileSync(join(b, f), lines.join("\n"));
      }
      const r = await run(
        cliArgs("compare", {
          a: join(source, "..", ".."),
          b: join(dir, "injected"),
          model: "openai_gpt-oss-120b",
          bootstrap: 0,
          format: "json",
        }),
      );
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.out) as {
        injection: { model: string; injectedLines: { a: number; b: number }; check: { paired: number; mode: number } }[];
      };
      expect(doc.injection.map((i) => [i.model, i.injectedLines, i.check.paired, i.check.mode])).toEqual([
        ["openai_gpt-oss-120b", { a: 0, b: 600 }, 588, 0],
      ]);
      // the block on the first 50 lines of the base file only: the arm is named, the model not compared
      const baseFile = readdirSync(source).find((f) => f.includes("_base_"))!;
      const lines = readFileSync(join(source, baseFile), "utf8")
        .split("\n")
        .map((l, i) => (l.startsWith("{") && i < 50 ? key + l.slice(1) : l));
      for (const f of readdirSync(source))
        writeFileSync(join(b, f), f === baseFile ? lines.join("\n") : readFileSync(join(source, f), "utf8"));
      const partly = await run(
        cliArgs("compare", { a: join(source, "..", ".."), b: join(dir, "injected"), model: "openai_gpt-oss-120b", bootstrap: 0 }),
      );
      expect(partly.code).toBe(2);
      expect(partly.err).toContain(
        `error: arm B (${join(dir, "injected")}): model openai_gpt-oss-120b: its lines were made with different injected blocks (`,
      );
      expect(partly.err).toMatch(
        /\(\d+ without an injected block, 5\d with "Ask before you guess\."\); one folder must hold one run's lines \(not scored\) \[run-mixed\]/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("needs both arms", async () => {
    const r = await run(["compare", "--a", "x"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/give both --a DIR and --b DIR/);
  });
  it("one real run as both arms: one line, exit 2, nothing printed (a run compared with itself shows no change)", async () => {
    const main = rolloutRunDir("2025-11-12-main");
    const r = await run(["compare", "--a", main, "--b", main + "/"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(`error: --a and --b name the same folder (${main}): two different runs are needed [compare-same-run]\n`);
  });
  it("formats p-values as the paper does", () => {
    expect(formatP(5.7e-6)).toBe("5.7e-6");
    expect(formatP(0.053)).toBe("0.053");
    expect(formatP(1)).toBe("1");
    expect(formatP(0.5)).toBe("0.5");
  });
});
