/**
 * The one walk over the folders a user names with `--results` or `--scores`: every command finds its models
 * here, so `score`, `check`, `compare`, `verify`, `report` and `judge` see the same models in the same tree.
 * More in this folder's README.md.
 */
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import {
  groupFolders,
  multiTurnCategories,
  parseBfclFileName,
  rootFolderOf,
  type BfclFileKind,
  type BfclVersion,
  type MultiTurnCategory,
} from "../bfcl/categories.js";
import type { Dirent } from "node:fs";
import { pushAll, problem, type Problem, type ProblemCode } from "../messages/index.js";
import { nodeFileSystem, type FileSystem, type FolderEntry } from "./file-system.js";

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
  /** The model folder's name: BFCL's model name (with `/` written as `_`); `org/model` for a folder kept as `result/<org>/<model>`. */
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
const missingCode: Readonly<Record<BfclFileKind, ProblemCode>> = { result: "results-missing", score: "scores-missing" };
const emptyCode: Readonly<Record<BfclFileKind, ProblemCode>> = { result: "results-empty", score: "scores-empty" };

/** How the walk lists a folder (throws when it cannot): node's, or a stand-in a test gives to make a folder unreadable whoever runs it. */
export type FolderLister = (dir: string) => (Dirent | FolderEntry)[];

const listFolder: FolderLister = (dir) => nodeFileSystem.listEntries(dir);

function byName(a: FolderEntry, b: FolderEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function kindOf(path: string, fs: FileSystem): "dir" | "file" | "other" | "missing" {
  try {
    const s = fs.stat(path);
    return s.isDirectory() ? "dir" : s.isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}

/** The warning for a link whose target cannot be reached (gone, or a loop of links), named like a BFCL file or not. */
function danglingLink(path: string, namedLikeFile: boolean, fs: FileSystem): Problem {
  let target = "?";
  try {
    target = fs.readLink(path);
  } catch {
    /* gone meanwhile */
  }
  let why = "does not exist";
  try {
    fs.stat(path);
  } catch (e) {
    if (errorCode(e) === "ELOOP") why = "is a loop of links";
    else if (errorCode(e) !== "ENOENT") why = `cannot be reached (${errorCode(e)})`;
  }
  const skipped = namedLikeFile ? "the file is skipped" : "skipped: if it was a run or a model folder, its models are not read";
  return problem("link-dangling", `a link whose target ${JSON.stringify(target)} ${why}; ${skipped}`, { file: path, severity: "warning" });
}

/** A system error's code (`EACCES`), or its message. */
function errorCode(e: unknown): string {
  return e instanceof Error && "code" in e ? String((e as NodeJS.ErrnoException).code) : e instanceof Error ? e.message : String(e);
}

/** Whether `folder` is `inner` or a folder above it (both real paths). */
function holds(folder: string, inner: string): boolean {
  return inner === folder || inner.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** The model folder of a file: its folder, or the one above a test-group folder. */
function modelDirOf(file: string): string {
  const parent = dirname(file);
  return groupFolders.includes(basename(parent)) ? dirname(parent) : parent;
}

/**
 * The organisation folder of a model folder kept as `result/<org>/<model>` (a model name
 * `org/model` written with its `/` as a folder, not as BFCL's `_`), or null: the folder
 * holding the model folder sits right inside BFCL's `result` / `score` folder.
 */
function orgOf(modelDir: string, kind: BfclFileKind): string | null {
  const up = dirname(modelDir);
  if (basename(up) === rootFolderOf[kind]) return null;
  return basename(dirname(up)) === rootFolderOf[kind] ? basename(up) : null;
}

/** The run folder of a model folder: the folder holding it, above BFCL's `result` / `score` folder (and an organisation's folder in it). */
function runDirOf(modelDir: string, kind: BfclFileKind): string {
  const up = dirname(modelDir);
  if (basename(up) === rootFolderOf[kind]) return dirname(up);
  return orgOf(modelDir, kind) !== null ? dirname(dirname(up)) : up;
}

/** A model folder's model name: its folder's name, `org/model` under an organisation's folder. */
function modelNameOf(modelDir: string, kind: BfclFileKind): string {
  const org = orgOf(modelDir, kind);
  return org === null ? basename(modelDir) : `${org}/${basename(modelDir)}`;
}

/** A folder reached a second time (by another path) during the walk, and the path it was first read by. */
interface SecondVisit {
  readonly path: string;
  readonly given: string;
  readonly first: string;
  readonly firstGiven: string;
}

/**
 * Walk each of `dirs` (resolved against `cwd`) for files of `kind`. Never throws: a folder that is missing,
 * unreadable or holds no such files is one problem. Folder links are followed, but no real folder is read
 * twice. More in this folder's README.md.
 */
export function walkBfclTree(
  dirs: readonly string[],
  cwd: string,
  kind: BfclFileKind,
  list: FolderLister = listFolder,
  fs: FileSystem = nodeFileSystem,
): TreeWalk {
  // a library caller's string would be walked character by character
  if (!Array.isArray(dirs))
    return { models: [], runs: 0, problems: [problem("bad-argument", `${flag[kind]} must be a list of folders, not ${typeof dirs}`)] };
  const walk: Walk = { kind, list, fs, problems: [], byDir: new Map(), readAs: new Map(), secondVisits: [] };
  for (const givenText of dirs) walkGiven(walk, resolve(cwd, givenText));
  const { models, runs, nameOf } = namedModels(walk.byDir, kind);
  pushAll(
    walk.problems,
    secondVisitProblems(
      walk.secondVisits,
      [...walk.byDir.values()].flatMap((m) => m.files.map((f) => f.path)),
      (dir) => walk.byDir.has(dir),
      nameOf,
    ),
  );
  return { models, runs, problems: walk.problems };
}

/** What a walk over every folder given has found so far. */
interface Walk {
  readonly kind: BfclFileKind;
  readonly list: FolderLister;
  readonly fs: FileSystem;
  readonly problems: Problem[];
  readonly byDir: Map<string, { dir: string; given: string; files: TreeFile[] }>;
  /** Every real folder read so far (over all folders given), with the path it was read by and the folder given it is under. */
  readonly readAs: Map<string, { readonly path: string; readonly given: string }>;
  readonly secondVisits: SecondVisit[];
}

/** The walk of one folder given: what it found, and the folder links met, walked once the real folders are done. */
interface GivenWalk {
  readonly given: string;
  readonly givenReal: string;
  found: number;
  otherKind: number;
  unreadable: number;
  repeated: boolean;
  readonly linked: { path: string; depth: number }[];
}

/** One folder given: checked to be a folder, walked (real folders, then links), and named when it holds nothing. */
function walkGiven(walk: Walk, given: string): void {
  const { kind, problems } = walk;
  const what = kindOf(given, walk.fs);
  if (what === "missing") {
    problems.push(problem(missingCode[kind], `${kind === "result" ? "results" : "scores"} directory not found`, { file: given }));
    return;
  }
  if (what !== "dir") {
    const named = parseBfclFileName(basename(given));
    const hint = named ? `; give the folder that holds it: ${flag[kind]} ${dirname(given)}` : "";
    problems.push(
      problem(missingCode[kind], `${flag[kind]} names a ${what === "file" ? "file" : "special file"}, not a folder${hint}`, {
        file: given,
      }),
    );
    return;
  }
  const g: GivenWalk = {
    given,
    givenReal: realPathOrNull(given, walk.fs) ?? given,
    found: 0,
    otherKind: 0,
    unreadable: 0,
    repeated: false,
    linked: [],
  };
  walkFolder(walk, g, given, 0);
  for (let i = 0; i < g.linked.length; i++) walkFolder(walk, g, g.linked[i].path, g.linked[i].depth);
  if (
    g.found === 0 &&
    g.unreadable === 0 &&
    !g.repeated &&
    ![...walk.byDir.values()].some((m) => m.dir === given || m.dir.startsWith(given + sep))
  ) {
    const other = kind === "result" ? "score" : "result";
    const wrongTree =
      g.otherKind > 0
        ? `; it holds BFCL ${other} files: ${flag[kind]} takes what \`bfcl ${kind === "result" ? "generate" : "evaluate"}\` wrote`
        : "";
    problems.push(
      problem(
        emptyCode[kind],
        `no BFCL multi-turn ${kind} files (BFCL_v4_multi_turn_<category>_${kind}.json) under this directory${wrongTree}`,
        {
          file: given,
        },
      ),
    );
  }
}

function cannotRead(walk: Walk, g: GivenWalk, dir: string, e: unknown): void {
  g.unreadable++;
  walk.problems.push(
    problem("folder-unreadable", `cannot read this folder (${errorCode(e)}): whatever it holds is not read`, { file: dir }),
  );
}

/** One folder, read once however many paths reach it: its entries visited in name order. */
function walkFolder(walk: Walk, g: GivenWalk, dir: string, depth: number): void {
  let real: string;
  try {
    real = walk.fs.realPath(dir);
  } catch (e) {
    cannotRead(walk, g, dir, e);
    return;
  }
  const first = walk.readAs.get(real);
  if (first !== undefined) {
    if (first.path !== dir) {
      walk.secondVisits.push({ path: dir, given: g.given, first: first.path, firstGiven: first.given });
      if (dir === g.given) g.repeated = true; // the whole folder given is one read before, under another path
    }
    return;
  }
  walk.readAs.set(real, { path: dir, given: g.given });
  let entries: FolderEntry[];
  try {
    entries = walk.list(dir).sort(byName);
  } catch (e) {
    cannotRead(walk, g, dir, e);
    return;
  }
  for (const entry of entries) visitEntry(walk, g, join(dir, entry.name), entry, depth);
}

/** One entry of a folder: a folder walked (a link to one queued), a file of the kind sought kept, anything else counted or named. */
function visitEntry(walk: Walk, g: GivenWalk, path: string, entry: FolderEntry, depth: number): void {
  const { kind, problems } = walk;
  const link = entry.isSymbolicLink();
  const type = link ? kindOf(path, walk.fs) : entry.isDirectory() ? "dir" : entry.isFile() ? "file" : "other";
  // a link that leads nowhere may have been a run or a model folder: said, never dropped without a word
  if (type === "missing") {
    if (!entry.name.startsWith(".")) problems.push(danglingLink(path, parseBfclFileName(entry.name)?.kind === kind, walk.fs));
    return;
  }
  if (type === "dir") {
    if (depth >= MAX_DEPTH || entry.name.startsWith(".") || entry.name === "node_modules") return;
    if (!link) return walkFolder(walk, g, path, depth + 1);
    const target = realPathOrNull(path, walk.fs);
    if (target !== null && holds(target, g.givenReal)) {
      problems.push(
        problem(
          "link-loop",
          `a link back to ${target}, which holds ${flag[kind]} ${g.given}: not followed (it would read this tree again, and every folder beside it)`,
          {
            file: path,
            severity: "warning",
          },
        ),
      );
      return;
    }
    g.linked.push({ path, depth: depth + 1 });
    return;
  }
  const named = parseBfclFileName(entry.name);
  if (named !== null && named.kind !== kind) g.otherKind++;
  if (named === null || named.kind !== kind) return;
  if (type !== "file") {
    problems.push(
      problem("not-regular-file", "not a regular file (a FIFO, socket or device?); skipped", { file: path, severity: "warning" }),
    );
    return;
  }
  const modelDir = modelDirOf(path);
  let entryFor = walk.byDir.get(modelDir);
  if (entryFor === undefined) {
    entryFor = { dir: modelDir, given: g.given, files: [] };
    walk.byDir.set(modelDir, entryFor);
  }
  if (!entryFor.files.some((f) => f.path === path)) {
    entryFor.files.push({ path, version: named.version, category: named.category, inModel: relative(modelDir, path) });
    g.found++;
  }
}

/** The models found, each named by its run (`run/model` when there are several runs) with its files by category. */
function namedModels(
  byDir: Walk["byDir"],
  kind: BfclFileKind,
): { models: TreeModel[]; runs: number; nameOf: (modelDir: string) => string } {
  const runDirs: string[] = [];
  for (const m of byDir.values()) {
    const r = runDirOf(m.dir, kind);
    if (!runDirs.includes(r)) runDirs.push(r);
  }
  const runNames = new Map<string, string>();
  const taken = new Set<string>();
  for (const r of runDirs) {
    const label = basename(r) || r;
    // a folder already named `<run>#2` keeps the suffix from naming two runs alike
    let name = label;
    for (let k = 2; taken.has(name); k++) name = `${label}#${k}`;
    taken.add(name);
    runNames.set(r, name);
  }
  const several = runDirs.length > 1;
  const nameOf = (modelDir: string): string => {
    const runDir = runDirOf(modelDir, kind);
    return several ? `${runNames.get(runDir) ?? basename(runDir)}/${modelNameOf(modelDir, kind)}` : modelNameOf(modelDir, kind);
  };
  const models: TreeModel[] = [...byDir.values()].map((m) => {
    const runDir = runDirOf(m.dir, kind);
    const run = runNames.get(runDir)!;
    const model = modelNameOf(m.dir, kind);
    const files: Partial<Record<MultiTurnCategory, TreeFile[]>> = {};
    for (const c of multiTurnCategories) {
      const inCategory = m.files.filter((f) => f.category === c);
      if (inCategory.length === 0) continue;
      // files in a test-group folder before the flat ones, as BFCL's own layout comes first
      const grouped = inCategory.filter((f) => f.inModel.includes("/"));
      files[c] = [...grouped, ...inCategory.filter((f) => !f.inModel.includes("/"))];
    }
    return { model, name: nameOf(m.dir), run, runDir, dir: m.dir, given: m.given, files };
  });
  return { models, runs: runDirs.length, nameOf };
}

/** The real path, or null when there is none (a dangling link, a folder that cannot be read). */
function realPathOrNull(path: string, fs: FileSystem): string | null {
  try {
    return fs.realPath(path);
  } catch {
    return null;
  }
}

/**
 * One warning per folder reached again whose first reading found files: how a user names
 * it — the model it is (or whose test-group folder it is), else its path below the folder
 * given — and the same for the path it was read by.
 */
function secondVisitProblems(
  visits: readonly SecondVisit[],
  files: readonly string[],
  isModelDir: (dir: string) => boolean,
  nameOf: (modelDir: string) => string,
): Problem[] {
  const label = (path: string, given: string): string => {
    if (groupFolders.includes(basename(path))) return nameOf(dirname(path));
    if (isModelDir(path)) return nameOf(path);
    const below = relative(given, path);
    return below === "" ? basename(path) || path : below.startsWith("..") ? path : below;
  };
  const out: Problem[] = [];
  for (const v of visits) {
    const inside = v.first.endsWith(sep) ? v.first : v.first + sep;
    if (!files.some((f) => f.startsWith(inside))) continue; // nothing there was read: nothing left out
    out.push(
      problem("same-folder", `${label(v.path, v.given)}: same folder as ${label(v.first, v.firstGiven)}, scored once`, {
        severity: "warning",
      }),
    );
  }
  return out;
}

/** The run folders of a result walk, as `matchingModel` reads them: which they are, and how many share each folder name. */
export interface ResultRuns {
  readonly dirs: ReadonlySet<string>;
  readonly byName: ReadonlyMap<string, number>;
}

/** The run folders of `models` (a result walk's). */
export function resultRunsOf(models: readonly TreeModel[]): ResultRuns {
  const dirs = new Set(models.map((m) => m.runDir));
  const byName = new Map<string, number>();
  for (const d of dirs) byName.set(basename(d), (byName.get(basename(d)) ?? 0) + 1);
  return { dirs, byName };
}

/**
 * The score-tree model that belongs to a result-tree model: the one in the same run
 * folder; else in a run folder of the same name, when no other result run has that name
 * and that folder is no result run's own (a run whose name two result runs share could be
 * either's: none is guessed); when the results hold one run, also the only score model of
 * that name wherever it is. Null when there is none.
 */
export function matchingModel(results: TreeModel, runs: ResultRuns, scores: readonly TreeModel[]): TreeModel | null {
  const sameName = scores.filter((s) => s.model === results.model);
  const sameRun = sameName.find((s) => s.runDir === results.runDir);
  if (sameRun !== undefined) return sameRun;
  const runName = basename(results.runDir);
  if (runs.byName.get(runName) === 1) {
    const namesake = sameName.find((s) => basename(s.runDir) === runName && !runs.dirs.has(s.runDir));
    if (namesake !== undefined) return namesake;
  }
  return runs.dirs.size === 1 && sameName.length === 1 ? sameName[0] : null;
}

/**
 * The part of a walk whose models `keep` takes, named as a walk of those models alone
 * would name them: `<run>/<model>` while they come from several runs, the bare model
 * folder's name when they come from one. The walk's problems stay with the whole walk.
 */
export function walkPart(walk: TreeWalk, keep: (model: TreeModel) => boolean): TreeWalk {
  const kept = walk.models.filter(keep);
  const runs = new Set(kept.map((m) => m.runDir)).size;
  const models = runs > 1 ? kept : kept.map((m) => ({ ...m, name: m.model }));
  return { models, runs, problems: [] };
}

/**
 * The `score/` folders beside `result/` in the run folders of a result walk: for each
 * model found in BFCL's `<run>/result/<model>` layout whose run folder is a folder given
 * or lies below one, `<run>/score` when it is a folder. In the order the runs were found,
 * each once. (A result root or a model folder given names no run folder: none is looked for.)
 */
export function scoreFoldersBeside(walk: TreeWalk, fs: FileSystem = nodeFileSystem): string[] {
  const out: string[] = [];
  for (const m of walk.models) {
    if (basename(dirname(m.dir)) !== rootFolderOf.result) continue;
    if (m.runDir !== m.given && !m.runDir.startsWith(m.given.endsWith(sep) ? m.given : m.given + sep)) continue;
    const dir = join(m.runDir, rootFolderOf.score);
    if (!out.includes(dir) && kindOf(dir, fs) === "dir") out.push(dir);
  }
  return out;
}
