import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bfclDataDir, rolloutRunDir, sharedPath } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";

/** The real references of a category whose calls are all keyword-only (replayable as prompting text). */
async function keywordOnlyReferences(category: "base" | "long_context"): Promise<{ id: string; ground_truth: string[][] }[]> {
  const { readFileSync } = await import("node:fs");
  const { parseExpression } = await import("../../python/parse.js");
  const keywordOnly = (call: string) => {
    const p = parseExpression(call);
    return p.ok && p.expr.kind === "call" && p.expr.args.length === 0;
  };
  return readFileSync(join(bfclDataDir(), "possible_answer", `BFCL_v4_multi_turn_${category}.json`), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { id: string; ground_truth: string[][] })
    .filter((a) => a.ground_truth.every((t) => t.every(keywordOnly)));
}

describe("twinscore check (CLI)", () => {
  it("re-scores one model folder of the real 2025-11-12-main run and reports full agreement as JSON", async () => {
    const run = rolloutRunDir("2025-11-12-main");
    const io = memoryIo();
    const code = await runCli(
      [
        "check",
        "--results",
        join(run, "result", "openai_gpt-oss-20b"),
        "--bfcl-data",
        bfclDataDir(),
        "--scores",
        join(run, "score"),
        "--format",
        "json",
      ],
      io,
    );
    // the prompts BFCL's score files keep for its 8 inference errors on the changed holdout items name the older data, as score does;
    // gpt-oss is not in BFCL's registry: its decoder is detected from its steps, and said once
    expect(io.err.join("").split("\n")).toEqual([
      `${join(run, "result", "openai_gpt-oss-20b")}: warning: model openai_gpt-oss-20b: generated on BFCL v4 data from before 06ae1c76 '[BFCL] Fix holdout function index for a few missed_function test cases (#1254)' (2025-11-19): 8 items differ: multi_turn_miss_func 101, 102, 115, 120, 122, 124, 129, 130 [rollouts-older-data]`,
      expect.stringMatching(
        /^note: openai_gpt-oss-20b: decoder fc \(not in BFCL's model registry; 198 of 200 sampled record steps decode to calls with fc\) \[decoder-detected\]$/,
      ),
      "",
    ]);
    expect(code).toBe(0);
    const out = JSON.parse(io.out.join("")) as {
      files: {
        model: string;
        folder: string;
        category: string;
        entries: number;
        correct: number;
        agreement: { verdictAgree: number; messageAgree: number; disagreeingIds: string[] };
        decoder: { name: string; source: string };
      }[];
    };
    expect(out.files.map((f) => `${f.model} ${f.folder}`)).toEqual(Array(3).fill("openai_gpt-oss-20b openai_gpt-oss-20b"));
    expect(out.files.map((f) => [f.decoder.name, f.decoder.source])).toEqual(Array(3).fill(["fc", "detected"]));
    expect(out.files.map((f) => [f.category, f.entries, f.correct])).toEqual([
      ["base", 200, 95],
      ["miss_func", 200, 82],
      ["miss_param", 200, 83],
    ]);
    for (const f of out.files)
      expect([f.agreement.verdictAgree, f.agreement.messageAgree, f.agreement.disagreeingIds]).toEqual([200, 200, []]);
  });

  it("prints a table without --scores", async () => {
    const run = rolloutRunDir("2025-11-12-harmony-fixes");
    const io = memoryIo();
    const code = await runCli(["check", "--results", join(run, "result", "openai_gpt-oss-120b"), "--bfcl-data", bfclDataDir()], io);
    expect(code).toBe(0);
    const lines = io.out.join("").trim().split("\n");
    expect(lines[0].split(/\s+/)).toEqual(["model", "category", "entries", "correct", "accuracy"]);
    expect(lines).toHaveLength(5);
  });

  it("rejects --threads 0 with one line and exit code 2", async () => {
    const io = memoryIo();
    const code = await runCli(["check", "--results", rolloutRunDir("2025-11-12-main"), "--bfcl-data", bfclDataDir(), "--threads", "0"], io);
    expect(code).toBe(2);
    expect(io.err.join("")).toBe("error: --threads must be an integer >= 1, got 0 [bad-argument]\n");
  });

  it("rejects a missing results folder with one line and exit code 2", async () => {
    const io = memoryIo();
    const code = await runCli(["check", "--results", "/nonexistent/results", "--bfcl-data", bfclDataDir()], io);
    expect(code).toBe(2);
    expect(io.err.join("").trim().split("\n")).toEqual(["/nonexistent/results: error: results directory not found [results-missing]"]);
  });

  it("explains its columns in its help topic, which its --help names", async () => {
    const help = memoryIo();
    await runCli(["check", "--help"], help);
    expect(help.out.join("")).toMatch(/\nMore: twinscore help agreement, /);
    const io = memoryIo();
    await runCli(["help", "agreement"], io);
    expect(io.out.join("") + io.err.join("")).toContain("verdict_agree  = entries whose pass/fail equals the stored score file's");
  });
});

describe("twinscore check --decoder prompting", () => {
  it("passes every real base entry whose reference calls are keyword-only, replayed as prompting text", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const chosen = await keywordOnlyReferences("base");
    const dir = mkdtempSync(join(tmpdir(), "twinscore-prompting-"));
    try {
      mkdirSync(join(dir, "prompting-model", "multi_turn"), { recursive: true });
      const lines = chosen.map((a) =>
        JSON.stringify({
          id: a.id,
          result: a.ground_truth.map((t) => (t.length > 0 ? ["```\n[" + t.join(", ") + "]\n```", ""] : ["I need more information."])),
        }),
      );
      writeFileSync(join(dir, "prompting-model", "multi_turn", "BFCL_v4_multi_turn_base_result.json"), lines.join("\n") + "\n");
      const io = memoryIo();
      const code = await runCli(
        ["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--decoder", "prompting", "--format", "json"],
        io,
      );
      expect(code).toBe(0);
      const out = JSON.parse(io.out.join("")) as { files: { entries: number; correct: number }[] };
      expect(chosen.length).toBeGreaterThan(150);
      expect(out.files[0]).toMatchObject({ entries: chosen.length, correct: chosen.length });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("twinscore check on long_context files", () => {
  it("reads the filler from --bfcl-eval and passes the real long_context references replayed as prompting text; without it, one problem and exit 2", async () => {
    const { copyFileSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { LONG_CONTEXT_RELATIVE } = await import("../../io/long-context.js");
    const { projectRoot } = await import("../../testing/shared.js");
    const chosen = await keywordOnlyReferences("long_context");
    const dir = mkdtempSync(join(tmpdir(), "twinscore-long-context-"));
    try {
      // a bfcl_eval folder holding our synthetic long_context.py (BFCL's filler is never shipped)
      const module = join(dir, "bfcl_eval", LONG_CONTEXT_RELATIVE);
      mkdirSync(join(module, ".."), { recursive: true });
      copyFileSync(join(projectRoot, "src", "simulator", "classes", "testdata", "synthetic-long-context.py"), module);
      const results = join(dir, "results", "prompting-model", "multi_turn");
      mkdirSync(results, { recursive: true });
      const lines = chosen.map((a) =>
        JSON.stringify({
          id: a.id,
          result: a.ground_truth.map((t) => (t.length > 0 ? ["[" + t.join(", ") + "]", ""] : ["I need more information."])),
        }),
      );
      writeFileSync(join(results, "BFCL_v4_multi_turn_long_context_result.json"), lines.join("\n") + "\n");

      const io = memoryIo();
      const code = await runCli(
        [
          "check",
          "--results",
          join(dir, "results"),
          "--bfcl-data",
          bfclDataDir(),
          "--bfcl-eval",
          join(dir, "bfcl_eval"),
          "--decoder",
          "prompting",
          "--out",
          join(dir, "out"),
          "--format",
          "json",
        ],
        io,
      );
      expect(io.err.join("")).toBe(`note: wrote ${join(dir, "out")} (1 BFCL score file of 1 model) [written]\n`);
      expect(code).toBe(0);
      const out = JSON.parse(io.out.join("")) as { files: { category: string; entries: number; correct: number }[] };
      expect(chosen.length).toBeGreaterThan(150);
      expect(out.files).toHaveLength(1);
      expect(out.files[0]).toMatchObject({ category: "long_context", entries: chosen.length, correct: chosen.length });

      const missing = memoryIo();
      const code2 = await runCli(
        ["check", "--results", join(dir, "results"), "--bfcl-data", bfclDataDir(), "--bfcl-eval", join(dir, "nowhere")],
        { ...missing, env: {} },
      );
      expect(code2).toBe(2);
      expect(missing.err.join("")).toContain("[long-context-missing]");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("twinscore check on a prompting run without --decoder", () => {
  it("detects the prompting decoder and gives the same verdicts as --decoder prompting (a real gpt-oss run rendered as Python call text)", async () => {
    const { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { jsonLoadsOrThrow } = await import("../../python/json.js");
    const { PyDict } = await import("../../python/containers.js");
    const { decodeFcStep } = await import("../../bfcl/decode/index.js");
    const source = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
    const dir = mkdtempSync(join(tmpdir(), "twinscore-prompting-run-"));
    try {
      // each FC step becomes the text a prompting model writes for the same calls; an empty step, a reply
      const folder = join(dir, "my-prompting-model", "multi_turn");
      mkdirSync(folder, { recursive: true });
      for (const category of ["base", "miss_param"]) {
        const file = `BFCL_v4_multi_turn_${category}_result.json`;
        const lines = readFileSync(join(source, file), "utf8")
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => {
            const line = jsonLoadsOrThrow(l) as InstanceType<typeof PyDict>;
            const result = line.get("result");
            const text = Array.isArray(result)
              ? result.map((turn) =>
                  (turn as unknown[]).map((step) => {
                    const out = decodeFcStep(step as never);
                    if (!out.ok) return "[" + JSON.stringify(step);
                    return out.calls.length === 0 ? "Done. Anything else?" : `[${out.calls.join(", ")}]`;
                  }),
                )
              : result;
            return JSON.stringify({ id: line.get("id"), result: text });
          });
        writeFileSync(join(folder, file), lines.join("\n") + "\n");
      }
      const auto = memoryIo();
      expect(await runCli(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--format", "json"], auto)).toBe(0);
      expect(auto.err.join("")).toMatch(
        /^note: my-prompting-model: decoder prompting \(not in BFCL's model registry; \d+ of 200 sampled text steps decode to calls with prompting/,
      );
      const flagged = memoryIo();
      expect(
        await runCli(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--decoder", "prompting", "--format", "json"], flagged),
      ).toBe(0);
      expect(flagged.err.join("")).toBe("");
      type Out = { files: { category: string; entries: number; correct: number; decoder: { name: string; source: string } }[] };
      const a = JSON.parse(auto.out.join("")) as Out;
      const b = JSON.parse(flagged.out.join("")) as Out;
      expect(a.files.map((f) => [f.decoder.name, f.decoder.source])).toEqual([
        ["prompting", "detected"],
        ["prompting", "detected"],
      ]);
      expect(b.files.map((f) => [f.decoder.name, f.decoder.source])).toEqual([
        ["prompting", "flag"],
        ["prompting", "flag"],
      ]);
      expect(a.files.map(({ decoder: _, ...rest }) => rest)).toEqual(b.files.map(({ decoder: _, ...rest }) => rest));
      // the same calls as text pass about as often as the FC original (95 and 76 of 200 there)
      expect(a.files.map((f) => f.correct).every((n) => n > 50)).toBe(true);
      // and with the FC decoder the same files fail entirely, which the guard reports: one line per file, exit 1
      const wrong = memoryIo();
      expect(await runCli(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--decoder", "fc"], wrong)).toBe(1);
      expect(
        wrong.err
          .join("")
          .trim()
          .split("\n")
          .map((l) =>
            l.replace(
              /^.*(BFCL_v4\w+)\.json: warning: \d+ of \d+ tool-call steps \(100\.0 %\) fail to decode with decoder fc .*\[decode-failures\]$/,
              "$1",
            ),
          ),
      ).toEqual(["BFCL_v4_multi_turn_base_result", "BFCL_v4_multi_turn_miss_param_result"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("twinscore check on BFCL v3 (CLI, the real xLAM run with BFCL's xLAM decoder)", () => {
  const xlam = (...parts: string[]) => sharedPath("rollouts", "xlam-v3", ...parts);
  const model = "Salesforce_Llama-xLAM-2-8b-fc-r";

  it("checks the three BFCL_v3_ files as v3 final did: 597 of 600 verdicts agree; the three that do not (entry 109) and the error objects that do not hold tweets posted with the shared `mentions` default BFCL's process had already filled; exit 1", async () => {
    const io = memoryIo();
    const code = await runCli(
      [
        "check",
        "--results",
        xlam("result"),
        "--bfcl-data",
        sharedPath("bfcl-v3"),
        "--scores",
        xlam("score"),
        "--decoder",
        "xlam",
        "--format",
        "json",
      ],
      io,
    );
    expect(code).toBe(1);
    const out = JSON.parse(io.out.join("")) as {
      files: {
        version: string;
        category: string;
        entries: number;
        correct: number;
        storedScoreFile: string;
        agreement: {
          verdictAgree: number;
          errorTypeAgree: number;
          messageAgree: number;
          errorObjectAgree: number;
          bothFailed: number;
          disagreeingIds: string[];
        };
      }[];
    };
    expect(out.files.map((f) => [f.version, f.category, f.entries, f.correct])).toEqual([
      ["v3", "base", 200, 154],
      ["v3", "miss_func", 200, 110],
      ["v3", "miss_param", 200, 130],
    ]);
    expect(out.files.map((f) => f.storedScoreFile)).toEqual(
      ["base", "miss_func", "miss_param"].map((c) => xlam("score", model, `BFCL_v3_multi_turn_${c}_score.json`)),
    );
    for (const f of out.files) {
      expect([f.agreement.verdictAgree, f.agreement.errorTypeAgree, f.agreement.messageAgree]).toEqual([199, 199, 199]);
      expect(f.agreement.disagreeingIds).toContain(`multi_turn_${f.category}_109`);
      // every other disagreement is an error object alone
      expect(f.agreement.disagreeingIds.length - 1).toBe(f.agreement.bothFailed - f.agreement.errorObjectAgree);
    }
    expect(out.files.map((f) => f.agreement.disagreeingIds.length)).toEqual([4, 8, 3]);
  });

  it("with --bfcl-version v4: the rollouts are checked against the v4 data, which they were not generated on: one line, exit 2", async () => {
    const io = memoryIo();
    const code = await runCli(
      ["check", "--results", xlam("result"), "--bfcl-data", sharedPath("bfcl-v3"), "--decoder", "xlam", "--bfcl-version", "v4"],
      io,
    );
    expect(code).toBe(2);
    expect(io.err.join("")).toBe(
      `${xlam("result", model)}: error: model ${model}: 214 of 600 rollouts were not generated on BFCL v4 data (first: multi_turn_base_6, turn 4); rollouts look like BFCL v3 data; check them with the BFCL data they were generated on [rollouts-other-data]\n`,
    );
  });

  it("the v3 run on the v4 data folder: one line saying these are v3 results and to give the v3 data, exit 2, nothing on stdout", async () => {
    const io = memoryIo();
    const code = await runCli(["check", "--results", xlam("result"), "--bfcl-data", sharedPath("bfcl-v4")], io);
    expect(code).toBe(2);
    expect(io.out.join("")).toBe("");
    expect(io.err.join("")).toBe(
      `${sharedPath("bfcl-v4")}: error: these are BFCL v3 results (${model}), and this BFCL data (--bfcl-data) is v4: give the v3 data with --bfcl-data DIR (the folder holding BFCL_v3_multi_turn_base.json) [bfcl-version-differs]\n`,
    );
  });

  it("a v4 run on the v3 data folder, named by BFCL_DATA_DIR: the same one line, the other way round", async () => {
    const io = memoryIo({ BFCL_DATA_DIR: sharedPath("bfcl-v3") });
    const code = await runCli(["check", "--results", join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-20b")], io);
    expect(code).toBe(2);
    expect(io.err.join("")).toBe(
      `${sharedPath("bfcl-v3")}: error: these are BFCL v4 results (openai_gpt-oss-20b), and this BFCL data (BFCL_DATA_DIR) is v3: give the v4 data with --bfcl-data DIR (the folder holding BFCL_v4_multi_turn_base.json) [bfcl-version-differs]\n`,
    );
  });

  it("--out says in one line what it wrote", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const out = join(mkdtempSync(join(tmpdir(), "twinscore-check-out-")), "rescored");
    try {
      const io = memoryIo();
      const code = await runCli(["check", "--results", xlam("result"), "--bfcl-data", sharedPath("bfcl-v3"), "--out", out], io);
      expect(code).toBe(0);
      expect(io.err.join("")).toBe(`note: wrote ${out} (3 BFCL score files of 1 model) [written]\n`);
    } finally {
      rmSync(join(out, ".."), { recursive: true, force: true });
    }
  });
});

describe("twinscore check on a run folder that also holds a long_context result file, without --bfcl-eval", () => {
  it("checks base, miss_func and miss_param as without it, and says in one warning that long_context was skipped; exit 0", async () => {
    const { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const source = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-20b", "multi_turn");
    const dir = mkdtempSync(join(tmpdir(), "twinscore-check-long-context-"));
    try {
      // the real model folder's three files, and a long_context file beside them (the base lines under long_context ids)
      const folder = join(dir, "result", "openai_gpt-oss-20b", "multi_turn");
      mkdirSync(folder, { recursive: true });
      for (const c of ["base", "miss_func", "miss_param"])
        symlinkSync(join(source, `BFCL_v4_multi_turn_${c}_result.json`), join(folder, `BFCL_v4_multi_turn_${c}_result.json`));
      const longContext = join(folder, "BFCL_v4_multi_turn_long_context_result.json");
      writeFileSync(
        longContext,
        readFileSync(join(source, "BFCL_v4_multi_turn_base_result.json"), "utf8").replaceAll(
          '"multi_turn_base_',
          '"multi_turn_long_context_',
        ),
      );
      const io = memoryIo({ TWINSCORE_PYTHON: join(dir, "no-python") });
      const code = await runCli(["check", "--results", dir, "--bfcl-data", bfclDataDir(), "--format", "json"], io);
      expect(code).toBe(0);
      const lines = io.err.join("").trim().split("\n");
      expect(lines.filter((l) => !l.includes("[decoder-detected]"))).toEqual([
        `${longContext}: warning: 1 long_context result file not checked (long_context is optional; checking it needs BFCL's long_context.py: pass --bfcl-eval DIR (the bfcl_eval folder) or set BFCL_EVAL_DIR); the other categories are checked [long-context-skipped]`,
      ]);
      const out = JSON.parse(io.out.join("")) as { files: { category: string; entries: number; correct: number }[] };
      expect(out.files.map((f) => [f.category, f.entries, f.correct])).toEqual([
        ["base", 200, 95],
        ["miss_func", 200, 82],
        ["miss_param", 200, 83],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
