/**
 * BFCL score files (`bfcl evaluate` output): the header line with accuracy and counts, then one line per
 * FAILED entry only. More in this folder's README.md.
 */
import { promptTurnQueries, type TurnQueries } from "./inference-log.js";
import { counted, LineProblems, problem, type Problem } from "../messages/index.js";
import { jsonNestsDeeperThan } from "../python/json.js";
import { JSON_DECODE_MAX_DEPTH } from "../python/limits.js";

/** The header line: `{"accuracy", "correct_count", "total_count"}`. */
export interface ScoreHeader {
  readonly accuracy: number;
  readonly correctCount: number;
  readonly totalCount: number;
}

/** Runner-level failures carry no failing turn. */
export const runnerLevelErrorTypes = ["multi_turn:inference_error", "multi_turn:force_terminated"] as const;

/** One failed entry as the companion uses it. */
export interface FailedEntry {
  readonly id: string;
  /** BFCL's `error.error_type`, e.g. `multi_turn:instance_state_mismatch`. */
  readonly errorType: string;
  /** BFCL's message (a one-element list for runner-level failures is unwrapped). */
  readonly errorMessage: string;
  /** 0-based turn the checker failed on; null for inference errors and force-termination. */
  readonly failingTurn: number | null;
  /** The whole `error` object, as `JSON.stringify` writes it. */
  readonly errorJson: string;
  /** 1-based line in the score file. */
  readonly line: number;
  /**
   * Further lines for the same entry: BFCL v3's runner writes an inference-error line and
   * goes on to the turn-count check, which may write a second line for the entry.
   */
  readonly more?: readonly FailedEntry[];
  /** The turns BFCL sent, from the entry's `prompt` when the line keeps one (see `promptTurnQueries`). */
  readonly promptTurns?: TurnQueries;
}

/** A parsed score file. */
export interface ScoreFileContent {
  readonly header: ScoreHeader;
  /** Failed entries by id, in file order. */
  readonly failed: ReadonlyMap<string, FailedEntry>;
}

const turnInMessage = /for turn (\d+)\b/;

/** The failing turn of a failure record, per BFCL's error type (see the module comment). */
export function failingTurnOf(errorType: string, errorMessage: string, executionRecords: number | null): number | null {
  if ((runnerLevelErrorTypes as readonly string[]).includes(errorType)) return null;
  if (errorType === "multi_turn:instance_state_mismatch")
    return executionRecords === null || executionRecords === 0 ? null : executionRecords - 1;
  const m = turnInMessage.exec(errorMessage);
  return m ? Number(m[1]) : null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Parse the header line; a problem names the file and line 1 when it is not BFCL's header. */
export function parseScoreHeader(text: string, file: string): ScoreHeader | Problem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return problem("score-header-malformed", 'first line is not JSON (expected {"accuracy", "correct_count", "total_count"})', {
      file,
      line: 1,
    });
  }
  if (
    !isRecord(value) ||
    typeof value.accuracy !== "number" ||
    !Number.isInteger(value.correct_count) ||
    !Number.isInteger(value.total_count)
  ) {
    return problem("score-header-malformed", "first line lacks accuracy, correct_count or total_count", { file, line: 1 });
  }
  return { accuracy: value.accuracy, correctCount: value.correct_count as number, totalCount: value.total_count as number };
}

/** Parse one failed-entry line. */
export function parseFailedLine(text: string, file: string, line: number): FailedEntry | Problem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return problem("score-line-malformed", "line is not JSON", { file, line });
  }
  // JSON.parse reads any depth; Python's json.loads (and String() of nested arrays below) stop
  if (text.length > 2 * JSON_DECODE_MAX_DEPTH && jsonNestsDeeperThan(value, JSON_DECODE_MAX_DEPTH)) {
    return problem("score-line-malformed", "line nests deeper than Python's json.loads reads (RecursionError)", { file, line });
  }
  if (!isRecord(value) || typeof value.id !== "string")
    return problem("score-line-malformed", "failed entry has no string id", { file, line });
  const error = value.error;
  if (!isRecord(error) || typeof error.error_type !== "string") {
    return problem("score-line-malformed", `failed entry ${value.id} has no error.error_type`, { file, line });
  }
  const rawMessage = error.error_message;
  const errorMessage = Array.isArray(rawMessage) ? rawMessage.map(String).join(" ") : typeof rawMessage === "string" ? rawMessage : "";
  const records = Array.isArray(error.execution_result) ? error.execution_result.length : null;
  const entry: FailedEntry = {
    id: value.id,
    errorType: error.error_type,
    errorMessage,
    failingTurn: failingTurnOf(error.error_type, errorMessage, records),
    errorJson: JSON.stringify(error),
    line,
  };
  const promptTurns = promptTurnQueries(value.prompt);
  return promptTurns === null ? entry : { ...entry, promptTurns };
}

/**
 * Parse a whole score file. Malformed failed lines — a file cut mid-line among them —
 * are returned as problems (and left out; the caller decides whether what is left can
 * be used); a malformed header or a repeated id makes the file unusable (null content).
 */
export function parseScoreFile(text: string, file: string): { content: ScoreFileContent | null; problems: Problem[] } {
  const lines = text.split("\n");
  const header = parseScoreHeader(lines[0] ?? "", file);
  if ("code" in header) return { content: null, problems: [header] };
  const failed = new Map<string, FailedEntry>();
  const problems = new LineProblems();
  for (let i = 1; i < lines.length; i++) {
    const t = lines[i];
    if (t.trim() === "") continue;
    const entry = parseFailedLine(t, file, i + 1);
    if ("code" in entry) {
      const cut = i === lines.length - 1 && !text.endsWith("\n") && entry.message === "line is not JSON";
      problems.push(cut ? problem("score-file-truncated", "the file ends inside a line (cut short?)", { file, line: i + 1 }) : entry);
      continue;
    }
    const earlier = failed.get(entry.id);
    if (earlier !== undefined) {
      // BFCL v3 follows an inference-error line with the turn-count check's line; anything else is a broken file
      if (earlier.errorType === "multi_turn:inference_error" && earlier.more === undefined) {
        failed.set(entry.id, { ...earlier, more: [entry] });
        continue;
      }
      problems.push(problem("score-id-repeated", `failed entry ${entry.id} appears twice`, { file, line: i + 1 }));
      return { content: null, problems: problems.toArray() };
    }
    failed.set(entry.id, entry);
  }
  return { content: { header, failed }, problems: problems.toArray() };
}

/** The official verdict of one item. */
export interface OfficialVerdict {
  readonly pass: boolean;
  /** Present when the item failed. */
  readonly failure: FailedEntry | null;
}

/**
 * Cross-check a score file against the ids of its result file: total_count must equal
 * the result lines, correct_count the lines minus the failures, and every failed id must
 * be in the result file. Returns the verdict of every result id.
 */
export function verdictsOf(
  content: ScoreFileContent,
  resultIds: readonly string[],
  where: { scoreFile: string; resultFile: string },
): { verdicts: Map<string, OfficialVerdict>; problems: Problem[] } {
  const problems = new LineProblems();
  const { header, failed } = content;
  if (header.totalCount !== resultIds.length) {
    problems.push(
      problem(
        "score-count-mismatch",
        `header total_count ${header.totalCount} but the result file ${where.resultFile} has ${counted(resultIds.length, "line")}`,
        {
          file: where.scoreFile,
          line: 1,
        },
      ),
    );
  }
  if (header.correctCount !== header.totalCount - failed.size) {
    problems.push(
      problem(
        "score-count-mismatch",
        `header correct_count ${header.correctCount} but total_count ${header.totalCount} minus ${failed.size} failed entries is ${header.totalCount - failed.size}`,
        {
          file: where.scoreFile,
          line: 1,
        },
      ),
    );
  }
  const ids = new Set(resultIds);
  for (const entry of failed.values()) {
    if (!ids.has(entry.id))
      problems.push(
        problem("score-id-unknown", `failed entry ${entry.id} has no line in ${where.resultFile}`, {
          file: where.scoreFile,
          line: entry.line,
        }),
      );
  }
  const verdicts = new Map<string, OfficialVerdict>();
  for (const id of resultIds) {
    const failure = failed.get(id) ?? null;
    verdicts.set(id, { pass: failure === null, failure });
  }
  return { verdicts, problems: problems.toArray() };
}
