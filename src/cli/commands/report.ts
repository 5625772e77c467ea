/**
 * `twinscore report`: flags → `buildReport` (`src/app/report.ts`) → the HTML file, and
 * one line saying what it holds.
 */
import { Option, type Command } from "commander";
import { buildReport } from "../../app/report.js";
import { renderJson } from "../../report/printout.js";
import { DEFAULT_BOOTSTRAP, MAX_BOOTSTRAP_RESAMPLES } from "../../stats/index.js";
import { readingGroup } from "../option-groups.js";
import { collect, integerOption, manifestOptionHelp } from "../options.js";
import { printProblems } from "../problems.js";
import type { CliIo } from "../io.js";
import type { RegisterCommand } from "./index.js";

interface ReportOptions {
  results: string[];
  scores: string[];
  compare?: string[];
  labels?: string;
  bfclData?: string;
  model: string[];
  out?: string;
  title: string;
  bootstrap: string;
  seed: string;
  manifest?: string;
  format: "table" | "json";
}

/** Register `twinscore report`. */
export const registerReport: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("report")
    .summary("write a self-contained HTML report with figures and a pair browser")
    .description(
      "Write one self-contained HTML report (works offline from file://) for the runs under --results.\n\n" +
        "It shows Table 1 (act: % of complete anchor turns with a world-changing call; hold: % of withheld " +
        "anchor turns with none; decision: their mean, 50 for any policy that ignores the missing information; " +
        "with its 95% cluster-bootstrap interval), with --scores BFCL's official raw on the same should-ask " +
        "items and their base twins with both rankings and the rank-reversal figure, the decision by category, " +
        "the sensitivities, where held-back items that BFCL fails were lost, with --compare the paired-arm " +
        "panels (attempt share on the under-specified turn, official score, decision; change, interval and " +
        "McNemar p), with --labels the judge's label shares, and a pair browser: every scored pair with both " +
        "requests (the withheld part highlighted), the gold anchor calls and each model's calls and text on " +
        "the anchor turn, filterable by model, category and outcome.",
    );
  readingGroup
    .add(cmd)
    .option("--results <dir>", "a BFCL result tree, one per run (repeatable); models of several runs are named <run>/<model>", collect, [] as string[])
    .option("--scores <dir>", "the score tree of each --results, in the same order (repeatable; give one per --results or none)", collect, [] as string[])
    .option("--compare <runs...>", "two runs (directory name or path as given) to compare as arm A and arm B")
    .option("--labels <file>", "judge labels (JSON Lines from `twinscore judge --labels`)")
    .option(
      "--bfcl-data <dir>",
      "BFCL data folder (else BFCL_DATA_DIR): adds the workaround credit (Table F1), Table 1's credited column, the aligned pair score (asked, then did it), the skipped turn scored, and each twin's completion in the pair browser",
    )
    .option("--model <name>", "only this model directory (repeatable)", collect, [] as string[])
    .option("--out <file>", "the HTML file to write (atomically)")
    .option("--title <text>", "the report's title", "twinscore report")
    .option("--bootstrap <n>", `resamples of every interval (0: none; at most ${MAX_BOOTSTRAP_RESAMPLES})`, String(DEFAULT_BOOTSTRAP.resamples))
    .option("--seed <s>", "seed of NumPy's default_rng for the intervals", String(DEFAULT_BOOTSTRAP.seed))
    .option("--manifest <file>", manifestOptionHelp)
    .addOption(new Option("--format <format>", "what is printed on stdout: table (nothing; the page is the output) or json (what the page holds)").choices(["table", "json"]).default("table"))
    .addHelpText(
      "after",
      "\nExample:\n" +
        "  twinscore report --results runs/main --scores runs/main/score \\\n" +
        "                   --results runs/fixes --scores runs/fixes/score \\\n" +
        "                   --compare main fixes --out report.html\n" +
        "\nWith --bfcl-data, BFCL's checker (twinscore's TypeScript one) runs on every model's files:\n" +
        "  asked, then did it  a panel with the withheld twin's cells (held back or acted on the anchor turn T,\n" +
        "                      completed or not through T+1, the turn that supplies what was missing), the base\n" +
        "                      twin acted and completed through T, and the aligned pair score (both twins decided\n" +
        "                      right and completed) with its 95% interval — see `twinscore score --help`;\n" +
        "  the skipped turn    BFCL's score, the strict and the world-changing counterfactual per category and\n" +
        "                      model with the ranking under each (BFCL never scores a turn whose reference is empty);\n" +
        "  pair browser        each twin's completion, and an aligned / not aligned filter;\n" +
        "  --compare           the change in aligned score (interval, McNemar) and in the empty-turn scores.\n" +
        "--format json then also carries the aligned rows and the empty-turn table.\n" +
        "\nThe same inputs give a byte-identical file (no timestamps; paths as given). Model text is escaped\n" +
        "and the page allows only its own script. The report is refused when no model has a pair to score.\n" +
        "Exit: 0 written; 1 written, with errors met on the way (listed first); 2 bad arguments, or nothing\n" +
        "could be scored (no file is written).\n",
    )
    .action(async (opts: ReportOptions) => {
      if (opts.out === undefined) {
        io.stderr("twinscore report: give --out FILE (the HTML file to write)\n");
        state.exitCode = 2;
        if (opts.results.length > 0) return;
      }
      const doc = await buildReport({
        results: opts.results,
        scores: opts.scores,
        compare: opts.compare,
        labels: opts.labels,
        bfclData: opts.bfclData,
        models: opts.model,
        out: opts.out,
        title: opts.title,
        bootstrap: { resamples: integerOption(opts.bootstrap), seed: integerOption(opts.seed) },
        manifest: opts.manifest,
        ...readingGroup.read(opts as unknown as Record<string, unknown>),
        progress: (line) => io.stderr(`report: ${line}\n`),
        cwd: io.cwd,
        env: io.env,
      });
      printProblems(io, doc.problems, { command: "report", byModel: doc.modelProblems.map((m) => ({ name: m.model, problems: m.problems })) });
      if (opts.out === undefined) return;
      state.exitCode = doc.exitCode;
      if (doc.file !== null) {
        io.stderr(`wrote ${doc.file} (${doc.models} models, ${doc.pairs} pairs${doc.comparisons ? `, ${doc.comparisons} comparison(s)` : ""}, ${doc.bytes} bytes)\n`);
        if (opts.format === "json") io.stdout(renderJson({ ...doc, html: undefined }));
      }
    });
};
