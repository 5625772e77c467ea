/**
 * Where the tests find the real data: `../shared` beside the project root (or
 * `TWINSCORE_SHARED`). Tests that need it call these and fail loudly when it is
 * missing — they never skip silently.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The project root (the folder holding package.json). */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Absolute path of the shared data folder; throws with a clear message when absent. */
export function sharedDir(): string {
  const dir = process.env.TWINSCORE_SHARED ?? resolve(projectRoot, "..", "shared");
  if (!existsSync(dir)) {
    throw new Error(`shared data folder not found at ${dir}: the tests need ../shared beside the project root`);
  }
  return dir;
}

/** A path inside the shared folder that must exist. */
export function sharedPath(...parts: string[]): string {
  const p = join(sharedDir(), ...parts);
  if (!existsSync(p)) throw new Error(`missing shared data: ${p}`);
  return p;
}

/** The BFCL v4 data directory the tests read. */
export function bfclDataDir(): string {
  return sharedPath("bfcl-v4");
}

/** The two real gpt-oss runs, by name. */
export const rolloutRuns = ["2025-11-12-main", "2025-11-12-harmony-fixes"] as const;

/** A run's root (holding `result/` and `score/`). */
export function rolloutRunDir(run: (typeof rolloutRuns)[number]): string {
  return sharedPath("rollouts", "gpt-oss", run);
}
