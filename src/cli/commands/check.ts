/**
 * `twinscore check`: flags → `checkRuns` (`src/app/check.ts`) → one row per result file
 * (and the agreement with the stored score files), in the chosen format.
 */
import { manifestsOf, renderVersionedJson } from "../versioned-json.js";
import { runRecordAbove } from "../../io/run-record.js";
import { describeRun } from "../../rollout/run-record.js";
import { Option, type Command } from "commander";
import { checkRuns, type CheckedFile } from "../../app/check.js";
import type { BfclVersion } from "../../bfcl/categories.js";
import { rate } from "../../decision/readings.js";
import { renderJson, renderPrintout, tableOf, type Column } from "../../report/printout.js";
import type { CliIo } from "../io.js";
import { commandHelpFooter } from "../help-topics.js";
import {
  bfclDataGroup,
  decoderGroup,
  formatGroup,
  modelsGroup,
  readGroups,
  resultsGroup,
  scoresGroup,
  strictGroup,
  threadsGroup,
  verboseGroup,
  withGroups,
  type ParsedOptions,
} from "../option-groups.js";
import { printBadArgument, printNotes, printProblems, scoresBesideNote, writtenNote } from "../problems.js";
import { detectedDecoderNotes } from "../decoder-option.js";
import { emptyTurnBlocks } from "../views/empty-turns.js";
import { emptyTurnReadings, type EmptyTurnReading } from "../../simulator/irrelevance.js";
import type { RegisterCommand } from "./index.js";
import { note, type Note } from "../../messages/index.js";
import { checkWorkerSpawner } from "../workers.js";

const format = formatGroup();

/** One note per named cause of the entries that differ from BFCL's stored score file (see `help agreement`). */
function explainedDifferenceNotes(files: readonly CheckedFile[]): Note[] {
  return files.flatMap((f) =>
    (f.agreement?.explained ?? []).map((e) =>
      note(
        `difference-${e.cause}`,
        `${f.folder} ${f.category}: ${e.ids.length} of ${f.agreement?.disagreeingIds.length} differing entries explained: ${e.detail} (${e.ids.join(" ")})`,
      ),
    ),
  );
}
const bfclData = bfclDataGroup("the questions and references to check against (else BFCL_DATA_DIR, else a bfcl_eval installation)");

function pct(n: number, d: number): string {
  return d === 0 ? "" : `${rate(n, d).toFixed(2)}%`;
}

const columns: Column<CheckedFile>[] = [
  { header: "model", value: (r) => r.folder },
  { header: "category", value: (r) => r.category },
  { header: "entries", value: (r) => r.entries, align: "right" },
  { header: "correct", value: (r) => r.correct, align: "right" },
  { header: "accuracy", value: (r) => pct(r.correct, r.entries), align: "right" },
  { header: "verdict_agree", value: (r) => (r.agreement ? pct(r.agreement.verdictAgree, r.agreement.entries) : ""), align: "right" },
  { header: "type_agree", value: (r) => (r.agreement ? pct(r.agreement.errorTypeAgree, r.agreement.entries) : ""), align: "right" },
  { header: "message_agree", value: (r) => (r.agreement ? pct(r.agreement.messageAgree, r.agreement.entries) : ""), align: "right" },
  {
    header: "error_object_agree",
    value: (r) => (r.agreement && r.agreement.errorObjectAgree !== null ? `${r.agreement.errorObjectAgree}/${r.agreement.bothFailed}` : ""),
    align: "right",
  },
  { header: "disagreeing", value: (r) => (r.agreement ? r.agreement.disagreeingIds.join(" ") : "") },
];

/** Register `twinscore check`. */
export const registerCheck: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("check")
    .summary("re-score result files with the TypeScript BFCL checker")
    .description(
      "Re-score BFCL multi-turn result files with twinscore's TypeScript executor and checker, as `bfcl evaluate` " +
        "would (BFCL_v3_ files as BFCL v3 final, BFCL_v4_ files as bfcl-eval 2026.3.23), and with --scores say how " +
        "far the verdicts agree with the stored score files.",
    );
  withGroups(cmd, resultsGroup, modelsGroup, bfclData, scoresGroup)
    .option(
      "--bfcl-eval <dir>",
      "bfcl_eval package folder holding long_context.py (only for long_context files, which are skipped without it)",
    )
    .option(
      "--out <dir>",
      "write BFCL-format score files here (<model>/multi_turn/BFCL_v4_<category>_score.json; for a tree of runs, <run>/score/<model>/…)",
    )
    .addOption(
      new Option(
        "--score-empty-turns [reading]",
        "also score the turns whose reference is empty (the under-specified turn BFCL skips): strict = BFCL's own multi_turn_irrelevance_checker, world-changing = only a world-changing attempt there fails (twinscore help empty-turns)",
      )
        .choices(emptyTurnReadings)
        .preset("strict"),
    )
    .addOption(
      new Option(
        "--bfcl-version <version>",
        "emulate this BFCL release for every file (its data file names, executor, API classes, runner and score-file format); default: each result file's own prefix",
      ).choices(["v3", "v4"]),
    );
  withGroups(cmd, format, decoderGroup, threadsGroup, strictGroup, verboseGroup)
    .addHelpText(
      "after",
      "\n--results and --scores take one folder each here.\n" +
        "Exit: 0 checked, and every verdict agrees with --scores (entries whose error type, message or object alone\n" +
        "differ are counted and named on stderr); 1 some verdicts disagree, a file whose steps mostly fail to decode\n" +
        "with a decoder that is not its registry handler's (a wrong decoder), or any problem under --strict; 2 nothing\n" +
        "checked, or a file that could not be checked. Every exit but 0 says why on stderr." +
        commandHelpFooter(["agreement", "empty-turns", "history", "layouts", "decoders", "speed", "formats", "exit-codes"]),
    )
    .action((opts: ParsedOptions) => checkAction(io, state, opts));
};

type CheckDocument = Awaited<ReturnType<typeof checkRuns>>;

/** One folder of results, checked; its notes on stderr and its table on stdout. */
async function checkAction(io: CliIo, state: Parameters<RegisterCommand>[2], opts: ParsedOptions): Promise<void> {
  const { results } = resultsGroup.read(opts);
  const { scores } = scoresGroup.read(opts);
  if (results.length > 1 || scores.length > 1) {
    printBadArgument(
      io,
      `check takes one --results DIR and at most one --scores DIR (got ${results.length} and ${scores.length}); give a folder holding the runs instead`,
    );
    state.exitCode = 2;
    return;
  }
  const doc = await checkRuns({
    spawnWorker: checkWorkerSpawner,
    results: results[0],
    ...readGroups(opts, bfclData, decoderGroup, threadsGroup, modelsGroup, strictGroup),
    ...(opts.bfclEval === undefined ? {} : { bfclEval: opts.bfclEval as string }),
    ...(scores.length === 0 ? {} : { scores: scores[0] }),
    ...(opts.out === undefined ? {} : { out: opts.out as string }),
    ...(opts.bfclVersion === undefined ? {} : { bfclVersion: opts.bfclVersion as BfclVersion }),
    beforeChecking: io.tuneForShortRun,
    ...(opts.scoreEmptyTurns === undefined ? {} : { emptyTurns: opts.scoreEmptyTurns as EmptyTurnReading }),
    cwd: io.cwd,
    env: io.env,
  });
  printCheckNotes(io, opts, doc);
  state.exitCode = doc.exitCode;
  if (doc.files.length === 0 && doc.exitCode === 2) return;
  const chosen = format.read(opts).format;
  if (chosen === "json") io.stdout(renderVersionedJson(doc, manifestsOf(opts, io.cwd)));
  else {
    const table = tableOf("check", doc.files, scores.length > 0 ? columns : columns.slice(0, 5));
    const out = renderPrintout(
      { blocks: [{ kind: "table", table }, ...(doc.emptyTurns === null ? [] : emptyTurnBlocks(doc.emptyTurns))] },
      chosen,
    );
    io.stdout(out.stdout);
    if (out.stderr) io.stderr(out.stderr);
  }
}

/** The check's problems and notes: score files beside, decoders, runs, explained differences, files written. */
function printCheckNotes(io: CliIo, opts: ParsedOptions, doc: CheckDocument): void {
  const owners = [...new Set(doc.files.map((f) => f.folder))].map((model) => ({
    model,
    files: doc.files.filter((f) => f.folder === model).map((f) => f.file),
  }));
  printProblems(io, doc.problems, { ...verboseGroup.read(opts), owners });
  const beside = doc.files.length === 0 ? null : scoresBesideNote(doc.scoresBeside, "--scores DIR reads another");
  if (beside !== null) printNotes(io, [beside]);
  printNotes(io, detectedDecoderNotes(doc.files.map((f) => ({ model: f.folder, decoder: f.decoder }))));
  printNotes(io, runNotes(doc.files));
  printNotes(io, explainedDifferenceNotes(doc.files));
  if (doc.written !== null && doc.written.files > 0) {
    const { dir, files, models } = doc.written;
    printNotes(io, [writtenNote(dir, `${files} BFCL score file${files === 1 ? "" : "s"} of ${models} model${models === 1 ? "" : "s"}`)]);
  }
}

/** One note per model folder `twinscore run` made (its run.json): what the run is, so the check says what it checked. */
function runNotes(
  files: readonly { readonly folder: string; readonly file: string; readonly decoder: { readonly source: string } | null }[],
): Note[] {
  const seen = new Set<string>();
  const out: Note[] = [];
  for (const f of files) {
    if (f.decoder?.source !== "run" || seen.has(f.folder)) continue;
    seen.add(f.folder);
    const record = runRecordAbove(f.file);
    if (record !== null) out.push(note("run-record", `${f.folder}: made by twinscore run: ${describeRun(record)}`));
  }
  return out;
}
