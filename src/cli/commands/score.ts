/**
 * `twinscore score`: flags → `scoreRuns` (`src/app/score.ts`) → the document, printed in
 * the chosen format. `demo` shares most groups and the printing.
 */
import type { Command } from "commander";
import { scoreRuns, type ScoreDocument, type ScoreRequest } from "../../app/score.js";
import { renderJson, renderPrintout, type OutputFormat } from "../../report/printout.js";
import {
  bfclDataGroup,
  bootstrapGroup,
  decoderGroup,
  formatGroup,
  manifestGroup,
  maxUndecidedGroup,
  modelsGroup,
  pairSetGroup,
  readGroups,
  readingGroup,
  resultsGroup,
  scoresGroup,
  sensitivityGroup,
  strictGroup,
  verboseGroup,
  withGroups,
  type ParsedOptions,
} from "../option-groups.js";
import { printBadArgument, printNotes, printProblems, scoresBesideNote } from "../problems.js";
import { detectedDecoderNotes } from "../decoder-option.js";
import type { CliIo } from "../io.js";
import { perItemNote, scorePrintout, type ScoreView } from "../views/score.js";
import { commandHelpFooter } from "../help-topics.js";
import type { RegisterCommand } from "./index.js";

/**
 * Whether a score document has a table to show: the command did not fail (exit 2: nothing
 * could be scored) and a model has a pair read. Else stdout stays empty, with the reason on
 * stderr, so redirected output holds no title over an empty table.
 */
export function hasRows(doc: ScoreDocument): boolean {
  return doc.exitCode !== 2 && doc.models.some((m) => m.undecided !== null && m.counts !== null && m.undecided.pairs > 0);
}

/** Print a score document in the chosen format: problems first (stderr), then the output. */
export function printScoreDocument(io: CliIo, doc: ScoreDocument, opts: { format: OutputFormat; verbose?: boolean }, view: ScoreView = {}): void {
  printProblems(io, doc.problems, { verbose: opts.verbose, byModel: doc.models.map((m) => ({ name: m.model, problems: m.problems })) });
  printNotes(io, detectedDecoderNotes(doc.models));
  const beside = scoresBesideNote(doc.scoresBeside);
  if (beside !== null) printNotes(io, [beside]);
  const note = perItemNote(doc);
  if (note !== null) printNotes(io, [note]);
  // a failed command (exit 2) leaves stdout empty in every format, as every other command does
  if (doc.exitCode === 2) return;
  if (opts.format === "json") {
    io.stdout(renderJson(doc));
    return;
  }
  if (!hasRows(doc)) return; // nothing could be shown: no title over an empty table
  const out = renderPrintout(scorePrintout(doc, view), opts.format);
  io.stdout(out.stdout);
  if (out.stderr) io.stderr(out.stderr);
}

const format = formatGroup();
const bfclData = bfclDataGroup(
  "adds the aligned numbers (asked, then did it; the skipped turn scored; per-item base_completed/miss_completed) and Table F1, the miss_func workaround credit (BFCL_DATA_DIR gives Table F1 only; twinscore help aligned)",
);

/** The groups `score` and `demo` share, in the order `--help` lists them. */
export const sharedScoreGroups = [readingGroup, maxUndecidedGroup, pairSetGroup, bootstrapGroup, sensitivityGroup, format, manifestGroup, decoderGroup, strictGroup, verboseGroup] as const;

/** The request `score` and `demo` build from their shared groups (a message for a bad combination). */
export function scoreRequestOf(io: CliIo, opts: ParsedOptions): Omit<ScoreRequest, "results"> | string {
  const pairSet = pairSetGroup.read(opts);
  if (typeof pairSet === "string") return pairSet;
  return {
    ...pairSet,
    ...readGroups(opts, readingGroup, maxUndecidedGroup, bootstrapGroup, sensitivityGroup, manifestGroup, decoderGroup, strictGroup),
    cwd: io.cwd,
    env: io.env,
    ...(io.tuneForManyModels !== undefined ? { tuneForManyModels: io.tuneForManyModels } : {}),
  };
}

/** Register `twinscore score`. */
export const registerScore: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("score")
    .summary("the decision table: act, hold, decision [95% CI], … per model")
    .description(
      "Score the decision to act on the twin pairs of every model found under --results: on each pair, a " +
        "world-changing call attempted on the complete anchor turn (act) and none on the withheld one (hold).",
    );
  withGroups(
    cmd,
    resultsGroup,
    modelsGroup,
    scoresGroup,
    bfclData,
    ...sharedScoreGroups,
  )
    .option("--per-item <file>", "also write one CSV row per model and pair, atomically (twinscore help per-item)")
    .option(
      "--trials-of <dir...>",
      "read these folders (each one model) as repeated trials of one model instead of --results: means over trials, an interval over base twins and trials, flip rates per pair",
    )
    .addHelpText(
      "after",
      "\nExit: 0 scored; 1 scored with findings (a model with no headline, a wrong decoder, any problem\n" +
        "under --strict); 2 nothing could be scored." +
        commandHelpFooter(["what-counts", "columns", "readings", "per-item", "official", "history", "aligned", "layouts", "decoders", "exit-codes"]),
    )
    .action(async (opts: ParsedOptions) => {
      const req = scoreRequestOf(io, opts);
      if (typeof req === "string") {
        printBadArgument(io, req);
        state.exitCode = 2;
        return;
      }
      const doc = await scoreRuns({
        ...req,
        ...readGroups(opts, resultsGroup, modelsGroup, scoresGroup, bfclData),
        ...(opts.perItem === undefined ? {} : { perItem: opts.perItem as string }),
        ...(opts.trialsOf === undefined ? {} : { trialsOf: opts.trialsOf as string[] }),
      });
      printScoreDocument(io, doc, readGroups(opts, format, verboseGroup));
      state.exitCode = doc.exitCode;
    });
};
