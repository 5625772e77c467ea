/**
 * `twinscore verify`: flags → `verifyExpected` (`src/app/verify.ts`) → one PASS / FAIL /
 * SKIP line per number and the summary, in the chosen format.
 */
import { Option, type Command } from "commander";
import { verifyExpected } from "../../app/verify.js";
import { outputFormats, renderJson, renderPrintout, type OutputFormat } from "../../report/printout.js";
import { printProblems } from "../problems.js";
import type { CliIo } from "../io.js";
import { collect, manifestOptionHelp } from "../options.js";
import { verifyPrintout } from "../views/verify.js";
import type { RegisterCommand } from "./index.js";

interface VerifyOptions {
  expected?: string;
  results: string[];
  scores: string[];
  format: OutputFormat;
  manifest?: string;
}

/** Register `twinscore verify`. */
export const registerVerify: RegisterCommand = (program: Command, io: CliIo, state) => {
  program
    .command("verify")
    .summary("recompute expected numbers: one PASS / FAIL / SKIP line each")
    .description(
      "Recompute a file of expected numbers and print PASS / FAIL / SKIP for each.\n\n" +
        "The expected file lists runs; each run names its models (their listed order is the tie order of " +
        "rank-1) and its numbers: a dotted name (tables.C.<model>.decision, rank1.C.<model>, " +
        "companions.official_raw.<model>.miss, counts.scored_pairs, ...), the value, a tolerance, and the " +
        "model rollouts it needs. A number whose rollouts (or, for official numbers, score files) are not " +
        "under the given trees is SKIPped, and a SKIP is never a PASS. Counts that depend only on the " +
        "pair manifest are always checked.",
    )
    .option("--expected <file>", "the expected-numbers JSON (e.g. data/expected/paper.json)")
    .option("--results <dir>", "a BFCL result tree (repeatable); DIR and DIR/result are searched", collect, [] as string[])
    .option("--scores <dir>", "a BFCL score tree (repeatable); DIR and DIR/score are searched", collect, [] as string[])
    .addOption(new Option("--format <format>", "table: one line per number; json/csv/markdown: rows").choices(outputFormats).default("table"))
    .option("--manifest <file>", manifestOptionHelp)
    .addHelpText(
      "after",
      "\nTolerances are |computed - expected| limits: the paper's file uses 0 for counts, 0.05 for rates,\n" +
        "0.1 for intervals, spreads and rank-1 frequencies, 0.005 for rank correlations; labels must match.\n" +
        "A run with a `match` string only uses the --results/--scores directories that have a path\n" +
        "component equal to it (so one file can hold several runs whose model directories share names).\n" +
        "Shipped files: data/expected/paper.json (the paper's published numbers; they SKIP without the\n" +
        "seven models' rollouts) and data/expected/gpt-oss.json (the two gpt-oss runs under ../shared).\n" +
        "A number whose rollouts are absent SKIPs with the reason (for a run with `match`, which folders it took).\n" +
        "Exit: 0 no FAIL and something checked; 1 a FAIL, or every number skipped (nothing checked);\n" +
        "2 unusable input (no --expected, malformed file, missing tree).\n",
    )
    .action(async (opts: VerifyOptions) => {
      const doc = await verifyExpected({ expected: opts.expected as string, results: opts.results, scores: opts.scores, manifest: opts.manifest, cwd: io.cwd, env: io.env });
      printProblems(io, doc.problems, { command: "verify" });
      state.exitCode = doc.exitCode;
      if (doc.lines.length === 0 && doc.exitCode === 2) return;
      if (opts.format === "json") {
        io.stdout(renderJson(doc));
        return;
      }
      const out = renderPrintout(verifyPrintout(doc), opts.format);
      io.stdout(out.stdout);
      if (out.stderr) io.stderr(out.stderr);
    });
};
