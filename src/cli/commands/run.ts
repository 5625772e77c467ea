/**
 * `twinscore run`: generate BFCL result files for a model behind an OpenAI-compatible
 * endpoint. Wiring only: flags become a request for the use case (`app/run/`, which
 * checks them), its document is printed; the loop is `rollout/`, the client
 * `io/openai-chat.ts`.
 */
import { manifestsOf, renderVersionedJson } from "../versioned-json.js";
import { Option, type Command } from "commander";
import { DEFAULT_MAX_CONSECUTIVE_ERRORS, runCommand, type RunDocument, type RunProgress } from "../../app/run/index.js";
import { planText } from "../../app/run/index.js";
import { DEFAULT_MAX_REPLY_BYTES, endpointSecrets, MAX_REPLY_BYTES_LIMIT } from "../../io/openai-chat.js";
import { redactorOf } from "../../io/secrets.js";
import type { ItemSelection } from "../../rollout/selection.js";
import { modelDirName } from "../../rollout/lines.js";
import { counted, note, problem, renderProblemLine, type Problem } from "../../messages/index.js";
import { renderJson, renderPrintout, tableOf, type Column } from "../../report/printout.js";
import { commandHelpFooter } from "../help-topics.js";
import { ExitCode, type CliIo } from "../io.js";
import { bfclDataGroup, formatGroup, httpClientGroup, withGroups, type ParsedOptions } from "../option-groups.js";
import { integerOption, numberOption } from "../options.js";
import { printNotes, printProblems } from "../problems.js";
import type { RegisterCommand } from "./index.js";

interface RunCliOptions {
  endpoint: string;
  model: string;
  out: string;
  items: ItemSelection;
  mode: "fc" | "prompting";
  temperature: string;
  maxReplyBytes: string;
  maxConsecutiveErrors: string;
  keyEnv?: string;
  modelDir?: string;
  untilAnchor?: boolean;
  history: "own" | "reference";
  continue?: boolean;
  retryErrors?: boolean;
  excludeStateLog?: boolean;
  inject?: string;
  injectFile?: string;
  systemPrompt?: string;
  userSim: "scripted" | "llm";
  userEndpoint?: string;
  userModel?: string;
  userKeyEnv?: string;
  maxClarifications?: string;
  userPrompt?: string;
  limit?: string;
  ids?: string[];
  category?: string;
  dryRun?: boolean;
  trials?: string;
  samplingSeed?: string;
  verbose?: boolean;
}

const httpClient = httpClientGroup("required");
const format = formatGroup(undefined, "summary format: table, json (the whole document), csv, markdown, latex");
const bfclData = bfclDataGroup("the questions to run (default: BFCL_DATA_DIR, else the installed bfcl_eval's data)");

type FileRow = RunDocument["files"][number];

const fileColumns: Column<FileRow>[] = [
  { header: "category", value: (f) => f.category },
  { header: "lines", value: (f) => f.lines, align: "right" },
  { header: "generated", value: (f) => f.generated, align: "right" },
  { header: "resumed", value: (f) => f.resumed, align: "right" },
  { header: "error lines", value: (f) => f.errors, align: "right" },
  { header: "file", value: (f) => f.path },
];

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`
      : `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** The progress line: items done and total, requests, errors, tokens, ETA; at most every 2 s (and at the end). */
function progressLine(io: CliIo): (p: RunProgress) => void {
  let last = 0;
  let firstDone: number | null = null;
  return (p) => {
    const now = Date.now();
    if (p.done < p.total && now - last < 2000) return;
    last = now;
    firstDone ??= p.done;
    const fresh = p.done - firstDone;
    const eta = fresh > 0 && p.done < p.total ? `, ETA ${duration((p.elapsedMs / fresh) * (p.total - p.done))}` : "";
    const sim = p.simRequests > 0 ? `, ${p.simRequests} simulated-user requests` : "";
    const text = `run: ${p.done}/${p.total} items, ${p.requests} requests${sim}, ${counted(p.errors, "error line")}, tokens ${p.inputTokens} in / ${p.outputTokens} out${eta}`;
    io.stderr(io.isTTY ? `\r${text}${p.done === p.total ? "\n" : ""}` : `${text}\n`);
  };
}

/** Registers `twinscore run`. */
export const registerRun: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("run")
    .summary("generate BFCL result files against any OpenAI-compatible endpoint")
    .description(
      "Run BFCL's multi-turn generation loop against an OpenAI-compatible endpoint and write result files that " +
        "score, check and BFCL's own `bfcl evaluate` read (OUT/<model-dir>/multi_turn/BFCL_v4_multi_turn_<category>_result.json).",
    );
  withGroups(cmd, httpClient);
  addGenerationOptions(cmd);
  addHistoryAndPromptOptions(cmd);
  addUserSimOptions(cmd);
  addSelectionOptions(cmd);
  withGroups(cmd, bfclData, format)
    .addHelpText(
      "after",
      "\nExit: 0 every line generated; 1 done, with error lines (new or kept); 2 bad arguments, an endpoint that\n" +
        "does not answer, a folder another run holds, or a run stopped early." +
        commandHelpFooter(["generation", "history", "interactive", "exit-codes"]),
    )
    .action((opts: RunCliOptions) => runAction(io, state, opts));
};

/** The model, the output and how each reply is sampled and read. */
function addGenerationOptions(cmd: Command): void {
  cmd
    .requiredOption("--model <name>", "the model name the endpoint serves (sent as `model`)")
    .requiredOption("--out <dir>", "result root: files go to <dir>/<model-dir>/multi_turn/")
    .addOption(new Option("--items <set>", "which entries to generate").choices(["pairs", "all-pairs", "all"]).default("pairs"))
    .addOption(
      new Option("--mode <mode>", "function calling, or Python-call text with BFCL's system prompt")
        .choices(["fc", "prompting"])
        .default("fc"),
    )
    .option("--temperature <t>", "sampling temperature, a decimal number >= 0 (BFCL's default)", "0.001")
    .option(
      "--max-reply-bytes <n>",
      `the most bytes of one reply read: an integer from 1024 to ${MAX_REPLY_BYTES_LIMIT}; a longer reply makes the item an error line`,
      String(DEFAULT_MAX_REPLY_BYTES),
    )
    .option(
      "--max-consecutive-errors <n>",
      "requests in a row that cannot connect before the run stops: an integer >= 0 (0: never)",
      String(DEFAULT_MAX_CONSECUTIVE_ERRORS),
    )
    .option("--model-dir <name>", "result folder name (default: the model name with / replaced by _)")
    .option("--until-anchor", "stop each pair's items after the anchor turn (decision only)");
}

/** What the model sees before the anchor, and the extra prompt text of an arm. */
function addHistoryAndPromptOptions(cmd: Command): void {
  cmd
    .addOption(
      new Option(
        "--history <source>",
        "turns before each pair's anchor: the model's own (BFCL's loop), or the reference played (exact twins; see twinscore help generation)",
      )
        .choices(["own", "reference"])
        .default("own"),
    )
    .option("--continue", "--history reference: also generate the turns after the anchor")
    .option("--retry-errors", "generate the error lines already in the output again")
    .option("--exclude-state-log", "no state snapshots in inference_log (bfcl generate's flag)")
    .option("--inject <text>", "prompt arm: one extra block (FC: a developer message before turn 0; prompting: after the system prompt)")
    .option("--inject-file <file>", "the same, read from a file")
    .option("--system-prompt <file>", "prompting mode: system prompt file instead of BFCL's ({functions} marks the docs)");
}

/** Who speaks the answer turn, and the simulated user's endpoint when an LLM does. */
function addUserSimOptions(cmd: Command): void {
  cmd
    .addOption(
      new Option("--user-sim <kind>", "who speaks the answer turn: BFCL's script, or an LLM playing the user")
        .choices(["scripted", "llm"])
        .default("scripted"),
    )
    .option("--user-endpoint <url>", "--user-sim llm: the simulated user's OpenAI-compatible base URL")
    .option("--user-model <name>", "--user-sim llm: the model that plays the user")
    .option("--user-key-env <var>", "--user-sim llm: environment variable holding the simulator endpoint's key")
    .option(
      "--max-clarifications <n>",
      "--user-sim llm: extra rounds when the model asks again inside the answer turn: an integer >= 0 (default 2)",
    )
    .option("--user-prompt <file>", "--user-sim llm: prompt file instead of data/user-sim-prompt.md");
}

/** Which items run, how many times, and whether anything is sent at all. */
function addSelectionOptions(cmd: Command): void {
  cmd
    .option("--limit <n>", "the first N pairs in manifest order, both twins (all: N items)")
    .option("--ids <id...>", "only these items of the selection")
    .addOption(
      new Option("--category <category>", "only the pairs whose should-ask item is of this category (--items all: only its items)").choices(
        ["base", "miss_func", "miss_param"],
      ),
    )
    .option("--trials <k>", "K independent samples of each line, each its own seed: an integer >= 1")
    .option("--sampling-seed <n>", "seed sent with each request (with --trials: N + the trial)")
    .option("--dry-run", "print the plan and stop: nothing is sent or written")
    .option("--verbose", "print every retry and every error line");
}

type RunState = Parameters<RegisterCommand>[2];
type Seen = { first: RunProgress | null; latest: RunProgress | null };

/** Runs the use case with a line for Ctrl-C, then prints what it did. */
async function runAction(io: CliIo, state: RunState, opts: RunCliOptions): Promise<void> {
  // a signal (Ctrl-C) ends the process at once: before it goes, one line says what is on disk and how to go on
  const seen: Seen = { first: null, latest: null };
  const stopListening = io.onInterrupt?.((signal) => {
    const line = renderProblemLine(
      interruptedProblem(
        signal,
        seen,
        `${opts.out}/${opts.modelDir ?? modelDirName(opts.model)}/multi_turn`,
        resumeCommand(state.argv ?? [], opts),
      ),
    );
    io.stderr(`${io.isTTY ? "\n" : ""}${line}\n`);
  });
  const d = await runCommand(runRequest(io, opts, seen)).finally(() => stopListening?.());
  state.exitCode = printRunDocument(io, opts, d);
}

/** The use case's request: the flags, parsed, and the callbacks that print plan, progress and retries. */
function runRequest(io: CliIo, opts: RunCliOptions, seen: Seen): Parameters<typeof runCommand>[0] {
  const progress = progressLine(io);
  return {
    cwd: io.cwd,
    env: io.env,
    ...httpClient.read(opts as unknown as ParsedOptions),
    model: opts.model,
    out: opts.out,
    modelDir: opts.modelDir,
    items: opts.items,
    mode: opts.mode,
    temperature: numberOption(opts.temperature),
    maxReplyBytes: integerOption(opts.maxReplyBytes),
    maxConsecutiveErrors: integerOption(opts.maxConsecutiveErrors),
    ...bfclData.read(opts as unknown as ParsedOptions),
    untilAnchor: opts.untilAnchor === true,
    history: opts.history,
    continueAfterAnchor: opts.continue === true,
    retryErrors: opts.retryErrors === true,
    excludeStateLog: opts.excludeStateLog === true,
    inject: opts.inject,
    injectFile: opts.injectFile,
    systemPrompt: opts.systemPrompt,
    userSim: opts.userSim,
    userEndpoint: opts.userEndpoint,
    userModel: opts.userModel,
    userKeyEnv: opts.userKeyEnv,
    maxClarifications: integerOption(opts.maxClarifications),
    userPrompt: opts.userPrompt,
    limit: integerOption(opts.limit),
    ids: opts.ids,
    category: opts.category,
    dryRun: opts.dryRun === true,
    trials: integerOption(opts.trials),
    seed: integerOption(opts.samplingSeed),
    onPlan: (plan) =>
      printNotes(io, [
        note(
          opts.dryRun ? "run-dry" : "run-plan",
          `${opts.dryRun ? "dry run, nothing sent or written" : "plan"}: ${planText(plan, opts.history)}`,
        ),
      ]),
    onProgress: (p) => {
      seen.first ??= p;
      seen.latest = p;
      progress(p);
    },
    onRetry: (r) => {
      if (r.retryAfterCappedFromMs !== null) {
        const message = `${r.itemId}: the server asked to wait ${Math.round(r.retryAfterCappedFromMs / 1000)} s (Retry-After); waiting the 60 s cap instead`;
        printProblems(io, [problem("retry-after-capped", message, { severity: "warning" })]);
      } else if (opts.verbose)
        printNotes(io, [note("retry", `${r.itemId}: retry ${r.attempt} in ${Math.round(r.waitMs)} ms after: ${r.reason}`)]);
    },
  };
}

/** Prints a run's problems, error lines, summary and files table; returns the exit code. */
function printRunDocument(io: CliIo, opts: RunCliOptions, d: RunDocument): number {
  // every message below comes from the client or the loop, where the keys are already redacted; once more, to be sure
  const redactor = redactorOf([
    opts.keyEnv !== undefined ? io.env[opts.keyEnv] : null,
    opts.userKeyEnv !== undefined ? io.env[opts.userKeyEnv] : null,
    ...endpointSecrets(opts.endpoint),
    ...(opts.userEndpoint !== undefined ? endpointSecrets(opts.userEndpoint) : []),
  ]);
  const problems = d.problems.map((p) => ({ ...p, message: redactor.text(p.message) }));
  if (d.exitCode === 2 && d.halted === null) {
    printProblems(io, problems);
    return ExitCode.badInput;
  }
  printProblems(io, problems, { verbose: opts.verbose });
  const { format: chosen } = format.read(opts as unknown as ParsedOptions);
  if (d.dryRun) {
    if (chosen === "json") io.stdout(renderVersionedJson(d, runManifests(d)));
    return d.exitCode;
  }
  // stopped early: the problem line above says why and how to go on; no table of a run that did not end
  if (d.halted !== null) return ExitCode.badInput;
  printProblems(io, errorLineProblems(d, opts.verbose === true, redactor.text), { verbose: opts.verbose });
  printNotes(io, [note("run-summary", runSummary(d))]);
  const u = d.userSimulator;
  if (u !== null) {
    const simulated =
      `simulated user ${u.model}: ${u.interactiveItems} answer turns (${u.openings.answered} answered, ${u.openings.noQuestion} no question, ${u.openings.silent} no text: scripted line), ` +
      `${counted(u.clarifications, "clarification round")} (at most ${u.maxClarifications} per item); ${u.requests} requests, tokens ${u.inputTokens} in / ${u.outputTokens} out`;
    printNotes(io, [note("user-simulator", simulated)]);
  }
  io.stdout(
    chosen === "json"
      ? renderVersionedJson(d, runManifests(d))
      : renderPrintout({ blocks: [{ kind: "table", table: tableOf("files", d.files, fileColumns) }] }, chosen).stdout,
  );
  return d.exitCode;
}

/** The error lines, new and kept, as warnings: the first five, or all with --verbose. */
function errorLineProblems(d: RunDocument, verbose: boolean, redact: (text: string) => string): Problem[] {
  const listed = [...d.errors.map((e) => ({ ...e, kept: false })), ...d.keptErrors.map((e) => ({ ...e, kept: true }))];
  const shown = listed.slice(0, verbose ? listed.length : 5);
  return [
    ...shown.map((e) =>
      problem(
        "error-line",
        `${e.id}${e.anchorTurn !== undefined ? ` (anchor turn ${e.anchorTurn})` : ""}${e.trial !== undefined ? ` (trial ${e.trial})` : ""}: ${e.kept ? "error line kept from an earlier run" : "error line"}: ${redact(e.message).slice(0, 300)}`,
        {
          severity: "warning",
        },
      ),
    ),
    ...(listed.length > shown.length
      ? [
          problem("more", `${counted(listed.length - shown.length, "more error line")} not shown; --verbose lists each`, {
            severity: "warning",
          }),
        ]
      : []),
  ];
}

/** The run's one-line summary: lines, generated, resumed, errors, requests and tokens. */
function runSummary(d: RunDocument): string {
  const allErrors = d.errors.length + d.keptErrors.length;
  const errorText =
    d.keptErrors.length === 0
      ? counted(allErrors, "error line")
      : `${counted(allErrors, "error line")} (${d.errors.length} new, ${d.keptErrors.length} kept from an earlier run: --retry-errors generates them again)`;
  const reference = d.history === "reference";
  const perPair = d.pairs > 0 && d.items !== "all" ? `; ${(d.requests / d.pairs).toFixed(2)} requests per pair (${d.pairs} pairs)` : "";
  return (
    `${d.model} (${d.mode}${reference ? ", reference history" : ""}): ${d.selected} ${reference ? "lines (one per item and anchor)" : "items"}, ${d.generated} generated, ${d.resumed} already in the output, ${errorText}; ` +
    `${d.requests} requests${reference ? ` (${d.playedSteps} steps played from the reference)` : ""}, tokens ${d.inputTokens} in / ${d.outputTokens} out${perPair}` +
    `${d.stoppedAtAnchor ? `; ${counted(d.stoppedAtAnchor, "line")} stopped after their anchor turn` : ""}`
  );
}

/**
 * The line printed when a signal ends a run: the lines of the selection on disk (the
 * appends are whole, and the lock's handler puts the files in BFCL's order before the
 * process goes), how many this run wrote, and the command that resumes it — the same one.
 */
function interruptedProblem(
  signal: NodeJS.Signals,
  seen: { first: RunProgress | null; latest: RunProgress | null },
  folder: string,
  command: string,
): Problem {
  const { first, latest } = seen;
  if (first === null || latest === null) {
    return problem(
      "run-interrupted",
      `${signal} stopped the run before it generated anything; nothing was written; the same command starts it again: ${command}`,
    );
  }
  const errors = latest.errors > 0 ? `; ${counted(latest.errors, "error line")} among them` : "";
  return problem(
    "run-interrupted",
    `${signal} stopped the run: ${latest.done} of ${counted(latest.total, "line")} are in ${folder}, whole (${latest.done - first.done} written by this run${errors}); the same command goes on from there: ${command}`,
  );
}

/** The command line as given, quoted for a POSIX shell, with the endpoints' query-string keys redacted. */
function resumeCommand(args: readonly string[], opts: RunCliOptions): string {
  const redactor = redactorOf([
    ...endpointSecrets(opts.endpoint),
    ...(opts.userEndpoint !== undefined ? endpointSecrets(opts.userEndpoint) : []),
  ]);
  return ["twinscore", ...args].map((a) => redactor.text(shellWord(a))).join(" ");
}

/** A word a POSIX shell reads back as `text`: as it is when it holds nothing special, else in single quotes. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The manifest a run used, as its record says (the package's v4 manifest when no record was written). */
function runManifests(d: RunDocument): Record<string, string> {
  return d.record !== null ? { v4: d.record.manifestSha256 } : { v4: manifestsOf({}, "/").v4 };
}
