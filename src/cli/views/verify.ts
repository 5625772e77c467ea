/**
 * How `verify` prints its document: in the table format one line per number and the
 * summary (`N PASS, N FAIL, N SKIP`); in csv and markdown one row per number, the summary
 * on stderr.
 */
import type { UnmatchedRun, VerifyDocument } from "../../app/verify.js";
import { renderCheckLine, type CheckLine } from "../../official/verify.js";
import { note, renderProblemLine, type Note } from "../../messages/index.js";
import { tableOf, type Column, type Printout } from "../../report/printout.js";

const fmtValue = (v: unknown) => (v === null || v === undefined ? "" : Array.isArray(v) ? v.join(",") : String(v));

const columns: Column<CheckLine>[] = [
  { header: "status", value: (l) => l.status },
  { header: "run", value: (l) => l.run },
  { header: "name", value: (l) => l.name },
  { header: "expected", value: (l) => fmtValue(l.expected) },
  { header: "tolerance", value: (l) => l.tolerance },
  { header: "computed", value: (l) => fmtValue(l.computed) },
  { header: "note", value: (l) => l.note },
];

/** The printout of a verify document. */
export function verifyPrintout(doc: VerifyDocument): Printout {
  return {
    blocks: [
      {
        kind: "text",
        text:
          `Verified: ${doc.reading.note}.\n` +
          doc.lines.map(renderCheckLine).join("\n") +
          (doc.lines.length > 0 ? "\n" : "") +
          doc.summary.line +
          "\n",
        elsewhere: [note("reading", `verified: ${doc.reading.note}`), note("summary", doc.summary.line)]
          .map((n) => renderProblemLine(n) + "\n")
          .join(""),
      },
      // the rows are what csv and markdown print; the table format prints the lines above instead
      { kind: "table", table: tableOf("verify", doc.lines, columns), inTableFormat: false },
    ],
  };
}

/** Why a run's numbers all SKIPped: said once for the run, where each of its lines says only which rollouts are absent. */
export function unmatchedRunNote(u: UnmatchedRun): Note {
  return note(
    "run-unmatched",
    `run ${JSON.stringify(u.run)}: no model folder found has ${JSON.stringify(u.match)} (its match) in its path, so its ${u.skipped} numbers are skipped; keep the run's folder name, or drop "match" from the expected file for your own run`,
  );
}
