/**
 * Finding and reading a BFCL data directory. The directory comes from `--bfcl-data`,
 * else `BFCL_DATA_DIR`, else the `data/` folder of a Python `bfcl_eval` installation
 * found through `python3`. Reading hands the file texts to the pure parser in
 * `src/bfcl/data.ts`, which does every check.
 */
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  answersFile,
  detectVersion,
  docFile,
  multiTurnDocFiles,
  parseBfclData,
  questionsFile,
  type BfclData,
  type BfclVersion,
  type MultiTurnCategory,
  type MultiTurnClass,
} from "../bfcl/data.js";
import { err, ok, problem, type Problem, type Result } from "../messages/index.js";
import { readTextIfFile } from "./files.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";

/** Where the directory came from, so commands can say which one they used. */
export type BfclDataOrigin = "--bfcl-data" | "BFCL_DATA_DIR" | "bfcl_eval";

/** A resolved data directory. */
export interface BfclDataLocation {
  readonly dir: string;
  readonly origin: BfclDataOrigin;
}

/**
 * Ask a Python interpreter where the `bfcl_eval` package is installed; its folder, or
 * null when there is no such interpreter or package. Never throws. (Both the data folder
 * and long_context.py are found from it.)
 */
export function findBfclEvalPackageDir(python = "python3"): string | null {
  try {
    // node:child_process is loaded only when Python must be asked (about 6 ms to load)
    const { execFileSync } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
    const out = execFileSync(python, ["-c", "import bfcl_eval, os; print(os.path.dirname(bfcl_eval.__file__))"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 20_000,
    }).trim();
    return out === "" ? null : out;
  } catch {
    return null;
  }
}

/**
 * Ask `python3` where `bfcl_eval` is installed and return its `data/` folder, or null
 * when there is no python3, no such package, or no data folder. Never throws.
 */
export function findBfclEvalDataDir(python = "python3"): string | null {
  const pkg = findBfclEvalPackageDir(python);
  const dir = pkg === null ? null : join(pkg, "data");
  return dir !== null && existsSync(dir) ? dir : null;
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

/** The one problem of a data folder that does not exist (or is not a folder); null when it is one. */
export function missingDataFolder(dir: string, fs: FileSystem = nodeFileSystem): Problem | null {
  return fs.exists(dir) && fs.stat(dir).isDirectory() ? null : problem("file-missing", "BFCL data directory not found", { file: dir });
}

/**
 * Read and validate the given categories (plus all function docs) of a data directory;
 * `onRead` hears the path of each file read (a command that writes must not write over one).
 */
export function readBfclDataDir(
  dir: string,
  categories: readonly MultiTurnCategory[],
  onRead?: (file: string) => void,
  fs: FileSystem = nodeFileSystem,
): Result<BfclData> {
  if (!fs.exists(dir) || !fs.stat(dir).isDirectory()) {
    return err(problem("file-missing", "BFCL data directory not found", { file: dir }));
  }
  const version = detectVersion(dir, fs.list(dir));
  if (!version.ok) return version;
  const read = (rel: string): string | null => {
    onRead?.(join(dir, rel));
    return readTextIfFile(join(dir, rel), fs);
  };
  return parseBfclData(version.value, categories, read, (rel) => join(dir, rel));
}

/** The texts of one category's questions and references, with every class's function docs, and where they were read from. */
export interface CategoryTexts {
  readonly questions: string;
  readonly questionsPath: string;
  readonly answers: string;
  readonly answersPath: string;
  /** Function-doc text by class. */
  readonly docs: Map<string, string>;
}

/**
 * One category's questions and references, with every class's function docs, read from a
 * data folder (prepared for the checker by `app/bfcl-inputs.ts`). A missing file is one
 * problem naming it.
 */
export function readCategoryTexts(
  dataDir: string,
  version: BfclVersion,
  category: MultiTurnCategory,
  fs: FileSystem = nodeFileSystem,
): Result<CategoryTexts> {
  const read = (rel: string): string | null => readTextIfFile(join(dataDir, rel), fs);
  const qRel = questionsFile(version, category);
  const aRel = answersFile(version, category);
  const qText = read(qRel);
  const aText = read(aRel);
  if (qText === null) return err(problem("file-missing", "BFCL questions file missing", { file: join(dataDir, qRel) }));
  if (aText === null) return err(problem("file-missing", "BFCL reference file missing", { file: join(dataDir, aRel) }));
  const docs = new Map<string, string>();
  for (const cls of Object.keys(multiTurnDocFiles) as MultiTurnClass[]) {
    const text = read(docFile(cls));
    if (text === null) return err(problem("file-missing", "BFCL function-doc file missing", { file: join(dataDir, docFile(cls)) }));
    docs.set(cls, text);
  }
  return ok({ questions: qText, questionsPath: join(dataDir, qRel), answers: aText, answersPath: join(dataDir, aRel), docs });
}

/** The file names of a data folder; one problem when it cannot be read. */
export function listDataFolder(dataDir: string, fs: FileSystem = nodeFileSystem): Result<string[]> {
  try {
    return ok(fs.list(dataDir));
  } catch (e) {
    return err(
      problem(
        "file-missing",
        `BFCL data directory cannot be read (${e instanceof Error && "code" in e ? String((e as NodeJS.ErrnoException).code) : String(e)})`,
        { file: dataDir },
      ),
    );
  }
}
