/**
 * The one walk over the folders a user names with `--results` or `--scores`: every
 * command finds its models here, so `score`, `check`, `compare`, `verify`, `report` and
 * `judge` see the same models in the same tree.
 *
 * Below each folder given, every BFCL multi-turn file (`BFCL_v{3,4}_multi_turn_<category>_
 * {result,score}.json`) is found, a few folders deep. Its model folder is the folder
 * holding it, or the one above when that is a BFCL test-group folder (`multi_turn`, …).
 * So these all work, and can be mixed:
 * - a model folder (`…/result/<model>`, v4 `multi_turn/…` inside or the flat v3 files);
 * - a BFCL result (or score) root (`…/result`), or the project root above it;
 * - a parent folder of several runs (`runs/<run>/result/<model>/…`).
 * A model's run is the folder holding its model folder (above the `result` / `score`
 * folder, where BFCL puts one). When models of more than one run are found, each is
 * named `<run>/<model>`; run names shared by different folders get `#2`, `#3`.
 * Only regular files are read: anything else named like a BFCL file (a FIFO, a device)
 * is reported and skipped, so a command never blocks on it. Listings are sorted, so
 * what is found — and everything downstream — is deterministic.
 */
import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { groupFolders, multiTurnCategories, parseBfclFileName, rootFolderOf, type BfclFileKind, type BfclVersion, type MultiTurnCategory } from "../bfcl/categories.js";
import { problem, type Problem } from "../messages/index.js";

/** Folders below a given folder that the walk looks into (a parent of runs holding `run/result/model/multi_turn/` is four deep). */
const MAX_DEPTH = 6;

/** One BFCL file found. */
export interface TreeFile {
  readonly path: string;
  readonly version: BfclVersion;
  readonly category: MultiTurnCategory;
  /** The path inside the model folder (`multi_turn/BFCL_v4_…json`, or the bare file name). */
  readonly inModel: string;
}

/** One model folder found, with its files per category. */
export interface TreeModel {
  /** The model folder's name: BFCL's model name (with `/` written as `_`). */
  readonly model: string;
  /** How commands name it: the model folder's name, or `<run>/<model>` when the walk found several runs. */
  readonly name: string;
  /** The run's name: its folder's name, made unique among the runs found. */
  readonly run: string;
  readonly runDir: string;
  readonly dir: string;
  /** The folder given (absolute) under which it was first found. */
  readonly given: string;
  /** Files per category: those in a test-group folder first, then the flat ones, each in name order. */
  readonly files: Readonly<Partial<Record<MultiTurnCategory, readonly TreeFile[]>>>;
}

/** What the walk found, and one problem per folder that is missing, empty or not a folder. */
export interface TreeWalk {
  readonly models: TreeModel[];
  /** How many distinct runs the models come from. */
  readonly runs: number;
  readonly problems: Problem[];
}

const flag: Readonly<Record<BfclFileKind, string>> = { result: "--results", score: "--scores" };
const missingCode: Readonly<Record<BfclFileKind, string>> = { result: "results-missing", score: "scores-missing" };
const emptyCode: Readonly<Record<BfclFileKind, string>> = { result: "results-empty", score: "scores-empty" };

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

function kindOf(path: string): "dir" | "file" | "other" | "missing" {
  try {
    const s = statSync(path);
    return s.isDirectory() ? "dir" : s.isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}

/** The model folder of a file: its folder, or the one above a test-group folder. */
function modelDirOf(file: string): string {
  const parent = dirname(file);
  return groupFolders.includes(basename(parent)) ? dirname(parent) : parent;
}

/** The run folder of a model folder: the folder holding it, above BFCL's `result` / `score` folder. */
function runDirOf(modelDir: string, kind: BfclFileKind): string {
  const up = dirname(modelDir);
  return basename(up) === rootFolderOf[kind] ? dirname(up) : up;
}

/**
 * Walk each of `dirs` (resolved against `cwd`) for files of `kind`. Never throws: a
 * folder that is missing, a file, or holds no such files is one problem.
 */
export function walkBfclTree(dirs: readonly string[], cwd: string, kind: BfclFileKind): TreeWalk {
  const problems: Problem[] = [];
  const byDir = new Map<string, { dir: string; given: string; files: TreeFile[] }>();
  for (const givenText of dirs) {
    const given = resolve(cwd, givenText);
    const what = kindOf(given);
    if (what === "missing") {
      problems.push(problem(missingCode[kind], `${kind === "result" ? "results" : "scores"} directory not found`, { file: given }));
      continue;
    }
    if (what !== "dir") {
      const named = parseBfclFileName(basename(given));
      const hint = named ? `; give the folder that holds it: ${flag[kind]} ${dirname(given)}` : "";
      problems.push(problem(missingCode[kind], `${flag[kind]} names a ${what === "file" ? "file" : "special file"}, not a folder${hint}`, { file: given }));
      continue;
    }
    let found = 0;
    const seen = new Set<string>();
    const walk = (dir: string, depth: number): void => {
      let real: string;
      try {
        real = realpathSync(dir);
      } catch {
        return;
      }
      if (seen.has(real)) return; // a symlink loop
      seen.add(real);
      for (const entry of list(dir)) {
        const path = join(dir, entry.name);
        const type = entry.isSymbolicLink() ? kindOf(path) : entry.isDirectory() ? "dir" : entry.isFile() ? "file" : "other";
        if (type === "dir") {
          if (depth < MAX_DEPTH && !entry.name.startsWith(".") && entry.name !== "node_modules") walk(path, depth + 1);
          continue;
        }
        const named = parseBfclFileName(entry.name);
        if (named === null || named.kind !== kind) continue;
        if (type !== "file") {
          problems.push(problem("not-regular-file", "not a regular file (a FIFO, socket or device?); skipped", { file: path, severity: "warning" }));
          continue;
        }
        const modelDir = modelDirOf(path);
        let entryFor = byDir.get(modelDir);
        if (entryFor === undefined) {
          entryFor = { dir: modelDir, given, files: [] };
          byDir.set(modelDir, entryFor);
        }
        if (!entryFor.files.some((f) => f.path === path)) {
          entryFor.files.push({ path, version: named.version, category: named.category, inModel: relative(modelDir, path) });
          found++;
        }
      }
    };
    walk(given, 0);
    if (found === 0 && ![...byDir.values()].some((m) => m.dir === given || m.dir.startsWith(given + sep))) {
      const what = kind === "result" ? "result" : "score";
      problems.push(problem(emptyCode[kind], `no BFCL multi-turn ${what} files (BFCL_v4_multi_turn_<category>_${what}.json) under this directory`, { file: given }));
    }
  }
  // runs and names
  const runDirs: string[] = [];
  for (const m of byDir.values()) {
    const r = runDirOf(m.dir, kind);
    if (!runDirs.includes(r)) runDirs.push(r);
  }
  const runNames = new Map<string, string>();
  const used = new Map<string, number>();
  for (const r of runDirs) {
    const label = basename(r) || r;
    const k = (used.get(label) ?? 0) + 1;
    used.set(label, k);
    runNames.set(r, k === 1 ? label : `${label}#${k}`);
  }
  const several = runDirs.length > 1;
  const models: TreeModel[] = [...byDir.values()].map((m) => {
    const runDir = runDirOf(m.dir, kind);
    const run = runNames.get(runDir)!;
    const model = basename(m.dir);
    const files: Partial<Record<MultiTurnCategory, TreeFile[]>> = {};
    for (const c of multiTurnCategories) {
      const inCategory = m.files.filter((f) => f.category === c);
      if (inCategory.length === 0) continue;
      // files in a test-group folder before the flat ones, as BFCL's own layout comes first
      const grouped = inCategory.filter((f) => f.inModel.includes("/"));
      files[c] = [...grouped, ...inCategory.filter((f) => !f.inModel.includes("/"))];
    }
    return { model, name: several ? `${run}/${model}` : model, run, runDir, dir: m.dir, given: m.given, files };
  });
  return { models, runs: runDirs.length, problems };
}

/**
 * The score-tree model that belongs to a result-tree model: the one in the same run
 * folder, else in a run of the same name; when the results hold one run, also the only
 * score model of that name wherever it is. Null when there is none.
 */
export function matchingModel(results: TreeModel, resultRuns: number, scores: readonly TreeModel[]): TreeModel | null {
  const sameName = scores.filter((s) => s.model === results.model);
  const sameRun = sameName.find((s) => s.runDir === results.runDir) ?? sameName.find((s) => s.run === results.run);
  if (sameRun !== undefined) return sameRun;
  return resultRuns === 1 && sameName.length === 1 ? sameName[0] : null;
}
