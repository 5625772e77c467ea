/**
 * One source of messages. Every problem the tool reports is a `Problem` with a stable
 * code; `renderProblemLine` turns it into the single line a terminal user sees, and the
 * HTML report renders the same fields, so wording never drifts between the two.
 */

/** How bad a problem is: an `error` stops the unit it concerns, a `warning` is counted and reported. */
export type Severity = "error" | "warning";

/** A located, coded problem. `file`/`line` are set wherever the input has them. */
export interface Problem {
  /** Stable machine-readable code, e.g. `json-malformed`, `file-missing`. */
  readonly code: string;
  readonly severity: Severity;
  /** Human sentence without location; no trailing period needed. */
  readonly message: string;
  readonly file?: string;
  /** 1-based line number within `file`. */
  readonly line?: number;
}

/** Build a problem; a small helper so call sites stay one line. */
export function problem(
  code: string,
  message: string,
  where: { file?: string; line?: number; severity?: Severity } = {},
): Problem {
  return {
    code,
    severity: where.severity ?? "error",
    message,
    ...(where.file !== undefined ? { file: where.file } : {}),
    ...(where.line !== undefined ? { line: where.line } : {}),
  };
}

/**
 * A line that reports what was done rather than what went wrong (a file written, the
 * decoder detected for a model, a summary of requests): printed in the same form as a
 * problem, with `note` where a problem says `error` or `warning`, so every message line a
 * command writes on stderr reads and greps the same way. Never part of a document's problems.
 */
export interface Note {
  readonly code: string;
  readonly severity: "note";
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
}

/** Build a note. */
export function note(code: string, message: string, where: { file?: string; line?: number } = {}): Note {
  return { code, severity: "note", message, ...(where.file !== undefined ? { file: where.file } : {}), ...(where.line !== undefined ? { line: where.line } : {}) };
}

/** `file:line: severity: message [code]` — the one-line form of every message on stderr. */
export function renderProblemLine(p: Problem | Note): string {
  const where = p.file !== undefined ? (p.line !== undefined ? `${p.file}:${p.line}: ` : `${p.file}: `) : "";
  return `${where}${p.severity}: ${p.message} [${p.code}]`;
}

/** Count problems per code, for the summaries printed after long work. */
export function countByCode(problems: readonly Problem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of problems) counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
  return counts;
}
