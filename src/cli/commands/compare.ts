/**
 * `twinscore compare`: flags → `compareArms` (`src/app/compare.ts`) → the document,
 * printed in the chosen format.
 */
import { Option, type Command } from "commander";
import { compareArms } from "../../app/compare.js";
import { outputFormats, renderJson, renderPrintout, type OutputFormat } from "../../report/printout.js";
import { DEFAULT_BOOTSTRAP, MAX_BOOTSTRAP_RESAMPLES } from "../../stats/index.js";
import { readingGroup } from "../option-groups.js";
import { integerOption, manifestOptionHelp } from "../options.js";
import { printProblems } from "../problems.js";
import type { CliIo } from "../io.js";
import { compareColumnsHelp, comparePrintout } from "../views/compare.js";
import type { RegisterCommand } from "./index.js";

export { formatP } from "../views/compare.js";

interface CompareOptions {
  a?: string;
  b?: string;
  model?: string;
  scoresA?: string;
  scoresB?: string;
  bootstrap: string;
  seed: string;
  format: OutputFormat;
  manifest?: string;
  bfclData?: string;
}

/** Register `twinscore compare`. */
export const registerCompare: RegisterCommand = (program: Command, io: CliIo, state) => {
  const cmd = program
    .command("compare")
    .summary("two arms of one model: act/hold shifts (McNemar), decision change with interval")
    .description(
      "Compare two arms of the same model on the same twin pairs.\n\n" +
        "Arm A and arm B are two result trees of one model (a neutral and an injected prompt, two serving " +
        "builds, two checkpoints). On Table 1's pairs both arms scored: the act rate (world-changing attempt " +
        "on the complete anchor turn) and the hold rate (none on the incomplete one), each with an exact " +
        "two-sided McNemar test on the pairs that changed, overall and per category; the change in decision " +
        "accuracy with a paired cluster-bootstrap interval over base twins. With --scores-a/--scores-b, " +
        "BFCL's own verdicts: the official score per category over every item both arms have, with McNemar " +
        "and the fail->pass / pass->fail flips, and official raw on the scored items and their base twins.\n\n" +
        "Injection check (prompt arms made with `run --inject`): on items both arms ran, the first step's input " +
        "token counts should differ by one number everywhere (the injected block's length); the table output " +
        "ends with that difference's distribution and the items where it breaks (JSON: `injection`).",
    );
  readingGroup
    .add(cmd)
    .option("--a <dir>", "result tree of arm A (the reference arm)")
    .option("--b <dir>", "result tree of arm B")
    .option("--model <name>", "the model directory to compare (default: every model in both arms)")
    .option("--scores-a <dir>", "score tree of arm A (adds the official score change)")
    .option("--scores-b <dir>", "score tree of arm B")
    .option("--bootstrap <n>", `resamples of the paired interval (0: none; at most ${MAX_BOOTSTRAP_RESAMPLES})`, String(DEFAULT_BOOTSTRAP.resamples))
    .option("--seed <s>", "seed of NumPy's default_rng for the interval", String(DEFAULT_BOOTSTRAP.seed))
    .addOption(new Option("--format <format>", "output format").choices(outputFormats).default("table"))
    .option("--manifest <file>", manifestOptionHelp)
    .option("--bfcl-data <dir>", "BFCL data directory: adds the aligned comparison (asked, then did it) and the skipped turn scored, per arm (runs BFCL's checker on both arms)")
    .addHelpText(
      "after",
      compareColumnsHelp +
        "\nA model found in one arm only is named on stderr and not compared.\n" +
        "Exit: 0 compared; 1 compared, but a model is in one arm only; 2 bad arguments or no model in both arms.\n",
    )
    .action(async (opts: CompareOptions) => {
      const doc = await compareArms({
        a: opts.a as string,
        b: opts.b as string,
        scoresA: opts.scoresA,
        scoresB: opts.scoresB,
        models: opts.model === undefined ? [] : [opts.model],
        bootstrap: { resamples: integerOption(opts.bootstrap), seed: integerOption(opts.seed) },
        manifest: opts.manifest,
        ...readingGroup.read(opts as unknown as Record<string, unknown>),
        bfclData: opts.bfclData,
        cwd: io.cwd,
        env: io.env,
      });
      printProblems(io, doc.problems, { command: "compare" });
      state.exitCode = doc.exitCode;
      if (doc.models.length === 0) return;
      if (opts.format === "json") io.stdout(renderJson(doc));
      else io.stdout(renderPrintout(comparePrintout(doc), opts.format).stdout);
    });
};
