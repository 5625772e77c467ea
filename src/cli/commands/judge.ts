/**
 * `twinscore judge`: label what models wrote on the turns where they held back, with a
 * judge model behind an OpenAI-compatible endpoint. Optional: no number of `score`
 * depends on it. Wiring only — turn selection is `judge/turns.ts`, the prompt
 * `judge/prompt.ts`, the client `io/judge-client.ts`.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Option, type Command } from "commander";
import { defaultScoreOptions } from "../../decision/types.js";
import { summarizeLabels, type JudgeSummary } from "../../judge/aggregate.js";
import { buildJudgeRequest, parsePromptFile } from "../../judge/prompt.js";
import { heldBackTurns } from "../../judge/turns.js";
import { isSilent, judgeLabelMeaning, judgeLabels, type HeldBackTurn } from "../../judge/types.js";
import { readLabelsFile, runJudge } from "../../io/judge-client.js";
import { committedDataPath, loadManifest } from "../../io/manifest.js";
import { scoreResultDirs } from "../../io/results.js";
import { problem } from "../../messages/index.js";
import { outputFormats, renderJson, renderRows, type Column, type OutputFormat } from "../format.js";
import { ExitCode, type CliIo } from "../io.js";
import { collect, wholeNumber } from "../options.js";
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
    .requiredOption("--results <dir>", "a BFCL result tree (repeatable)", collect, [] as string[])
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
    .action(async (opts: JudgeCliOptions) => {
      const concurrency = wholeNumber(opts.concurrency, "--concurrency", io, "judge", 1);
      const timeout = wholeNumber(opts.timeout, "--timeout", io, "judge", 1);
      const retries = wholeNumber(opts.retries, "--retries", io, "judge");
      if (concurrency === null || timeout === null || retries === null) {
        state.exitCode = ExitCode.badInput;
        return;
      }
      const promptPath = opts.prompt ? resolve(io.cwd, opts.prompt) : committedDataPath("judge-prompt.md");
      let promptText: string;
      try {
        promptText = readFileSync(promptPath, "utf8");
      } catch {
        printProblems(io, [problem("file-missing", "cannot read the prompt file", { file: promptPath })]);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const prompt = parsePromptFile(promptText);
      if (!prompt.ok) {
        printProblems(io, [problem("prompt-malformed", prompt.message, { file: promptPath })]);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const manifest = loadManifest();
      if (!manifest.ok) {
        printProblems(io, manifest.problems);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const outcome = await scoreResultDirs({ resultDirs: opts.results, models: opts.model, manifest: manifest.value, options: defaultScoreOptions, cwd: io.cwd });
      printProblems(io, [...outcome.problems, ...outcome.runs.flatMap((r) => r.problems)]);
      const pairsById = new Map(manifest.value.pairs.map((p) => [p.missId, p]));
      const perModel = new Map<string, { heldBack: number; notReached: number; silent: number; missIds: Set<string> }>();
      const toSend: HeldBackTurn[] = [];
      for (const run of outcome.runs) {
        if (!run.score) continue;
        const sel = heldBackTurns(run.model, run.score.records, pairsById);
        perModel.set(run.model, { heldBack: sel.turns.length + sel.notReached, notReached: sel.notReached, silent: sel.silent, missIds: new Set(sel.turns.map((t) => t.missId)) });
        toSend.push(...sel.turns.filter((t) => opts.includeSilent || !isSilent(t)));
      }
      if (perModel.size === 0) {
        io.stderr("twinscore judge: no model could be scored, so there is nothing to judge\n");
        state.exitCode = ExitCode.badInput;
        return;
      }
      const judgeModel = opts.judgeModel ?? "";
      if (opts.dryRun) {
        for (const t of toSend) io.stdout(JSON.stringify({ model: t.model, missId: t.missId, request: buildJudgeRequest(t, prompt.prompt, judgeModel || "<judge-model>").body }) + "\n");
        const sum = (k: "silent" | "notReached") => [...perModel.values()].reduce((a, m) => a + m[k], 0);
        io.stderr(`twinscore judge: dry run — ${toSend.length} request(s) would be sent; ${sum("silent")} silent turn(s)${opts.includeSilent ? " included" : " left out"}; ${sum("notReached")} held back only because the rollout never reached the anchor\n`);
        return;
      }
      if (!opts.endpoint || !judgeModel) {
        io.stderr("twinscore judge: --endpoint and --judge-model are required (or use --dry-run)\n");
        state.exitCode = ExitCode.badInput;
        return;
      }
      const labelsFile = resolve(io.cwd, opts.labels);
      const report = await runJudge(toSend, {
        endpoint: opts.endpoint,
        judgeModel,
        apiKey: io.env[opts.keyEnv] ?? "",
        prompt: prompt.prompt,
        labelsFile,
        cacheDir: opts.cacheDir === false ? null : resolve(io.cwd, opts.cache ?? `${opts.labels}.cache`),
        concurrency,
        timeoutMs: timeout * 1000,
        retries,
        backoffMs: 1000,
        onProgress: progressPrinter(io, "judging"),
        onRetry: (r) => {
          if (r.retryAfterCappedFromMs !== null) io.stderr(`judge: the server asked to wait ${Math.round(r.retryAfterCappedFromMs / 1000)} s (Retry-After); waiting the 60 s cap instead\n`);
        },
      });
      for (const f of report.failures) io.stderr(`${f.model} ${f.missId}: ${f.message}\n`);
      io.stderr(`twinscore judge: ${report.labelled} labelled now, ${report.resumed} resumed, ${report.fromCache} from cache, ${report.requested} requested, ${report.failures.length} failed\n`);
      const summaries = summarizeLabels(perModel, readLabelsFile(labelsFile));
      io.stdout(opts.format === "json" ? renderJson({ labelsFile, summaries }) : renderRows(summaries, summaryColumns, opts.format));
      if (report.failures.length > 0) state.exitCode = ExitCode.findings;
    });
};
