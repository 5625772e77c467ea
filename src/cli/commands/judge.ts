/**
 * `twinscore judge`: flags → `judgeHeldBack` (`src/app/judge.ts`) → the per-model label
 * summary (or, in a dry run, the requests), in the chosen format.
 */
import { Option, type Command } from "commander";
import { judgeHeldBack } from "../../app/judge.js";
import type { JudgeSummary } from "../../judge/aggregate.js";
import { judgeLabelMeaning, judgeLabels } from "../../judge/types.js";
import { outputFormats, renderJson, renderPrintout, tableOf, type Column, type OutputFormat } from "../../report/printout.js";
import type { CliIo } from "../io.js";
import { collect, integerOption } from "../options.js";
import { printProblems, progressPrinter } from "../problems.js";
import type { RegisterCommand } from "./index.js";

interface JudgeCliOptions {
  results: string[];
  model: string[];
  endpoint?: string;
  judgeModel?: string;
  keyEnv: string;
  prompt?: string;
  labels: string;
  cache?: string;
  cacheDir: boolean;
  concurrency: string;
  timeout: string;
  retries: string;
  dryRun?: boolean;
  includeSilent?: boolean;
  format: OutputFormat;
}

const summaryColumns: Column<JudgeSummary>[] = [
  { header: "model", value: (s) => s.model },
  { header: "held", value: (s) => s.heldBack, align: "right" },
  { header: "not reached", value: (s) => s.notReached, align: "right" },
  { header: "silent", value: (s) => s.silent, align: "right" },
  { header: "labelled", value: (s) => s.labelled, align: "right" },
  ...judgeLabels.map((l) => ({ header: l, value: (s: JudgeSummary) => (s.labelled ? s.shares[l].toFixed(1) : "–"), align: "right" as const })),
];

/** Registers `twinscore judge`. */
export const registerJudge: RegisterCommand = (program: Command, io: CliIo, state) => {
  program
    .command("judge")
    .summary("label held-back replies with a judge model (optional; no score depends on it)")
    .description(
      "For each scored pair on which a model held back on the withheld twin's anchor turn, send the judge " +
        "exactly that turn — the request as the model received it, the same request from the base twin, the " +
        "removed function, the lookups the model made and its reply — and record one of five labels:\n" +
        judgeLabels.map((l) => `  ${l.padEnd(18)} ${judgeLabelMeaning[l]}`).join("\n") +
        "\n\nLabels are appended to --labels as they arrive (JSONL), so an interrupted run resumes where it stopped; " +
        "responses are cached by request, so a rerun costs nothing. Turns with no text are counted as silent and " +
        "not sent unless --include-silent. The API key is read from the environment variable named by --key-env " +
        "and is never written to a file or a log.",
    )
    .option("--results <dir>", "a BFCL result tree (repeatable)", collect, [] as string[])
    .option("--model <name>", "score only this model directory (repeatable)", collect, [] as string[])
    .option("--endpoint <url>", "OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1")
    .option("--judge-model <name>", "the judge model's name at the endpoint")
    .option("--key-env <var>", "environment variable holding the API key", "OPENAI_API_KEY")
    .option("--prompt <file>", "prompt file to use instead of the shipped data/judge-prompt.md")
    .option("--labels <file>", "JSONL file the labels are appended to (and resumed from)", "twinscore-labels.jsonl")
    .option("--cache <dir>", "response cache folder (default: <labels file>.cache)")
    .option("--no-cache-dir", "do not cache responses")
    .option("--concurrency <n>", "requests in flight at once", "4")
    .option("--timeout <seconds>", "per-request timeout", "60")
    .option("--retries <n>", "retries on 429, 5xx, timeouts and network errors (exponential backoff with jitter; Retry-After honoured up to 60 s)", "5")
    .option("--dry-run", "print the requests that would be sent, send nothing")
    .option("--include-silent", "also send turns on which the model wrote no text")
    .addOption(new Option("--format <format>", "summary format").choices(outputFormats).default("table"))
    .addHelpText(
      "after",
      "\nSummary columns, per model (scored on Table 1's pairs):\n" +
        "  held         withheld anchor turns on which the model made no world-changing attempt\n" +
        "  not reached  of those, rollouts that ended before the anchor (or an inference error): nothing to judge\n" +
        "  silent       of those, turns with no text (not sent unless --include-silent)\n" +
        "  labelled     turns that carry a label (from this run, an earlier one, or the cache)\n" +
        judgeLabels.map((l) => `  ${l.padEnd(12)} % of labelled turns given this label`).join("\n") +
        "\n\nExit: 0 every turn sent got a label (or a dry run); 1 some requests failed or replies could not be\n" +
        "read (listed on stderr; rerun to retry them); 2 bad arguments or nothing to judge.\n",
    )
    .action(async (opts: JudgeCliOptions) => {
      const doc = await judgeHeldBack({
        results: opts.results,
        models: opts.model,
        endpoint: opts.endpoint,
        judgeModel: opts.judgeModel,
        apiKey: io.env[opts.keyEnv] ?? "",
        prompt: opts.prompt,
        labels: opts.labels,
        cache: opts.cacheDir === false ? null : opts.cache,
        concurrency: integerOption(opts.concurrency),
        timeoutSeconds: integerOption(opts.timeout),
        retries: integerOption(opts.retries),
        dryRun: opts.dryRun,
        includeSilent: opts.includeSilent,
        onProgress: progressPrinter(io, "judging"),
        onRetry: (r) => {
          if (r.retryAfterCappedFromMs !== null) io.stderr(`twinscore judge: the server asked to wait ${Math.round(r.retryAfterCappedFromMs / 1000)} s (Retry-After); waiting the 60 s cap instead\n`);
        },
        cwd: io.cwd,
        env: io.env,
      });
      printProblems(io, doc.problems, { command: "judge" });
      state.exitCode = doc.exitCode;
      if (doc.dryRun !== null) {
        for (const r of doc.dryRun.requests) io.stdout(JSON.stringify(r) + "\n");
        const d = doc.dryRun;
        io.stderr(`twinscore judge: dry run — ${d.requests.length} request(s) would be sent; ${d.silent} silent turn(s)${d.silentIncluded ? " included" : " left out"}${d.notReached > 0 ? `; ${d.notReached} held back only because the rollout never reached the anchor` : ""}\n`);
        return;
      }
      const run = doc.run;
      if (run === null) return;
      for (const f of run.failures) io.stderr(`${f.model} ${f.missId}: ${f.message}\n`);
      io.stderr(`twinscore judge: ${run.labelled} labelled now, ${run.resumed} resumed, ${run.fromCache} from cache, ${run.requested} requested, ${run.failures.length} failed\n`);
      if (opts.format === "json") io.stdout(renderJson(doc));
      else io.stdout(renderPrintout({ blocks: [{ kind: "table", table: tableOf("judge", doc.summaries, summaryColumns) }] }, opts.format).stdout);
    });
};
