/**
 * Printing messages on stderr, the same way in every command, each line in the one form `renderProblemLine`
 * gives (`[file:line: ]severity: message [code]`). More in this folder's README.md.
 */
import { countByCode, counted, note, problem, renderProblemLine, type Note, type Problem, type ProblemCode } from "../messages/index.js";
import type { CliIo } from "./io.js";

const PROBLEM_LINES = 20;

/** The tree walk's warning for a folder reached twice: a tree of links can give hundreds, summed up in one line. */
const SAME_FOLDER = "same-folder";

/**
 * Warnings a user must see in full, never summed up with a model's routine warnings: those that say a number
 * may be read wrongly (decode failures, unparsed text calls, undecidable pairs, differences from BFCL's stored
 * verdicts, lines a score leaves out). More in this folder's README.md.
 */
const LISTED_IN_FULL = new Set<ProblemCode>([
  "decode-failures",
  "undecoded-steps",
  "text-calls",
  "not-bfcl-lines",
  "pair-undecidable",
  "verdicts-disagree",
  "error-details-differ",
  // lines a checker's score leaves out, with how many of the file's and why: a count of warnings would hide that
  "stopped-at-anchor",
  "played-from-reference",
  "score-stopped-at-anchor",
]);

function printLines(io: CliIo, lines: readonly (Problem | Note)[]): void {
  for (const p of lines) io.stderr(renderProblemLine(p) + "\n");
}

/** The first `cap` problems, then one line counting the rest by code (all of them when `cap` is null). */
function printCapped(io: CliIo, problems: readonly Problem[], cap: number | null): void {
  printLines(io, cap === null ? problems : problems.slice(0, cap));
  if (cap !== null && problems.length > cap) {
    const byCode = [...countByCode(problems)].map(([code, n]) => `${n} ${code}`).join(", ");
    const severity = problems[0].severity;
    const rest = problems.length - cap;
    io.stderr(
      renderProblemLine(
        problem("more", `${counted(rest, `more ${severity}`)} not shown (${problems.length} in all: ${byCode}); --verbose lists each`, {
          severity,
        }),
      ) + "\n",
    );
  }
}

/** The problems of one model's files, printed as one summary line unless `verbose`. */
export interface ModelProblems {
  readonly name: string;
  readonly problems: readonly Problem[];
}

/** A model and the files it was read from: its warnings located in those files are its own. */
export interface ModelFiles {
  readonly model: string;
  readonly files: readonly string[];
}

/**
 * Split problems into the ones of each model (warnings located in that model's files, but
 * not the ones listed in full) and the rest, for a document that keeps them in one list.
 */
export function problemsByModel(
  problems: readonly Problem[],
  models: readonly ModelFiles[],
): { rest: Problem[]; byModel: ModelProblems[] } {
  const owner = new Map<string, ModelProblems & { problems: Problem[] }>();
  const byModel: (ModelProblems & { problems: Problem[] })[] = [];
  for (const m of models) {
    const entry = { name: m.model, problems: [] as Problem[] };
    byModel.push(entry);
    for (const f of m.files) if (!owner.has(f)) owner.set(f, entry);
  }
  const rest: Problem[] = [];
  for (const p of problems) {
    const m = p.severity === "warning" && p.file !== undefined && !LISTED_IN_FULL.has(p.code) ? owner.get(p.file) : undefined;
    if (m === undefined) rest.push(p);
    else m.problems.push(p);
  }
  return { rest, byModel: byModel.filter((m) => m.problems.length > 0) };
}

/** Print problems: errors first, then warnings; per-model warnings as one line per model unless `verbose`. */
export function printProblems(
  io: CliIo,
  problems: readonly Problem[],
  opts: { readonly verbose?: boolean; readonly byModel?: readonly ModelProblems[]; readonly owners?: readonly ModelFiles[] } = {},
): void {
  const split = opts.owners === undefined ? { rest: [...problems], byModel: [] } : problemsByModel(problems, opts.owners);
  const general = split.rest;
  const byModel = [...(opts.byModel ?? []), ...split.byModel];
  const cap = opts.verbose ? null : PROBLEM_LINES;
  const errors = [...general, ...byModel.flatMap((m) => m.problems)].filter((p) => p.severity === "error");
  printCapped(io, errors, cap);
  const warnings = general.filter((p) => p.severity !== "error");
  const modelWarnings = byModel
    .map((m) => ({ name: m.name, warnings: m.problems.filter((p) => p.severity !== "error") }))
    .filter((m) => m.warnings.length > 0);
  if (opts.verbose) {
    printLines(io, [...warnings, ...modelWarnings.flatMap((m) => m.warnings)]);
    return;
  }
  const sameFolder = warnings.filter((p) => p.code === SAME_FOLDER);
  printCapped(io, sameFolder.length > 1 ? warnings.filter((p) => p.code !== SAME_FOLDER) : warnings, cap);
  if (sameFolder.length > 1) {
    const message = `${sameFolder.length} folders were reached again by another path (a link, another --results) and are scored once (the first: ${sameFolder[0].message}); --verbose lists each`;
    printLines(io, [problem(SAME_FOLDER, message, { severity: "warning" })]);
  }
  for (const m of modelWarnings) {
    const byCode = [...countByCode(m.warnings)].map(([code, n]) => `${n} ${code}`).join(", ");
    const n = m.warnings.length;
    printLines(io, [
      problem("warnings", `${m.name}: ${counted(n, "warning")} reading its files (${byCode}); --verbose lists each with file:line`, {
        severity: "warning",
      }),
    ]);
  }
}

/** Print notes, one line each. */
export function printNotes(io: CliIo, notes: readonly Note[]): void {
  printLines(io, notes);
}

/** A bad argument the command found itself (before any use case ran), as one error line. */
export function printBadArgument(io: CliIo, message: string): void {
  printLines(io, [problem("bad-argument", message)]);
}

/** A note that a file was written: `note: wrote FILE (what it holds) [written]`. */
export function writtenNote(file: string, what: string): Note {
  return note("written", `wrote ${file} (${what})`);
}

/** The note that BFCL's verdicts were read from the `score/` folders beside `result/` (no `--scores` given); null when none was. */
export function scoresBesideNote(dirs: readonly string[], others = "--scores DIR reads others"): Note | null {
  if (dirs.length === 0) return null;
  const named = dirs.length <= 3 ? dirs.join(", ") : `${dirs.slice(0, 3).join(", ")} and ${dirs.length - 3} more`;
  return note(
    "scores-beside",
    `BFCL's verdicts read from the score/ folder${dirs.length === 1 ? "" : "s"} beside result/: ${named} (${others})`,
  );
}

/** A progress line on stderr: redrawn in place on a terminal, every 10% otherwise. */
export function progressPrinter(io: CliIo, label: string): (done: number, total: number) => void {
  let lastDecile = -1;
  return (done, total) => {
    if (io.isTTY) {
      const width = 30;
      const filled = total ? Math.round((width * done) / total) : width;
      io.stderr(`\r${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}${done === total ? "\n" : ""}`);
      return;
    }
    const decile = total ? Math.floor((10 * done) / total) : 10;
    if (decile !== lastDecile && (decile > lastDecile || done === total)) {
      lastDecile = decile;
      io.stderr(`${label}: ${done}/${total}\n`);
    }
  };
}
