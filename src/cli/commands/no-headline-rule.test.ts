/**
 * One rule for a model with no headline, on the real gpt-oss runs: score, compare and report give it no numbers
 * under a reading past --max-undecided, say so and exit 1; a reading within the limit gives it its numbers.
 * More in this folder's README.md.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const main = rolloutRunDir("2025-11-12-main");
const fixes = rolloutRunDir("2025-11-12-harmony-fixes");
const runs = dirname(main);
const tmp = mkdtempSync(join(tmpdir(), "twinscore-no-headline-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(argv: string[]) {
  const io = memoryIo({}, tmp);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

interface SensitivityJson {
  sensitivity: {
    rows: { model: string; reading: string; n: number; decision: number | null; ci95: [number, number] | null; note?: string }[];
  };
  models: { model: string; numbers: { decision: number } | null }[];
}

describe("a model with no headline: one rule in score, compare and report", () => {
  it("score --sensitivity shows its release row, the same number --reading release gives it, and leaves the decided readings empty", async () => {
    const s = await run(["score", "--results", main, "--sensitivity", "--bootstrap", "200", "--format", "json"]);
    expect(s.code).toBe(1);
    const doc = JSON.parse(s.out) as SensitivityJson;
    const rows = doc.sensitivity.rows.filter((r) => r.model === "openai_gpt-oss-20b");
    expect(rows.map((r) => r.reading)).toContain("release");
    const release = rows.find((r) => r.reading === "release")!;
    expect(release.n).toBe(223);
    expect(release.decision).not.toBeNull();
    for (const id of ["table-1", "decided", "credited", "miss_func", "act-per-anchor"]) {
      const r = rows.find((x) => x.reading === id)!;
      expect(r.decision, id).toBeNull();
      expect(r.note, id).toBe("no headline: 10.3 % undecided > 10 %");
    }
    // the 120b's rows are those it had alone: a model with no headline does not move them
    const alone = JSON.parse(
      (await run(["score", "--results", main, "--model", "openai_gpt-oss-120b", "--sensitivity", "--bootstrap", "200", "--format", "json"]))
        .out,
    ) as SensitivityJson;
    expect(doc.sensitivity.rows.filter((r) => r.model === "openai_gpt-oss-120b")).toEqual(alone.sensitivity.rows);
    // --reading release: the model has a headline, and it is the release row
    const r = JSON.parse(
      (await run(["score", "--results", main, "--reading", "release", "--bootstrap", "200", "--format", "json"])).out,
    ) as SensitivityJson;
    const headline = r.models.find((m) => m.model === "openai_gpt-oss-20b")!;
    expect(headline.numbers!.decision).toBeCloseTo(release.decision!, 10);
    // the table prints the row with its note
    const t = await run(["score", "--results", main, "--sensitivity", "--bootstrap", "0"]);
    expect(t.out).toMatch(/openai_gpt-oss-20b +release +223 +\d+\.\d +\d+\.\d +\d+\.\d/);
    expect(t.out).toMatch(/openai_gpt-oss-20b +table-1 +200 .*no headline: 10\.3 % undecided > 10 %/);
  }, 180_000);

  it("compare does not compare a model with no headline in an arm: said on stderr and below the table, exit 1", async () => {
    const c = await run(["compare", "--a", main, "--b", fixes, "--bootstrap", "0", "--format", "json"]);
    expect(c.code).toBe(1);
    const doc = JSON.parse(c.out) as { models: { model: string }[]; noHeadline: { model: string; arm: string; why: string }[] };
    expect(doc.models.map((m) => m.model)).toEqual(["openai_gpt-oss-120b"]);
    expect(doc.noHeadline).toEqual([{ model: "openai_gpt-oss-20b", arm: "A", why: "no headline: 10.3 % undecided > 10 %" }]);
    expect(c.err).toMatch(
      /^error: model openai_gpt-oss-20b \(arm A\): no act, hold or decision: 23 of 223 pairs undecided .*; it is not compared \[no-headline\]$/m,
    );
    const t = await run(["compare", "--a", main, "--b", fixes, "--bootstrap", "0"]);
    expect(t.out).toContain(
      "Not compared (no headline in an arm, as score leaves its row empty): openai_gpt-oss-20b (arm A: no headline: 10.3 % undecided > 10 %)",
    );
    expect(t.out).not.toMatch(/^openai_gpt-oss-20b /m);
    // only the 20b asked: nothing compared, a finding, not a usage error
    const only = await run(["compare", "--a", main, "--b", fixes, "--bootstrap", "0", "--model", "openai_gpt-oss-20b"]);
    expect(only.code).toBe(1);
    // under release the error lines read as no call: the 20b has a headline in both arms and is compared
    const release = JSON.parse(
      (await run(["compare", "--a", main, "--b", fixes, "--bootstrap", "0", "--reading", "release", "--format", "json"])).out,
    ) as { models: { model: string }[]; noHeadline: unknown[] };
    expect(release.models.map((m) => m.model)).toEqual(["openai_gpt-oss-120b", "openai_gpt-oss-20b"]);
    expect(release.noHeadline).toEqual([]);
    // --max-undecided moves the line as in score
    const loose = JSON.parse(
      (await run(["compare", "--a", main, "--b", fixes, "--bootstrap", "0", "--max-undecided", "11", "--format", "json"])).out,
    ) as { models: { model: string }[] };
    expect(loose.models.map((m) => m.model)).toEqual(["openai_gpt-oss-120b", "openai_gpt-oss-20b"]);
  }, 180_000);

  it("report --compare names the runs inside a folder of runs, and leaves the no-headline model out of the paired arms and Table 1's N", async () => {
    const out = join(tmp, "runs.html");
    const r = await run([
      "report",
      "--results",
      runs,
      "--compare",
      "2025-11-12-main",
      "2025-11-12-harmony-fixes",
      "--bootstrap",
      "0",
      "--out",
      out,
    ]);
    expect(r.err).not.toContain("no such run");
    expect(r.code).toBe(1);
    const html = readFileSync(out, "utf8");
    expect(html.includes('<h2 id="compare">Paired arms</h2>')).toBe(true);
    expect(
      /data-not-compared="openai_gpt-oss-20b">openai_gpt-oss-20b: not compared, no headline in a run \(2025-11-12-main: no headline: 10\.3 % undecided &gt; 10 %\)/.test(
        html,
      ),
    ).toBe(true);
    // the 120b's panel names both runs as its arms
    expect(html.includes("A: 2025-11-12-main")).toBe(true);
    expect(html.includes("B: 2025-11-12-harmony-fixes")).toBe(true);
    // Table 1 gives the no-headline model no N, as score's table does
    expect(html.includes('<span data-model="2025-11-12-main/openai_gpt-oss-20b" data-col="n">–</span>')).toBe(true);
    expect(html.includes('<span data-model="2025-11-12-main/openai_gpt-oss-120b" data-col="n">213</span>')).toBe(true);
    // where held-back items are lost counts held-back decisions: the model with no headline is not in it, as in score's official table
    const lost = html.slice(html.indexOf('<h2 id="lost">'), html.indexOf("<h2", html.indexOf('<h2 id="lost">') + 1));
    expect(lost.includes("2025-11-12-main/openai_gpt-oss-120b")).toBe(true);
    expect(lost.includes("2025-11-12-main/openai_gpt-oss-20b")).toBe(false);
    // a name that is no run lists the runs it could be
    const bad = await run(["report", "--results", runs, "--compare", "2025-11-12-main", "nope", "--out", join(tmp, "bad.html")]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(
      "error: --compare nope: no such run (runs: gpt-oss, 2025-11-12-harmony-fixes, 2025-11-12-main) [compare-run-missing]",
    );
  }, 300_000);
});
