/**
 * `twinscore verify`: flags → `verifyExpected` (`src/app/verify.ts`) → one PASS / FAIL /
 * SKIP line per number and the summary, in the chosen format.
 */
import { manifestsOf, renderVersionedJson } from "../versioned-json.js";
import type { Command } from "commander";
import { verifyExpected } from "../../app/verify.js";
import { renderJson, renderPrintout } from "../../report/printout.js";
import { commandHelpFooter } from "../help-topics.js";
import {
  decoderGroup,
  formatGroup,
  manifestGroup,
  modelsGroup,
  readGroups,
  resultsGroup,
  scoresGroup,
  strictGroup,
  verboseGroup,
  withGroups,
  type ParsedOptions,
} from "../option-groups.js";
import { printNotes, printProblems, scoresBesideNote } from "../problems.js";
import type { CliIo } from "../io.js";
import { unmatchedRunNote, verifyPrintout } from "../views/verify.js";
import type { RegisterCommand } from "./index.js";

const format = formatGroup(undefined, "table: one line per number; json, csv, markdown, latex: rows (twinscore help formats)");

/** Register `twinscore verify`. */
export const registerVerify: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("verify")
    .summary("recompute expected numbers: one PASS / FAIL / SKIP line each")
    .description(
      "Recompute a file of expected numbers (data/expected/paper.json, data/expected/gpt-oss.json, your own) from " +
        "the rollouts and score files under --results and --scores (without --scores: BFCL's score/ beside each run's result/), " +
        "and print PASS / FAIL / SKIP for each number.",
    )
    .option("--expected <file>", "the expected-numbers JSON (e.g. data/expected/paper.json)");
  withGroups(cmd, resultsGroup, scoresGroup, modelsGroup, format, manifestGroup, decoderGroup, strictGroup, verboseGroup)
    .addHelpText(
      "after",
      "\nExit: 0 no FAIL and something checked; 1 a FAIL, or nothing checked (or any problem under --strict);\n2 unusable input." +
        commandHelpFooter(["expected", "readings", "layouts", "decoders", "formats", "exit-codes"]),
    )
    .action(async (opts: ParsedOptions) => {
      const doc = await verifyExpected({
        expected: opts.expected as string,
        ...readGroups(opts, resultsGroup, scoresGroup, modelsGroup, manifestGroup, decoderGroup, strictGroup),
        cwd: io.cwd,
        env: io.env,
      });
      printProblems(io, doc.problems, { ...verboseGroup.read(opts), owners: doc.modelFiles });
      printNotes(io, doc.unmatchedRuns.map(unmatchedRunNote));
      const beside = scoresBesideNote(doc.scoresBeside);
      if (beside !== null) printNotes(io, [beside]);
      state.exitCode = doc.exitCode;
      if (doc.lines.length === 0 && doc.exitCode === 2) return;
      const { format: chosen } = format.read(opts);
      if (chosen === "json") {
        io.stdout(renderVersionedJson(doc, manifestsOf(opts, io.cwd)));
        return;
      }
      const out = renderPrintout(verifyPrintout(doc), chosen);
      io.stdout(out.stdout);
      if (out.stderr) io.stderr(out.stderr);
    });
};
