/**
 * `check`'s exit codes as its help gives them, on the real xLAM-2-8b v3 run: 1 when
 * verdicts disagree with the stored score files, with a line on stderr saying which in
 * every format; entries whose verdict agrees and whose error object alone differs are
 * counted and named on stderr, and are no finding (exit 0) unless --strict.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

const model = "Salesforce_Llama-xLAM-2-8b-fc-r";
const categories = ["base", "miss_func", "miss_param"] as const;
const xlam = (...parts: string[]) => sharedPath("rollouts", "xlam-v3", ...parts);
const scratch = mkdtempSync(join(tmpdir(), "twinscore-check-exit-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function check(results: string, scores: string, ...more: string[]) {
  const io = memoryIo();
  const code = await runCli(["check", "--results", results, "--bfcl-data", sharedPath("bfcl-v3"), "--scores", scores, ...more], io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** The stored score files' failing entries, by category: id → the error object's JSON. */
function storedFailures(): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const c of categories) {
    const lines = readFileSync(xlam("score", model, `BFCL_v3_multi_turn_${c}_score.json`), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
    const failed = new Map<string, string>();
    for (const l of lines.slice(1)) {
      const o = JSON.parse(l) as { id: string; error?: unknown };
      failed.set(o.id, JSON.stringify(o.error));
    }
    out.set(c, failed);
  }
  return out;
}

describe("check exit codes on the real xLAM v3 run", () => {
  it("verdicts disagree (entry 109 of each file): exit 1, and one line per file on stderr naming it, in json as in table", async () => {
    for (const format of ["table", "json"]) {
      const r = await check(xlam("result"), xlam("score"), "--decoder", "xlam", "--format", format);
      expect(r.code).toBe(1);
      const lines = r.err.split("\n").filter((l) => l.endsWith("[verdicts-disagree]"));
      expect(lines.map((l) => l.replace(/^.*BFCL_v3_multi_turn_(\w+)_result\.json: warning: /, "$1: "))).toEqual(
        categories.map(
          (c) =>
            `${c}: 1 of 200 verdicts differ from the stored score file (${xlam("score", model, `BFCL_v3_multi_turn_${c}_score.json`)}): multi_turn_${c}_109 [verdicts-disagree]`,
        ),
      );
    }
  });

  it("with entry 109 left out, only error objects differ: counted and named on stderr, exit 0; under --strict exit 1", async () => {
    const results = join(scratch, "result", model);
    cpSync(xlam("result", model), results, { recursive: true });
    for (const c of categories) {
      const file = join(results, `BFCL_v3_multi_turn_${c}_result.json`);
      const kept = readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "" && (JSON.parse(l) as { id: string }).id !== `multi_turn_${c}_109`);
      writeFileSync(file, kept.join("\n") + "\n");
    }
    const r = await check(join(scratch, "result"), xlam("score"), "--decoder", "xlam", "--format", "json");
    expect(r.err).not.toContain("[verdicts-disagree]");
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as {
      files: { category: string; agreement: { entries: number; verdictAgree: number; disagreeingIds: string[] } }[];
    };
    const stored = storedFailures();
    const lines = r.err.split("\n").filter((l) => l.endsWith("[error-details-differ]"));
    expect(lines).toHaveLength(3);
    for (const [i, f] of doc.files.entries()) {
      expect(f.agreement.verdictAgree).toBe(f.agreement.entries);
      // each one named is an entry both sides fail, with the stored error object
      expect(f.agreement.disagreeingIds.length).toBeGreaterThan(0);
      for (const id of f.agreement.disagreeingIds) expect(stored.get(f.category)!.has(id)).toBe(true);
      expect(lines[i]).toContain(
        `${f.agreement.disagreeingIds.length} of 199 entries have the stored verdict but differ in the error's type, message or object: ${f.agreement.disagreeingIds.slice(0, 5).join(", ")}`,
      );
    }
    const strict = await check(join(scratch, "result"), xlam("score"), "--decoder", "xlam", "--strict");
    expect(strict.code).toBe(1);
    expect(strict.err).toContain("[error-details-differ]");
  });

  it("its help says what each exit means, as the code does", async () => {
    const io = memoryIo();
    await runCli(["check", "--help"], io);
    const help = io.out.join("").replace(/\s+/g, " ");
    expect(help).toContain("entries whose error type, message or object alone differ are counted and named on stderr");
    expect(help).toContain("Every exit but 0 says why on stderr.");
  });
});

describe("check on a run folder with no --scores", () => {
  it("compares with the score/ beside result/, as with --scores, and says so in one note", async () => {
    const io = memoryIo();
    const code = await runCli(["check", "--results", xlam(), "--bfcl-data", sharedPath("bfcl-v3"), "--format", "json"], io);
    const given = await check(xlam("result"), xlam("score"), "--format", "json");
    expect(code).toBe(given.code);
    expect(code).toBe(1);
    const err = io.err.join("");
    expect(err).toContain(
      `note: BFCL's verdicts read from the score/ folder beside result/: ${xlam("score")} (--scores DIR reads another) [scores-beside]\n`,
    );
    expect(err.split("\n").filter((l) => l.endsWith("[verdicts-disagree]"))).toHaveLength(3);
    const doc = JSON.parse(io.out.join("")) as { files: { agreement: { verdictAgree: number } | null }[]; scoresBeside: string[] };
    expect(doc.files.map((f) => f.agreement?.verdictAgree)).toEqual([199, 199, 199]);
    expect(doc.scoresBeside).toEqual([xlam("score")]);
  }, 120_000);

  it("a --bfcl-data folder that does not exist is one line, exit 2", async () => {
    const io = memoryIo();
    const missing = join(scratch, "no-such-data");
    const code = await runCli(["check", "--results", xlam(), "--bfcl-data", missing], io);
    expect(code).toBe(2);
    expect(io.err.join("")).toBe(`${missing}: error: BFCL data directory not found [file-missing]\n`);
  });
});
