import { describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readOfficial } from "./official-scores.js";
import { readResultFile, type ResultCensus } from "./result-lines.js";
import { walkBfclTree } from "../io/tree.js";
import { rolloutRunDir } from "../testing/shared.js";

const main = rolloutRunDir("2025-11-12-main");
const walkScores = (dirs: string[], cwd: string) => walkBfclTree(dirs, cwd, "score");
const resultFile = (model: string, c: string) => join(main, "result", model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`);
const scoreFile = (model: string, c: string) => join(main, "score", model, "multi_turn", `BFCL_v4_multi_turn_${c}_score.json`);
const censusOf = (file: string, category: string) => readResultFile(file, category, { wanted: null, census: true });
const censuses = (model: string): Record<"base" | "miss_func" | "miss_param", ResultCensus> => ({
  base: censusOf(resultFile(model, "base"), "base").census!,
  miss_func: censusOf(resultFile(model, "miss_func"), "miss_func").census!,
  miss_param: censusOf(resultFile(model, "miss_param"), "miss_param").census!,
});

describe("finding score files", () => {
  it("under a run directory (DIR/score/<model>/multi_turn), a score root, and a model directory", () => {
    const viaRun = walkScores([main], "/");
    expect(viaRun.problems).toEqual([]);
    expect(viaRun.models.map((m) => m.model)).toEqual(["openai_gpt-oss-120b", "openai_gpt-oss-20b"]);
    expect(viaRun.models[0].files.miss_param?.map((f) => f.path)).toEqual([scoreFile("openai_gpt-oss-120b", "miss_param")]);
    expect(walkScores([join(main, "score")], "/").models).toHaveLength(2);
    const own = walkScores([join(main, "score", "openai_gpt-oss-20b")], "/");
    expect(own.models.map((m) => m.model)).toEqual(["openai_gpt-oss-20b"]);
  });
  it("a missing or empty directory is one located problem", () => {
    const empty = mkdtempSync(join(tmpdir(), "twinscore-scores-"));
    const found = walkScores([join(empty, "nope"), empty], "/");
    expect(found.problems.map((p) => [p.code, p.file])).toEqual([
      ["scores-missing", join(empty, "nope")],
      ["scores-empty", empty],
    ]);
  });
});

describe("reading a model's official verdicts against its result files (real gpt-oss-20b, main)", () => {
  it("the census reads every line's id and turn count (inference errors have none)", () => {
    const { census, problems } = censusOf(resultFile("openai_gpt-oss-20b", "miss_func"), "miss_func");
    expect(problems).toEqual([]);
    expect(census!.ids).toHaveLength(200);
    expect(census!.turnCount.get("multi_turn_miss_func_101")).toBeNull();
    expect(census!.turnCount.get("multi_turn_miss_func_0")).toBeNull(); // a vLLM 500 line
    expect(census!.turnCount.get("multi_turn_miss_func_3")).toBe(3);
  });
  it("cross-checked score files give a verdict per id; header counts agree", () => {
    const scores = walkScores([main], "/").models.find((m) => m.model === "openai_gpt-oss-20b");
    const o = readOfficial("openai_gpt-oss-20b", censuses("openai_gpt-oss-20b"), scores ?? null);
    expect(o.problems).toEqual([]);
    expect(o.categories).toEqual(["base", "miss_func", "miss_param"]);
    expect(o.verdicts.size).toBe(600);
    const header = JSON.parse(readFileSync(scoreFile("openai_gpt-oss-20b", "base"), "utf8").split("\n")[0]);
    expect([...o.verdicts].filter(([id, v]) => id.startsWith("multi_turn_base_") && v.pass).length).toBe(header.correct_count);
  });
  it("a score file from another run (different counts) is reported, not silently mixed in; a missing one is a warning", () => {
    const dir = mkdtempSync(join(tmpdir(), "twinscore-scores-"));
    const target = join(dir, "m", "multi_turn");
    mkdirSync(target, { recursive: true });
    copyFileSync(scoreFile("openai_gpt-oss-120b", "base"), join(target, "BFCL_v4_multi_turn_base_score.json"));
    const lines = readFileSync(scoreFile("openai_gpt-oss-20b", "miss_func"), "utf8").split("\n");
    lines[0] = JSON.stringify({ accuracy: 0.5, correct_count: 150, total_count: 250 });
    writeFileSync(join(target, "BFCL_v4_multi_turn_miss_func_score.json"), lines.join("\n"));
    const scores = walkScores([join(dir, "m")], "/").models[0];
    const o = readOfficial("m", censuses("openai_gpt-oss-20b"), scores);
    const codes = o.problems.map((p) => p.code);
    expect(codes).toContain("score-count-mismatch");
    expect(codes).toContain("score-file-missing");
    const mismatch = o.problems.find((p) => p.code === "score-count-mismatch")!;
    expect(mismatch).toMatchObject({ line: 1, file: join(target, "BFCL_v4_multi_turn_miss_func_score.json") });
    expect(mismatch.message).toContain("total_count 250 but the result file");
  });
});
