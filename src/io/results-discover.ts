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
import { resultFileCategory, scoredResultCategories, type ScoredResultCategory } from "../bfcl/results.js";
import type { Problem } from "../messages/index.js";
import { discoverBfclTree, type ModelFiles, type TreeKind } from "./bfcl-tree.js";

/** The candidate files of one model, per category, in the order found (earlier `--results` first). */
export type ModelCandidates = ModelFiles;

const resultTree: TreeKind = {
  rootFolder: "result",
  categoryOf: (name) => {
    const c = resultFileCategory(name);
    return c && (scoredResultCategories as readonly string[]).includes(c.category) ? (c.category as ScoredResultCategory) : null;
  },
  missing: { code: "results-missing", message: "results directory not found" },
  empty: { code: "results-empty", message: "no BFCL multi-turn result files (BFCL_v4_multi_turn_<category>_result.json) under this directory" },
};

/**
 * Discover result files under each of `dirs` (resolved against `cwd`). Returns the
 * models in first-found order with all candidate copies per category, and problems for
 * directories that do not exist or hold no result files.
 */
export function discoverResultFiles(dirs: readonly string[], cwd: string): { models: ModelCandidates[]; problems: Problem[] } {
  return discoverBfclTree(dirs, cwd, resultTree);
}
