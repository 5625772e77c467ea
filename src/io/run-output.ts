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
import { findResultFiles } from "./check-run.js";
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

/**
 * First-step input token counts (`input_token_count[0][0]`) of every result line below a
 * result tree, by model (named as the tree walk names it) then id; null for a line
 * without one (an error line).
 */
export function firstStepTokensByModel(root: string): Map<string, Map<string, number | null>> {
  const out = new Map<string, Map<string, number | null>>();
  for (const f of findResultFiles(root).files) {
    const text = readTextIfFile(f.path);
    if (text === null) continue;
    const byId = out.get(f.name) ?? new Map<string, number | null>();
    out.set(f.name, byId);
    for (const l of text.split("\n")) {
      if (l.trim() === "") continue;
      try {
        const v = JSON.parse(l) as { id?: unknown; input_token_count?: unknown };
        if (typeof v.id !== "string") continue;
        const first = Array.isArray(v.input_token_count) && Array.isArray(v.input_token_count[0]) ? v.input_token_count[0][0] : null;
        byId.set(v.id, typeof first === "number" ? first : null);
      } catch {
        // a line that is not JSON has no count; the readers of `score` report it
      }
    }
  }
  return out;
}
