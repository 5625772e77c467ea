/**
 * Finding and reading a BFCL data directory. The directory comes from `--bfcl-data`,
 * else `BFCL_DATA_DIR`, else the `data/` folder of a Python `bfcl_eval` installation
 * found through `python3`. Reading hands the file texts to the pure parser in
 * `src/bfcl/data.ts`, which does every check.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { detectVersion, parseBfclData, type BfclData, type MultiTurnCategory } from "../bfcl/data.js";
import { err, problem, type Result } from "../messages/index.js";

/** Where the directory came from, so commands can say which one they used. */
export type BfclDataOrigin = "--bfcl-data" | "BFCL_DATA_DIR" | "bfcl_eval";

/** A resolved data directory. */
export interface BfclDataLocation {
  readonly dir: string;
  readonly origin: BfclDataOrigin;
}

/**
 * Ask `python3` where `bfcl_eval` is installed and return its `data/` folder, or null
 * when there is no python3, no such package, or no data folder. Never throws.
 */
export function findBfclEvalDataDir(python = "python3"): string | null {
  try {
    const out = execFileSync(python, ["-c", "import bfcl_eval, os; print(os.path.dirname(bfcl_eval.__file__))"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 20_000,
    }).trim();
    const dir = join(out, "data");
    return out !== "" && existsSync(dir) ? dir : null;
  } catch {
    return null;
  }
}

/**
 * Resolve the data directory: the flag (relative to `cwd`), else the environment
 * variable, else a Python installation (`findPython` is injectable for tests). Returns
 * null when none is given and none is installed. `TWINSCORE_PYTHON` in `env` names the
 * Python to ask (a virtualenv's, say) instead of `python3` on the PATH.
 */
export function resolveBfclDataDir(opts: {
  flag?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  findPython?: () => string | null;
}): BfclDataLocation | null {
  if (opts.flag !== undefined && opts.flag !== "") return { dir: resolve(opts.cwd, opts.flag), origin: "--bfcl-data" };
  const fromEnv = opts.env.BFCL_DATA_DIR;
  if (fromEnv !== undefined && fromEnv !== "") return { dir: resolve(opts.cwd, fromEnv), origin: "BFCL_DATA_DIR" };
  const found = (opts.findPython ?? (() => findBfclEvalDataDir(opts.env.TWINSCORE_PYTHON || "python3")))();
  return found ? { dir: found, origin: "bfcl_eval" } : null;
}

/** Read and validate the given categories (plus all function docs) of a data directory. */
export function readBfclDataDir(dir: string, categories: readonly MultiTurnCategory[]): Result<BfclData> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return err(problem("file-missing", "BFCL data directory not found", { file: dir }));
  }
  const version = detectVersion(dir, readdirSync(dir));
  if (!version.ok) return version;
  const read = (rel: string): string | null => {
    const p = join(dir, rel);
    return existsSync(p) && statSync(p).isFile() ? readFileSync(p, "utf8") : null;
  };
  return parseBfclData(version.value, categories, read, (rel) => join(dir, rel));
}
