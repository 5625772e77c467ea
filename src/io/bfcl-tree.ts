/**
 * Finding BFCL's per-model files under the directories a user gives: result trees
 * (`--results`) and score trees (`--scores`) share one layout, so one walk serves both.
 *
 * Accepted, for each DIR (and for DIR/<root folder>, where BFCL writes by default —
 * `result` or `score`):
 * - `DIR/<model>/multi_turn/BFCL_v4_multi_turn_<category>_<kind>.json` (v4 grouped layout);
 * - `DIR/<model>/BFCL_v{3,4}_multi_turn_<category>_<kind>.json` (flat v3, and flat v4,
 *   which BFCL's evaluator also reads);
 * - DIR itself a model directory: the model is named after DIR's last path component.
 * Directory listings are sorted, so the order found — and everything downstream — is
 * deterministic.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { ScoredResultCategory } from "../bfcl/results.js";
import { problem, type Problem } from "../messages/index.js";

/** The files of one model, per category, in the order found (earlier directories first). */
export interface ModelFiles {
  readonly model: string;
  readonly files: Record<ScoredResultCategory, string[]>;
}

/** What distinguishes one kind of tree from the other. */
export interface TreeKind {
  /** The folder BFCL writes into under its root (`result`, `score`). */
  readonly rootFolder: string;
  /** The scored category a file name belongs to, or null for any other file. */
  readonly categoryOf: (fileName: string) => ScoredResultCategory | null;
  /** Problem code and message for a directory that does not exist. */
  readonly missing: { readonly code: string; readonly message: string };
  /** Problem code and message for a directory holding none of these files. */
  readonly empty: { readonly code: string; readonly message: string };
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function filesOfModelDir(dir: string, kind: TreeKind): { category: ScoredResultCategory; path: string }[] {
  const found: { category: ScoredResultCategory; path: string }[] = [];
  for (const sub of [join(dir, "multi_turn"), dir]) {
    for (const name of listDir(sub)) {
      const category = kind.categoryOf(name);
      if (category) found.push({ category, path: join(sub, name) });
    }
  }
  return found;
}

/** Walk each of `dirs` (resolved against `cwd`); a missing or empty directory is a problem, not an exception. */
export function discoverBfclTree(dirs: readonly string[], cwd: string, kind: TreeKind): { models: ModelFiles[]; problems: Problem[] } {
  const byModel = new Map<string, ModelFiles>();
  const problems: Problem[] = [];
  const add = (model: string, files: { category: ScoredResultCategory; path: string }[]) => {
    let entry = byModel.get(model);
    if (!entry) {
      entry = { model, files: { base: [], miss_func: [], miss_param: [] } };
      byModel.set(model, entry);
    }
    for (const f of files) if (!entry.files[f.category].includes(f.path)) entry.files[f.category].push(f.path);
  };
  for (const given of dirs) {
    const dir = resolve(cwd, given);
    if (!isDir(dir)) {
      problems.push(problem(kind.missing.code, kind.missing.message, { file: dir }));
      continue;
    }
    let foundHere = 0;
    const own = filesOfModelDir(dir, kind);
    if (own.length > 0) {
      add(basename(dir), own);
      foundHere += own.length;
    }
    for (const root of [dir, join(dir, kind.rootFolder)]) {
      for (const name of listDir(root)) {
        const sub = join(root, name);
        if (name === "multi_turn" || !isDir(sub)) continue;
        const files = filesOfModelDir(sub, kind);
        if (files.length > 0) {
          add(name, files);
          foundHere += files.length;
        }
      }
    }
    if (foundHere === 0) problems.push(problem(kind.empty.code, kind.empty.message, { file: dir }));
  }
  return { models: [...byModel.values()], problems };
}
