/**
 * Finding BFCL multi-turn result files under the directories given with `--results`.
 *
 * Accepted, for each DIR (and for DIR/result, where `bfcl generate` writes by default):
 * - `DIR/<model>/multi_turn/BFCL_v4_multi_turn_<category>_result.json` (v4 grouped layout);
 * - `DIR/<model>/BFCL_v{3,4}_multi_turn_<category>_result.json` (v3 flat layout, and v4 flat,
 *   which BFCL's evaluator also reads);
 * - DIR itself a model directory (holding `multi_turn/…` or the flat files): the model is
 *   named after DIR's last path component.
 * Files of categories twinscore does not read (long_context, single-turn) are ignored.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { resultFileCategory, scoredResultCategories, type ScoredResultCategory } from "../bfcl/results.js";
import { problem, type Problem } from "../messages/index.js";

/** The candidate files of one model, per category, in the order found (earlier `--results` first). */
export interface ModelCandidates {
  readonly model: string;
  readonly files: Record<ScoredResultCategory, string[]>;
}

function listDir(dir: string): string[] | null {
  try {
    return readdirSync(dir).sort();
  } catch {
    return null;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Result files of the scored categories directly in `dir` or in `dir/multi_turn`. */
function resultFilesOfModelDir(dir: string): { category: ScoredResultCategory; path: string }[] {
  const found: { category: ScoredResultCategory; path: string }[] = [];
  for (const sub of [join(dir, "multi_turn"), dir]) {
    for (const name of listDir(sub) ?? []) {
      const c = resultFileCategory(name);
      if (c && (scoredResultCategories as readonly string[]).includes(c.category)) {
        found.push({ category: c.category as ScoredResultCategory, path: join(sub, name) });
      }
    }
  }
  return found;
}

/**
 * Discover result files under each of `dirs` (resolved against `cwd`). Returns the
 * models in first-found order with all candidate copies per category, and problems for
 * directories that do not exist or hold no result files.
 */
export function discoverResultFiles(dirs: readonly string[], cwd: string): { models: ModelCandidates[]; problems: Problem[] } {
  const byModel = new Map<string, ModelCandidates>();
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
      problems.push(problem("results-missing", "results directory not found", { file: dir }));
      continue;
    }
    let foundHere = 0;
    const own = resultFilesOfModelDir(dir);
    if (own.length > 0) {
      add(basename(dir), own);
      foundHere += own.length;
    }
    for (const root of [dir, join(dir, "result")]) {
      for (const name of listDir(root) ?? []) {
        const sub = join(root, name);
        if (name === "multi_turn" || !isDir(sub)) continue;
        const files = resultFilesOfModelDir(sub);
        if (files.length > 0) {
          add(name, files);
          foundHere += files.length;
        }
      }
    }
    if (foundHere === 0) {
      problems.push(
        problem("results-empty", "no BFCL multi-turn result files (BFCL_v4_multi_turn_<category>_result.json) under this directory", { file: dir }),
      );
    }
  }
  return { models: [...byModel.values()], problems };
}
