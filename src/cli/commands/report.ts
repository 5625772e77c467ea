/**
 * `twinscore report`: one self-contained HTML file with Table 1, the rank-reversal
 * figure, the decision by category, the sensitivities, where held-back items are lost,
 * the paired-arm panels (with --compare), the judge's label shares (with --labels) and a
 * pair browser. Wiring only — loading is `src/io/report-inputs.ts`, gathering
 * `src/report/assemble.ts`, rendering `src/report/render.ts`.
 */
import type { Command } from "commander";
import { resolve } from "node:path";
import { problem } from "../../messages/index.js";
import { resolveBfclDataDir } from "../../io/bfcl-data.js";
import { readLabelsFile } from "../../io/judge-client.js";
import { writeFileAtomic } from "../../io/manifest.js";
import { loadReportRuns } from "../../io/report-inputs.js";
import { assembleReport } from "../../report/assemble.js";
import { renderReport } from "../../report/render.js";
import { DEFAULT_BOOTSTRAP } from "../../stats/index.js";
import { collect, wholeNumber } from "../options.js";
import { printProblems } from "../problems.js";
import { ExitCode, type CliIo } from "../io.js";
import { manifestOf } from "../../app/common.js";
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
}

/** Register `twinscore report`. */
export const registerReport: RegisterCommand = (program: Command, io: CliIo, state) => {
  program
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
    )
    .option("--results <dir>", "a BFCL result tree, one per run (repeatable); models of several runs are named <run>/<model>", collect, [] as string[])
    .option("--scores <dir>", "the score tree of each --results, in the same order (repeatable; give one per --results or none)", collect, [] as string[])
    .option("--compare <runs...>", "two runs (directory name or path as given) to compare as arm A and arm B")
    .option("--labels <file>", "judge labels (JSON Lines from `twinscore judge --labels`)")
    .option("--bfcl-data <dir>", "BFCL data folder (else BFCL_DATA_DIR): adds the workaround credit (Table F1) and Table 1's credited column")
    .option("--model <name>", "only this model directory (repeatable)", collect, [] as string[])
    .option("--out <file>", "the HTML file to write (atomically)")
    .option("--title <text>", "the report's title", "twinscore report")
    .option("--bootstrap <n>", "resamples of every interval (0: none)", String(DEFAULT_BOOTSTRAP.resamples))
    .option("--seed <s>", "seed of NumPy's default_rng for the intervals", String(DEFAULT_BOOTSTRAP.seed))
    .option("--manifest <file>", "pair manifest (default: the package's data/manifest.json)")
    .addHelpText(
      "after",
      "\nExample:\n" +
        "  twinscore report --results runs/main --scores runs/main/score \\\n" +
        "                   --results runs/fixes --scores runs/fixes/score \\\n" +
        "                   --compare main fixes --out report.html\n" +
        "\nThe same inputs give a byte-identical file (no timestamps; paths as given). Model text is escaped\n" +
        "and the page allows only its own script. Exit: 0 written; 2 bad arguments or nothing could be scored.\n",
    )
    .action(async (opts: ReportOptions) => {
      const fail = (message: string) => {
        io.stderr(`twinscore report: ${message}\n`);
        state.exitCode = ExitCode.badInput;
      };
      if (opts.results.length === 0) return fail("give at least one --results DIR (a BFCL result tree)");
      if (opts.out === undefined) return fail("give --out FILE (the HTML file to write)");
      if (opts.scores.length !== 0 && opts.scores.length !== opts.results.length) {
        return fail(`give one --scores per --results, in the same order (got ${opts.results.length} --results and ${opts.scores.length} --scores)`);
      }
      if (opts.compare !== undefined && opts.compare.length !== 2) return fail(`--compare takes two runs, got ${opts.compare.length}`);
      const resamples = wholeNumber(opts.bootstrap, "--bootstrap", io, "report");
      const seed = wholeNumber(opts.seed, "--seed", io, "report");
      if (resamples === null || seed === null) {
        state.exitCode = ExitCode.badInput;
        return;
      }
      const loadedManifest = manifestOf(opts.manifest, { cwd: io.cwd, env: io.env });
      if (!loadedManifest.ok) {
        printProblems(io, loadedManifest.problems);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const manifest = loadedManifest.value;
      let labels = null;
      if (opts.labels !== undefined) {
        const file = resolve(io.cwd, opts.labels);
        labels = readLabelsFile(file);
        if (labels.length === 0) {
          printProblems(io, [problem("labels-empty", "no judge label could be read", { file })]);
          state.exitCode = ExitCode.badInput;
          return;
        }
      }
      // The workaround credit only when BFCL data is named (--bfcl-data or BFCL_DATA_DIR): replaying takes a while.
      const bfcl = resolveBfclDataDir({ flag: opts.bfclData, env: io.env, cwd: io.cwd, findPython: () => null });
      const progress = (line: string) => io.stderr(`report: ${line}\n`);
      const loaded = loadReportRuns(
        opts.results.map((dir, i) => ({ resultDir: dir, scoreDir: opts.scores[i] ?? null })),
        { models: opts.model, manifest, cwd: io.cwd, bfclDataDir: bfcl?.dir ?? null, progress },
      );
      printProblems(io, loaded.problems);
      if (loaded.runs.every((r) => r.models.length === 0)) return fail("no model could be scored under the --results directories");
      progress(`gathering numbers${resamples > 0 ? ` (bootstrap B = ${resamples})` : ""}`);
      const assembled = assembleReport({
        title: opts.title,
        manifest,
        runs: loaded.runs,
        compare: opts.compare ? [opts.compare[0], opts.compare[1]] : null,
        labels,
        bootstrap: { resamples, seed },
      });
      if (!assembled.ok) {
        printProblems(io, assembled.problems);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const html = renderReport(assembled.value);
      const target = resolve(io.cwd, opts.out);
      const written = writeFileAtomic(target, html);
      if (!written.ok) {
        printProblems(io, written.problems);
        state.exitCode = ExitCode.badInput;
        return;
      }
      const d = assembled.value;
      io.stderr(`wrote ${target} (${d.models.length} models, ${d.pairs.length} pairs${d.compare.length ? `, ${d.compare.length} comparison(s)` : ""}, ${html.length} bytes)\n`);
      state.exitCode = ExitCode.ok;
    });
};
