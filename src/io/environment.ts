/**
 * The process's working folder and environment, for library callers that give neither:
 * the use cases (`src/app/`) never touch `process` themselves, so tests and the CLI pass
 * their own and a library user gets the process's.
 */

/** The folder relative paths are resolved against. */
export function processCwd(): string {
  return process.cwd();
}

/** The environment variables (`BFCL_DATA_DIR`, `TWINSCORE_PYTHON`, API keys by name). */
export function processEnv(): Record<string, string | undefined> {
  return process.env;
}
