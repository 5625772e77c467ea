/**
 * `twinscore report`: flags → `buildReport` (`src/app/report.ts`) → the HTML file, and
 * one note saying what it holds.
 */
import { manifestsOf, renderVersionedJson } from "../versioned-json.js";
import type { Command } from "commander";
import { buildReport } from "../../app/report.js";
import { renderJson } from "../../report/printout.js";
import { commandHelpFooter } from "../help-topics.js";
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
  strictGroup,
  trialsOfGroup,
  verboseGroup,
  withGroups,
  type ParsedOptions,
} from "../option-groups.js";
import { printBadArgument, printNotes, printProblems, scoresBesideNote, writtenNote } from "../problems.js";
import { detectedDecoderNotes } from "../decoder-option.js";
import { counted } from "../../messages/index.js";
import type { CliIo } from "../io.js";
import type { RegisterCommand } from "./index.js";

const format = formatGroup(
  ["table", "json"] as const,
  "what is printed on stdout: table (nothing; the page is the output) or json (what the page holds)",
);
const bfclData = bfclDataGroup(
  "(else BFCL_DATA_DIR) adds the workaround credit (Table F1), Table 1's credited column, the aligned pair score, the skipped turn scored, and each twin's completion in the pair browser",
);

/** Register `twinscore report`. */
export const registerReport: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("report")
    .summary("write a self-contained HTML report with figures and a pair browser")
    .description(
      "Write one self-contained HTML report (works offline from file://) of the runs under --results: Table 1, " +
        "the official score beside it, the sensitivities, paired comparisons and a browser of every scored pair.",
    );
  withGroups(cmd, resultsGroup, trialsOfGroup, scoresGroup, modelsGroup)
    .option("--out <file>", "the HTML file to write (atomically)")
    .option("--title <text>", "the report's title", "twinscore report")
    .option(
      "--compare <runs...>",
      "two runs to compare as arm A and arm B: a --results tree (directory name or path as given), or a run inside a folder of runs",
    )
    .option("--labels <file>", "judge labels (JSON Lines from `twinscore judge --labels`)")
    .option("--figures <dir>", "also write each figure of the page to DIR as SVG and PNG (NN-<title>.svg, .png), for a paper");
  withGroups(
    cmd,
    bfclData,
    readingGroup,
    maxUndecidedGroup,
    pairSetGroup,
    bootstrapGroup,
    format,
    manifestGroup,
    decoderGroup,
    strictGroup,
    verboseGroup,
  )
    .addHelpText(
      "after",
      "\n--scores: one per --results, in the same order, or none.\n" +
        "Exit: 0 written; 1 written, with errors met on the way (or any problem under --strict); 2 nothing written." +
        commandHelpFooter(["page", "readings", "history", "aligned", "layouts", "decoders", "exit-codes"]),
    )
    .action((opts: ParsedOptions) => reportAction(io, state, opts));
};

type ReportDocument = Awaited<ReturnType<typeof buildReport>>;

/** Builds the report the flags ask for, then says what it wrote. */
async function reportAction(io: CliIo, state: Parameters<RegisterCommand>[2], opts: ParsedOptions): Promise<void> {
  const { results } = resultsGroup.read(opts);
  const trials = trialsOfGroup.read(opts);
  const out = opts.out as string | undefined;
  if (out === undefined) {
    printBadArgument(io, "give --out FILE (the HTML file to write)");
    state.exitCode = 2;
    if (results.length > 0 || trials.trialsOf !== undefined) return;
  }
  const pairSet = pairSetGroup.read(opts);
  if (typeof pairSet === "string") {
    printBadArgument(io, pairSet);
    state.exitCode = 2;
    return;
  }
  const doc = await buildReport({
    results,
    ...trials,
    ...pairSet,
    ...readGroups(opts, scoresGroup, modelsGroup),
    ...(opts.compare === undefined ? {} : { compare: opts.compare as string[] }),
    ...(opts.labels === undefined ? {} : { labels: opts.labels as string }),
    ...bfclData.read(opts),
    ...(out === undefined ? {} : { out }),
    ...(opts.figures === undefined ? {} : { figures: opts.figures as string }),
    title: opts.title as string,
    ...readGroups(opts, bootstrapGroup, manifestGroup, readingGroup, maxUndecidedGroup, decoderGroup, strictGroup),
    progress: (line) => io.stderr(`report: ${line}\n`),
    cwd: io.cwd,
    env: io.env,
  });
  printProblems(io, doc.problems, {
    ...verboseGroup.read(opts),
    byModel: doc.modelProblems.map((m) => ({ name: m.model, problems: m.problems })),
  });
  printNotes(io, detectedDecoderNotes(doc.modelDecoders));
  if (out === undefined) return;
  state.exitCode = doc.exitCode;
  printWritten(io, opts, doc);
}

/** Says what was written (the page, the figures), and prints the JSON document when asked. */
function printWritten(io: CliIo, opts: ParsedOptions, doc: ReportDocument): void {
  const beside = scoresBesideNote(doc.scoresBeside);
  if (beside !== null) printNotes(io, [beside]);
  if (doc.file !== null) {
    printNotes(io, [
      writtenNote(
        doc.file,
        `${counted(doc.models, "model")}, ${counted(doc.pairs, "pair")}${doc.comparisons ? `, ${counted(doc.comparisons, "comparison")}` : ""}, ${doc.bytes} bytes`,
      ),
    ]);
    if (doc.figures !== null) {
      const svg = doc.figures.files.filter((f) => f.endsWith(".svg")).length;
      const png = doc.figures.files.length - svg;
      printNotes(io, [writtenNote(doc.figures.dir, `${svg} ${svg === 1 ? "figure" : "figures"}: ${svg} SVG, ${png} PNG`)]);
    }
    if (format.read(opts).format === "json")
      io.stdout(renderVersionedJson({ ...doc, html: undefined, modelDecoders: undefined }, manifestsOf(opts, io.cwd)));
  }
}
