/**
 * What every use case shares: where relative paths and environment variables come from,
 * the manifest to score on, the bootstrap settings, and the exit code a document ends
 * with. A use case checks its whole request before it reads any input, so a bad argument
 * is reported before (and instead of) a screenful of input warnings.
 */
import type { DecoderName } from "../bfcl/decode/index.js";
import type { Manifest } from "../pairs/types.js";
import { err, ok, problem, type Problem, type Result } from "../messages/index.js";
import { DEFAULT_BOOTSTRAP, MAX_BOOTSTRAP_RESAMPLES, type BootstrapOptions } from "../stats/index.js";
import { processCwd, processEnv } from "../io/environment.js";
import { nodeHost, type Host } from "../io/host.js";
import { resolvePath } from "../io/paths.js";

/** Where a request's relative paths and environment variables come from (default: the process's). */
export interface RequestContext {
  /** Folder relative paths are resolved against. */
  readonly cwd?: string;
  /** Environment variables (`BFCL_DATA_DIR`, `TWINSCORE_PYTHON`, …). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The files the use case reads and writes (default: the real ones, `nodeHost()`; a test gives an in-memory one). */
  readonly host?: Host;
}

/** `--model`: only these models, by folder name, `<run>/<model>` or BFCL's model name, in this order (default: every model found). */
export interface ModelsOption {
  readonly models?: readonly string[];
}

/**
 * `--manifest`: one pair manifest for every model (default: the package's manifest of the BFCL
 * version each model's files name; rollouts generated on other data stop the command, unless
 * this forces one manifest).
 */
export interface ManifestOption {
  readonly manifest?: string;
}

/** `--decoder`: one BFCL handler decoder for every model; absent, each model folder's own (BFCL's registry, else detected from its steps). */
export interface DecoderOption {
  readonly decoder?: DecoderName;
}

/** A context with its defaults filled in. */
export interface Context {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly host: Host;
}

/** Fill in the process's folder, environment and files where the request gives none. */
export function contextOf(req: RequestContext): Context {
  return { cwd: req.cwd ?? processCwd(), env: req.env ?? processEnv(), host: req.host ?? nodeHost() };
}

/**
 * How a command ends: 0 done; 1 done with findings (a verify FAIL, a problem under
 * `--strict`, a model whose pairs are incomplete); 2 nothing usable (bad arguments,
 * missing or malformed input).
 */
export type ExitCode = 0 | 1 | 2;

/**
 * A problem when a request's list of folders is not a list of non-empty strings: a library
 * caller passing `results: "runs/"` would otherwise have each character taken for a folder
 * (`.` and `/` among them: the whole file system). The CLI always passes a list.
 */
export function folderListProblem(value: unknown, name: string): Problem | null {
  if (Array.isArray(value) && value.every((v) => typeof v === "string" && v !== "")) return null;
  const given =
    typeof value === "string"
      ? `a string (${JSON.stringify(value)}); give [${JSON.stringify(value)}]`
      : value === null
        ? "null"
        : Array.isArray(value)
          ? "a list with an entry that is not a non-empty string"
          : typeof value;
  return problem("bad-argument", `${name} must be a list of folders (string[]), not ${given}`);
}

/** The pair manifest of a request: the file named, or the package's committed one. */
export function manifestOf(path: string | undefined, ctx: Context): Result<Manifest> {
  return path === undefined ? ctx.host.loadCommittedManifest() : ctx.host.loadManifest(resolvePath(ctx.cwd, path));
}

/** Bootstrap settings with the paper's defaults; a problem when either is not a non-negative integer, or there are more resamples than the bound. */
export function bootstrapOf(given: Partial<BootstrapOptions> | undefined): Result<BootstrapOptions> {
  const resamples = given?.resamples ?? DEFAULT_BOOTSTRAP.resamples;
  const seed = given?.seed ?? DEFAULT_BOOTSTRAP.seed;
  if (!Number.isInteger(resamples) || resamples < 0 || resamples > MAX_BOOTSTRAP_RESAMPLES) {
    return err(badArgument(`--bootstrap must be an integer from 0 to ${MAX_BOOTSTRAP_RESAMPLES}${givenText(resamples)}`));
  }
  if (typeof seed === "number" ? !Number.isSafeInteger(seed) || seed < 0 : seed < 0n)
    return err(
      badArgument(
        // a number past 2^53 - 1 has already lost digits: the bound says why the one typed is refused
        `--seed must be ${typeof seed === "number" ? `an integer from 0 to ${Number.MAX_SAFE_INTEGER}` : "a non-negative integer"}${givenText(seed)}`,
      ),
    );
  return ok({ resamples, seed });
}

/**
 * Why a numeric argument is out of its bounds, or null (also for none given): an integer
 * (a safe one) or a finite number from `min` to `max`. Text that was not a plain decimal
 * number reaches here as NaN (the CLI's `integerOption` / `numberOption`).
 */
export function numberProblem(
  value: number | undefined,
  flag: string,
  min: number,
  integer: boolean,
  max = Number.POSITIVE_INFINITY,
): Problem | null {
  if (value === undefined) return null;
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isSafeInteger(value))) {
    const range = max === Number.POSITIVE_INFINITY ? `>= ${min}` : `from ${min} to ${max}`;
    return badArgument(
      `${flag} must be ${integer ? "an integer" : "a number"} ${range}${Number.isNaN(value) ? ` (got text that is not ${integer ? "a whole number" : "a decimal number"})` : `, got ${value}`}`,
    );
  }
  return null;
}

/** `, got 3` for a number given, nothing for text that was not a number at all (NaN). */
export function givenText(value: number | bigint): string {
  return typeof value === "number" && Number.isNaN(value) ? " (got text that is not a whole number)" : `, got ${String(value)}`;
}

/** A problem for a bad argument, in the words the CLI prints. */
export function badArgument(message: string): Problem {
  return problem("bad-argument", message);
}

/** Whether any problem is an error. */
export function hasError(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === "error");
}

/** Under `--strict` any problem met is a finding: a command that would end with 0 ends with 1. */
export function strictExitCode(exitCode: ExitCode, problems: readonly Problem[], strict: boolean | undefined): ExitCode {
  return strict === true && exitCode === 0 && problems.length > 0 ? 1 : exitCode;
}
