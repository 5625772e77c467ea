import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultScoreOptions } from "../decision/types.js";
import { rolloutRunDir } from "../testing/shared.js";
import { committedManifestPath, loadManifest } from "../io/manifest.js";
import { forEachLine } from "../io/results-read.js";
import { readResultFile } from "./result-lines.js";
import { walkBfclTree } from "../io/tree.js";
import { table1Numbers } from "../testing/numbers.js";
import { readForTest } from "../testing/read-models.js";

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("committed manifest does not load");
  return m.value;
})();
const categories = ["base", "miss_func", "miss_param"] as const;
const realFile = (model: string, category: string, run: "2025-11-12-main" | "2025-11-12-harmony-fixes" = "2025-11-12-main") =>
  join(rolloutRunDir(run), "result", model, "multi_turn", `BFCL_v4_multi_turn_${category}_result.json`);
const realLines = (model: string, category: string) =>
  readFileSync(realFile(model, category), "utf8")
    .split("\n")
    .filter((l) => l !== "");

function tmp(): string {
  return mkdtempSync(join(tmpdir(), "twinscore-results-test-"));
}

function put(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe("the walk over result trees: the layouts BFCL writes", () => {
  it("finds DIR/<model>/multi_turn (v4), DIR/result/<model>/multi_turn, flat v3, and DIR as a model directory", () => {
    const root = tmp();
    for (const c of categories) {
      put(join(root, "a", "v4", "modelA", "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), "");
      put(join(root, "b", "result", "modelB", "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), "");
      put(join(root, "c", "modelC", `BFCL_v3_multi_turn_${c}_result.json`), "");
      put(join(root, "d", "modelD", "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), "");
    }
    put(join(root, "a", "v4", "modelA", "multi_turn", "BFCL_v4_multi_turn_long_context_result.json"), "");
    put(join(root, "a", "v4", "modelA", "non_live", "BFCL_v4_simple_python_result.json"), "");
    const found = walkBfclTree([join(root, "a", "v4"), join(root, "b"), join(root, "c"), join(root, "d", "modelD")], "/", "result");
    expect(found.problems).toEqual([]);
    expect(found.models.map((m) => m.model)).toEqual(["modelA", "modelB", "modelC", "modelD"]);
    // four runs: each model is named after its run
    expect(found.models.map((m) => m.name)).toEqual(["v4/modelA", "b/modelB", "c/modelC", "d/modelD"]);
    expect(found.models[0].files.miss_func?.map((f) => f.path)).toEqual([
      join(root, "a", "v4", "modelA", "multi_turn", "BFCL_v4_multi_turn_miss_func_result.json"),
    ]);
    expect(found.models[2].files.base?.map((f) => f.path)).toEqual([join(root, "c", "modelC", "BFCL_v3_multi_turn_base_result.json")]);
  });

  it("finds the real runs' layout (DIR/result/openai_gpt-oss-120b/multi_turn) and names the models of two runs <run>/<model>", () => {
    const found = walkBfclTree([rolloutRunDir("2025-11-12-main"), rolloutRunDir("2025-11-12-harmony-fixes")], "/", "result");
    expect(found.models.map((m) => m.name)).toEqual([
      "2025-11-12-main/openai_gpt-oss-120b",
      "2025-11-12-main/openai_gpt-oss-20b",
      "2025-11-12-harmony-fixes/openai_gpt-oss-120b",
      "2025-11-12-harmony-fixes/openai_gpt-oss-20b",
    ]);
    expect(found.models[0].files.base?.map((f) => f.path)).toEqual([realFile("openai_gpt-oss-120b", "base")]);
  });

  it("scores the real 120b files in the flat v3 layout and as a bare model directory to the same numbers", async () => {
    const root = tmp();
    const model = "openai_gpt-oss-120b";
    for (const c of categories) {
      copyFileSync(realFile(model, c), put(join(root, "v3", model, `BFCL_v3_multi_turn_${c}_result.json`), ""));
      copyFileSync(realFile(model, c), put(join(root, "bare", "gpt-oss-120b", "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), ""));
    }
    // v4 rollouts under v3 file names: the v4 manifest forced, as --manifest does
    const outcome = await readForTest([join(root, "v3"), join(root, "bare", "gpt-oss-120b")], {
      pairs: { headline: defaultScoreOptions },
      manifest: committedManifestPath("v4"),
      cwd: "/",
    });
    expect(outcome.models.map((r) => r.model)).toEqual([`v3/${model}`, "bare/gpt-oss-120b"]);
    const [flat, bare] = outcome.models.map((r) => table1Numbers(r.score!.records, manifest, "release"));
    expect(flat).toEqual(bare);
    expect(flat.act).toBeCloseTo((100 * 216) / 223, 10);
  });

  it("reports a missing directory and one without result files", () => {
    const root = tmp();
    const found = walkBfclTree([join(root, "nope"), root], "/", "result");
    expect(found.problems.map((p) => p.code)).toEqual(["results-missing", "results-empty"]);
  });
});

describe("choosing among copies of one (model, category) in one model folder", () => {
  it("uses the copy with the most distinct ids, the first found on a tie (the test-group folder's), and never merges", async () => {
    const root = tmp();
    const model = "openai_gpt-oss-120b";
    for (const c of categories) {
      // flat copy: full real files; multi_turn/ copy: the 20b rollouts, base cut to 150 lines
      put(join(root, model, `BFCL_v4_multi_turn_${c}_result.json`), readFileSync(realFile(model, c), "utf8"));
      const lines = realLines("openai_gpt-oss-20b", c);
      put(
        join(root, model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`),
        (c === "base" ? lines.slice(0, 150) : lines).join("\n") + "\n",
      );
    }
    const outcome = await readForTest([root], { pairs: { headline: defaultScoreOptions }, cwd: "/" });
    expect(outcome.models).toHaveLength(1);
    const run = outcome.models[0];
    // base: the flat copy has 200 ids against 150; miss_*: a tie at 200 → the first found, the multi_turn/ copy
    expect(run.filesUsed.base?.file).toBe(join(root, model, "BFCL_v4_multi_turn_base_result.json"));
    expect(run.filesUsed.miss_func?.file).toBe(join(root, model, "multi_turn", "BFCL_v4_multi_turn_miss_func_result.json"));
    expect(run.filesUsed.base).toMatchObject({ distinctIds: 200, candidates: 2 });
    // Table 1 numbers would be 120b's 223/96.9 only if base came from tree one: the act column reads base only
    const numbers = table1Numbers(run.score!.records, manifest, "release");
    expect(numbers.n).toBe(223);
    expect(numbers.act).toBeCloseTo((100 * 216) / 223, 10);
  });
});

describe("bad input", () => {
  const model = "openai_gpt-oss-20b";
  const tree = () => {
    const root = tmp();
    for (const c of categories)
      copyFileSync(realFile(model, c), put(join(root, model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), ""));
    return root;
  };

  it("reports malformed lines, foreign and repeated ids and inference errors with file:line, and still scores the rest", async () => {
    const root = tree();
    const baseFile = join(root, model, "multi_turn", "BFCL_v4_multi_turn_base_result.json");
    const lines = realLines(model, "base");
    const broken = [
      lines[0].slice(0, 500), // line 1: truncated (multi_turn_base_0 is lost)
      ...lines.slice(1, 5),
      '{"id": "multi_turn_miss_func_3", "result": []}', // line 6: another category's id
      '{"id": "multi_turn_base_250", "result": []}', // line 7: beyond BFCL's 200 base items
      lines[4], // line 8: repeated id
      '{"id": "multi_turn_base_5", "result": "Error during inference: synthetic"}', // line 9: in place of the real base_5
      ...lines.slice(6),
      "",
    ];
    writeFileSync(baseFile, broken.join("\n"));
    const outcome = await readForTest([root], { pairs: { headline: defaultScoreOptions }, cwd: "/" });
    const run = outcome.models[0];
    const seen = run.problems.filter((p) => p.file === baseFile).map((p) => `${p.line}:${p.code}`);
    expect(seen).toEqual(
      expect.arrayContaining(["1:json-malformed", "6:id-unknown", "7:id-unknown", "8:id-duplicate", "9:inference-error"]),
    );
    expect(run.problems.some((p) => p.code === "rollout-missing" && p.message.startsWith("multi_turn_base_0 has no line"))).toBe(true);
    expect(run.score).not.toBeNull();
    const pairsOnBase0 = manifest.pairs.filter((p) => p.status === "scored" && p.baseId === "multi_turn_base_0").length;
    const numbers = table1Numbers(run.score!.records, manifest, "release");
    expect(numbers.n).toBe(223 - pairsOnBase0);
    expect(numbers.undecided.missing).toBe(pairsOnBase0);
  });

  it("does not score a model with a category missing, and says which", async () => {
    const root = tmp();
    for (const c of ["base", "miss_func"])
      copyFileSync(realFile(model, c), put(join(root, model, "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), ""));
    const outcome = await readForTest([root], { pairs: { headline: defaultScoreOptions }, cwd: "/" });
    expect(outcome.models[0].score).toBeNull();
    expect(outcome.models[0].problems.map((p) => p.message)).toContain(
      `model ${model}: no readable miss_param result file; a model is scored only when base, miss_func and miss_param are all present`,
    );
  });

  it("reports an unreadable file (a directory where a file should be) as file-unreadable", () => {
    const root = tmp();
    const dir = join(root, "BFCL_v4_multi_turn_base_result.json");
    mkdirSync(dir);
    const r = readResultFile(dir, "base", { wanted: new Map() });
    expect(r.readable).toBe(false);
    expect(r.problems[0]).toMatchObject({ code: "file-unreadable", file: dir });
  });
});

describe("forEachLine", () => {
  it("reads lines longer than its chunk, a last line without newline, and CRLF-free blank lines", () => {
    const root = tmp();
    const long = "x".repeat(9 * 1024 * 1024);
    const file = put(join(root, "f.json"), `a\n${long}\n\nlast`);
    const got: [number, number][] = [];
    forEachLine(file, (_b, s, e, line) => got.push([line, e - s]));
    expect(got).toEqual([
      [1, 1],
      [2, long.length],
      [3, 0],
      [4, 4],
    ]);
  });

  it("counts the real file's 200 lines (gpt-oss-20b miss_param)", () => {
    let n = 0;
    forEachLine(realFile(model20b, "miss_param"), () => void n++);
    expect(n).toBe(200);
  });
});
const model20b = "openai_gpt-oss-20b";
