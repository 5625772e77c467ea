/**
 * Resume: what the output folder already holds, whether this run may write into it (one
 * folder, one set of settings, one history), and which lines are still to generate. A
 * line is found by its key (id, anchor under `--history reference`, trial with several);
 * a kept error line is generated again only with `--retry-errors`.
 */
import { err, ok, problem, type Problem, type Result } from "../../messages/index.js";
import { resultFileName, runCategories, type LineReading, type RunCategory } from "../../rollout/index.js";
import type { HistorySource } from "../../bfcl/line-keys.js";
import type { RunRecord, RunSettings } from "../../rollout/run-record.js";
import type { ResultFileIndex } from "../../io/run-output.js";
import type { Host } from "../../io/host.js";
import { categoryOfId, type Job } from "./plan.js";
import { resumeRefusal } from "./provenance.js";
import { errorNote } from "./output.js";
import type { ErrorLineNote } from "./types.js";

/** What each category file of the folder holds (absent: no file yet). */
export type ExistingLines = ReadonlyMap<RunCategory, ResultFileIndex>;

/**
 * Open the folder's result files for resume: a temporary file of a killed final rewrite
 * removed, a line that is no result line kept with a warning, a line whose history keys
 * are malformed refused (resume could not tell which history made it).
 */
export function openOutput(folder: string, problems: Problem[], host: Host): Result<ExistingLines> {
  const leftOver = host.removeInterruptedRewrites(folder);
  if (!leftOver.ok) return leftOver;
  for (const file of leftOver.value)
    problems.push(
      problem(
        "rewrite-removed",
        "removed the temporary file of a final rewrite that was killed part-way (the result file beside it is whole)",
        { file, severity: "warning" },
      ),
    );
  const existing = new Map<RunCategory, ResultFileIndex>();
  for (const c of runCategories) {
    const path = `${folder}/${resultFileName(c)}`;
    const opened = host.openResultFile(path);
    if (!opened.ok) return opened;
    for (const l of opened.value.lines) {
      if (l.reading.kind === "other")
        problems.push(problem("line-malformed", "not a result line; kept as it is", { file: path, line: l.lineNo, severity: "warning" }));
      else if (l.reading.note !== null)
        problems.push(problem("line-kept", `${l.reading.note}; kept as it is`, { file: path, line: l.lineNo, severity: "warning" }));
    }
    const malformed = opened.value.lines.find((l) => l.reading.kind === "result" && l.reading.historyProblem !== undefined);
    if (malformed !== undefined && malformed.reading.kind === "result") {
      return err(
        problem(
          "history-malformed",
          `${malformed.reading.id}: ${malformed.reading.historyProblem}; resume cannot tell which history the line was generated with: correct the line or remove it`,
          {
            file: path,
            line: malformed.lineNo,
          },
        ),
      );
    }
    existing.set(c, opened.value);
  }
  return ok(existing);
}

/** Every line the files hold, as resume reads them. */
function readingsOf(existing: ExistingLines): LineReading[] {
  return [...existing.values()].flatMap((x) => x.lines.map((l) => l.reading));
}

/**
 * Why this run may not write into the folder, or null: settings other than the ones that
 * made it (`run.json`, else what its lines show), or lines of the other history.
 */
export function folderRefusal(
  folder: string,
  modelFolder: string,
  record: RunRecord | null,
  existing: ExistingLines,
  settings: RunSettings,
  history: HistorySource,
): Problem | null {
  const refusal = resumeRefusal(modelFolder, record, readingsOf(existing), settings);
  if (refusal !== null) return refusal;
  for (const [c, opened] of existing) {
    // one folder, one protocol: lines of both histories side by side would be read as one model's
    const other = opened.lines.find(
      (l) => l.reading.kind === "result" && (l.reading.anchorTurn !== undefined) !== (history === "reference"),
    );
    if (other !== undefined) {
      const theirs = history === "reference" ? "own" : "reference";
      return problem(
        "history-mixed",
        `the output holds lines generated with --history ${theirs}; a --history ${history} run needs a folder of its own (another --out or --model-dir)`,
        {
          file: `${folder}/${resultFileName(c)}`,
          line: other.lineNo,
        },
      );
    }
  }
  return null;
}

/** The jobs split by what the folder holds: to generate, kept (by key), and the kept error lines. */
export interface ResumeSplit {
  readonly pending: Job[];
  readonly resumedKeys: Set<string>;
  readonly keptErrors: ErrorLineNote[];
}

/** Which jobs the folder already holds a line for (kept), and which are to generate. */
export function splitJobs(jobs: readonly Job[], existing: ExistingLines, retryErrors: boolean): ResumeSplit {
  const pending: Job[] = [];
  const resumedKeys = new Set<string>();
  const keptErrors: ErrorLineNote[] = [];
  for (const job of jobs) {
    const old = existing.get(categoryOfId(job.id) as RunCategory)?.byKey.get(job.key)?.reading;
    if (old?.kind === "result" && !(retryErrors && old.isError)) {
      resumedKeys.add(job.key);
      if (old.isError) keptErrors.push(errorNote(job, old.errorMessage ?? ""));
    } else pending.push(job);
  }
  return { pending, resumedKeys, keptErrors };
}

/**
 * `--dry-run`: the jobs to generate from what the output holds, read without changing
 * anything (not even a torn last line), and the resume check a real run would make.
 */
export function pendingWithoutWriting(
  jobs: readonly Job[],
  folder: string,
  retryErrors: boolean,
  check: (lines: readonly LineReading[]) => Problem | null,
  host: Host,
): Result<readonly Job[]> {
  const indexes = new Map<RunCategory, ResultFileIndex>();
  for (const c of runCategories) {
    const path = `${folder}/${resultFileName(c)}`;
    if (host.files.exists(path)) indexes.set(c, host.scanResultFile(path));
  }
  const refusal = check([...indexes.values()].flatMap((x) => x.lines.map((l) => l.reading)));
  if (refusal !== null) return err(refusal);
  return ok(
    jobs.filter((job) => {
      const old = indexes.get(categoryOfId(job.id) as RunCategory)?.byKey.get(job.key)?.reading;
      return !(old?.kind === "result" && !(retryErrors && old.isError));
    }),
  );
}
