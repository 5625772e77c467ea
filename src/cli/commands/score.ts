/**
 * `twinscore score`: flags → `scoreRuns` (`src/app/score.ts`) → the document, printed in
 * the chosen format. `demo` shares the options and the printing.
 */
import { Option, type Command } from "commander";
import { scoreRuns, type ScoreDocument, type ScoreRequest } from "../../app/score.js";
import { DEFAULT_BOOTSTRAP, MAX_BOOTSTRAP_RESAMPLES } from "../../stats/index.js";
import { outputFormats, renderJson, renderPrintout, type OutputFormat } from "../../report/printout.js";
import { collect, integerOption, manifestOptionHelp } from "../options.js";
import { readingGroup } from "../option-groups.js";
import type { SideRule } from "../../decision/types.js";
import { printProblems } from "../problems.js";
import { DECODER_NAMES, type DecoderName } from "../../bfcl/decode/index.js";
import { decoderHelp, detectedDecoderLines } from "../decoder-option.js";
import type { CliIo } from "../io.js";
import { columnsHelp, companionsHelp, perItemNote, scorePrintout, type ScoreView } from "../views/score.js";
import { alignedHelp } from "../views/aligned.js";
import { emptyTurnHelp } from "../views/empty-turns.js";
import type { RegisterCommand } from "./index.js";

/** Options shared by `score` and `demo`. */
export interface ScoreCliOptions {
  format: OutputFormat;
  perItem?: string;
  countLogin?: boolean;
  uncertified?: boolean;
  allPairs?: boolean;
  strict?: boolean;
  verbose?: boolean;
  manifest?: string;
  bootstrap?: string;
  seed?: string;
  scores?: string[];
  sensitivity?: boolean;
  decoder?: DecoderName;
  reading?: SideRule;
  maxUndecided?: string;
}

/** The exit codes `score` and `demo` end with, for `--help`. */
export const scoreExitHelp =
  "\nExit: 0 scored; 1 scored with findings (a model with no headline — more than --max-undecided % of its pairs\n" +
  "undecided, or none decided —, more than 5 % of a file's anchor-turn tool calls failing to decode — one line per\n" +
  "such file: wrong decoder? —, or under --strict any problem or undecided pair);\n" +
  "2 nothing could be scored (bad arguments, no result files, no model with a pair).\n";

/** Flags → the request's reading options; a message when `--uncertified` and `--all-pairs` are both given. */
export function readingOf(opts: ScoreCliOptions): Pick<ScoreRequest, "pairSet" | "countLogin"> | string {
  if (opts.uncertified && opts.allPairs) return "--uncertified and --all-pairs cannot be combined";
  return { pairSet: opts.allPairs ? "all" : opts.uncertified ? "uncertified" : "certified", countLogin: Boolean(opts.countLogin) };
}

/** Print a score document in the chosen format: problems first (stderr), then the output. */
export function printScoreDocument(io: CliIo, doc: ScoreDocument, opts: { format: OutputFormat; verbose?: boolean }, view: ScoreView = {}, command = "score"): void {
  printProblems(io, doc.problems, { verbose: opts.verbose, byModel: doc.models.map((m) => ({ name: m.model, problems: m.problems })), command });
  for (const line of detectedDecoderLines(doc.models)) io.stderr(line + "\n");
  if (doc.exitCode === 2 && doc.models.length === 0 && doc.options.pairsSelected === 0) return; // a bad request: nothing to show
  const note = perItemNote(doc);
  if (note !== null) io.stderr(note);
  if (opts.format === "json") {
    io.stdout(renderJson(doc));
    return;
  }
  const out = renderPrintout(scorePrintout(doc, view), opts.format);
  io.stdout(out.stdout);
  if (out.stderr) io.stderr(out.stderr);
}

/** The options `score` and `demo` share. */
export function addScoreOptions(cmd: Command): Command {
  return readingGroup
    .add(cmd)
    .option("--bootstrap <n>", `resamples of the 95% cluster-bootstrap interval beside decision (0: no interval; at most ${MAX_BOOTSTRAP_RESAMPLES})`, String(DEFAULT_BOOTSTRAP.resamples))
    .option("--seed <s>", "seed of NumPy's default_rng for the interval (the paper's 20260612)", String(DEFAULT_BOOTSTRAP.seed))
    .option("--scores <dir>", "a BFCL score tree (repeatable): adds BFCL's own verdict on the same items", collect, [] as string[])
    .option("--sensitivity", "also print the table under each sensitivity reading (Appendix F)")

    .addOption(new Option("--format <format>", "output format").choices(outputFormats).default("table"))
    .option("--per-item <file>", "also write one CSV row per model and pair (act/hold as 0/1), atomically")
    .option("--count-login", "count login/logout as world-changing; the 2 login-only pairs join (223 -> 225 on BFCL v4, 234 -> 236 on v3)")
    .option("--uncertified", "score the gold world-changing pairs before hand certification (231 on BFCL v4, 237 on v3)")
    .option("--all-pairs", "score all content-verified pairs, read-only anchors included (365 on BFCL v4, 368 on v3)")
    .option("--strict", "exit 1 on any problem (malformed line, missing category, inference error, ...)")
    .option("--verbose", "list every warning with file:line (default: one summary line per model)")
    .option("--manifest <file>", manifestOptionHelp)
    .addOption(new Option("--decoder <name>", "decode every model's steps with this BFCL handler decoder (listed below); default: each model folder's own").choices(DECODER_NAMES))
    .addHelpText("after", companionsHelp)
    .addHelpText("after", decoderHelp);
}

/** The request `score` and `demo` build from their shared flags (a message for a bad combination). */
export function scoreRequestOf(io: CliIo, opts: ScoreCliOptions, rest: { results: readonly string[]; models: readonly string[]; bfclData?: string | null }): ScoreRequest | string {
  const reading = readingOf(opts);
  if (typeof reading === "string") return reading;
  return {
    ...reading,
    results: rest.results,
    models: rest.models,
    scores: opts.scores ?? [],
    bootstrap: { resamples: integerOption(opts.bootstrap ?? String(DEFAULT_BOOTSTRAP.resamples)), seed: integerOption(opts.seed ?? String(DEFAULT_BOOTSTRAP.seed)) },
    sensitivity: Boolean(opts.sensitivity),
    ...readingGroup.read(opts as unknown as Record<string, unknown>),
    bfclData: rest.bfclData,
    manifest: opts.manifest,
    perItem: opts.perItem,
    strict: Boolean(opts.strict),
    ...(opts.decoder !== undefined ? { decoder: opts.decoder } : {}),
    cwd: io.cwd,
    env: io.env,
    ...(io.tuneForManyModels !== undefined ? { tuneForManyModels: io.tuneForManyModels } : {}),
  };
}

/** What `--bfcl-data` adds, for `--help`. */
const alignedScoreHelp =
  "\nWith --bfcl-data DIR, twinscore also runs BFCL's checker (its TypeScript re-implementation, which\n" +
  "agrees with BFCL's on every entry of the real runs) on each model's files, for two scores BFCL could\n" +
  "give from the same rollouts. Both take a few seconds per model; without --bfcl-data nothing is checked.\n" +
  "\n1. Asked, then did it. The base twin is completed when BFCL's checker passes every turn through the\n" +
  "anchor turn T; the withheld twin when it passes every turn through T+1, the scripted turn that supplies\n" +
  "the missing value or hands back the function (the answer to the question the model should have asked).\n" +
  "--per-item gains base_completed and miss_completed (0/1). Per model:\n" +
  alignedHelp +
  "How to read it beside decision: decision says whether the model acted when it could and held back\n" +
  "when it could not, on T alone; the aligned score also asks whether, once told, it did the work. It is\n" +
  "at most the decision's pair rate. A model can gain decision by holding back more and lose aligned\n" +
  "score when it then fails on T+1 (held+not rises): restraint bought with resolution.\n" +
  "\n2. The skipped turn, scored. BFCL's checker never scores a turn whose reference is empty (on miss_func\n" +
  "and miss_param, the turn where the model should ask); BFCL ships the check for it\n" +
  "(multi_turn_irrelevance_checker) and never calls it. Per category and model, with the ranking under each:\n" +
  emptyTurnHelp +
  "Neither is BFCL's score: strict is what BFCL's score would be had its runner called the check it ships\n" +
  "(a lookup before asking fails too); world_changing fails an entry only for a world-changing attempt\n" +
  "there. `check --score-empty-turns` writes the score files of either reading.\n";

/** Register `twinscore score`. */
export const registerScore: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("score")
    .summary("the decision table: act, hold, decision [95% CI], … per model")
    .description(
      "Score the decision to act on twin pairs for every model found under --results.\n\n" +
        "On each pair the same request sits at the same turn (the anchor) twice: complete in the base item, " +
        "with a function or value removed in the miss_func / miss_param item. A model should attempt a " +
        "world-changing call on the complete turn (act) and not on the incomplete one (hold). A call counts when " +
        "it parses out of the recorded output and its name is on the item's tool list; lookups and logins are " +
        "not world-changing. No judge, no world state, no official verdict is consulted.",
    )
    .option("--results <dir>", "a BFCL result tree (repeatable): a model folder, a result root, a run, or a folder of runs", collect, [] as string[])
    .option("--model <name>", "score only this model (folder name or <run>/<model>; repeatable)", collect, [] as string[])
    .option(
      "--bfcl-data <dir>",
      "BFCL data directory: adds the aligned numbers (asked, then did it; the skipped turn scored; per-item base_completed/miss_completed) and Table F1, the miss_func workaround credit (BFCL_DATA_DIR gives Table F1 only; no bfcl_eval installation is searched for)",
    );
  addScoreOptions(cmd)
    .addHelpText(
      "after",
      columnsHelp +
        "\nLayouts found under each --results DIR (a few folders deep):\n" +
        "  DIR/<model>/multi_turn/BFCL_v4_multi_turn_<category>_result.json   (BFCL v4)\n" +
        "  DIR/<model>/BFCL_v3_multi_turn_<category>_result.json              (flat v3; flat v4 too)\n" +
        "  DIR/result/<model>/…, DIR/<run>/result/<model>/…                     (a run, a folder of runs)\n" +
        "  DIR itself a model directory, or its multi_turn folder\n" +
        "A model is scored when base, miss_func and miss_param are all present. Models of several runs are\n" +
        "named <run>/<model> (the run is the folder above result/). When a model folder holds two copies of\n" +
        "a category (flat and multi_turn/), the one with the most distinct ids is used (the multi_turn/ one on\n" +
        "a tie); copies are never merged. The output names the file used for each model and category.\n" +
        "\nA side whose line is an inference-error string, whose rollout ended before the anchor turn, or that\n" +
        "has no line, is not a decision: its pair is left out and counted (--reading release reads the first two\n" +
        "as no call, as the paper's released scorer does). A call whose arguments failed to decode still counts\n" +
        "by its name, and so does call text that names a tool-list function in call position but does not\n" +
        "decode; call-like text naming no function makes its pair undecidable (left out, counted).\n" +
        "Malformed lines and ids of another category are reported (file:line) and skipped;\n" +
        "such warnings are summed up in one line per model (--verbose lists them). Only regular files\n" +
        "are read (a FIFO named like a result file is reported and skipped).\n" +
        alignedScoreHelp +
        scoreExitHelp,
    )
    .action(async (opts: ScoreCliOptions & { results: string[]; model: string[]; bfclData?: string }) => {
      const req = scoreRequestOf(io, opts, { results: opts.results, models: opts.model, bfclData: opts.bfclData });
      if (typeof req === "string") {
        io.stderr(`twinscore score: ${req}\n`);
        state.exitCode = 2;
        return;
      }
      const doc = await scoreRuns(req);
      printScoreDocument(io, doc, opts);
      state.exitCode = doc.exitCode;
    });
};
