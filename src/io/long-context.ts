/**
 * Finding and reading BFCL's `long_context.py` in the user's installation. Its filler
 * text is BFCL's, so twinscore never ships it: `check` of a long_context result file
 * needs an installation. The module is located from (first hit wins) an explicit
 * `bfcl_eval` package folder, `BFCL_EVAL_DIR`, the parent of the BFCL data folder
 * (`<bfcl_eval>/data`), or `python3 -c "import bfcl_eval"`.
 */
import { dirname, join, resolve } from "node:path";
import { err, ok, problem, type Result } from "../messages/index.js";
import { findBfclEvalPackageDir } from "./bfcl-data.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";

/** Where the module sits inside a `bfcl_eval` package folder. */
export const LONG_CONTEXT_RELATIVE = join("eval_checker", "multi_turn_eval", "func_source_code", "long_context.py");

/** The module path inside a folder that is either the `bfcl_eval` package or a checkout holding it; null if absent. */
export function longContextPathIn(dir: string, fs: FileSystem = nodeFileSystem): string | null {
  for (const candidate of [
    join(dir, LONG_CONTEXT_RELATIVE),
    join(dir, "bfcl_eval", LONG_CONTEXT_RELATIVE),
    join(dir, "berkeley-function-call-leaderboard", "bfcl_eval", LONG_CONTEXT_RELATIVE),
  ]) {
    if (fs.exists(candidate)) return candidate;
  }
  return null;
}

/**
 * Locate long_context.py: `flag` (a bfcl_eval folder or checkout), else `BFCL_EVAL_DIR`,
 * else beside the data folder, else the Python installation. Null when none has it.
 */
export function findLongContextModule(opts: {
  flag?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  dataDir?: string | null;
  askPython?: boolean;
  /** Where a `bfcl_eval` installation is (default: ask Python). */
  findPackage?: (python: string) => string | null;
  fs?: FileSystem;
}): string | null {
  const fs = opts.fs ?? nodeFileSystem;
  const dirs: string[] = [];
  if (opts.flag) dirs.push(resolve(opts.cwd, opts.flag));
  if (opts.env.BFCL_EVAL_DIR) dirs.push(resolve(opts.cwd, opts.env.BFCL_EVAL_DIR));
  if (opts.dataDir) dirs.push(dirname(resolve(opts.cwd, opts.dataDir)));
  for (const d of dirs) {
    const p = longContextPathIn(d, fs);
    if (p) return p;
  }
  if (opts.askPython === false) return null;
  const pkg = (opts.findPackage ?? findBfclEvalPackageDir)(opts.env.TWINSCORE_PYTHON || "python3");
  return pkg ? longContextPathIn(pkg, fs) : null;
}

/** The text of the module at `path` (parsed by `app/bfcl-inputs.ts`). */
export function readLongContextText(path: string, fs: FileSystem = nodeFileSystem): Result<string> {
  if (!fs.exists(path)) return err(problem("file-missing", "long_context.py not found", { file: path }));
  return ok(fs.readText(path));
}
