/**
 * Printing problems on stderr, the same way in every command: errors first, always, so
 * the reason for an exit 2 is never buried; then warnings, one line each — the first
 * twenty in full, then a count per code. Warnings met reading one model's files (inference
 * errors, foreign ids, …) are routine on real runs: they are summed up in one line per
 * model, and listed with `--verbose`; so are the folders the tree walk found twice.
 */
import { countByCode, renderProblemLine, type Problem } from "../messages/index.js";
import type { CliIo } from "./io.js";

const PROBLEM_LINES = 20;

/** The tree walk's warning for a folder reached twice: a tree of links can give hundreds, summed up in one line. */
const SAME_FOLDER = "same-folder";

/** A bad argument is the command's own complaint (`twinscore score: …`); anything else is a located problem line. */
function lineOf(p: Problem, command: string | undefined): string {
  return command !== undefined && p.code === "bad-argument" && p.file === undefined ? `twinscore ${command}: ${p.message}` : renderProblemLine(p);
}

function printCapped(io: CliIo, problems: readonly Problem[], cap: number, command?: string): void {
  for (const p of problems.slice(0, cap)) io.stderr(lineOf(p, command) + "\n");
  if (problems.length > cap) {
    const byCode = [...countByCode(problems)].map(([code, n]) => `${n} ${code}`).join(", ");
    io.stderr(`… ${problems.length - cap} more (${problems.length} in all: ${byCode})\n`);
  }
}

/** The problems of one model's files, printed as one summary line unless `verbose`. */
export interface ModelProblems {
  readonly name: string;
  readonly problems: readonly Problem[];
}

/** Print problems: errors first, then warnings; per-model warnings as one line per model unless `verbose`. */
export function printProblems(
  io: CliIo,
  problems: readonly Problem[],
  opts: { readonly verbose?: boolean; readonly byModel?: readonly ModelProblems[]; readonly command?: string } = {},
): void {
  const byModel = opts.byModel ?? [];
  const errors = [...problems, ...byModel.flatMap((m) => m.problems)].filter((p) => p.severity === "error");
  printCapped(io, errors, PROBLEM_LINES, opts.command);
  const warnings = problems.filter((p) => p.severity !== "error");
  const modelWarnings = byModel.map((m) => ({ name: m.name, warnings: m.problems.filter((p) => p.severity !== "error") })).filter((m) => m.warnings.length > 0);
  if (opts.verbose) {
    for (const p of [...warnings, ...modelWarnings.flatMap((m) => m.warnings)]) io.stderr(renderProblemLine(p) + "\n");
    return;
  }
  const sameFolder = warnings.filter((p) => p.code === SAME_FOLDER);
  printCapped(io, sameFolder.length > 1 ? warnings.filter((p) => p.code !== SAME_FOLDER) : warnings, PROBLEM_LINES);
  if (sameFolder.length > 1) {
    io.stderr(`warning: ${sameFolder.length} folders were reached again by another path (a link, another --results) and are scored once (the first: ${sameFolder[0].message}); --verbose lists each [${SAME_FOLDER}]\n`);
  }
  for (const m of modelWarnings) {
    const byCode = [...countByCode(m.warnings)].map(([code, n]) => `${n} ${code}`).join(", ");
    const n = m.warnings.length;
    io.stderr(`warning: ${m.name}: ${n} warning${n === 1 ? "" : "s"} reading its files (${byCode}); --verbose lists each with file:line [warnings]\n`);
  }
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
