/**
 * `twinscore score`: the decision table for every model found under `--results`.
 * Wiring only — discovery and reading are `src/io/results*.ts`, scoring `src/decision/`.
 * `demo.ts` reuses `scoreAndPrint` so the demo goes through exactly this path.
 */
import { Option, type Command } from "commander";
import { resolve } from "node:path";
import { perItemColumns, perItemRows, scoreColumns, scoreRow, type PerItemRow, type ScoreRow } from "../../decision/table.js";
import { DECODER_NAMES, type DecoderName } from "../../bfcl/decode/index.js";
import type { ScoreOptions } from "../../decision/types.js";
import { decoderHelp, detectedDecoderLines } from "../decoder-option.js";
import { countByCode, type Problem } from "../../messages/index.js";
import type { Manifest } from "../../pairs/types.js";
import { loadManifest, writeFileAtomic } from "../../io/manifest.js";
import { scoreResultDirs, type ModelRun } from "../../io/results.js";
import { workaroundRows, workaroundText } from "./score-workaround.js";
import { outputFormats, renderJson, renderRows, type Column, type OutputFormat } from "../format.js";
import { collect } from "../options.js";
import { printProblems } from "../problems.js";
import { ExitCode, type CliIo } from "../io.js";
import type { RegisterCommand } from "./index.js";
// issue 4 (intervals, --scores, --sensitivity): see score-extras.ts
import { addScoreExtrasOptions, bootstrapOf, extrasJson, extrasMetrics, extrasText, intervalsByModel, scoreExtrasHelp, withIntervalColumn, type ScoreExtrasOptions } from "./score-extras.js";

/** Options shared by `score` and `demo`. */
export interface ScoreCliOptions extends ScoreExtrasOptions {
  format: OutputFormat;
  perItem?: string;
  countLogin?: boolean;
  uncertified?: boolean;
  allPairs?: boolean;
  strict?: boolean;
  manifest?: string;
  threads?: string;
  decoder?: DecoderName;
}

const tableColumns: Column<ScoreRow>[] = scoreColumns.map((c) => ({
  header: c.header,
  value: (r: ScoreRow) => r[c.key],
  align: c.key === "model" ? "left" : "right",
}));

const perItemCsvColumns: Column<PerItemRow>[] = perItemColumns.map((k) => ({ header: k, value: (r: PerItemRow) => r[k] }));

/** The help text that explains the numbers, shared with `demo`. */
export const columnsHelp =
  "\nColumns (percent, one decimal, rounded as Python's '%.1f'):\n" +
  scoreColumns.map((c) => `  ${c.header.padEnd(9)} ${c.meaning}`).join("\n") +
  "\n";

/** Options → the scorer's reading; `--uncertified` and `--all-pairs` are exclusive. */
export function scoreOptionsOf(opts: ScoreCliOptions): ScoreOptions | string {
  if (opts.uncertified && opts.allPairs) return "--uncertified and --all-pairs cannot be combined";
  return {
    pairSet: opts.allPairs ? "all" : opts.uncertified ? "uncertified" : "certified",
    countLogin: Boolean(opts.countLogin),
    ...(opts.decoder !== undefined ? { decoder: opts.decoder } : {}),
  };
}

function pairSetLabel(options: ScoreOptions, n: number): string {
  const set =
    options.pairSet === "certified"
      ? "certified pairs (Table 1)"
      : options.pairSet === "uncertified"
        ? "gold world-changing pairs before certification"
        : "content-verified pairs, read-only anchors included";
  return `${n} ${set}${options.countLogin ? ", logins counted as world-changing" : ""}`;
}

/** The JSON document: per model every number of the table, the files used and the reading counts. */
function jsonDocument(runs: readonly ModelRun[], options: ScoreOptions, pairsSelected: number, problems: readonly Problem[]) {
  return {
    options: { pairSet: options.pairSet, countLogin: options.countLogin, pairsSelected },
    models: runs.map((run) => ({
      model: run.model,
      scored: run.score !== null,
      numbers: run.score?.numbers ?? null,
      printed: run.score ? scoreRow(run.score) : null,
      counts: run.score?.counts ?? null,
      decoder: run.decoder ?? null,
      filesUsed: run.filesUsed,
      problems: run.problems.length,
    })),
    problems: Object.fromEntries(countByCode(problems)),
  };
}

function filesUsedLines(runs: readonly ModelRun[]): string[] {
  const lines: string[] = [];
  const width = Math.max(0, ...runs.map((r) => r.model.length));
  for (const run of runs) {
    for (const [category, used] of Object.entries(run.filesUsed)) {
      const extra = used.candidates > 1 ? ` (${used.distinctIds} ids; chosen among ${used.candidates} copies: most distinct ids)` : "";
      lines.push(`  ${run.model.padEnd(width)}  ${category.padEnd(10)} ${used.file}${extra}`);
    }
  }
  return lines;
}

/** How `demo` adjusts the printout: its own title, and no list of (temporary) files. */
export interface PrintVariant {
  readonly title?: string;
  readonly showFiles?: boolean;
}

/**
 * Score the result directories and print in the chosen format; returns the exit code
 * and the runs (the demo checks its policies on them).
 */
export async function scoreAndPrint(
  io: CliIo,
  request: { resultDirs: readonly string[]; models: readonly string[]; manifest: Manifest },
  opts: ScoreCliOptions,
  variant: PrintVariant = {},
): Promise<{ code: number; runs: ModelRun[] }> {
  const failed = (code: number) => ({ code, runs: [] as ModelRun[] });
  const options = scoreOptionsOf(opts);
  if (typeof options === "string") {
    io.stderr(`twinscore: ${options}\n`);
    return failed(ExitCode.badInput);
  }
  let threads: number | undefined;
  if (opts.threads !== undefined) {
    threads = Number(opts.threads);
    if (!Number.isInteger(threads) || threads < 1) {
      io.stderr(`twinscore: --threads must be a positive integer, got ${JSON.stringify(opts.threads)}\n`);
      return failed(ExitCode.badInput);
    }
  }
  const bootstrap = bootstrapOf(opts);
  if (typeof bootstrap === "string") {
    io.stderr(`twinscore score: ${bootstrap}\n`);
    return failed(ExitCode.badInput);
  }
  const outcome = await scoreResultDirs({ ...request, options, cwd: io.cwd, threads });
  const problems = [...outcome.problems, ...outcome.runs.flatMap((r) => r.problems)];
  const scored = outcome.runs.filter((r) => r.score !== null);
  const rows = scored.map((r) => scoreRow(r.score!));
  const intervals = intervalsByModel(scored, bootstrap);
  const columns = withIntervalColumn(tableColumns, intervals, bootstrap);
  const extras = scored.length > 0 ? extrasMetrics(io, request, scored.map((r) => r.model), opts, bootstrap) : null;
  const workaround = scored.length > 0 && variant.showFiles !== false ? workaroundRows(io, scored, request.manifest, options, (opts as { bfclData?: string }).bfclData, problems) : null;

  if (opts.perItem !== undefined && scored.length > 0) {
    const items = scored.flatMap((r) => perItemRows(r.model, r.score!.records));
    const target = resolve(io.cwd, opts.perItem);
    const written = writeFileAtomic(target, renderRows(items, perItemCsvColumns, "csv"));
    if (!written.ok) {
      printProblems(io, [...problems, ...written.problems]);
      return failed(ExitCode.badInput);
    }
    io.stderr(`wrote ${target} (${items.length} rows)\n`);
  }

  switch (opts.format) {
    case "json":
      {
        const doc = jsonDocument(outcome.runs, options, outcome.pairsSelected, problems);
        const models = doc.models.map((m) => ({ ...m, ci95: intervals.get(m.model)?.interval ?? null, rank1: intervals.get(m.model)?.rank1 ?? null }));
        const more = extras ? extrasJson(extras, scored.map((r) => r.model), opts) : {};
        io.stdout(renderJson({ ...doc, bootstrap, models, ...more, ...(workaround ? { workaround } : {}) }));
      }
      break;
    case "table": {
      io.stdout((variant.title ?? `Decision to act on ${pairSetLabel(options, outcome.pairsSelected)}`) + "\n\n");
      if (rows.length > 0) io.stdout(renderRows(rows, columns, "table"));
      else io.stdout("(no model could be scored)\n");
      if (extras) io.stdout(extrasText(extras, scored.map((r) => r.model), opts, "table"));
      if (workaround) io.stdout(workaroundText(workaround, "table"));
      const files = variant.showFiles === false ? [] : filesUsedLines(outcome.runs);
      if (files.length > 0) io.stdout(["", "Files used:", ...files, ""].join("\n"));
      break;
    }
    default:
      io.stdout(renderRows(rows, columns, opts.format));
      if (extras) io.stdout(extrasText(extras, scored.map((r) => r.model), opts, opts.format));
      if (workaround) io.stdout(workaroundText(workaround, opts.format));
      if (variant.showFiles !== false) for (const line of filesUsedLines(outcome.runs)) io.stderr(`used${line.slice(1)}\n`);
  }

  for (const line of detectedDecoderLines(outcome.runs.map((r) => ({ model: r.model, decoder: r.decoder })))) io.stderr(line + "\n");
  printProblems(io, problems);
  if (scored.length === 0) {
    if (problems.length === 0) io.stderr("twinscore: no result files found\n");
    return { code: ExitCode.badInput, runs: outcome.runs };
  }
  // a file most of whose tool calls do not decode was scored with the wrong decoder: never a silent number
  const findings = (opts.strict && problems.length > 0) || problems.some((p) => p.code === "decode-failures");
  return { code: findings ? ExitCode.findings : ExitCode.ok, runs: outcome.runs };
}

/** The options `score` and `demo` share. */
export function addScoreOptions(cmd: Command): Command {
  return addScoreExtrasOptions(cmd)
    .addOption(new Option("--format <format>", "output format").choices(outputFormats).default("table"))
    .option("--per-item <file>", "also write one CSV row per model and pair (act/hold as 0/1), atomically")
    .option("--count-login", "count login/logout as world-changing; the 2 login-only pairs join (223 -> 225)")
    .option("--uncertified", "score the 231 gold world-changing pairs before hand certification")
    .option("--all-pairs", "score all 365 content-verified pairs, read-only anchors included")
    .option("--strict", "exit 1 on any problem (malformed line, missing category, inference error, ...)")
    .option("--manifest <file>", "pair manifest (default: the package's data/manifest.json)")
    .option("--threads <n>", "threads reading result files: this one plus n-1 workers, from 8 models up (default: cores, at most 4)")
    .addOption(new Option("--decoder <name>", "decode every model's steps with this BFCL handler decoder (listed below); default: each model folder's own").choices(DECODER_NAMES))
    .addHelpText("after", scoreExtrasHelp)
    .addHelpText("after", decoderHelp);
}

/** Load the manifest named by `--manifest` (or the committed one); prints the problem and returns null on failure. */
export function manifestOf(io: CliIo, path: string | undefined): Manifest | null {
  const loaded = path === undefined ? loadManifest() : loadManifest(resolve(io.cwd, path));
  if (!loaded.ok) {
    printProblems(io, loaded.problems);
    return null;
  }
  return loaded.value;
}

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
    .option("--results <dir>", "a BFCL result directory (repeatable)", collect, [] as string[])
    .option("--model <name>", "score only this model directory (repeatable)", collect, [] as string[])
    .option("--bfcl-data <dir>", "BFCL data directory: adds Table F1, the miss_func workaround credit (else BFCL_DATA_DIR / bfcl_eval)");
  addScoreOptions(cmd)
    .addHelpText(
      "after",
      columnsHelp +
        "\nLayouts read under each --results DIR (and DIR/result):\n" +
        "  DIR/<model>/multi_turn/BFCL_v4_multi_turn_<category>_result.json   (BFCL v4)\n" +
        "  DIR/<model>/BFCL_v3_multi_turn_<category>_result.json              (flat v3; flat v4 too)\n" +
        "  DIR itself a model directory (model named after DIR)\n" +
        "A model is scored when base, miss_func and miss_param are all present. When a (model, category)\n" +
        "file exists in several trees, the copy with the most distinct ids is used (the first found on a\n" +
        "tie); copies are never merged. The output names the file used for each model and category.\n" +
        "\nA rollout that ended before the anchor turn, or whose line is an inference-error string, is\n" +
        "scored as making no call there and counted. A call whose arguments failed to decode still counts\n" +
        "by its name, and so does call text that names a tool-list function in call position but does not\n" +
        "decode; call-like text that names no function makes its pair undecidable (left out, counted).\n" +
        "Malformed lines and ids of another category are reported (file:line) and skipped.\n" +
        "Exit: 0 scored; 1 scored but a file's anchor-turn tool calls fail to decode past 5 % (wrong\n" +
        "decoder?), or a problem was met and --strict is set; 2 nothing could be scored.\n",
    )
    .action(async (opts: ScoreCliOptions & { results: string[]; model: string[] }) => {
      if (opts.results.length === 0) {
        io.stderr("twinscore score: give at least one --results DIR (a BFCL result directory)\n");
        state.exitCode = ExitCode.badInput;
        return;
      }
      const manifest = manifestOf(io, opts.manifest);
      if (!manifest) {
        state.exitCode = ExitCode.badInput;
        return;
      }
      state.exitCode = (await scoreAndPrint(io, { resultDirs: opts.results, models: opts.model, manifest }, opts)).code;
    });
};
