/**
 * `twinscore run --limit`, `--ids`, `--category` and `--dry-run` over real HTTP against a
 * scripted policy on 127.0.0.1: the plan is printed before the first request, a small
 * exact-twin run sends no more than its lines need, and a dry run sends nothing.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { serverPool } from "../../testing/run-fixtures.js";
import { startPolicyServer } from "../../testing/policies.js";
import { policyResponder } from "../../testing/policy-runs.js";
import { bfclDataDir } from "../../testing/shared.js";
import { v4Manifest } from "../../testing/policy-runs.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-plan-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();

const base = (url: string, out: string) => [
  "run",
  "--endpoint",
  url,
  "--model",
  "scripted/policy",
  "--out",
  out,
  "--bfcl-data",
  bfclDataDir(),
  "--retries",
  "0",
];

describe("run: smaller runs and the plan", () => {
  it("--limit 3 --history reference: the plan first, then at most 3 × 2 anchor-turn generations and the probe", async () => {
    const srv = await serve(startPolicyServer(policyResponder("always-ask"), { maxRequests: 50 }));
    const out = join(tmp, "limit");
    const io = memoryIo();
    const code = await runCli([...base(srv.url, out), "--limit", "3", "--history", "reference", "--format", "json"], io);
    expect(code, io.err.join("")).toBe(0);
    const doc = JSON.parse(io.out.join("")) as {
      selected: number;
      generated: number;
      requests: number;
      pairs: number;
      plan: { lines: number; minRequests: number };
    };
    expect(doc.pairs).toBe(3);
    expect(doc.selected).toBeLessThanOrEqual(6);
    expect(doc.generated).toBe(doc.selected);
    // one text reply ends each anchor turn: one request per line, nothing else but the probe
    expect(srv.stats.requests).toBe(doc.selected);
    expect(srv.stats.requests).toBeLessThanOrEqual(6);
    expect(doc.plan.minRequests).toBe(doc.selected);
    const plan = io.err.find((l) => l.startsWith("note: plan: "));
    const n = doc.plan.lines;
    expect(plan).toMatch(
      new RegExp(
        `^note: plan: \\d+ items of 3 pairs, ${n} lines \\(one per item and anchor\\): 0 already in the output, ${n} to generate; at least ${n} requests to the model expected \\(one per generated turn; each tool call adds one\\) \\[run-plan\\]\n$`,
      ),
    );
    // printed before the first request: before the first progress line
    expect(io.err.findIndex((l) => l.startsWith("note: plan: "))).toBeLessThan(io.err.findIndex((l) => l.startsWith("run: ")));
    const record = JSON.parse(readFileSync(join(out, "scripted_policy", "run.json"), "utf8")) as {
      endpoint: string;
      settings: { history: string };
    };
    expect(record.settings.history).toBe("reference");
    expect(record.endpoint).toBe(srv.url);
  }, 120_000);

  it("--dry-run sends nothing, makes no folder, and prints the plan", async () => {
    const srv = await serve(startPolicyServer(policyResponder("always-ask"), { maxRequests: 5 }));
    const out = join(tmp, "dry");
    const io = memoryIo();
    const code = await runCli([...base(srv.url, out), "--category", "miss_param", "--dry-run"], io);
    expect(code, io.err.join("")).toBe(0);
    expect(srv.stats).toMatchObject({ requests: 0, probes: 0 });
    expect(existsSync(out)).toBe(false);
    expect(io.err.join("")).toMatch(
      /^note: dry run, nothing sent or written: \d+ items of \d+ pairs, \d+ lines: 0 already in the output, \d+ to generate; at least \d+ requests to the model expected/,
    );
    expect(io.out).toEqual([]);
    // --trials K: every trial's lines and requests counted; a bad K refused before anything
    const plan = (text: string) =>
      /: (\d+) items of (\d+) pairs, (\d+) lines(?: \(× 3 trials\))?: 0 already in the output, (\d+) to generate; at least (\d+) requests/
        .exec(text)!
        .slice(1)
        .map(Number);
    const three = memoryIo();
    expect(await runCli([...base(srv.url, out), "--category", "miss_param", "--dry-run", "--trials", "3"], three), three.err.join("")).toBe(
      0,
    );
    expect(three.err.join("")).toContain("lines (× 3 trials)");
    const [items, pairs, lines, pending, requests] = plan(io.err.join(""));
    expect(plan(three.err.join(""))).toEqual([items, pairs, 3 * lines, 3 * pending, 3 * requests]);
    const zero = memoryIo();
    expect(await runCli([...base(srv.url, out), "--dry-run", "--trials", "0"], zero)).toBe(2);
    expect(zero.err.join("")).toBe("error: --trials must be an integer >= 1, got 0 [bad-argument]\n");
    expect(srv.stats).toMatchObject({ requests: 0, probes: 0 });
  }, 120_000);

  it("--ids outside the selection and --category base with pairs are refused in one line, before any request", async () => {
    const srv = await serve(startPolicyServer(policyResponder("always-ask"), { maxRequests: 5 }));
    const io = memoryIo();
    expect(await runCli([...base(srv.url, join(tmp, "ids")), "--ids", "multi_turn_base_0", "multi_turn_base_9999"], io)).toBe(2);
    expect(io.err.join("")).toMatch(
      /^error: --ids: "multi_turn_base_9999" not among the items selected \(--items pairs\) \[bad-argument\]\n$/,
    );
    const io2 = memoryIo();
    expect(await runCli([...base(srv.url, join(tmp, "ids")), "--category", "base"], io2)).toBe(2);
    expect(io2.err.join("")).toContain("--category base: every pair has a base item");
    expect(srv.stats).toMatchObject({ requests: 0, probes: 0 });
  }, 120_000);

  it("score, compare, check and report say what a run.json folder is", async () => {
    const srv = await serve(startPolicyServer(policyResponder("always-act"), { maxRequests: 200 }));
    const scored = v4Manifest().pairs.filter((p) => p.status === "scored");
    const pairs = [scored.find((p) => p.missId.includes("miss_func"))!, scored.find((p) => p.missId.includes("miss_param"))!];
    const out = join(tmp, "titled");
    const io = memoryIo();
    const code = await runCli(
      [...base(srv.url, out), "--ids", ...pairs.flatMap((p) => [p.baseId, p.missId]), "--until-anchor", "--inject", "Ask when unsure."],
      io,
    );
    expect(code, io.err.join("")).toBe(0);
    const described = 'scripted/policy via run, fc, own history, until the anchor, temperature 0.001, injected "Ask when unsure." (sha256 ';
    const score = memoryIo();
    await runCli(["score", "--results", out, "--bootstrap", "0"], score);
    expect(score.out.join("").split("\n")[0]).toContain(`; made by twinscore run: scripted_policy (${described}`);
    const compare = memoryIo();
    // two items of 223 pairs: no headline under the default gate, which compare applies to each arm
    // the run and a copy of it as the two arms (one folder as both arms is refused before anything is read)
    cpSync(out, `${out}-b`, { recursive: true });
    await runCli(["compare", "--a", out, "--b", `${out}-b`, "--bootstrap", "0", "--max-undecided", "100"], compare);
    expect(compare.out.join("")).toContain(`Arm A: ${out}; made by twinscore run: scripted_policy (${described}`);
    const check = memoryIo();
    await runCli(["check", "--results", out, "--bfcl-data", bfclDataDir()], check);
    expect(check.err.join("")).toContain(`note: scripted_policy: made by twinscore run: ${described}`);
    const report = memoryIo();
    const html = join(tmp, "titled.html");
    await runCli(["report", "--results", out, "--bootstrap", "0", "--out", html], report);
    const page = readFileSync(html, "utf8");
    expect(page).toContain('<p class="muted" id="provenance">twinscore 0.1.0 · pair manifest sha256 ');
    expect(page).toContain(`<li>scripted_policy: made by twinscore run: ${described.replace(/"/g, "&quot;")}`);
  }, 180_000);
});
