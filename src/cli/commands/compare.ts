/**
 * `twinscore compare`: flags → `compareArms` (`src/app/compare.ts`) → the document,
 * printed in the chosen format.
 */
import { manifestsOf, renderVersionedJson } from "../versioned-json.js";
import type { Command } from "commander";
import { compareArms } from "../../app/compare.js";
import { compareTrials } from "../../app/compare-trials.js";
import { renderPrintout } from "../../report/printout.js";
import { commandHelpFooter } from "../help-topics.js";
import {
  bfclDataGroup,
  bootstrapGroup,
  decoderGroup,
  formatGroup,
  manifestGroup,
  maxUndecidedGroup,
  modelsGroup,
  readGroups,
  readingGroup,
  strictGroup,
  verboseGroup,
  withGroups,
  type ParsedOptions,
} from "../option-groups.js";
import { printBadArgument, printNotes, printProblems, scoresBesideNote } from "../problems.js";
import type { CliIo } from "../io.js";
import { comparePrintout, trialsComparePrintout } from "../views/compare.js";
import type { RegisterCommand } from "./index.js";

export { formatP } from "../views/compare.js";

const format = formatGroup();
const bfclData = bfclDataGroup(
  "adds the aligned comparison (asked, then did it) and the skipped turn scored, per arm (runs BFCL's checker on both arms)",
);

/** Register `twinscore compare`. */
export const registerCompare: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("compare")
    .summary("two arms of one model: act/hold shifts (McNemar), decision change with interval")
    .description(
      "Compare two arms of the same models (two prompts, serving builds, checkpoints) on the same twin pairs: " +
        "act and hold shifts with McNemar tests, the decision change with a paired bootstrap interval, and with " +
        "score trees the official score change.",
    )
    .option("--a <dir>", "result tree of arm A (the reference arm)")
    .option("--b <dir>", "result tree of arm B")
    .option("--scores-a <dir>", "score tree of arm A (adds the official score change)")
    .option("--scores-b <dir>", "score tree of arm B")
    .option("--trials-a <dir...>", "instead of --a: arm A as repeated trials of one model (each folder one trial, as score --trials-of)")
    .option(
      "--trials-b <dir...>",
      "instead of --b: arm B as repeated trials of one model; the change is paired over pairs and each arm's trials",
    )
    .option(
      "--injection-check",
      "check the first-step input tokens B - A for every model, also where no line records an injected block (by default only where one does: run --inject)",
    );
  withGroups(
    cmd,
    modelsGroup,
    bfclData,
    readingGroup,
    maxUndecidedGroup,
    bootstrapGroup,
    format,
    manifestGroup,
    decoderGroup,
    strictGroup,
    verboseGroup,
  )
    .addHelpText(
      "after",
      "\nA model with no headline in an arm (more than --max-undecided % of Table 1's pairs undecided, as score\n" +
        "leaves its row empty) is not compared; --reading release reads its error lines as no call.\n" +
        "\nExit: 0 compared; 1 a model is in one arm only or has no headline in an arm (or any problem under --strict); 2 nothing to compare." +
        commandHelpFooter(["comparison", "history", "readings", "aligned", "decoders", "formats", "exit-codes"]),
    )
    .action((opts: ParsedOptions) => compareAction(io, state, opts));
};

/** Compares the two arms (or two sets of trials) and prints the comparison. */
async function compareAction(io: CliIo, state: Parameters<RegisterCommand>[2], opts: ParsedOptions): Promise<void> {
  if (opts.trialsA !== undefined || opts.trialsB !== undefined) {
    state.exitCode = await compareTrialArms(io, opts);
    return;
  }
  const doc = await compareArms({
    a: opts.a as string,
    b: opts.b as string,
    ...(opts.scoresA === undefined ? {} : { scoresA: opts.scoresA as string }),
    ...(opts.scoresB === undefined ? {} : { scoresB: opts.scoresB as string }),
    ...(opts.injectionCheck === true ? { injectionCheck: true } : {}),
    ...readGroups(opts, modelsGroup, bootstrapGroup, manifestGroup, readingGroup, maxUndecidedGroup, bfclData, decoderGroup, strictGroup),
    cwd: io.cwd,
    env: io.env,
  });
  printProblems(io, doc.problems, { ...verboseGroup.read(opts), owners: doc.modelFiles });
  const beside = scoresBesideNote(doc.scoresBeside, "--scores-a and --scores-b read others");
  if (beside !== null) printNotes(io, [beside]);
  state.exitCode = doc.exitCode;
  if (doc.models.length === 0) return;
  const chosen = format.read(opts).format;
  if (chosen === "json") io.stdout(renderVersionedJson(doc, manifestsOf(opts, io.cwd)));
  else {
    const out = renderPrintout(comparePrintout(doc), chosen);
    io.stdout(out.stdout);
    if (out.stderr) io.stderr(out.stderr);
  }
}

/** `compare --trials-a DIR… --trials-b DIR…`: the change between two arms measured over trials. */
async function compareTrialArms(io: CliIo, opts: ParsedOptions): Promise<number> {
  if (opts.trialsA === undefined || opts.trialsB === undefined || opts.a !== undefined || opts.b !== undefined) {
    printBadArgument(io, "give both arms as trials (--trials-a DIR… --trials-b DIR…), not beside --a or --b");
    return 2;
  }
  const doc = await compareTrials({
    a: opts.trialsA as string[],
    b: opts.trialsB as string[],
    ...readGroups(opts, bootstrapGroup, manifestGroup, readingGroup, decoderGroup, strictGroup),
    cwd: io.cwd,
    env: io.env,
  });
  printProblems(io, doc.problems, verboseGroup.read(opts));
  if (doc.exitCode === 2) return 2;
  const chosen = format.read(opts).format;
  if (chosen === "json") io.stdout(renderVersionedJson(doc, manifestsOf(opts, io.cwd)));
  else {
    const out = renderPrintout(trialsComparePrintout(doc), chosen);
    io.stdout(out.stdout);
    if (out.stderr) io.stderr(out.stderr);
  }
  return doc.exitCode;
}
