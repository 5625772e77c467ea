/**
 * Runs not laid out or written as `bfcl generate` writes them, made from the real runs:
 * lines whose turns are strings rather than lists of steps get one line saying what shape
 * was found and what BFCL writes; a model folder kept as `result/<org>/<model>` keeps its
 * name, its registry decoder and its folders in `check --out`.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bfclDataDir, rolloutRunDir, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const categories = ["base", "miss_func", "miss_param"] as const;
const SOURCE = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
const scratch = mkdtempSync(join(tmpdir(), "twinscore-line-shapes-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(argv: string[]) {
  const io = memoryIo({}, scratch);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** The real lines with each turn written as one string (the JSON text of its steps); how many lines were rewritten, per category. */
function stringTurns(): Record<string, number> {
  const dir = join(scratch, "strings", "my-model", "multi_turn");
  mkdirSync(dir, { recursive: true });
  const rewritten: Record<string, number> = {};
  for (const c of categories) {
    const name = `BFCL_v4_multi_turn_${c}_result.json`;
    let n = 0;
    const lines = readFileSync(join(SOURCE, name), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => {
        const o = JSON.parse(l) as { result: unknown };
        if (Array.isArray(o.result)) {
          o.result = o.result.map((turn) => JSON.stringify(turn));
          n++;
        }
        return JSON.stringify(o);
      });
    writeFileSync(join(dir, name), lines.join("\n") + "\n");
    rewritten[c] = n;
  }
  return rewritten;
}

describe("lines whose turns are strings, not lists of steps", () => {
  const rewritten = stringTurns();

  it("score: one line saying what was found and what BFCL writes; the fix no longer says to regenerate failed items", async () => {
    const r = await run(["score", "--results", join("strings", "my-model"), "--bootstrap", "0"]);
    expect(r.code).toBe(2);
    const shape = r.err.split("\n").filter((l) => l.endsWith("[not-bfcl-lines]"));
    // every line of the three files the pairs read is one of them (the inference-error lines are BFCL's own shape)
    expect(shape).toHaveLength(1);
    expect(shape[0]).toMatch(
      /BFCL_v4_multi_turn_base_result\.json:\d+: warning: model my-model: (\d+) lines? are not as bfcl generate writes them \(\1 where a turn of `result` is a string\); bfcl generate writes `result` as a list of turns, each turn a list of steps/,
    );
    expect(r.err).not.toContain("regenerate the failed items");
    expect(r.err).not.toContain("another decoder");
    expect(r.err).toContain("write the lines as bfcl generate does");
  });

  it("report: the same [not-bfcl-lines] line as score, and on a model left without a headline the same fix, not regenerating failed items", async () => {
    // every other base line rewritten: half the pairs lose their base twin, too many for a headline
    const dir = join(scratch, "half", "my-model", "multi_turn");
    mkdirSync(dir, { recursive: true });
    for (const c of categories) {
      const name = `BFCL_v4_multi_turn_${c}_result.json`;
      const lines = readFileSync(join(SOURCE, name), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "");
      const out = lines.map((l, i) => {
        const o = JSON.parse(l) as { result: unknown };
        if (c === "base" && i % 2 === 0 && Array.isArray(o.result)) o.result = o.result.map((turn) => JSON.stringify(turn));
        return JSON.stringify(o);
      });
      writeFileSync(join(dir, name), out.join("\n") + "\n");
    }
    const r = await run(["report", "--results", join("half", "my-model"), "--bootstrap", "0", "--out", "half-report.html"]);
    expect(r.code).toBe(1);
    const shape = r.err.split("\n").filter((l) => l.endsWith("[not-bfcl-lines]"));
    expect(shape).toHaveLength(1);
    expect(shape[0]).toMatch(
      /BFCL_v4_multi_turn_base_result\.json:\d+: warning: model my-model: (\d+) lines? are not as bfcl generate writes them \(\1 where a turn of `result` is a string\)/,
    );
    expect(r.err).not.toContain("regenerate the failed items");
    expect(r.err).toMatch(
      /error: model my-model: no act, hold or decision: .*; write the lines as bfcl generate does \(the not-bfcl-lines warning says what was found\) \[no-headline\]/,
    );
  });

  it("check: one line per file with the count of such lines, and no advice to change decoder", async () => {
    const r = await run(["check", "--results", join("strings", "my-model"), "--bfcl-data", bfclDataDir()]);
    expect(r.err).not.toContain("another decoder");
    const shape = r.err.split("\n").filter((l) => l.endsWith("[not-bfcl-lines]"));
    expect(
      shape.map((l) =>
        l.replace(
          /^.*BFCL_v4_multi_turn_(\w+)_result\.json:\d+: warning: my-model: (\d+) lines? are not as bfcl generate writes them \(\2 where a turn of `result` is a string\).*$/,
          "$1 $2",
        ),
      ),
    ).toEqual(categories.map((c) => `${c} ${rewritten[c]}`));
  });
});

describe("a model folder kept as result/<org>/<model>", () => {
  it("check --out writes <org>/<model>/multi_turn/…: BFCL's own score files (the base one byte for byte, each header line)", async () => {
    const results = join(scratch, "org-run", "result", "openai", "gpt-oss-120b");
    mkdirSync(results, { recursive: true });
    cpSync(SOURCE, join(results, "multi_turn"), { recursive: true });
    const r = await run(["check", "--results", join("org-run", "result"), "--bfcl-data", bfclDataDir(), "--out", "rescored"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("openai/gpt-oss-120b  base");
    const written = join(scratch, "rescored", "openai", "gpt-oss-120b", "multi_turn");
    expect(readdirSync(join(scratch, "rescored"))).toEqual(["openai"]);
    for (const c of categories) {
      const name = `BFCL_v4_multi_turn_${c}_score.json`;
      expect(existsSync(join(written, name))).toBe(true);
      const ours = readFileSync(join(written, name), "utf8");
      const bfcl = readFileSync(join(rolloutRunDir("2025-11-12-main"), "score", "openai_gpt-oss-120b", "multi_turn", name), "utf8");
      expect(ours.split("\n")[0]).toBe(bfcl.split("\n")[0]);
      // the executor's one known state difference (a shared mutable default) touches error objects of the miss files only
      if (c === "base") expect(ours).toBe(bfcl);
    }
  });

  it("score reads Salesforce/Llama-xLAM-2-8b-fc-r with its registry decoder, and the same numbers as BFCL's flat folder", async () => {
    const flat = sharedPath("rollouts", "xlam-v3", "result", "Salesforce_Llama-xLAM-2-8b-fc-r");
    const nested = join(scratch, "xlam", "result", "Salesforce", "Llama-xLAM-2-8b-fc-r");
    mkdirSync(nested, { recursive: true });
    cpSync(flat, nested, { recursive: true });
    const a = JSON.parse((await run(["score", "--results", join("xlam", "result"), "--bootstrap", "0", "--format", "json"])).out);
    const b = JSON.parse((await run(["score", "--results", flat, "--bootstrap", "0", "--format", "json"])).out);
    expect(a.models[0].model).toBe("Salesforce/Llama-xLAM-2-8b-fc-r");
    expect(a.models[0].decoder).toEqual({ ...b.models[0].decoder, source: "registry" });
    expect(a.models[0].numbers).toEqual(b.models[0].numbers);
  });
});

describe("two lines run together on one line (json.loads: Extra data), in a copy of the real 2025-11-12-main run", () => {
  const run2 = join(scratch, "joined");
  cpSync(rolloutRunDir("2025-11-12-main"), run2, { recursive: true });
  const file = join(run2, "result", "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_result.json");
  const lines = readFileSync(file, "utf8").split("\n");
  const firstLength = Buffer.byteLength(lines[1]);
  writeFileSync(file, [lines[0], lines[1] + lines[2], ...lines.slice(3)].join("\n"));

  it("score: the line is malformed where json.loads says so, its two items are missing, never the first read alone", async () => {
    const r = await run(["score", "--results", run2, "--model", "openai_gpt-oss-120b", "--bootstrap", "0", "--verbose"]);
    expect(r.err).toContain(
      `${file}:2: warning: malformed JSON at byte ${firstLength + 1}: data after the object's closing '}' (Extra data) [json-malformed]`,
    );
    expect(r.err).toContain("multi_turn_base_1 has no line in this file");
    expect(r.err).toContain("multi_turn_base_2 has no line in this file");
  }, 120_000);

  it("check: the file is not read as BFCL could not read it, one error at file:line, exit 2", async () => {
    const r = await run(["check", "--results", run2, "--bfcl-data", bfclDataDir(), "--model", "openai_gpt-oss-120b"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${file}:2: error: malformed JSON at byte ${firstLength + 1}: data after the object's closing '}'`);
  }, 120_000);
});
