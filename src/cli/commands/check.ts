/**
 * `twinscore check`: re-score BFCL multi-turn result files with twinscore's own
 * executor and checker (no Python), write BFCL-format score files, and — given the
 * stored score files — report how far the verdicts agree. Wiring only: the work is in
 * `src/io/check-run.ts` and `src/simulator/`.
 */
import { Option, type Command } from "commander";
import { renderProblemLine, type Problem } from "../../messages/index.js";
import { DECODER_NAMES, type DecoderName } from "../../bfcl/decode/index.js";
import { decoderHelp, detectedDecoderLines } from "../decoder-option.js";
import { resolveBfclDataDir } from "../../io/bfcl-data.js";
import { runCheck, type CheckedFile } from "../../io/check-run.js";
import { emptyTurnReadings, type EmptyTurnReading } from "../../simulator/irrelevance.js";
import { renderJson, renderRows, type Column } from "../format.js";
import { ExitCode, type CliIo } from "../io.js";
import { wholeNumber } from "../options.js";
import type { RegisterCommand } from "./index.js";

const formats = ["table", "json", "csv", "markdown"] as const;
type CheckFormat = (typeof formats)[number];

interface CheckOptions {
  results: string;
  bfclData?: string;
  bfclEval?: string;
  scores?: string;
  out?: string;
  decoder?: DecoderName;
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

function report(io: CliIo, problems: readonly Problem[]): void {
  const shown = problems.slice(0, 20);
  for (const p of shown) io.stderr(renderProblemLine(p) + "\n");
  if (problems.length > shown.length) io.stderr(`… and ${problems.length - shown.length} more problems\n`);
}

/** Register `twinscore check`. */
export const registerCheck: RegisterCommand = (program: Command, io: CliIo, state) => {
  program
    .command("check")
    .summary("re-score result files with the TypeScript BFCL checker")
    .description(
      "Re-score BFCL multi-turn result files with twinscore's TypeScript executor and checker, as `bfcl evaluate` would.\n\n" +
        "Every BFCL_v4_multi_turn_<category>_result.json below --results is checked against the BFCL data: the model's " +
        "calls and the reference calls run turn by turn on simulated API instances; an entry passes when, after every " +
        "turn with reference calls, the public state matches and the reference's results are among the model's. " +
        "long_context files need BFCL's long_context.py from an installation (--bfcl-eval or BFCL_EVAL_DIR).",
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
    .option("--threads <n>", "threads in all: this one plus n-1 workers, one model folder each at a time (default 1: each thread loads the data and warms up on its own, which did not pay off on 2 cores)")
    .addOption(new Option("--format <format>", "output format").choices(formats).default("table"))
    .addHelpText(
      "after",
      "\nColumns: entries = result lines; correct/accuracy = entries that pass; with --scores, per file:\n" +
        "  verdict_agree  = entries whose pass/fail equals the stored score file's\n" +
        "  type_agree     = entries whose error_type also equals (both passing counts as equal)\n" +
        "  message_agree  = entries whose error_message also equals\n" +
        "  error_object_agree = of entries failed by both, how many full error objects are identical\n" +
        "  disagreeing    = ids where verdict, type or message differ.\n" +
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
        "entries the empty turns fail show as disagreeing.\n" +
        "\nSpeed: check turns V8's TurboFan inlining off, which does not pay in runs this short;\n" +
        "TWINSCORE_V8_DEFAULTS=1 keeps V8's defaults.\n",
    )
    .addHelpText("after", decoderHelp)
    .action(async (opts: CheckOptions) => {
      const location = resolveBfclDataDir({ flag: opts.bfclData, env: io.env, cwd: io.cwd });
      if (!location) {
        report(io, [{ code: "bfcl-data-missing", severity: "error", message: "check needs the BFCL data: pass --bfcl-data DIR or set BFCL_DATA_DIR" }]);
        state.exitCode = ExitCode.badInput;
        return;
      }
      let threads: number | undefined;
      if (opts.threads !== undefined) {
        const n = wholeNumber(opts.threads, "--threads", io, "check", 1);
        if (n === null) {
          state.exitCode = ExitCode.badInput;
          return;
        }
        threads = n;
      }
      io.tuneForShortRun?.();
      const run = await runCheck({
        resultsDir: opts.results,
        bfclDataDir: location.dir,
        scoresDir: opts.scores,
        outDir: opts.out,
        bfclEvalDir: opts.bfclEval,
        decoder: opts.decoder,
        emptyTurns: opts.scoreEmptyTurns,
        env: io.env,
        cwd: io.cwd,
      }, threads);
      if (!run.ok) {
        report(io, run.problems);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const { files, problems } = run.value;
      for (const line of detectedDecoderLines(files.map((f) => ({ model: f.folder, decoder: f.decoder })))) io.stderr(line + "\n");
      report(io, problems);
      if (opts.format === "json") {
        io.stdout(
          renderJson({
            files: files.map((f) => ({
              file: f.file,
              model: f.model,
              folder: f.folder,
              category: f.category,
              entries: f.entries,
              correct: f.correct,
              accuracy: f.accuracy,
              written: f.written,
              stored: f.storedScoreFile,
              agreement: f.agreement,
              decoder: f.decoder,
              decodeHealth: { toolCallSteps: f.decodeHealth.toolLooking, failed: f.decodeHealth.failed },
            })),
          }),
        );
      } else {
        io.stdout(renderRows(files, opts.scores !== undefined ? columns : columns.slice(0, 5), opts.format));
      }
      if (problems.some((p) => p.severity === "error")) state.exitCode = ExitCode.badInput;
      else if (files.some((f) => f.agreement && f.agreement.disagreeingIds.length > 0)) state.exitCode = ExitCode.findings;
      else if (problems.some((p) => p.code === "decode-failures")) state.exitCode = ExitCode.findings;
    });
};
