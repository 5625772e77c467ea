/**
 * Printing problems on stderr, the same way in every command: one line each, the first
 * twenty in full, then a count per code so a broken file does not flood the terminal.
 */
import { countByCode, renderProblemLine, type Problem } from "../messages/index.js";
import type { CliIo } from "./io.js";

const PROBLEM_LINES = 20;

/** Print problems, capped, with a per-code tally of the rest. */
export function printProblems(io: CliIo, problems: readonly Problem[]): void {
  for (const p of problems.slice(0, PROBLEM_LINES)) io.stderr(renderProblemLine(p) + "\n");
  if (problems.length > PROBLEM_LINES) {
    const byCode = [...countByCode(problems)].map(([code, n]) => `${n} ${code}`).join(", ");
    io.stderr(`… ${problems.length - PROBLEM_LINES} more problems (${problems.length} in all: ${byCode})\n`);
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
