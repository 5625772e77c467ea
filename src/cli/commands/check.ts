/**
 * `twinscore check`: flags → `checkRuns` (`src/app/check.ts`) → one row per result file
 * (and the agreement with the stored score files), in the chosen format.
 */
import { Option, type Command } from "commander";
import { checkRuns, type CheckedFile } from "../../app/check.js";
import { DECODER_NAMES, type DecoderName } from "../../bfcl/decode/index.js";
import { outputFormats, renderJson, renderPrintout, tableOf, type Column } from "../../report/printout.js";
import type { CliIo } from "../io.js";
import { integerOption } from "../options.js";
import { printProblems } from "../problems.js";
import { decoderHelp, detectedDecoderLines } from "../decoder-option.js";
import { emptyTurnBlocks, emptyTurnHelp } from "../views/empty-turns.js";
import { emptyTurnReadings, type EmptyTurnReading } from "../../simulator/irrelevance.js";
import type { RegisterCommand } from "./index.js";
import { checkWorkerSpawner } from "../workers.js";

const formats = outputFormats;
type CheckFormat = (typeof formats)[number];

interface CheckOptions {
  results: string;
  bfclData?: string;
  bfclEval?: string;
  scores?: string;
  out?: string;
  decoder?: DecoderName;
  bfclVersion?: "v3" | "v4";
  scoreEmptyTurns?: EmptyTurnReading;
  format: CheckFormat;
  threads?: string;
}

function pct(n: number, d: number): string {
  return d === 0 ? "" : `${((100 * n) / d).toFixed(2)}%`;
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
  program
    .command("check")
    .summary("re-score result files with the TypeScript BFCL checker")
    .description(
      "Re-score BFCL multi-turn result files with twinscore's TypeScript executor and checker, as `bfcl evaluate` would.\n\n" +
        "Every BFCL_v{3,4}_multi_turn_<category>_result.json below --results is checked against the BFCL data: the model's " +
        "calls and the reference calls run turn by turn on simulated API instances; an entry passes when, after every " +
        "turn with reference calls, the public state matches and the reference's results are among the model's. " +
        "long_context files need BFCL's long_context.py from an installation (--bfcl-eval or BFCL_EVAL_DIR).\n\n" +
        "BFCL_v3_ files are checked as BFCL v3 final (Gorilla cd9429cc) checked them — its API classes, instance names, runner and " +
        "score-file format — against the v3 data (BFCL_v3_ files in --bfcl-data); BFCL_v4_ files as bfcl-eval 2026.3.23 does. " +
        "--bfcl-version overrides the file names.",
    )
    .requiredOption("--results <dir>", "folder with result files (a BFCL result root, or one model's folder)")
    .option("--bfcl-data <dir>", "BFCL data directory (else BFCL_DATA_DIR, else a bfcl_eval installation)")
    .option("--bfcl-eval <dir>", "bfcl_eval package folder holding long_context.py (only for long_context files)")
    .option("--scores <dir>", "stored BFCL score root to compare verdicts with (same layout as --out)")
    .option("--out <dir>", "write BFCL-format score files here (<model>/multi_turn/BFCL_v4_<category>_score.json; for a tree of runs, <run>/score/<model>/…)")
    .addOption(new Option("--decoder <name>", "decode every model's steps with this BFCL handler decoder (listed below); default: each model folder's own").choices(DECODER_NAMES))
    .addOption(
      new Option(
        "--score-empty-turns [reading]",
        "also score the turns whose reference is empty (the under-specified turn BFCL skips): strict = BFCL's own multi_turn_irrelevance_checker, any decoded call there fails the entry; world-changing = only a world-changing attempt there fails it",
      )
        .choices(emptyTurnReadings)
        .preset("strict"),
    )
    .addOption(
      new Option(
        "--bfcl-version <version>",
        "emulate this BFCL release for every file (its data file names, executor, API classes, runner and score-file format); default: each result file's own prefix, BFCL_v3_ (v3 final) or BFCL_v4_ (bfcl-eval 2026.3.23)",
      ).choices(["v3", "v4"]),
    )
    .option("--threads <n>", "threads in all: this one plus n-1 workers, one model folder each at a time (default 1: each thread loads the data and warms up on its own, which did not pay off on 2 cores)")
    .addOption(new Option("--format <format>", "output format").choices(formats).default("table"))
    .addHelpText(
      "after",
      "\nColumns: entries = result lines; correct/accuracy = entries that pass; with --scores, per file:\n" +
        "  verdict_agree  = entries whose pass/fail equals the stored score file's\n" +
        "  type_agree     = entries whose error_type also equals (both passing counts as equal)\n" +
        "  message_agree  = entries whose error_message also equals\n" +
        "  error_object_agree = of entries failed by both, how many full error objects are identical\n" +
        "  disagreeing    = ids where verdict, type, message or (when compared) the error object differ.\n" +
        "--format json gives the same per file, with the disagreeing ids as a list.\n" +
        "\n--score-empty-turns: BFCL's checker skips a turn whose reference is empty (on miss_func and\n" +
        "miss_param, the turn where the model should ask). BFCL ships the check for it\n" +
        "(multi_turn_irrelevance_checker) and never calls it. With this option each entry is also checked\n" +
        "on those turns and the score files written are the counterfactual ones: an entry that passes\n" +
        "BFCL's checker fails if it calls anything there (strict: error multi_turn:irrelevance_error:\n" +
        "decoder_success, BFCL's message) or, with =world-changing, only if it attempts a world-changing\n" +
        "call there (multi_turn:irrelevance_error:world_changing_attempt; a lookup before asking is allowed).\n" +
        "Where both checks fail, the empty-turn error is written, as BFCL's runner did when it ran the check.\n" +
        "correct/accuracy then count entries passing both; compared with stored BFCL score files, the\n" +
        "entries the empty turns fail show as disagreeing. A second table puts the three scores of every\n" +
        "file side by side (whichever reading the score files follow), with the models' ranking under each:\n" +
        emptyTurnHelp +
        "Neither counterfactual is BFCL's score: they are what BFCL's score would be had its runner called\n" +
        "the check it ships (strict), or had it scored the skipped turn by the decision to act (world-changing).\n" +
        "\nSpeed: check turns V8's TurboFan inlining off, which does not pay in runs this short;\n" +
        "TWINSCORE_V8_DEFAULTS=1 keeps V8's defaults.\n" +
        "\nExit: 0 checked (and, with --scores, every verdict agrees); 1 checked, some verdicts disagree,\n" +
        "or more than 5 % of a file's tool-call steps fail to decode (one line per such file: wrong decoder?);\n" +
        "2 bad arguments, no BFCL data, no result file, or a file that could not be checked.\n",
    )
    .addHelpText("after", decoderHelp)
    .action(async (opts: CheckOptions) => {
      const doc = await checkRuns({
        spawnWorker: checkWorkerSpawner,
        results: opts.results,
        bfclData: opts.bfclData,
        bfclEval: opts.bfclEval,
        scores: opts.scores,
        out: opts.out,
        decoder: opts.decoder,
        bfclVersion: opts.bfclVersion,
        threads: integerOption(opts.threads),
        beforeChecking: io.tuneForShortRun,
        emptyTurns: opts.scoreEmptyTurns,
        cwd: io.cwd,
        env: io.env,
      });
      printProblems(io, doc.problems, { command: "check" });
      for (const line of detectedDecoderLines(doc.files.map((f) => ({ model: f.folder, decoder: f.decoder })))) io.stderr(line + "\n");
      state.exitCode = doc.exitCode;
      if (doc.files.length === 0 && doc.exitCode === 2) return;
      if (opts.format === "json") io.stdout(renderJson(doc));
      else {
        const table = tableOf("check", doc.files, opts.scores !== undefined ? columns : columns.slice(0, 5));
        const out = renderPrintout({ blocks: [{ kind: "table", table }, ...(doc.emptyTurns === null ? [] : emptyTurnBlocks(doc.emptyTurns))] }, opts.format);
        io.stdout(out.stdout);
        if (out.stderr) io.stderr(out.stderr);
      }
    });
};
