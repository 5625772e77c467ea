/**
 * The file side of `twinscore run`: the result files it appends to and resumes from, and
 * the places it reads BFCL's own texts from (the data folder, the installation's prompt
 * module). Lines are appended whole, one write each, so a kill leaves at most one torn
 * last line, which the next run cuts off before appending.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, truncateSync } from "node:fs";
import { dirname, join } from "node:path";
import { err, ok, problem, type Result } from "../messages/index.js";
import { readExistingLines, type ExistingLines } from "../rollout/lines.js";
import { findBfclEvalPackageDir } from "./bfcl-data.js";
import { readTextIfFile, writeFileAtomic } from "./manifest.js";

export { readTextIfFile, writeFileAtomic };

/**
 * Open a result file for appending: create its folder, read what it holds, and cut a
 * torn last line off (the file then ends with a newline or is empty).
 */
export function openResultFile(path: string): Result<ExistingLines> {
  try {
    mkdirSync(dirname(path), { recursive: true });
    if (!existsSync(path)) return ok(readExistingLines(""));
    if (!statSync(path).isFile()) return err(problem("not-a-file", "the result path exists and is not a regular file", { file: path }));
    const text = readFileSync(path, "utf8");
    const existing = readExistingLines(text);
    if (existing.torn) truncateSync(path, Buffer.byteLength(text.slice(0, existing.intactLength), "utf8"));
    return ok(existing);
  } catch (e) {
    return err(problem("write-failed", `cannot open for appending: ${e instanceof Error ? e.message : String(e)}`, { file: path }));
  }
}

/** Append one whole line (a single write). */
export function appendLine(path: string, text: string): void {
  appendFileSync(path, text);
}

/** BFCL's prompt module in the user's installation (`bfcl_eval/constants/default_prompts.py`), or null. */
export function findBfclPromptsFile(python = "python3"): string | null {
  const pkg = findBfclEvalPackageDir(python);
  const file = pkg === null ? null : join(pkg, "constants", "default_prompts.py");
  return file !== null && existsSync(file) ? file : null;
}
