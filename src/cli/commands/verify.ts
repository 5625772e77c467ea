/**
 * `twinscore verify`: recompute every number of an expected-numbers file from the given
 * result (and score) trees and print one PASS / FAIL / SKIP line per number, then
 * `N PASS, N FAIL, N SKIP`. Wiring only — loading is `src/io/scores-run.ts`, the numbers
 * `src/official/metrics.ts`, the comparison `src/official/verify.ts`.
 */
import { Option, type Command } from "commander";
import { readFileSync } from "node:fs";
import { resolve, sep } from "node:path";
import { renderProblemLine, type Problem } from "../../messages/index.js";
import { computeRunMetrics } from "../../official/metrics.js";
import { checkRun, parseExpectedFile, renderCheckLine, summaryLine, type CheckLine, type ExpectedRun } from "../../official/verify.js";
import { loadRunInputs } from "../../io/scores-run.js";
import { loadManifest } from "../../io/manifest.js";
import { renderJson, renderRows, type Column } from "../../report/printout.js";
import { ExitCode, type CliIo } from "../io.js";
import type { RegisterCommand } from "./index.js";
import { collect } from "../options.js";

const formats = ["table", "json", "csv", "markdown"] as const;
type VerifyFormat = (typeof formats)[number];

interface VerifyOptions {
  expected?: string;
  results: string[];
  scores: string[];
  format: VerifyFormat;
  manifest?: string;
}

/** The directories of a run: all of them, or those with a path component equal to the run's `match`. */
function dirsOf(run: ExpectedRun, dirs: readonly string[], cwd: string): string[] {
  if (run.match === null) return [...dirs];
  return dirs.filter((d) => resolve(cwd, d).split(sep).includes(run.match!));
}

const fmtValue = (v: unknown) => (v === null || v === undefined ? "" : Array.isArray(v) ? v.join(",") : String(v));

const columns: Column<CheckLine>[] = [
  { header: "status", value: (l) => l.status },
  { header: "run", value: (l) => l.run },
  { header: "name", value: (l) => l.name },
  { header: "expected", value: (l) => fmtValue(l.expected) },
  { header: "tolerance", value: (l) => l.tolerance },
  { header: "computed", value: (l) => fmtValue(l.computed) },
  { header: "note", value: (l) => l.note },
];

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
    .addOption(new Option("--format <format>", "table: one line per number; json/csv/markdown: rows").choices(formats).default("table"))
    .option("--manifest <file>", "pair manifest (default: the package's data/manifest.json)")
    .addHelpText(
      "after",
      "\nTolerances are |computed - expected| limits: the paper's file uses 0 for counts, 0.05 for rates,\n" +
        "0.1 for intervals, spreads and rank-1 frequencies, 0.005 for rank correlations; labels must match.\n" +
        "A run with a `match` string only uses the --results/--scores directories that have a path\n" +
        "component equal to it (so one file can hold several runs whose model directories share names).\n" +
        "Shipped files: data/expected/paper.json (the paper's published numbers; they SKIP without the\n" +
        "seven models' rollouts) and data/expected/gpt-oss.json (the two gpt-oss runs under ../shared).\n" +
        "Exit: 0 no FAIL; 1 at least one FAIL; 2 unusable input (no --expected, malformed file, missing tree).\n",
    )
    .action((opts: VerifyOptions) => {
      if (opts.expected === undefined) {
        io.stderr("twinscore verify: give --expected FILE (e.g. data/expected/paper.json)\n");
        state.exitCode = ExitCode.badInput;
        return;
      }
      const file = resolve(io.cwd, opts.expected);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        io.stderr(renderProblemLine({ code: "file-missing", severity: "error", message: "expected file not found", file }) + "\n");
        state.exitCode = ExitCode.badInput;
        return;
      }
      const parsed = parseExpectedFile(text, file);
      if (!parsed.ok) {
        for (const p of parsed.problems) io.stderr(renderProblemLine(p) + "\n");
        state.exitCode = ExitCode.badInput;
        return;
      }
      const loadedManifest = opts.manifest === undefined ? loadManifest() : loadManifest(resolve(io.cwd, opts.manifest));
      if (!loadedManifest.ok) {
        for (const p of loadedManifest.problems) io.stderr(renderProblemLine(p) + "\n");
        state.exitCode = ExitCode.badInput;
        return;
      }
      const manifest = loadedManifest.value;
      const lines: CheckLine[] = [];
      const problems: Problem[] = [];
      for (const run of parsed.value.runs) {
        const loaded = loadRunInputs({
          resultDirs: dirsOf(run, opts.results, io.cwd),
          scoreDirs: dirsOf(run, opts.scores, io.cwd),
          models: run.models.map((m) => m.name),
          manifest,
          cwd: io.cwd,
        });
        problems.push(...loaded.problems.filter((p) => p.severity === "error"));
        const metrics = computeRunMetrics(
          manifest,
          loaded.models.map((m) => m.inputs),
          {
            bootstrap: { resamples: run.bootstrap.resamples, seed: run.bootstrap.seed },
            displayNames: new Map(run.models.filter((m) => m.display !== null).map((m) => [m.name, m.display!])),
          },
        );
        const available = {
          rollouts: new Set(loaded.models.map((m) => m.inputs.model)),
          scores: new Set(loaded.models.filter((m) => m.inputs.verdicts !== null).map((m) => m.inputs.model)),
        };
        lines.push(...checkRun(run, metrics, available));
      }
      for (const p of problems) io.stderr(renderProblemLine(p) + "\n");
      const summary = summaryLine(lines);
      switch (opts.format) {
        case "json":
          io.stdout(renderJson({ expected: file, summary, lines }));
          break;
        case "table":
          io.stdout(lines.map(renderCheckLine).join("\n") + (lines.length > 0 ? "\n" : "") + summary + "\n");
          break;
        default:
          io.stdout(renderRows(lines, columns, opts.format));
          io.stderr(summary + "\n");
      }
      const failed = lines.some((l) => l.status === "FAIL");
      const inputMissing = problems.some((p) => p.code === "results-missing" || p.code === "scores-missing");
      state.exitCode = failed ? ExitCode.findings : inputMissing ? ExitCode.badInput : ExitCode.ok;
    });
};
