/**
 * The parts of `twinscore score` that issue 4 adds, kept out of `score.ts` so that file
 * stays the scorer's: the `--bootstrap N` / `--seed S` interval beside `decision`, the
 * official-score companion under `--scores DIR`, and the sensitivity table under
 * `--sensitivity`. Wiring only — numbers come from `src/official/`.
 */
import type { Command } from "commander";
import type { ModelRun } from "../../io/results.js";
import { loadRunInputs } from "../../io/scores-run.js";
import { companionColumns, companionRows, decisionInterval, rankOneOf, formatInterval, sensitivityReadings, sensitivityRows, spearmanLine, type CompanionRow, type SensitivityRow } from "../../official/extras.js";
import { computeRunMetrics, type Metrics } from "../../official/metrics.js";
import type { Manifest } from "../../pairs/types.js";
import { renderProblemLine } from "../../messages/index.js";
import { DEFAULT_BOOTSTRAP, type BootstrapOptions } from "../../stats/index.js";
import { renderRows, type Column, type OutputFormat } from "../format.js";
import type { CliIo } from "../io.js";
import { collect } from "../options.js";

/** The options this module adds to `score` (and `demo`). */
export interface ScoreExtrasOptions {
  bootstrap?: string;
  seed?: string;
  scores?: string[];
  sensitivity?: boolean;
}

/** Add `--bootstrap`, `--seed`, `--scores`, `--sensitivity`. */
export function addScoreExtrasOptions(cmd: Command): Command {
  return cmd
    .option("--bootstrap <n>", "resamples of the 95% cluster-bootstrap interval beside decision (0: no interval)", String(DEFAULT_BOOTSTRAP.resamples))
    .option("--seed <s>", "seed of NumPy's default_rng for the interval (the paper's 20260612)", String(DEFAULT_BOOTSTRAP.seed))
    .option("--scores <dir>", "a BFCL score tree (repeatable): adds BFCL's own verdict on the same items", collect, [] as string[])
    .option("--sensitivity", "also print the table under each sensitivity reading (Appendix F)");
}

/** Help text for the added columns and tables. */
export const scoreExtrasHelp =
  "\nThe 95% interval beside decision resamples base twins (every pair belongs to the cluster of its\n" +
  "base twin), B = --bootstrap times with NumPy's default_rng(--seed), percentiles 2.5/97.5; it equals\n" +
  "a NumPy script's to the last digit. --bootstrap 0 turns it off.\n" +
  "\nWith --scores DIR (BFCL score files; DIR, DIR/score or a model directory), per model:\n" +
  companionColumns.map((c) => `  ${c.header.padEnd(9)} ${c.meaning}`).join("\n") +
  "\n\nWith --sensitivity, per model, the table under each reading:\n" +
  sensitivityReadings.map((s) => `  ${s.reading.padEnd(17)} ${s.meaning}`).join("\n") +
  "\n  act-per-anchor    act counted once per distinct base anchor turn (N = anchors)\n";

/** Parse `--bootstrap` and `--seed`; a message when either is not a non-negative integer. */
export function bootstrapOf(opts: ScoreExtrasOptions): BootstrapOptions | string {
  const resamples = Number(opts.bootstrap ?? DEFAULT_BOOTSTRAP.resamples);
  const seed = Number(opts.seed ?? DEFAULT_BOOTSTRAP.seed);
  if (!Number.isInteger(resamples) || resamples < 0) return `--bootstrap must be a non-negative integer, got ${JSON.stringify(opts.bootstrap)}`;
  if (!Number.isSafeInteger(seed) || seed < 0) return `--seed must be a non-negative integer, got ${JSON.stringify(opts.seed)}`;
  return { resamples, seed };
}

/** A model's interval (formatted too) and its rank-1 frequency among the scored models (one shared stream; null with fewer than two models). */
export interface ModelInterval {
  readonly interval: readonly [number, number] | null;
  readonly text: string;
  readonly rank1: number | null;
}

/** The interval and rank-1 frequency of every scored model, by model (listed order breaks rank-1 ties). */
export function intervalsByModel(runs: readonly ModelRun[], bootstrap: BootstrapOptions): Map<string, ModelInterval> {
  const scored = runs.filter((r) => r.score !== null);
  const rank1 = scored.length >= 2 ? rankOneOf(scored.map((r) => r.score!.records), bootstrap) : null;
  const out = new Map<string, ModelInterval>();
  scored.forEach((run, i) => {
    const interval = decisionInterval(run.score!.records, bootstrap);
    out.set(run.model, { interval, text: formatInterval(interval), rank1: rank1 === null ? null : rank1[i] });
  });
  return out;
}

/** Insert the interval column right after `decision` (or nowhere when resamples = 0). */
export function withIntervalColumn<R extends { model: string }>(columns: readonly Column<R>[], intervals: Map<string, { text: string }>, bootstrap: BootstrapOptions): Column<R>[] {
  if (bootstrap.resamples === 0) return [...columns];
  const at = columns.findIndex((c) => c.header === "decision");
  const column: Column<R> = { header: "95% CI", value: (r) => intervals.get(r.model)?.text ?? "", align: "right" };
  return [...columns.slice(0, at + 1), column, ...columns.slice(at + 1)];
}

/** Compute the run metrics for `--scores` / `--sensitivity` (null when neither is asked for). */
export function extrasMetrics(
  io: CliIo,
  request: { resultDirs: readonly string[]; manifest: Manifest },
  models: readonly string[],
  opts: ScoreExtrasOptions,
  bootstrap: BootstrapOptions,
): Metrics | null {
  const scores = opts.scores ?? [];
  if (scores.length === 0 && !opts.sensitivity) return null;
  const loaded = loadRunInputs({ resultDirs: request.resultDirs, scoreDirs: scores, models, manifest: request.manifest, cwd: io.cwd });
  for (const p of loaded.problems.filter((x) => x.code.startsWith("score"))) io.stderr(renderProblemLine(p) + "\n");
  return computeRunMetrics(request.manifest, loaded.models.map((m) => m.inputs), { bootstrap });
}

const companionCols: Column<CompanionRow>[] = companionColumns.map((c) => ({ header: c.header, value: (r: CompanionRow) => r[c.key], align: c.key === "model" ? "left" : "right" }));
const sensitivityCols: Column<SensitivityRow>[] = [
  { header: "model", value: (r) => r.model },
  { header: "reading", value: (r) => r.reading },
  { header: "N", value: (r) => r.n, align: "right" },
  { header: "act", value: (r) => r.act, align: "right" },
  { header: "hold", value: (r) => r.hold, align: "right" },
  { header: "decision", value: (r) => r.decision, align: "right" },
  { header: "95% CI", value: (r) => r.interval, align: "right" },
];

/** The extra sections as text (table/csv/markdown), in the order companion, sensitivity. */
export function extrasText(metrics: Metrics, models: readonly string[], opts: ScoreExtrasOptions, format: Exclude<OutputFormat, "json">): string {
  const parts: string[] = [];
  if ((opts.scores ?? []).length > 0) {
    const rows = companionRows(metrics, models);
    if (format === "table") parts.push("\nOfficial score on the same items (BFCL's verdict, read from the score files):\n");
    parts.push(rows.length > 0 ? renderRows(rows, companionCols, format) : "(no model has complete score files)\n");
    const line = spearmanLine(metrics);
    if (line !== null && format === "table") parts.push(line + "\n");
  }
  if (opts.sensitivity) {
    if (format === "table") parts.push("\nSensitivity of the table (Appendix F):\n");
    parts.push(renderRows(sensitivityRows(metrics, models), sensitivityCols, format));
    const rank1 = models.map((m) => [m, metrics.get(`rank1.C.${m}`)] as const).filter(([, v]) => typeof v === "number");
    if (format === "table" && models.length >= 2 && rank1.length === models.length) {
      parts.push(`Rank 1 on decision (share of ${String(metrics.get("bootstrap.B"))} resamples, one shared stream): ${rank1.map(([m, v]) => `${m} ${(v as number).toFixed(1)}%`).join(", ")}\n`);
    }
  }
  return parts.join("");
}

/** The extra sections for `--format json`. */
export function extrasJson(metrics: Metrics, models: readonly string[], opts: ScoreExtrasOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if ((opts.scores ?? []).length > 0) out.official = { models: companionRows(metrics, models), spearman: spearmanLine(metrics) };
  if (opts.sensitivity) out.sensitivity = sensitivityRows(metrics, models);
  return out;
}
