/**
 * The walk over result trees made of links, built here from the real gpt-oss run: each real
 * folder is read once and every other path to it is named; a link back up the tree is not
 * followed; a folder that cannot be read is named. Nothing is left out without a word.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, type Dirent } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { linkedFilesTree, linkedMultiTurnTree } from "../testing/linked-trees.js";
import { rolloutRunDir } from "../testing/shared.js";
import { matchingModel, resultRunsOf, walkBfclTree, type FolderLister } from "./tree.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-tree-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => join(tmp, `${++n}-${name}`);

const real = join(rolloutRunDir("2025-11-12-main"), "result");
const models = ["openai_gpt-oss-120b", "openai_gpt-oss-20b"] as const;
const codes = (problems: readonly { code: string }[]) => problems.map((p) => p.code);

describe("a tree of links", () => {
  it("200 model folders whose multi_turn is a link to one of two real ones: 2 models, the 198 others named, the real folders under their own names", () => {
    const root = linkedMultiTurnTree(fresh("dir-links"), real, models);
    const walk = walkBfclTree([root], "/", "result");
    // m10… sorts before m2…: the real folder is still the one read, as links are followed after the real folders
    expect(walk.models.map((m) => m.name)).toEqual([`m1-${models[0]}`, `m2-${models[1]}`]);
    expect(codes(walk.problems)).toEqual(Array(198).fill("same-folder"));
    expect(walk.problems.every((p) => p.severity === "warning")).toBe(true);
    expect(walk.problems.map((p) => p.message)).toContain(`m7-${models[0]}: same folder as m1-${models[0]}, scored once`);
    expect(walk.problems.map((p) => p.message)).toContain(`m200-${models[1]}: same folder as m2-${models[1]}, scored once`);
    expect(new Set(walk.problems.map((p) => p.message)).size).toBe(198);
  });

  it("200 model folders of links to the real result files: 200 models, nothing to say", () => {
    const root = linkedFilesTree(fresh("file-links"), real, models);
    const walk = walkBfclTree([root], "/", "result");
    expect(walk.models).toHaveLength(200);
    expect(walk.models.every((m) => Object.keys(m.files).length === 3)).toBe(true);
    expect(walk.problems).toEqual([]);
  });

  it("a link loop inside the tree is named the same way, and reads nothing twice", () => {
    const root = fresh("loop");
    cpSync(real, join(root, "result"), { recursive: true });
    symlinkSync(join("..", ".."), join(root, "result", models[0], "multi_turn", "back"));
    const walk = walkBfclTree([root], "/", "result");
    expect(walk.models.map((m) => m.name)).toEqual([...models]);
    expect(walk.problems.map((p) => [p.code, p.message])).toEqual([
      ["same-folder", `result/${models[0]}/multi_turn/back: same folder as result, scored once`],
    ]);
  });

  it("the same folder given twice, once through a link: read once, the second named", () => {
    const root = fresh("given-twice");
    cpSync(join(real, models[1]), join(root, "run", "result", models[1]), { recursive: true });
    symlinkSync(join(root, "run"), join(root, "alias"));
    const walk = walkBfclTree([join(root, "run"), join(root, "alias")], "/", "result");
    expect(walk.models.map((m) => m.dir)).toEqual([join(root, "run", "result", models[1])]);
    expect(walk.problems.map((p) => p.message)).toEqual(["alias: same folder as run, scored once"]);
  });
});

describe("links that lead out of the tree given", () => {
  it("a link back to a folder holding the tree (../../..) is not followed: no sibling tree's models come in under ordinary names", () => {
    const runs = fresh("runs");
    cpSync(real, join(runs, "mine", "result"), { recursive: true });
    cpSync(real, join(runs, "sibling", "result"), { recursive: true });
    const link = join(runs, "mine", "result", models[1], "up");
    symlinkSync(join("..", "..", ".."), link);
    const walk = walkBfclTree([join(runs, "mine", "result")], "/", "result");
    expect(walk.models.map((m) => m.name)).toEqual([...models]);
    expect(walk.models.every((m) => m.dir.startsWith(join(runs, "mine")))).toBe(true);
    expect(walk.problems.map((p) => [p.code, p.file, p.severity])).toEqual([["link-loop", link, "warning"]]);
    expect(walk.problems[0].message).toBe(
      `a link back to ${runs}, which holds --results ${join(runs, "mine", "result")}: not followed (it would read this tree again, and every folder beside it)`,
    );
  });

  it("a link to a run kept elsewhere is followed: a runs folder can be made of links, each run named by its link", () => {
    const store = fresh("store");
    cpSync(real, join(store, "2025-11-12-main", "result"), { recursive: true });
    const runs = fresh("my-runs");
    mkdirSync(runs);
    symlinkSync(join(store, "2025-11-12-main"), join(runs, "main"));
    mkdirSync(join(runs, "local", "result"), { recursive: true });
    cpSync(join(real, models[0]), join(runs, "local", "result", models[0]), { recursive: true });
    const walk = walkBfclTree([runs], "/", "result");
    expect(walk.models.map((m) => m.name)).toEqual([`local/${models[0]}`, `main/${models[0]}`, `main/${models[1]}`]);
    expect(walk.problems).toEqual([]);
  });
});

describe("a link that leads nowhere", () => {
  it("to a run that was moved, or named like a result file: each named in a warning, the rest read", () => {
    const runs = fresh("dangling-runs");
    mkdirSync(join(runs, "local", "result"), { recursive: true });
    cpSync(join(real, models[0]), join(runs, "local", "result", models[0]), { recursive: true });
    symlinkSync(join(tmp, "moved-away"), join(runs, "main"));
    const file = join(runs, "local", "result", models[0], "multi_turn", "BFCL_v4_multi_turn_long_context_result.json");
    symlinkSync("gone.json", file);
    const walk = walkBfclTree([runs], "/", "result");
    expect(walk.models.map((m) => m.name)).toEqual([models[0]]);
    expect(walk.problems.map((p) => [p.code, p.file, p.severity, p.message])).toEqual([
      [
        "link-dangling",
        join(runs, "local", "result", models[0], "multi_turn", "BFCL_v4_multi_turn_long_context_result.json"),
        "warning",
        'a link whose target "gone.json" does not exist; the file is skipped',
      ],
      [
        "link-dangling",
        join(runs, "main"),
        "warning",
        `a link whose target ${JSON.stringify(join(tmp, "moved-away"))} does not exist; skipped: if it was a run or a model folder, its models are not read`,
      ],
    ]);
  });
});

describe("a folder that cannot be read", () => {
  it("is named in one error line, whoever runs the walk; the other models are found and nothing is called empty", () => {
    const root = fresh("unreadable");
    cpSync(real, join(root, "result"), { recursive: true });
    const blocked = join(root, "result", models[0]);
    const denied: FolderLister = (dir): Dirent[] => {
      if (dir === blocked) throw Object.assign(new Error(`EACCES: permission denied, scandir '${dir}'`), { code: "EACCES" });
      return readdirSync(dir, { withFileTypes: true });
    };
    const walk = walkBfclTree([root], "/", "result", denied);
    expect(walk.models.map((m) => m.name)).toEqual([models[1]]);
    expect(walk.problems.map((p) => [p.code, p.file, p.severity, p.message])).toEqual([
      ["folder-unreadable", blocked, "error", "cannot read this folder (EACCES): whatever it holds is not read"],
    ]);
    const all = walkBfclTree([blocked], "/", "result", denied);
    expect(codes(all.problems)).toEqual(["folder-unreadable"]);
  });
});

describe("run names and the score files that belong to each run (copies of the real 2025-11-12-main run)", () => {
  const base = fresh("runs");
  const runCopy = (at: string) => {
    mkdirSync(at, { recursive: true });
    cpSync(rolloutRunDir("2025-11-12-main"), at, { recursive: true });
  };
  runCopy(join(base, "a", "exp"));
  runCopy(join(base, "b", "exp"));
  runCopy(join(base, "c", "exp#2"));
  rmSync(join(base, "b", "exp", "score"), { recursive: true });
  const results = walkBfclTree([join(base, "b"), join(base, "a"), join(base, "c")], "/", "result");
  const scores = walkBfclTree([join(base, "a"), join(base, "c")], "/", "score");
  const runs = resultRunsOf(results.models);
  const model = (walk: typeof results, runDir: string) => walk.models.find((m) => m.runDir === runDir && m.model === models[0])!;

  it("three runs, two named exp and one exp#2: three distinct names", () => {
    expect(new Set(results.models.map((m) => m.run)).size).toBe(3);
    expect(new Set(results.models.map((m) => m.name)).size).toBe(results.models.length);
  });

  it("a run's own score/ is its verdicts; a run whose name another result run shares gets none by name", () => {
    expect(matchingModel(model(results, join(base, "a", "exp")), runs, scores.models)?.runDir).toBe(join(base, "a", "exp"));
    expect(matchingModel(model(results, join(base, "c", "exp#2")), runs, scores.models)?.runDir).toBe(join(base, "c", "exp#2"));
    // b/exp has no score/: a/exp's verdicts are another run's, though the name is the same
    expect(matchingModel(model(results, join(base, "b", "exp")), runs, scores.models)).toBeNull();
  });

  it("score files kept apart in a folder of the run's name are the run's, when only one result run has that name", () => {
    const apart = join(base, "kept", "exp");
    mkdirSync(apart, { recursive: true });
    cpSync(join(base, "a", "exp", "score"), join(apart, "score"), { recursive: true });
    const alone = walkBfclTree([join(base, "b")], "/", "result");
    const kept = walkBfclTree([join(base, "kept")], "/", "score");
    expect(matchingModel(alone.models[0], resultRunsOf(alone.models), kept.models)?.runDir).toBe(apart);
  });
});
