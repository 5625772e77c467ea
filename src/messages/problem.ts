/**
 * One source of messages. Every problem the tool reports is a `Problem` with a stable
 * code; `renderProblemLine` turns it into the single line a terminal user sees, and the
 * HTML report renders the same fields, so wording never drifts between the two.
 */

import type { ProblemCode } from "./codes.js";

export type { ProblemCode } from "./codes.js";

/** How bad a problem is: an `error` stops the unit it concerns, a `warning` is counted and reported. */
export type Severity = "error" | "warning";

/** A located, coded problem. `file`/`line` are set wherever the input has them. */
export interface Problem {
  /** Stable machine-readable code, e.g. `json-malformed`, `file-missing` (`codes.ts` lists them all). */
  readonly code: ProblemCode;
  readonly severity: Severity;
  /** Human sentence without location; no trailing period needed. */
  readonly message: string;
  readonly file?: string;
  /** 1-based line number within `file`. */
  readonly line?: number;
}

/** Build a problem; a small helper so call sites stay one line. */
export function problem(code: ProblemCode, message: string, where: { file?: string; line?: number; severity?: Severity } = {}): Problem {
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
  return {
    code,
    severity: "note",
    message,
    ...(where.file !== undefined ? { file: where.file } : {}),
    ...(where.line !== undefined ? { line: where.line } : {}),
  };
}

/** C0 and C1 control characters and DEL: a terminal acts on them (a title set, the screen cleared, a line forged). */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * A text as a terminal may show it: each control character written as the escape JSON
 * gives it (`\n`, `\u001b`), as `score` quotes ids, so a folder name or an id from a file
 * can neither drive the terminal nor break a message into a forged line.
 */
export function visibleText(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (c) => JSON.stringify(c).slice(1, -1));
}

/** `file:line: severity: message [code]` — the one-line form of every message on stderr (control characters made visible). */
export function renderProblemLine(p: Problem | Note): string {
  const where = p.file !== undefined ? (p.line !== undefined ? `${p.file}:${p.line}: ` : `${p.file}: `) : "";
  return visibleText(`${where}${p.severity}: ${p.message} [${p.code}]`);
}

/** Count problems per code, for the summaries printed after long work. */
export function countByCode(problems: readonly Problem[]): Map<ProblemCode, number> {
  const counts = new Map<ProblemCode, number>();
  for (const p of problems) counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
  return counts;
}

/**
 * Append every item of `items` to `target`, one by one: `target.push(...items)` passes each
 * item as an argument, and past about a hundred thousand of them (a file of bad lines)
 * the call overflows the stack.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** How many problems of one code one file keeps in full before the rest are summed up in one. */
export const LINE_PROBLEMS_IN_FULL = 1000;

/**
 * The per-line problems of one file, bounded: the first `inFull` of each code are kept as
 * they are, the rest of that code become one problem of the same code and severity naming
 * their lines (as ranges). A file of a million bad lines then costs a thousand problems,
 * not a million, and says where every one of them is.
 */
export class LineProblems {
  private readonly kept: Problem[] = [];
  private readonly extra = new Map<ProblemCode, { first: Problem; lines: [number, number][]; count: number }>();
  private readonly perCode = new Map<string, number>();
  private readonly withdrawn = new Set<Problem>();
  private readonly keptSet = new Set<Problem>();

  constructor(private readonly inFull = LINE_PROBLEMS_IN_FULL) {}

  /** Record one problem. */
  push(p: Problem): void {
    const seen = this.perCode.get(p.code) ?? 0;
    this.perCode.set(p.code, seen + 1);
    if (seen < this.inFull) {
      this.kept.push(p);
      this.keptSet.add(p);
      return;
    }
    let more = this.extra.get(p.code);
    if (more === undefined) this.extra.set(p.code, (more = { first: p, lines: [], count: 0 }));
    more.count++;
    if (p.line === undefined) return;
    const last = more.lines[more.lines.length - 1];
    if (last !== undefined && last[1] + 1 === p.line) last[1] = p.line;
    else more.lines.push([p.line, p.line]);
  }

  /** Take back a problem recorded before (a line another line replaced): it is left out, or no longer counted among the summed-up ones. */
  withdraw(p: Problem): void {
    const seen = this.perCode.get(p.code) ?? 0;
    if (seen === 0 || this.withdrawn.has(p)) return;
    this.perCode.set(p.code, seen - 1);
    if (this.keptSet.has(p)) this.withdrawn.add(p);
    else {
      const more = this.extra.get(p.code);
      if (more !== undefined) more.count--;
    }
  }

  /** How many problems were recorded, the summed-up ones included. */
  get count(): number {
    let n = 0;
    for (const c of this.perCode.values()) n += c;
    return n;
  }

  /** Whether any recorded problem is an error. */
  hasError(): boolean {
    return this.kept.some((p) => p.severity === "error" && !this.withdrawn.has(p));
  }

  /** The problems kept, then one per code for the rest. */
  toArray(): Problem[] {
    const out = this.withdrawn.size === 0 ? [...this.kept] : this.kept.filter((p) => !this.withdrawn.has(p));
    for (const [code, more] of this.extra) {
      if (more.count === 0) continue;
      const { first } = more;
      out.push({
        code,
        severity: first.severity,
        message: `${more.count} more line${more.count === 1 ? "" : "s"} with this problem (the first ${this.inFull} are listed; the next: ${first.message})${more.lines.length > 0 ? `: ${lineRanges(more.lines)}` : ""}`,
        ...(first.file !== undefined ? { file: first.file } : {}),
      });
    }
    return out;
  }
}

/** Line ranges as `lines 7, 9–12, …` (the first 20 ranges, then how many more). */
function lineRanges(ranges: readonly [number, number][]): string {
  const shown = ranges.slice(0, 20).map(([a, b]) => (a === b ? String(a) : `${a}–${b}`));
  const rest = ranges.length - shown.length;
  return `line${ranges.length === 1 && ranges[0][0] === ranges[0][1] ? "" : "s"} ${shown.join(", ")}${rest > 0 ? ` and ${rest} more range${rest === 1 ? "" : "s"}` : ""}`;
}
