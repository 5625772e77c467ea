/**
 * `twinscore score`: flags → `scoreRuns` (`src/app/score.ts`) → the document, printed in
 * the chosen format. `demo` shares most groups and the printing.
 */
import { manifestsOf, renderVersionedJson } from "../versioned-json.js";
import type { Command } from "commander";
import { scoreRuns, type ScoreDocument, type ScoreRequest } from "../../app/score.js";
import { captionedTables, renderJson, renderPrintout, renderTableAlone, type OutputFormat, type Printout } from "../../report/printout.js";
import { folderExists, writeFileAtomic } from "../../io/files.js";
import { joinPath, resolvePath } from "../../io/paths.js";
import { problem } from "../../messages/index.js";
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
  trialsOfGroup,
  verboseGroup,
  withGroups,
  type ParsedOptions,
} from "../option-groups.js";
import { printBadArgument, printNotes, printProblems, scoresBesideNote, writtenNote } from "../problems.js";
import { detectedDecoderNotes } from "../decoder-option.js";
import type { CliIo } from "../io.js";
import { perItemNote, scorePrintout, scoreTableIds, scoreTableSources, type ScoreView } from "../views/score.js";
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
export function printScoreDocument(
  io: CliIo,
  doc: ScoreDocument,
  opts: { format: OutputFormat; verbose?: boolean; manifest?: string; tables?: { table?: string; outDir?: string } },
  view: ScoreView = {},
): boolean {
  printProblems(io, doc.problems, { verbose: opts.verbose, byModel: doc.models.map((m) => ({ name: m.model, problems: m.problems })) });
  printNotes(io, detectedDecoderNotes(doc.models));
  const beside = scoresBesideNote(doc.scoresBeside);
  if (beside !== null) printNotes(io, [beside]);
  const note = perItemNote(doc);
  if (note !== null) printNotes(io, [note]);
  // a failed command (exit 2) leaves stdout empty in every format, as every other command does
  if (doc.exitCode === 2) return true;
  if (opts.format === "json") {
    io.stdout(renderVersionedJson(doc, manifestsOf(opts, io.cwd)));
    return true;
  }
  if (!hasRows(doc)) return true; // nothing could be shown: no title over an empty table
  const tables = opts.tables ?? {};
  const printout = scorePrintout(doc, {
    ...view,
    verbose: opts.verbose === true,
    ...(tables.table === "combined" || tables.outDir !== undefined ? { combined: true } : {}),
  });
  if (tables.outDir !== undefined) return writeTableFiles(io, printout, opts.format, tables.outDir);
  if (tables.table !== undefined) return printOneTable(io, printout, opts.format, tables.table);
  const out = renderPrintout(printout, opts.format);
  io.stdout(out.stdout);
  if (out.stderr) io.stderr(out.stderr);
  return true;
}

/** What adds a table that `--table` named to the output (a known id: `tableOptions` checked it). */
function tableSource(name: string): string {
  return `what gives it: ${scoreTableSources[name as keyof typeof scoreTableSources]}`;
}

/** `--out-dir DIR`: each table its own file, with its caption where the format has one. */
function writeTableFiles(io: CliIo, printout: Printout, format: Exclude<OutputFormat, "json">, outDir: string): boolean {
  const dir = resolvePath(io.cwd, outDir);
  const ext = { table: "txt", csv: "csv", markdown: "md", latex: "tex" }[format];
  const written: string[] = [];
  for (const t of captionedTables(printout)) {
    const w = writeFileAtomic(joinPath(dir, `${t.id}.${ext}`), renderTableAlone(t, format));
    if (!w.ok) {
      printProblems(io, w.problems, {});
      return false;
    }
    written.push(`${t.id}.${ext}`);
  }
  printNotes(io, [writtenNote(dir, `${written.length} ${written.length === 1 ? "table" : "tables"}: ${written.join(", ")}`)]);
  return true;
}

/** `--table NAME`: one table of the output, or a problem naming the tables there are. */
function printOneTable(io: CliIo, printout: Printout, format: Exclude<OutputFormat, "json">, name: string): boolean {
  const all = captionedTables(printout);
  const one = all.find((t) => t.id === name);
  if (one === undefined) {
    printProblems(
      io,
      [
        problem(
          "table-missing",
          `--table ${name}: this output has no such table (its tables: ${all.map((t) => t.id).join(", ")}); ${tableSource(name)}`,
        ),
      ],
      {},
    );
    return false;
  }
  io.stdout(renderTableAlone(one, format));
  return true;
}

/** `--table NAME` and `--out-dir DIR`: one table of the output, or each in its own file (any format but json). */
function tableOptions(io: CliIo, opts: ParsedOptions, format: OutputFormat): { table?: string; outDir?: string } | string {
  const table = opts.table as string | undefined;
  const outDir = opts.outDir as string | undefined;
  if (table === undefined && outDir === undefined) return {};
  if (table !== undefined && outDir !== undefined) return "--table and --out-dir cannot be combined (--out-dir writes every table)";
  if (format === "json")
    return `${table !== undefined ? "--table" : "--out-dir"} prints tables: give --format table, csv, markdown or latex (json is the whole document)`;
  if (table !== undefined && !(scoreTableIds as readonly string[]).includes(table))
    return `--table must be one of ${scoreTableIds.join(", ")} (got '${table}')`;
  if (outDir !== undefined) {
    const there = folderExists(joinPath(resolvePath(io.cwd, outDir), "x"));
    if (!there.ok) return `--out-dir ${outDir}: no such folder`;
    return { outDir };
  }
  return { table };
}

const format = formatGroup();
const bfclData = bfclDataGroup(
  "adds the aligned numbers (asked, then did it; the skipped turn scored; per-item base_completed/miss_completed) and Table F1, the miss_func workaround credit (BFCL_DATA_DIR gives Table F1 only; twinscore help aligned)",
);

/** The groups `score` and `demo` share, in the order `--help` lists them. */
export const sharedScoreGroups = [
  readingGroup,
  maxUndecidedGroup,
  pairSetGroup,
  bootstrapGroup,
  sensitivityGroup,
  format,
  manifestGroup,
  decoderGroup,
  strictGroup,
  verboseGroup,
] as const;

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
  withGroups(cmd, resultsGroup, modelsGroup, scoresGroup, bfclData, ...sharedScoreGroups).option(
    "--per-item <file>",
    "also write one CSV row per model and pair, atomically (twinscore help per-item)",
  );
  withGroups(cmd, trialsOfGroup)
    .option(
      "--table <name>",
      `print one table, with its caption: ${scoreTableIds.join(", ")} (combined: decision and BFCL's official score side by side)`,
    )
    .option("--out-dir <dir>", "write each table to its own file in DIR (<table>.csv, .md, .tex or .txt by --format), atomically")
    .addHelpText(
      "after",
      "\nExit: 0 scored; 1 scored with findings (a model with no headline, a wrong decoder, any problem\n" +
        "under --strict); 2 nothing could be scored." +
        commandHelpFooter([
          "what-counts",
          "columns",
          "readings",
          "per-item",
          "official",
          "history",
          "aligned",
          "layouts",
          "decoders",
          "exit-codes",
        ]),
    )
    .action(async (opts: ParsedOptions) => {
      const req = scoreRequestOf(io, opts);
      if (typeof req === "string") {
        printBadArgument(io, req);
        state.exitCode = 2;
        return;
      }
      const tables = tableOptions(io, opts, format.read(opts).format);
      if (typeof tables === "string") {
        printBadArgument(io, tables);
        state.exitCode = 2;
        return;
      }
      const doc = await scoreRuns({
        ...req,
        ...readGroups(opts, resultsGroup, modelsGroup, scoresGroup, bfclData),
        ...(opts.perItem === undefined ? {} : { perItem: opts.perItem as string }),
        ...trialsOfGroup.read(opts),
      });
      const printed = printScoreDocument(io, doc, { ...readGroups(opts, format, verboseGroup), ...manifestGroup.read(opts), tables });
      // a table asked for that this output does not have, or a table file not written: said on stderr, exit 2
      state.exitCode = printed ? doc.exitCode : 2;
    });
};
