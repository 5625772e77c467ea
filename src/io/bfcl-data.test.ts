import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bfclDataDir } from "../testing/shared.js";
import { findBfclEvalDataDir, readBfclDataDir, resolveBfclDataDir } from "./bfcl-data.js";
import { toolList } from "../bfcl/data.js";
import { nodeHost } from "./host.js";

const all = ["base", "miss_func", "miss_param", "long_context"] as const;

/** Copy ../shared/bfcl-v4 into a temp dir, renaming the prefix and optionally editing one file. */
function copyData(prefix: string, edit?: (rel: string, text: string) => string | null): string {
  const src = bfclDataDir();
  const dst = mkdtempSync(join(tmpdir(), "twinscore-bfcl-"));
  for (const sub of ["", "possible_answer", "multi_turn_func_doc"]) {
    mkdirSync(join(dst, sub), { recursive: true });
    for (const name of readdirSync(join(src, sub))) {
      if (!name.endsWith(".json")) continue;
      const rel = join(sub, name.replace("BFCL_v4_", prefix));
      const text = readFileSync(join(src, sub, name), "utf8");
      const out = edit ? edit(rel, text) : text;
      if (out !== null) writeFileSync(join(dst, rel), out);
    }
  }
  return dst;
}

describe("readBfclDataDir on ../shared/bfcl-v4", () => {
  const r = readBfclDataDir(bfclDataDir(), all);
  if (!r.ok) throw new Error(r.problems[0].message);
  const data = r.value;
  it("reads 200 entries per category with BFCL's turn totals", () => {
    expect(data.version).toBe("v4");
    const turns = (c: (typeof all)[number]) => data.categories[c]!.questions.reduce((n, q) => n + q.question.length, 0);
    expect(all.map((c) => data.categories[c]!.questions.length)).toEqual([200, 200, 200, 200]);
    expect(all.map(turns)).toEqual([734, 934, 934, 734]);
  });
  it("reads 128 function docs over the eight classes", () => {
    expect(Object.values(data.docsByClass).reduce((n, d) => n + d.length, 0)).toBe(128);
    expect(data.docsByClass.VehicleControlAPI).toHaveLength(22);
  });
  it("holds out 1 function in 182 miss_func items, 2 in 14 and 3 in 4", () => {
    const sizes = data.categories.miss_func!.questions.map((q) => toolList(q, data.docsByClass).removed.length);
    expect([1, 2, 3].map((k) => sizes.filter((s) => s === k).length)).toEqual([182, 14, 4]);
  });
  it("builds multi_turn_miss_func_0's tool list from its classes in order, the removed sort kept", () => {
    const q = data.categories.miss_func!.questions[0];
    expect(q.involvedClasses).toEqual(["TwitterAPI", "GorillaFileSystem"]);
    const { tools, removed } = toolList(q, data.docsByClass);
    expect(removed).toEqual(["sort"]);
    expect(tools).toHaveLength(18 + 14);
    expect(tools.slice(0, 3)).toEqual(["authenticate_twitter", "comment", "follow_user"]);
    expect(tools.slice(14, 17)).toEqual(["cat", "cd", "cp"]);
    expect(tools).toContain("sort");
  });
});

describe("readBfclDataDir on bad directories", () => {
  it("reads the same data under the BFCL_v3_ prefix", () => {
    const r = readBfclDataDir(copyData("BFCL_v3_"), ["base", "miss_func", "miss_param"]);
    expect(r.ok && r.value.version).toBe("v3");
    expect(r.ok && r.value.categories.miss_param!.questions.length).toBe(200);
  });
  it("reports a wrong prefix", () => {
    const dir = copyData("BFCL_v2_");
    const r = readBfclDataDir(dir, ["base"]);
    expect(!r.ok && r.problems[0]).toMatchObject({ code: "bfcl-prefix", file: dir });
  });
  it("reports each missing file by path", () => {
    const dir = copyData("BFCL_v4_", (rel, text) => (rel.includes("possible_answer/BFCL_v4_multi_turn_miss_param") ? null : text));
    const r = readBfclDataDir(dir, ["base", "miss_param"]);
    expect(!r.ok && r.problems.map((p) => [p.code, p.file])).toEqual([
      ["file-missing", join(dir, "possible_answer/BFCL_v4_multi_turn_miss_param.json")],
    ]);
  });
  it("reports a malformed line of the real miss_func file with its line number", () => {
    const dir = copyData("BFCL_v4_", (rel, text) => {
      if (rel !== "BFCL_v4_multi_turn_miss_func.json") return text;
      const lines = text.split("\n");
      lines[41] = lines[41].slice(0, 100);
      return lines.join("\n");
    });
    const r = readBfclDataDir(dir, ["miss_func"]);
    expect(!r.ok && r.problems[0]).toMatchObject({
      code: "json-malformed",
      file: join(dir, "BFCL_v4_multi_turn_miss_func.json"),
      line: 42,
    });
  });
  it("leaves out, with the reason, an item whose reference id does not match, and reads the rest", () => {
    const dir = copyData("BFCL_v4_", (rel, text) =>
      rel === "possible_answer/BFCL_v4_multi_turn_base.json" ? text.replace('"multi_turn_base_5"', '"multi_turn_base_500"') : text,
    );
    const r = readBfclDataDir(dir, ["base"]);
    expect(r.ok && r.value.categories.base?.questions).toHaveLength(199);
    expect(r.ok && r.value.categories.base?.unusable).toEqual([
      {
        id: "multi_turn_base_5",
        code: "reference-missing",
        reason: "has no reference",
        file: join(dir, "possible_answer/BFCL_v4_multi_turn_base.json"),
        line: null,
        question: expect.objectContaining({ id: "multi_turn_base_5" }),
        answer: null,
      },
      {
        id: "multi_turn_base_500",
        code: "question-missing",
        reason: "is a reference without a question",
        file: join(dir, "possible_answer/BFCL_v4_multi_turn_base.json"),
        line: 6,
        question: null,
        answer: expect.objectContaining({ id: "multi_turn_base_500" }),
      },
    ]);
  });
  it("reports a directory that does not exist", () => {
    const r = readBfclDataDir("/nonexistent/bfcl", ["base"]);
    expect(!r.ok && r.problems[0]).toMatchObject({ code: "file-missing", file: "/nonexistent/bfcl" });
  });
});

/** A temp folder holding a `bfcl_eval/data` folder and a `python3` script that answers where `bfcl_eval` is. */
function fakePythonWithBfclEval(): { root: string; fake: string } {
  const root = mkdtempSync(join(tmpdir(), "twinscore-py-"));
  mkdirSync(join(root, "bfcl_eval", "data"), { recursive: true });
  const fake = join(root, "python3");
  writeFileSync(fake, `#!/bin/sh\necho ${join(root, "bfcl_eval")}\n`);
  chmodSync(fake, 0o755);
  return { root, fake };
}

describe("resolveBfclDataDir", () => {
  const python = () => "/site/bfcl_eval/data";
  it("takes --bfcl-data first (relative to cwd), then BFCL_DATA_DIR, then a bfcl_eval installation", () => {
    expect(resolveBfclDataDir({ flag: "d", env: { BFCL_DATA_DIR: "/e" }, cwd: "/w", findPython: python })).toEqual({
      dir: "/w/d",
      origin: "--bfcl-data",
    });
    expect(resolveBfclDataDir({ env: { BFCL_DATA_DIR: "/e" }, cwd: "/w", findPython: python })).toEqual({
      dir: "/e",
      origin: "BFCL_DATA_DIR",
    });
    expect(resolveBfclDataDir({ env: {}, cwd: "/w", findPython: python })).toEqual({ dir: "/site/bfcl_eval/data", origin: "bfcl_eval" });
    expect(resolveBfclDataDir({ env: {}, cwd: "/w", findPython: () => null })).toBeNull();
  });
  it("asks python3 for bfcl_eval's folder and uses its data/ subfolder", () => {
    const { root, fake } = fakePythonWithBfclEval();
    expect(findBfclEvalDataDir(fake)).toBe(join(root, "bfcl_eval", "data"));
    expect(findBfclEvalDataDir(join(root, "no-such-python"))).toBeNull();
  });
  it("through the host, asks Python only when an installation may be used (score and report pass installed: false)", () => {
    const { root, fake } = fakePythonWithBfclEval();
    const env = { TWINSCORE_PYTHON: fake };
    const host = nodeHost();
    try {
      expect(host.resolveBfclDataDir({ env, cwd: "/w" })).toEqual({ dir: join(root, "bfcl_eval", "data"), origin: "bfcl_eval" });
      expect(host.resolveBfclDataDir({ env, cwd: "/w", installed: false })).toBeNull();
      expect(host.resolveBfclDataDir({ env: { ...env, BFCL_DATA_DIR: "/e" }, cwd: "/w", installed: false })).toEqual({
        dir: "/e",
        origin: "BFCL_DATA_DIR",
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
