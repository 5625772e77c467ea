/**
 * `twinscore judge`: flags → `judgeHeldBack` (`src/app/judge.ts`) → the per-model label
 * summary (or, in a dry run, the requests), in the chosen format.
 */
import { manifestsOf, renderVersionedJson } from "../versioned-json.js";
import type { Command } from "commander";
import { judgeHeldBack } from "../../app/judge.js";
import type { JudgeSummary } from "../../judge/aggregate.js";
import { judgeLabels } from "../../judge/types.js";
import { note, problem } from "../../messages/index.js";
import { renderJson, renderPrintout, tableOf, type Column } from "../../report/printout.js";
import { commandHelpFooter } from "../help-topics.js";
import type { CliIo } from "../io.js";
import {
  decoderGroup,
  formatGroup,
  httpClientGroup,
  manifestGroup,
  modelsGroup,
  readGroups,
  resultsGroup,
  strictGroup,
  verboseGroup,
  withGroups,
  type ParsedOptions,
} from "../option-groups.js";
import { printNotes, printProblems, progressPrinter } from "../problems.js";
import type { RegisterCommand } from "./index.js";

const httpClient = httpClientGroup("optional");
const format = formatGroup(undefined, "summary format: table, json (the whole document), csv, markdown, latex (twinscore help formats)");

const summaryColumns: Column<JudgeSummary>[] = [
  { header: "model", value: (s) => s.model },
  { header: "held", value: (s) => s.heldBack, align: "right" },
  { header: "not reached", value: (s) => s.notReached, align: "right" },
  { header: "silent", value: (s) => s.silent, align: "right" },
  { header: "labelled", value: (s) => s.labelled, align: "right" },
  ...judgeLabels.map((l) => ({
    header: l,
    value: (s: JudgeSummary) => (s.labelled ? s.shares[l].toFixed(1) : "–"),
    align: "right" as const,
  })),
];

/** Registers `twinscore judge`. */
export const registerJudge: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("judge")
    .summary("label held-back replies with a judge model (optional; no score depends on it)")
    .description(
      "Label what each model wrote on the withheld anchor turns where it held back, with a judge model behind an " +
        "OpenAI-compatible endpoint: one of five labels per turn, appended to --labels as they arrive (resumable).",
    );
  withGroups(cmd, resultsGroup, modelsGroup, httpClient)
    .option("--judge-model <name>", "the judge model's name at the endpoint")
    .option("--prompt <file>", "prompt file to use instead of the shipped data/judge-prompt.md")
    .option("--labels <file>", "JSONL file the labels are appended to (and resumed from)", "twinscore-labels.jsonl")
    .option("--cache <dir>", "response cache folder (default: <labels file>.cache)")
    .option("--no-cache-dir", "do not cache responses")
    .option("--dry-run", "print the requests that would be sent, send nothing")
    .option("--include-silent", "also send turns on which the model wrote no text");
  withGroups(cmd, format, manifestGroup, decoderGroup, strictGroup, verboseGroup)
    .addHelpText(
      "after",
      "\nExit: 0 every turn sent got a label (or a dry run); 1 some requests failed (rerun to retry them), or any\n" +
        "problem under --strict; 2 nothing to judge." +
        commandHelpFooter(["labels", "readings", "decoders", "exit-codes"]),
    )
    .action((opts: ParsedOptions) => judgeAction(io, state, opts));
};

/** Labels the held-back turns (or prints the requests of a dry run) and prints the summary. */
async function judgeAction(io: CliIo, state: Parameters<RegisterCommand>[2], opts: ParsedOptions): Promise<void> {
  const doc = await judgeHeldBack({
    ...readGroups(opts, resultsGroup, modelsGroup, httpClient),
    ...(opts.judgeModel === undefined ? {} : { judgeModel: opts.judgeModel as string }),
    ...(opts.prompt === undefined ? {} : { prompt: opts.prompt as string }),
    labels: opts.labels as string,
    cache: opts.cacheDir === false ? null : (opts.cache as string | undefined),
    dryRun: opts.dryRun === true,
    includeSilent: opts.includeSilent === true,
    ...readGroups(opts, manifestGroup, decoderGroup, strictGroup),
    onProgress: progressPrinter(io, "judging"),
    onRetry: (r) => {
      if (r.retryAfterCappedFromMs === null) return;
      const message = `the server asked to wait ${Math.round(r.retryAfterCappedFromMs / 1000)} s (Retry-After); waiting the 60 s cap instead`;
      printProblems(io, [problem("retry-after-capped", message, { severity: "warning" })]);
    },
    cwd: io.cwd,
    env: io.env,
  });
  printProblems(io, doc.problems, { ...verboseGroup.read(opts), owners: doc.modelFiles });
  state.exitCode = doc.exitCode;
  if (doc.dryRun !== null) {
    for (const r of doc.dryRun.requests) io.stdout(JSON.stringify(r) + "\n");
    const d = doc.dryRun;
    const notReached = d.notReached > 0 ? `; ${d.notReached} held back only because the rollout never reached the anchor` : "";
    printNotes(io, [
      note(
        "dry-run",
        `dry run: ${d.requests.length} request(s) would be sent; ${d.silent} silent turn(s)${d.silentIncluded ? " included" : " left out"}${notReached}`,
      ),
    ]);
    return;
  }
  const run = doc.run;
  if (run === null) return;
  printProblems(
    io,
    run.failures.map((f) => problem("judge-failed", `${f.model} ${f.missId}: ${f.message}`)),
  );
  printNotes(io, [
    note(
      "judged",
      `${run.labelled} labelled now, ${run.resumed} resumed, ${run.fromCache} from cache, ${run.requested} requested, ${run.failures.length} failed`,
    ),
  ]);
  const chosen = format.read(opts).format;
  if (chosen === "json") io.stdout(renderVersionedJson(doc, manifestsOf(opts, io.cwd)));
  else io.stdout(renderPrintout({ blocks: [{ kind: "table", table: tableOf("judge", doc.summaries, summaryColumns) }] }, chosen).stdout);
}
