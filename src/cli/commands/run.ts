/**
 * `twinscore run`: generate BFCL result files for a model behind an OpenAI-compatible
 * endpoint. Wiring only: flags become a request for the use case (`app/run.ts`, which
 * checks them), its document is printed; the loop is `rollout/`, the client
 * `io/openai-chat.ts`.
 */
import { Option, type Command } from "commander";
import { DEFAULT_MAX_CONSECUTIVE_ERRORS, MAX_TIMEOUT_SECONDS, runCommand, type RunDocument, type RunProgress } from "../../app/run.js";
import { DEFAULT_MAX_REPLY_BYTES, MAX_REPLY_BYTES_LIMIT } from "../../io/openai-chat.js";
import { redactorOf } from "../../io/secrets.js";
import type { ItemSelection } from "../../rollout/selection.js";
import { outputFormats, renderJson, renderPrintout, tableOf, type Column, type OutputFormat } from "../../report/printout.js";
import { ExitCode, type CliIo } from "../io.js";
import { printProblems } from "../problems.js";
import type { RegisterCommand } from "./index.js";

interface RunCliOptions {
  endpoint: string;
  model: string;
  out: string;
  items: ItemSelection;
  mode: "fc" | "prompting";
  temperature: string;
  concurrency: string;
  timeout: string;
  retries: string;
  maxReplyBytes: string;
  maxConsecutiveErrors: string;
  keyEnv?: string;
  bfclData?: string;
  modelDir?: string;
  untilAnchor?: boolean;
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
  format: OutputFormat;
  verbose?: boolean;
}

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
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
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
    const text = `run: ${p.done}/${p.total} items, ${p.requests} requests${sim}, ${p.errors} error lines, tokens ${p.inputTokens} in / ${p.outputTokens} out${eta}`;
    io.stderr(io.isTTY ? `\r${text}${p.done === p.total ? "\n" : ""}` : `${text}\n`);
  };
}

/** Registers `twinscore run`. */
export const registerRun: RegisterCommand = (program: Command, io: CliIo, state) => {
  program
    .command("run")
    .summary("generate BFCL result files against any OpenAI-compatible endpoint")
    .description(
      "Run BFCL's multi-turn generation loop against an OpenAI-compatible chat-completions endpoint " +
        "(vLLM, SGLang, Ollama, llama.cpp server, OpenAI, hosted ones) and write result files that " +
        "`twinscore score`, `twinscore check` and BFCL's own `bfcl evaluate` read:\n" +
        "  OUT/<model-dir>/multi_turn/BFCL_v4_multi_turn_<category>_result.json\n\n" +
        "The loop is BFCL's (OpenAICompletionsHandler): the same messages in the same order, tools converted as BFCL " +
        "converts them, held-back functions handed back on their turn, each call executed by twinscore's " +
        "re-implementation of BFCL's executor and its result sent back as BFCL renders it, 20-step force-quit, " +
        "and BFCL's result lines (state snapshots, handler logs, token counts, latency). An endpoint failure " +
        "becomes BFCL's inference-error line. The lines are those of a default `bfcl generate` run (the kind that " +
        "produced the recorded gpt-oss runs): inference_log holds a state snapshot before the first turn and after " +
        "each turn, and no request log. --exclude-state-log leaves the snapshots out, as BFCL's flag of that name " +
        "does; BFCL's --include-input-log (the Python repr of each request's message objects) is not reproduced. " +
        "Neither changes result, token counts or anything score, check or bfcl evaluate read.\n\n" +
        "Items: pairs = the items of the scored pairs (151 base twins, 223 should-ask items); all-pairs = the " +
        "items of all 365 content-verified pairs; all = every base, miss_func and miss_param entry (for the " +
        "official score). long_context is not generated: no twin pair uses it, and score reads only these three. --until-anchor stops each pair's items after the anchor turn: `score` gives the same " +
        "numbers at a fraction of the requests; such lines carry twinscore_stopped_after_turn, and `check` and the " +
        "official numbers of `score --scores` leave them out, with a warning.\n\n" +
        "Resume: ids already in the output are skipped (error lines too, unless --retry-errors); each line is " +
        "appended whole and a torn last line is cut off; at the end each file is rewritten in BFCL's order. " +
        "Retries: 429, 5xx, timeouts and network errors, with exponential backoff and jitter; a Retry-After " +
        "header is honoured up to 60 s (longer waits are cut to 60 s and reported). Every request carries " +
        "`x-twinscore-item: <entry id>`. The key is read from the variable named by --key-env, sent only in the " +
        "Authorization header, and redacted from every reply and message.\n\n" +
        "Prompting mode reads BFCL's system prompt at run time from your BFCL installation (python3 -c 'import " +
        "bfcl_eval'), or from --system-prompt FILE, where {functions} stands for the docs as JSON.\n\n" +
        "Interactive mode (--user-sim llm): BFCL's scripted user cannot answer the question a model asks on a " +
        "should-ask item's anchor turn T. Here an LLM behind --user-endpoint plays the user on the answer turn " +
        "T+1 of every should-ask item of the manifest's pairs: it gets the model's last reply on T, the withheld " +
        "facts (the scripted T+1 line, the complete base-twin request, the held-back function's name) and a " +
        "prompt (data/user-sim-prompt.md, or --user-prompt FILE), and its answer replaces the scripted T+1 line " +
        "(miss_func: the held-back functions still come back at T+1, as in BFCL; only the message text changes). " +
        "A reply that executed nothing and has text is sent to the simulated user; it answers, or says " +
        "NO_QUESTION, and then the scripted line is sent verbatim. Inside T+1, each further such reply is " +
        "answered in the same turn, up to --max-clarifications rounds (default 2); the rounds are steps of that " +
        "turn, so result files keep BFCL's shape and score, check and compare read them unchanged. The " +
        "simulator's requests and replies are recorded in inference_log. Cost: one simulator request per " +
        "should-ask item for the anchor reply, plus one per reply with text inside T+1 (a closing summary " +
        "included), at most 1 + --max-clarifications per item. Base items run on BFCL's script. With " +
        "--until-anchor, interactive should-ask items stop after T+1. --user-sim scripted (the default) is " +
        "BFCL's script: the same files as a plain run.\n\n" +
        "Exit: 0 every line generated; 1 done, with error lines (new or kept); 2 bad arguments or input, an " +
          "endpoint that does not answer, a folder another run holds, or a run stopped early.",
    )
    .requiredOption("--endpoint <url>", "OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1")
    .requiredOption("--model <name>", "the model name the endpoint serves (sent as `model`)")
    .requiredOption("--out <dir>", "result root: files go to <dir>/<model-dir>/multi_turn/")
    .addOption(new Option("--items <set>", "which entries to generate").choices(["pairs", "all-pairs", "all"]).default("pairs"))
    .addOption(new Option("--mode <mode>", "function calling, or Python-call text with BFCL's system prompt").choices(["fc", "prompting"]).default("fc"))
    .option("--temperature <t>", "sampling temperature (BFCL's default)", "0.001")
    .option("--concurrency <n>", "entries in flight at once", "4")
    .option("--timeout <seconds>", `per-request deadline, reply body included: 0.001 to ${MAX_TIMEOUT_SECONDS} (about 24.8 days, Node's timer limit)`, "600")
    .option("--retries <n>", "retries per request on 429, 5xx, timeouts and network errors", "5")
    .option("--max-reply-bytes <n>", `the most bytes of one reply read: 1024 to ${MAX_REPLY_BYTES_LIMIT}; a longer reply makes the item an error line`, String(DEFAULT_MAX_REPLY_BYTES))
    .option("--max-consecutive-errors <n>", "requests in a row that cannot connect before the run stops (0: never)", String(DEFAULT_MAX_CONSECUTIVE_ERRORS))
    .option("--key-env <var>", "environment variable holding the API key (none: no Authorization header)")
    .option("--bfcl-data <dir>", "BFCL data folder (default: BFCL_DATA_DIR, else the installed bfcl_eval's data)")
    .option("--model-dir <name>", "result folder name (default: the model name with / replaced by _)")
    .option("--until-anchor", "stop each pair's items after the anchor turn (decision only)")
    .option("--retry-errors", "generate the error lines already in the output again")
    .option("--exclude-state-log", "leave the state snapshots out of inference_log, as bfcl generate --exclude-state-log does")
    .option("--inject <text>", "prompt arm: one extra block (FC: a developer message before turn 0; prompting: after the system prompt)")
    .option("--inject-file <file>", "the same, read from a file")
    .option("--system-prompt <file>", "prompting mode: system prompt file instead of BFCL's ({functions} marks the docs)")
    .addOption(new Option("--user-sim <kind>", "who speaks the should-ask items' answer turn: BFCL's script, or an LLM playing the user").choices(["scripted", "llm"]).default("scripted"))
    .option("--user-endpoint <url>", "--user-sim llm: the simulated user's OpenAI-compatible base URL")
    .option("--user-model <name>", "--user-sim llm: the model that plays the user")
    .option("--user-key-env <var>", "--user-sim llm: environment variable holding the simulator endpoint's key")
    .option("--max-clarifications <n>", "--user-sim llm: extra rounds when the model asks again inside the answer turn (default 2)")
    .option("--user-prompt <file>", "--user-sim llm: user-simulator prompt instead of data/user-sim-prompt.md")
    .option("--verbose", "print every retry")
    .addOption(new Option("--format <format>", "summary format").choices(outputFormats).default("table"))
    .action(async (opts: RunCliOptions) => {
      const num = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));
      const d = await runCommand({
        cwd: io.cwd,
        env: io.env,
        endpoint: opts.endpoint,
        model: opts.model,
        out: opts.out,
        modelDir: opts.modelDir,
        items: opts.items,
        mode: opts.mode,
        temperature: num(opts.temperature),
        concurrency: num(opts.concurrency),
        timeoutSeconds: num(opts.timeout),
        retries: num(opts.retries),
        maxReplyBytes: num(opts.maxReplyBytes),
        maxConsecutiveErrors: num(opts.maxConsecutiveErrors),
        keyEnv: opts.keyEnv,
        bfclData: opts.bfclData,
        untilAnchor: opts.untilAnchor === true,
        retryErrors: opts.retryErrors === true,
        excludeStateLog: opts.excludeStateLog === true,
        inject: opts.inject,
        injectFile: opts.injectFile,
        systemPrompt: opts.systemPrompt,
        userSim: opts.userSim,
        userEndpoint: opts.userEndpoint,
        userModel: opts.userModel,
        userKeyEnv: opts.userKeyEnv,
        maxClarifications: opts.maxClarifications === undefined ? undefined : num(opts.maxClarifications),
        userPrompt: opts.userPrompt,
        onProgress: progressLine(io),
        onRetry: (r) => {
          if (r.retryAfterCappedFromMs !== null) {
            io.stderr(`run: ${r.itemId}: the server asked to wait ${Math.round(r.retryAfterCappedFromMs / 1000)} s (Retry-After); waiting the 60 s cap instead\n`);
          } else if (opts.verbose) io.stderr(`run: ${r.itemId}: retry ${r.attempt} in ${Math.round(r.waitMs)} ms after: ${r.reason}\n`);
        },
      });
      // every message below comes from the client or the loop, where the keys are already redacted; once more, to be sure
      const redactor = redactorOf([opts.keyEnv !== undefined ? io.env[opts.keyEnv] : null, opts.userKeyEnv !== undefined ? io.env[opts.userKeyEnv] : null]);
      const problems = d.problems.map((p) => ({ ...p, message: redactor.text(p.message) }));
      if (d.exitCode === 2 && d.halted === null) {
        printProblems(io, problems, { command: "run" });
        state.exitCode = ExitCode.badInput;
        return;
      }
      printProblems(io, problems, { command: "run", verbose: opts.verbose });
      if (d.halted !== null) {
        // stopped early: the problem line above says why and how to go on; no table of a run that did not end
        state.exitCode = ExitCode.badInput;
        return;
      }
      const listed = [...d.errors.map((e) => ({ ...e, kept: false })), ...d.keptErrors.map((e) => ({ ...e, kept: true }))];
      const shown = listed.slice(0, opts.verbose ? listed.length : 5);
      for (const e of shown) io.stderr(`run: ${e.id}: ${e.kept ? "error line kept from an earlier run" : "error line"}: ${redactor.text(e.message).slice(0, 300)}\n`);
      if (listed.length > shown.length) io.stderr(`run: … ${listed.length - shown.length} more error lines (--verbose lists them)\n`);
      const allErrors = d.errors.length + d.keptErrors.length;
      const errorText =
        d.keptErrors.length === 0
          ? `${allErrors} error lines`
          : `${allErrors} error lines (${d.errors.length} new, ${d.keptErrors.length} kept from an earlier run: --retry-errors generates them again)`;
      io.stderr(
        `run: ${d.model} (${d.mode}): ${d.selected} items, ${d.generated} generated, ${d.resumed} already in the output, ${errorText}; ` +
          `${d.requests} requests, tokens ${d.inputTokens} in / ${d.outputTokens} out${d.stoppedAtAnchor ? `; ${d.stoppedAtAnchor} lines stopped after their anchor turn` : ""}\n`,
      );
      const u = d.userSimulator;
      if (u !== null) {
        io.stderr(
          `run: simulated user ${u.model}: ${u.interactiveItems} answer turns (${u.openings.answered} answered, ${u.openings.noQuestion} no question, ${u.openings.silent} no text: scripted line), ` +
            `${u.clarifications} clarification rounds (at most ${u.maxClarifications} per item); ${u.requests} requests, tokens ${u.inputTokens} in / ${u.outputTokens} out\n`,
        );
      }
      io.stdout(opts.format === "json" ? renderJson(d) : renderPrintout({ blocks: [{ kind: "table", table: tableOf("files", d.files, fileColumns) }] }, opts.format).stdout);
      state.exitCode = d.exitCode;
    });
};
