import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bfclDataDir, rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

/** Calls that change the file system: dropping one from a passing entry makes it fail. */
const WRITES = new Set(["mkdir", "touch", "mv", "cp", "rm", "rmdir", "echo"]);
const MODEL = "openai_gpt-oss-20b";
const RESULT = join(MODEL, "multi_turn", "BFCL_v4_multi_turn_base_result.json");
const SCORE = join(MODEL, "multi_turn", "BFCL_v4_multi_turn_base_score.json");
const DEPTH = 10_000;

interface Chosen {
  id: string;
  line: number;
  turn: number;
  step: number;
}

/** The first entry BFCL passed whose step is a single file-system write, with its `{name: "<json args>"}` step. */
function chooseEntry(run: string): Chosen {
  const scoreLines = readFileSync(join(run, "score", SCORE), "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const failed = new Set(scoreLines.slice(1).map((l) => (JSON.parse(l) as { id: string }).id));
  const lines = readFileSync(join(run, "result", RESULT), "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === "") continue;
    const entry = JSON.parse(lines[i]) as { id: string; result: unknown[][] };
    if (failed.has(entry.id)) continue;
    for (let turn = 0; turn < entry.result.length; turn++) {
      const steps = entry.result[turn];
      for (let step = 0; step < steps.length; step++) {
        const s = steps[step];
        if (!Array.isArray(s) || s.length !== 1) continue;
        const [name, args] = Object.entries(s[0] as Record<string, unknown>)[0] ?? [];
        if (name !== undefined && WRITES.has(name) && typeof args === "string") return { id: entry.id, line: i + 1, turn, step };
      }
    }
  }
  throw new Error("no passing entry with a file-system write in the real run");
}

/** Copy the run and rewrite the chosen entry's line with `edit` (applied to its parsed `result`). */
function mutatedCopy(run: string, dir: string, chosen: Chosen, edit: (result: unknown[][]) => void): string {
  cpSync(run, dir, { recursive: true });
  const path = join(dir, "result", RESULT);
  const lines = readFileSync(path, "utf8").split("\n");
  const entry = JSON.parse(lines[chosen.line - 1]) as { result: unknown[][] };
  edit(entry.result);
  lines[chosen.line - 1] = JSON.stringify(entry);
  writeFileSync(path, lines.join("\n"));
  return dir;
}

/** Every file below `dir`, relative path → text. */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) out.set(relative(dir, join(f.parentPath, f.name)), readFileSync(join(f.parentPath, f.name), "utf8"));
  }
  return out;
}

async function check(runDir: string, out: string): Promise<{ code: number; err: string[] }> {
  const io = memoryIo();
  // --verbose: each warning with its file:line (by default a model's warnings are one summary line)
  const code = await runCli(
    ["check", "--results", join(runDir, "result"), "--bfcl-data", bfclDataDir(), "--out", out, "--format", "json", "--verbose"],
    io,
  );
  // the folders are not in BFCL's model registry: the lines naming their detected decoder are left aside here, and the one saying what --out wrote
  return {
    code,
    err: io.err
      .join("")
      .split("\n")
      .filter((l) => l !== "" && !DETECTED.test(l) && l !== `note: wrote ${out} (6 BFCL score files of 2 models) [written]`),
  };
}

/** The line a model folder BFCL's registry does not know gets: the decoder detected from its steps. */
const DETECTED = /^note: openai_gpt-oss-\d+b: decoder fc \(not in BFCL's model registry; .*\[decoder-detected\]$/;

/** `path: before → after` for every leaf where two JSON documents differ. */
function differingLeaves(a: unknown, b: unknown, path = ""): string[] {
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => differingLeaves((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return a === b ? [] : [`${path}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`];
}

/** The failed-entry lines of a score file by id, with the raw result left out (the one field the mutation changes). */
function failedLines(text: string): { header: string; byId: Map<string, string> } {
  const lines = text.split("\n").filter((l) => l !== "");
  const byId = new Map<string, string>();
  for (const l of lines.slice(1)) {
    const o = JSON.parse(l) as Record<string, unknown>;
    delete o.model_result_raw;
    byId.set(o.id as string, JSON.stringify(o));
  }
  return { header: lines[0], byId };
}

describe("check and score on a real run with one argument nested 10,000 deep", () => {
  let base: string;
  let run: string;
  let chosen: Chosen;
  let clean: Map<string, string>;
  let deep: Map<string, string>;
  let dropped: Map<string, string>;
  let deepRun: { code: number; err: string[] };
  let cleanRun: { code: number; err: string[] };
  let deepDir: string;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), "twinscore-deep-"));
    run = rolloutRunDir("2025-11-12-main");
    chosen = chooseEntry(run);
    const cleanDir = mutatedCopy(run, join(base, "clean"), chosen, () => {});
    // the step's last argument becomes 10,000 nested lists around its value: BFCL's json.loads raises RecursionError
    deepDir = mutatedCopy(run, join(base, "deep"), chosen, (result) => {
      const step = result[chosen.turn][chosen.step] as Record<string, string>[];
      const [name, raw] = Object.entries(step[0])[0];
      const args = JSON.parse(raw) as Record<string, unknown>;
      const last = Object.keys(args).at(-1) as string;
      const value = JSON.stringify(args[last]);
      step[0][name] = raw.slice(0, raw.lastIndexOf(value)) + "[".repeat(DEPTH) + value + "]".repeat(DEPTH) + "}";
    });
    // what BFCL does with that step: it drops it
    const droppedDir = mutatedCopy(run, join(base, "dropped"), chosen, (result) => {
      result[chosen.turn].splice(chosen.step, 1);
    });
    cleanRun = await check(cleanDir, join(base, "out-clean"));
    deepRun = await check(deepDir, join(base, "out-deep"));
    await check(droppedDir, join(base, "out-dropped"));
    clean = tree(join(base, "out-clean"));
    deep = tree(join(base, "out-deep"));
    dropped = tree(join(base, "out-dropped"));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("prints one file:line problem for that entry and exits as the clean run does", () => {
    expect(cleanRun.err).toEqual([]);
    expect(deepRun.code).toBe(cleanRun.code);
    expect(deepRun.err).toEqual([
      `${join(deepDir, "result", RESULT)}:${chosen.line}: warning: ${chosen.id}: a step nests too deeply to decode (RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string); it is dropped, as BFCL drops it [step-too-deep]`,
    ]);
  });

  it("writes every score file; all but the mutated one are unchanged", () => {
    expect([...deep.keys()].sort()).toEqual([...clean.keys()].sort());
    expect(clean.size).toBe(6);
    for (const [path, text] of clean) if (path !== SCORE) expect(deep.get(path), path).toBe(text);
  });

  it("fails that entry as BFCL does (the step dropped) and leaves every other verdict as it was", () => {
    const before = failedLines(clean.get(SCORE) as string);
    const after = failedLines(deep.get(SCORE) as string);
    const asBfcl = failedLines(dropped.get(SCORE) as string);
    expect(before.byId.has(chosen.id)).toBe(false);
    expect(after.byId.has(chosen.id)).toBe(true);
    expect(after.byId.get(chosen.id)).toBe(asBfcl.byId.get(chosen.id));
    expect(after.header).toBe(asBfcl.header);
    const { correct_count: was } = JSON.parse(before.header) as { correct_count: number };
    expect(JSON.parse(after.header)).toMatchObject({ correct_count: was - 1 });
    const others = [...after.byId.keys()].filter((id) => id !== chosen.id);
    expect(others).toEqual([...before.byId.keys()]);
    for (const id of others) expect(after.byId.get(id), id).toBe(before.byId.get(id));
  });

  it("score reads the same copy without a crash: the write still counts as an attempt by name, its arguments as undecoded", async () => {
    const scoreOf = async (dir: string) => {
      const io = memoryIo();
      const code = await runCli(
        ["score", "--results", join(dir, "result"), "--scores", join(dir, "score"), "--bootstrap", "0", "--format", "json"],
        io,
      );
      return { code, out: io.out.join("").replaceAll(dir, "<run>"), err: io.err.join("") };
    };
    const cleanScore = await scoreOf(join(base, "clean"));
    const deepScore = await scoreOf(deepDir);
    expect(deepScore.err).not.toContain("internal error");
    expect(deepScore.code).toBe(cleanScore.code);
    // every number the same (act, hold, decision …); only the model's decode-failure counts gain the one step
    const changes = differingLeaves(JSON.parse(cleanScore.out), JSON.parse(deepScore.out));
    expect(changes.length).toBeGreaterThan(0);
    // (the decoder detection's sample count may move with the step too: it is a reason text, not a number)
    for (const c of changes.filter((c) => !/\.decoder\.reason: /.test(c))) expect(c).toMatch(/\.decodeFailures: 0 → 1$/);
  });
});

describe("check on a real model folder whose line itself nests past json.loads' limit", () => {
  it("reports that line as BFCL's load_file fails it, and checks the model's other files", async () => {
    const base = mkdtempSync(join(tmpdir(), "twinscore-deep-line-"));
    try {
      const run = rolloutRunDir("2025-11-12-main");
      const chosen = chooseEntry(run);
      const results = join(base, "result");
      cpSync(join(run, "result", MODEL), join(results, MODEL), { recursive: true });
      const path = join(results, RESULT);
      const lines = readFileSync(path, "utf8").split("\n");
      const entry = JSON.parse(lines[chosen.line - 1]) as { result: unknown[][] };
      // arguments as an object (no longer a string) holding 2,000 nested lists: the line's json.loads gives up
      const step = entry.result[chosen.turn][chosen.step] as Record<string, unknown>[];
      const name = Object.keys(step[0])[0];
      step[0][name] = { deep: JSON.parse("[".repeat(2000) + "]".repeat(2000)) as unknown };
      lines[chosen.line - 1] = JSON.stringify(entry);
      writeFileSync(path, lines.join("\n"));
      const io = memoryIo();
      const code = await runCli(["check", "--results", results, "--bfcl-data", bfclDataDir(), "--format", "json"], io);
      expect(
        io.err
          .join("")
          .trim()
          .split("\n")
          .filter((l) => !DETECTED.test(l)),
      ).toEqual([
        `${path}:${chosen.line}: error: line is not JSON: RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string [json-malformed]`,
      ]);
      expect(code).toBe(2);
      const out = JSON.parse(io.out.join("")) as { files: { category: string; entries: number }[] };
      expect(out.files.map((f) => [f.category, f.entries])).toEqual([
        ["miss_func", 200],
        ["miss_param", 200],
      ]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe("check on a real run where one entry's calls nest a folder 1,000 deep", () => {
  it("reports that entry in one file:line warning and writes every score file, the others unchanged", async () => {
    const base = mkdtempSync(join(tmpdir(), "twinscore-deep-folder-"));
    try {
      const run = rolloutRunDir("2025-11-12-main");
      const chosen = chooseEntry(run);
      const cleanDir = mutatedCopy(run, join(base, "clean"), chosen, () => {});
      // 1,000 × (mkdir d, cd d) before the entry's write: the model's file system is 1,000 folders deep,
      // too deep for Python's repr of the state that the failed entry's error object holds
      const deepDir = mutatedCopy(run, join(base, "deep"), chosen, (result) => {
        const calls = Array.from({ length: 1000 }, () => [
          [{ mkdir: JSON.stringify({ dir_name: "d" }) }],
          [{ cd: JSON.stringify({ folder: "d" }) }],
        ]).flat();
        result[chosen.turn].splice(chosen.step, 0, ...calls);
      });
      const cleanRun = await check(cleanDir, join(base, "out-clean"));
      const deepRun = await check(deepDir, join(base, "out-deep"));
      expect(deepRun.code).toBe(cleanRun.code);
      expect(deepRun.err).toEqual([
        `${join(deepDir, "result", RESULT)}:${chosen.line}: warning: ${chosen.id}: its error object nests too deeply for Python to print (RecursionError: maximum recursion depth exceeded while getting the repr of an object); BFCL's evaluator stops on it and writes no score file; the entry is failed and that value written as the error's text [error-too-deep]`,
      ]);
      const clean = tree(join(base, "out-clean"));
      const deep = tree(join(base, "out-deep"));
      expect([...deep.keys()].sort()).toEqual([...clean.keys()].sort());
      expect(clean.size).toBe(6);
      for (const [path, text] of clean) if (path !== SCORE) expect(deep.get(path), path).toBe(text);
      const before = failedLines(clean.get(SCORE) as string);
      const after = failedLines(deep.get(SCORE) as string);
      expect(before.byId.has(chosen.id)).toBe(false);
      const line = JSON.parse(after.byId.get(chosen.id) as string) as {
        error: { error_type: string; details: { differences: Record<string, { model: string }> } };
      };
      expect(line.error.error_type).toBe("multi_turn:instance_state_mismatch");
      expect(Object.values(line.error.details.differences).map((d) => d.model)).toContain(
        "RecursionError: maximum recursion depth exceeded while getting the repr of an object",
      );
      for (const id of before.byId.keys()) expect(after.byId.get(id), id).toBe(before.byId.get(id));
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }, 120_000);
});
