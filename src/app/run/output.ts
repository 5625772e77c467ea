/**
 * What a run writes: each generated line as it goes into its file (the mode, and the
 * trial with several, ending it; keys redacted), the final rewrite of each file in BFCL's
 * order, and the notes of its error lines.
 */
import { problem, type Problem } from "../../messages/index.js";
import { PyDict } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { MODE_KEY, TRIAL_KEY } from "../../bfcl/line-keys.js";
import { compareIds, errorLine, renderLine, resultFileName, runCategories, withPlayedKeys } from "../../rollout/index.js";
import type { RunSettings } from "../../rollout/run-record.js";
import type { ResultFileOps } from "../../io/run-output.js";
import type { Host } from "../../io/host.js";
import { redactPyValue, type Redactor } from "../../io/secrets.js";
import { categoryOfId, type Job } from "./plan.js";
import type { ErrorLineNote, RunFileSummary } from "./types.js";

/** The note of an error line: its id, its anchor (reference history) and trial (several trials) when it has them, BFCL's message. */
export function errorNote(job: Job, message: string): ErrorLineNote {
  return {
    id: job.id,
    ...(job.anchorTurn === null ? {} : { anchorTurn: job.anchorTurn }),
    ...(job.trial === null ? {} : { trial: job.trial }),
    message,
  };
}

/** Error notes in the files' order: id, then anchor, then trial. */
export function byIdAndAnchor(a: ErrorLineNote, b: ErrorLineNote): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : (a.anchorTurn ?? -1) - (b.anchorTurn ?? -1) || (a.trial ?? -1) - (b.trial ?? -1);
}

/** The keys `run` ends every line with: the mode that made it (it chooses the decoder its steps are read with), and its trial when the run has several. */
function endKeys(line: PyDict, mode: RunSettings["mode"], trial: number | null): PyDict {
  line.set(MODE_KEY, mode);
  if (trial !== null) line.set(TRIAL_KEY, BigInt(trial));
  return line;
}

/**
 * A generated line as written: rendered, with every key redacted from it (a key a tool
 * echoed, or one split across values, never reaches the file); a line that cannot be
 * rendered — nested deeper than `json.dumps` goes, or longer than a JavaScript string —
 * becomes the entry's error line instead, so one entry never stops the run.
 */
export function writableLine(
  job: Job,
  line: PyDict,
  redactor: Redactor,
  mode: RunSettings["mode"],
): { text: string; error: string | null } {
  let text: string;
  try {
    text = renderLine(endKeys(line, mode, job.trial));
  } catch (e) {
    let message: string;
    if (e instanceof PyException) message = e.pyMessage;
    else if (e instanceof RangeError)
      message = /call stack/i.test(e.message)
        ? "maximum recursion depth exceeded while encoding a JSON object"
        : `MemoryError: the result line is too long to write (${e.message})`;
    else throw e;
    const failed = errorLine(
      job.id,
      message,
      "twinscore run: the entry's result line could not be written (no Python traceback; BFCL records one)",
    );
    const keyed = job.anchorTurn === null ? failed : withPlayedKeys(failed, job.anchorTurn);
    return { text: renderLine(endKeys(keyed, mode, job.trial)), error: message };
  }
  if (redactor.finds(text)) text = renderLine(redactPyValue(line, redactor) as PyDict);
  return { text, error: null };
}

/** Rewrite every result file of the folder in BFCL's order (on a signal, too: the files then stay in their final form). */
export function rewriteAll(folder: string, host: Host, fileOps?: ResultFileOps): void {
  for (const c of runCategories) {
    const path = `${folder}/${resultFileName(c)}`;
    if (host.files.exists(path)) host.rewriteSorted(path, compareIds, fileOps);
  }
}

/**
 * The final order: BFCL's sort of what is on disk now, every line key once (a retried
 * error line replaced by its rerun); per file, the lines generated and resumed among the
 * jobs. A failed rewrite stops at that file, as a problem.
 */
export function finalFiles(
  folder: string,
  jobs: readonly Job[],
  generatedKeys: ReadonlySet<string>,
  resumedKeys: ReadonlySet<string>,
  host: Host,
  fileOps?: ResultFileOps,
): { files: RunFileSummary[]; failed: Problem | null } {
  const files: RunFileSummary[] = [];
  for (const c of runCategories) {
    const path = `${folder}/${resultFileName(c)}`;
    if (!host.files.exists(path)) continue;
    const rewritten = host.rewriteSorted(path, compareIds, fileOps);
    if (!rewritten.ok) return { files, failed: rewritten.problems[0] };
    if (rewritten.value.lines === 0) continue;
    const inCategory = (job: Job) => categoryOfId(job.id) === c;
    files.push({
      category: c,
      path,
      lines: rewritten.value.lines,
      generated: jobs.filter((j) => inCategory(j) && generatedKeys.has(j.key)).length,
      resumed: jobs.filter((j) => inCategory(j) && resumedKeys.has(j.key)).length,
      errors: rewritten.value.errors,
    });
  }
  return { files, failed: null };
}

/** The line that says a run stopped early: why, how far it got, and how to go on. */
export function stoppedProblem(
  halted: Problem,
  writeFailed: boolean,
  generated: number,
  pending: number,
  lineWord: string,
  errors: readonly ErrorLineNote[],
): Problem {
  const notGenerated = pending - generated;
  const inRow = errors.filter((e) => e.message === "Connection error." || e.message === "user simulator: Connection error.").length;
  return problem(
    halted.code,
    `${halted.message} after ${generated} of ${pending} ${lineWord}; ${notGenerated} not generated. The lines written are kept${writeFailed ? "" : ", whole and in BFCL's order"}; rerun the same command to go on${inRow > 0 ? ` (add --retry-errors to generate the ${inRow} connection-error lines again)` : ""}`,
  );
}
