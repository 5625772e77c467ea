/**
 * `twinscore run`: generate BFCL result files for a model behind an OpenAI-compatible
 * endpoint. Wiring only: flags become a request for the use case (`app/run.ts`, which
 * checks them), its document is printed; the loop is `rollout/`, the client
 * `io/openai-chat.ts`.
 */
import { Option, type Command } from "commander";
import { runCommand, type RunDocument, type RunProgress } from "../../app/run.js";
import { redactKey } from "../../io/openai-chat.js";
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
  keyEnv?: string;
  bfclData?: string;
  modelDir?: string;
  untilAnchor?: boolean;
  retryErrors?: boolean;
  inject?: string;
  injectFile?: string;
  systemPrompt?: string;
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
    const text = `run: ${p.done}/${p.total} items, ${p.requests} requests, ${p.errors} error lines, tokens ${p.inputTokens} in / ${p.outputTokens} out${eta}`;
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
        "becomes BFCL's inference-error line.\n\n" +
        "Items: pairs = the items of the scored pairs (151 base twins, 223 should-ask items); all-pairs = the " +
        "items of all 365 content-verified pairs; all = every base, miss_func and miss_param entry (for the " +
        "official score). --until-anchor stops each pair's items after the anchor turn: `score` gives the same " +
        "numbers at a fraction of the requests; such lines carry twinscore_stopped_after_turn, and `check` leaves " +
        "them out.\n\n" +
        "Resume: ids already in the output are skipped (error lines too, unless --retry-errors); each line is " +
        "appended whole and a torn last line is cut off; at the end each file is rewritten in BFCL's order. " +
        "Retries: 429, 5xx, timeouts and network errors, with exponential backoff and jitter; a Retry-After " +
        "header is honoured up to 60 s (longer waits are cut to 60 s and reported). Every request carries " +
        "`x-twinscore-item: <entry id>`. The key is read from the variable named by --key-env, sent only in the " +
        "Authorization header, and redacted from every reply and message.\n\n" +
        "Prompting mode reads BFCL's system prompt at run time from your BFCL installation (python3 -c 'import " +
        "bfcl_eval'), or from --system-prompt FILE, where {functions} stands for the docs as JSON.\n\n" +
        "Exit codes: 0 every line generated; 1 done, with inference-error lines; 2 bad arguments or input.",
    )
    .requiredOption("--endpoint <url>", "OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1")
    .requiredOption("--model <name>", "the model name the endpoint serves (sent as `model`)")
    .requiredOption("--out <dir>", "result root: files go to <dir>/<model-dir>/multi_turn/")
    .addOption(new Option("--items <set>", "which entries to generate").choices(["pairs", "all-pairs", "all"]).default("pairs"))
    .addOption(new Option("--mode <mode>", "function calling, or Python-call text with BFCL's system prompt").choices(["fc", "prompting"]).default("fc"))
    .option("--temperature <t>", "sampling temperature (BFCL's default)", "0.001")
    .option("--concurrency <n>", "entries in flight at once", "4")
    .option("--timeout <seconds>", "per-request deadline, reply body included", "600")
    .option("--retries <n>", "retries per request on 429, 5xx, timeouts and network errors", "5")
    .option("--key-env <var>", "environment variable holding the API key (none: no Authorization header)")
    .option("--bfcl-data <dir>", "BFCL data folder (default: BFCL_DATA_DIR, else the installed bfcl_eval's data)")
    .option("--model-dir <name>", "result folder name (default: the model name with / replaced by _)")
    .option("--until-anchor", "stop each pair's items after the anchor turn (decision only)")
    .option("--retry-errors", "generate the error lines already in the output again")
    .option("--inject <text>", "prompt arm: one extra block (FC: a developer message before turn 0; prompting: after the system prompt)")
    .option("--inject-file <file>", "the same, read from a file")
    .option("--system-prompt <file>", "prompting mode: system prompt file instead of BFCL's ({functions} marks the docs)")
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
        keyEnv: opts.keyEnv,
        bfclData: opts.bfclData,
        untilAnchor: opts.untilAnchor === true,
        retryErrors: opts.retryErrors === true,
        inject: opts.inject,
        injectFile: opts.injectFile,
        systemPrompt: opts.systemPrompt,
        onProgress: progressLine(io),
        onRetry: (r) => {
          if (r.retryAfterCappedFromMs !== null) {
            io.stderr(`run: ${r.itemId}: the server asked to wait ${Math.round(r.retryAfterCappedFromMs / 1000)} s (Retry-After); waiting the 60 s cap instead\n`);
          } else if (opts.verbose) io.stderr(`run: ${r.itemId}: retry ${r.attempt} in ${Math.round(r.waitMs)} ms after: ${r.reason}\n`);
        },
      });
      // every message below comes from the client or the loop, where the key is already redacted
      const key = opts.keyEnv !== undefined ? (io.env[opts.keyEnv] ?? null) : null;
      if (d.exitCode === 2) {
        printProblems(io, d.problems.map((p) => ({ ...p, message: redactKey(p.message, key) })), { command: "run" });
        state.exitCode = ExitCode.badInput;
        return;
      }
      printProblems(io, d.problems, { command: "run", verbose: opts.verbose });
      const shown = d.errors.slice(0, opts.verbose ? d.errors.length : 5);
      for (const e of shown) io.stderr(`run: ${e.id}: error line: ${redactKey(e.message, key).slice(0, 300)}\n`);
      if (d.errors.length > shown.length) io.stderr(`run: … ${d.errors.length - shown.length} more error lines (--verbose lists them)\n`);
      io.stderr(
        `run: ${d.model} (${d.mode}): ${d.selected} items, ${d.generated} generated, ${d.resumed} already in the output, ${d.errors.length} error lines; ` +
          `${d.requests} requests, tokens ${d.inputTokens} in / ${d.outputTokens} out${d.stoppedAtAnchor ? `; ${d.stoppedAtAnchor} lines stopped after their anchor turn` : ""}\n`,
      );
      io.stdout(opts.format === "json" ? renderJson(d) : renderPrintout({ blocks: [{ kind: "table", table: tableOf("files", d.files, fileColumns) }] }, opts.format).stdout);
      state.exitCode = d.exitCode;
    });
};
