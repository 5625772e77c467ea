/**
 * Runs whose lines are not decisions, built from a real run: inference-error lines in place
 * of real ones. No headline from a broken run; a few such lines are left out and counted.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadManifest } from "../../io/manifest.js";
import { rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-undecided-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const model = "openai_gpt-oss-120b";
const categories = ["base", "miss_func", "miss_param"] as const;
const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("manifest");
  return m.value;
})();

/** An inference-error line as BFCL writes one. */
const errorLine = (id: string, message: string) =>
  JSON.stringify({ id, result: `Error during inference: ${message}`, traceback: "Traceback (most recent call last):\n  ...\n" });

/** A copy of the real 2025-11-12-main gpt-oss-120b folder whose lines for which `replace(id)` is true are inference errors. */
function copyWithErrors(name: string, replace: (id: string, index: number) => boolean, message = "Connection error."): string {
  const dir = join(tmp, name, model);
  cpSync(join(rolloutRunDir("2025-11-12-main"), "result", model), dir, { recursive: true });
  let index = 0;
  for (const c of categories) {
    const file = join(dir, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const out = lines.map((l) => {
      const id = (JSON.parse(l) as { id: string }).id;
      return replace(id, index++) ? errorLine(id, message) : l;
    });
    writeFileSync(file, out.join("\n") + "\n");
  }
  return join(tmp, name);
}

async function score(dir: string, ...flags: string[]) {
  const io = memoryIo({}, tmp);
  const code = await runCli(["score", "--results", dir, "--bootstrap", "0", "--format", "json", ...flags], io);
  return { code, doc: JSON.parse(io.out.join("")), err: io.err.join("") };
}

describe("score on runs of inference errors (a real run's lines replaced)", () => {
  it("95 % of the lines are BFCL inference-error lines: no headline, one line naming the count, exit 1", async () => {
    const dir = copyWithErrors("mostly-errors", (_id, i) => i % 20 !== 0);
    const r = await score(dir);
    expect(r.code).toBe(1);
    const m = r.doc.models[0];
    expect(m.numbers).toBeNull();
    expect(m.ci95).toBeNull();
    expect(m.noHeadline).toMatch(/ of 223 pairs undecided \(\d+\.\d % > --max-undecided 10 %: \d+ with an inference-error side/);
    const lines = r.err.split("\n").filter((l) => l.startsWith("error: "));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^error: model ${model}: no act, hold or decision: (\\d+) of 223 pairs undecided`));
    expect(Number(/: (\d+) of 223/.exec(lines[0])![1])).toBe(m.undecided.total);
    // the release reading is the paper's: it reads them as no call, so it has its numbers
    const release = await score(dir, "--reading", "release");
    expect(release.doc.models[0].numbers.n).toBe(223);
  });

  it("every line an inference error: no pair decided, not scored, exit 1; the table row says so", async () => {
    const dir = copyWithErrors("all-errors", () => true, "Error code: 400 - {'error': {'message': 'reasoning_content'}}");
    const r = await score(dir);
    expect(r.code).toBe(1);
    expect(r.doc.models[0]).toMatchObject({ scored: false, numbers: null, undecided: { pairs: 223, total: 223 } });
    const io = memoryIo({}, tmp);
    await runCli(["score", "--results", dir, "--bootstrap", "0"], io);
    expect(io.out.join("")).toMatch(new RegExp(`${model} .*no headline: no pair decided; regenerate \\(run --retry-errors\\)`));
  });

  it("10 error lines on decided twins: their pairs are left out and counted, the rest scored, exit 0 (1 under --strict)", async () => {
    const clean = await score(join(rolloutRunDir("2025-11-12-main"), "result"), "--model", model);
    const before = clean.doc.models[0];
    // ten miss_param items whose pairs are decided today
    const decided = manifest.pairs.filter((p) => p.status === "scored" && p.category === "miss_param").map((p) => p.missId);
    const chosen = new Set(decided.slice(0, 10));
    const dir = copyWithErrors("ten-errors", (id) => chosen.has(id));
    const r = await score(dir);
    expect(r.code).toBe(0);
    const m = r.doc.models[0];
    expect(m.undecided.byStatus["inference-error"]).toBe(before.undecided.byStatus["inference-error"] + 10);
    expect(m.numbers.n).toBe(before.numbers.n - 10);
    expect((await score(dir, "--strict")).code).toBe(1);
  });

  it("a resumed run's kept connection-error lines are counted and named, and score exits 1", async () => {
    // `run` resumed after a dead endpoint keeps the connection-error lines it wrote (102 here)
    const dir = copyWithErrors("resumed", (_id, i) => i < 102);
    const r = await score(dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(
        `^error: model ${model}: no act, hold or decision: \\d+ of 223 pairs undecided \\([\\d.]+ % > --max-undecided 10 %: \\d+ with an inference-error side`,
        "m",
      ),
    );
    const verbose = memoryIo({}, tmp);
    await runCli(["score", "--results", dir, "--bootstrap", "0", "--verbose"], verbose);
    // each kept error line is named with its file and line
    expect(
      verbose.err.join("").match(/result is an inference error, no decision: "Error during inference: Connection error\."/g)?.length,
    ).toBeGreaterThan(0);
  });
});
