/**
 * `report`, the use case: one self-contained HTML report of the runs (each result tree is
 * a run; models of several runs are named `<run>/<model>`), with their score trees, a
 * paired comparison of two runs, the judge's labels and the workaround credit when asked.
 * The page is written atomically when `out` is given; the document says what it holds.
 */
import { problem, type Problem } from "../messages/index.js";
import type { AlignedRow } from "../official/aligned.js";
import type { EmptyTurnRow } from "../official/empty-turns.js";
import { assembleReport } from "../report/assemble.js";
import { renderReport } from "../report/render.js";
import type { BootstrapOptions } from "../stats/index.js";
import { resolveBfclDataDir } from "../io/bfcl-data.js";
import { readLabelsFile } from "../io/judge-client.js";
import { byteLength, folderExists, overwritesInput, writeFileAtomic } from "../io/files.js";
import { resolvePath } from "../io/paths.js";
import { loadReportRuns, runLabels } from "../io/report-inputs.js";
import { walkBfclTree } from "../io/tree.js";
import { selectModels } from "../io/results.js";
import type { SideRule } from "../decision/types.js";
import type { DecoderName } from "../bfcl/decode/index.js";
import { badArgument, bootstrapOf, contextOf, strictExitCode, type ExitCode, type RequestContext } from "./common.js";
import { DEFAULT_MAX_UNDECIDED } from "./score.js";
import { oneManifestForModels } from "./data-version.js";

/** What the report shows. */
export interface ReportRequest extends RequestContext {
  /** One result tree per run. */
  readonly results: readonly string[];
  /** The score tree of each run, in the same order (one per run, or none). */
  readonly scores?: readonly string[];
  /** Two runs (name or folder as given) to compare as arm A and arm B. */
  readonly compare?: readonly string[];
  /** Judge labels (JSON Lines from `judge`). */
  readonly labels?: string;
  /**
   * BFCL data folder (else `BFCL_DATA_DIR`; no installation is searched: this takes a
   * while): adds the workaround credit and the aligned numbers (BFCL's checker on turn
   * prefixes, and on every entry with the empty-reference turns scored).
   */
  readonly bfclData?: string;
  /** Models to keep (default: all). */
  readonly models?: readonly string[];
  /** The HTML file to write (atomically); without it the page is only returned. */
  readonly out?: string;
  readonly title?: string;
  readonly bootstrap?: Partial<BootstrapOptions>;
  readonly manifest?: string;
  /** How sides that are not decisions are read (default `decided`). */
  readonly reading?: SideRule;
  /** `--decoder`: one decoder for every model; absent, each model folder's own (BFCL's registry, else detected from its steps). */
  readonly decoder?: DecoderName;
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
  /** A model whose undecided pairs exceed this percentage gets no headline (default 10, as `score`). */
  readonly maxUndecided?: number;
  /** Hears one line per step of the work (reading, scoring, replaying). */
  readonly progress?: (line: string) => void;
}

/** What was written. */
export interface ReportDocument {
  readonly command: "report";
  /** The file written (absolute), or null. */
  readonly file: string | null;
  /** Its size in bytes (UTF-8). */
  readonly bytes: number;
  readonly models: number;
  readonly pairs: number;
  readonly comparisons: number;
  /** With BFCL data: each model's aligned numbers as the page shows them (see `score`'s `aligned`); else null. */
  readonly aligned: readonly AlignedRow[] | null;
  /** With BFCL data: the skipped turn scored, per category and model, with rankings (see `score`'s `emptyTurns`); else null. */
  readonly emptyTurns: readonly EmptyTurnRow[] | null;
  /** Each model of the page (named as the page names it) and the result and score files it was read from. */
  readonly modelFiles: readonly { readonly model: string; readonly files: readonly string[] }[];
  /** The page itself (left out of `--format json`). */
  readonly html: string | null;
  readonly problems: readonly Problem[];
  readonly exitCode: ExitCode;
}

/** Build the report (and write it when `out` is given). Never throws on bad input.
 *
 * @example
 * import { buildReport } from "twinscore";
 * const doc = await buildReport({ results: ["runs/main", "runs/fixes"], scores: ["runs/main", "runs/fixes"], compare: ["main", "fixes"], out: "report.html" });
 * console.log(doc.file, doc.bytes, doc.models);
 */
export async function buildReport(req: ReportRequest): Promise<ReportDocument> {
  const ctx = contextOf(req);
  const scores = req.scores ?? [];
  const done = (problems: Problem[], rest: Partial<ReportDocument> = {}): ReportDocument => ({
    command: "report",
    file: null,
    bytes: 0,
    models: 0,
    pairs: 0,
    comparisons: 0,
    aligned: null,
    emptyTurns: null,
    modelFiles: [],
    html: null,
    problems,
    exitCode: 2,
    ...rest,
  });
  // every argument before any input is read
  const bad: Problem[] = [];
  const boot = bootstrapOf(req.bootstrap);
  if (!boot.ok) bad.push(...boot.problems);
  if (req.results.length === 0) bad.push(badArgument("give at least one --results DIR (a BFCL result tree)"));
  if (scores.length !== 0 && scores.length !== req.results.length) {
    bad.push(badArgument(`give one --scores per --results, in the same order (got ${req.results.length} --results and ${scores.length} --scores)`));
  }
  const labels = runLabels(req.results.map((d) => resolvePath(ctx.cwd, d)));
  if (req.compare !== undefined) {
    if (req.compare.length !== 2) bad.push(badArgument(`--compare takes two runs, got ${req.compare.length}`));
    else {
      for (const key of req.compare) {
        if (!labels.includes(key) && !req.results.includes(key)) bad.push(problem("compare-run-missing", `--compare ${key}: no such run (runs: ${labels.join(", ")})`));
      }
      if (bad.length === 0 && req.compare[0] === req.compare[1]) bad.push(problem("compare-same-run", `--compare needs two different runs, got ${req.compare[0]} twice`));
    }
  }
  const target = req.out === undefined ? null : resolvePath(ctx.cwd, req.out);
  const resultWalk = walkBfclTree(req.results, ctx.cwd, "result");
  const scoreWalk = walkBfclTree(scores, ctx.cwd, "score");
  // a folder below that cannot be read leaves the rest usable: it is reported with the scoring's problems, not as a bad argument
  const stops = (p: Problem) => p.severity === "error" && p.code !== "folder-unreadable";
  bad.push(...resultWalk.problems.filter(stops));
  if (scores.length > 0) bad.push(...scoreWalk.problems.filter(stops));
  if (target !== null) {
    const folder = folderExists(target);
    if (!folder.ok) bad.push(...folder.problems);
    const inputs = [...resultWalk.models, ...scoreWalk.models].flatMap((m) => Object.values(m.files).flatMap((fs) => (fs ?? []).map((f) => f.path)));
    for (const extra of [req.labels, req.manifest]) if (extra !== undefined) inputs.push(resolvePath(ctx.cwd, extra));
    const clash = overwritesInput(target, inputs, "--out");
    if (clash !== null && !clash.ok) bad.push(...clash.problems);
  }
  let judgeLabels = null;
  if (req.labels !== undefined) {
    const file = resolvePath(ctx.cwd, req.labels);
    judgeLabels = readLabelsFile(file);
    if (judgeLabels.length === 0) bad.push(problem("labels-empty", "no judge label could be read", { file }));
  }
  if (bad.length > 0 || !boot.ok) return done(bad);
  // one manifest for the page: the BFCL version the result files name, their rollouts checked against it
  const selected = selectModels(walkBfclTree(req.results, ctx.cwd, "result"), req.models ?? []);
  const loaded = oneManifestForModels(selected.models, req.manifest, ctx, "report");
  if (!loaded.ok) return done([...loaded.problems]);
  const manifest = loaded.value.manifest;
  const rule = req.reading ?? "decided";

  // The workaround credit only when BFCL data is named (--bfcl-data or BFCL_DATA_DIR): replaying takes a while.
  const bfcl = resolveBfclDataDir({ flag: req.bfclData, env: ctx.env, cwd: ctx.cwd, findPython: () => null });
  const runs = loadReportRuns(
    req.results.map((dir, i) => ({ resultDir: dir, scoreDir: scores[i] ?? null })),
    { models: req.models ?? [], manifest, cwd: ctx.cwd, bfclDataDir: bfcl?.dir ?? null, rule, progress: req.progress, ...(req.decoder !== undefined ? { decoder: req.decoder } : {}) },
  );
  const problems: Problem[] = [...loaded.value.warnings, ...runs.problems];
  const several = runs.runs.length > 1;
  const modelFiles = runs.runs.flatMap((r) => r.models.map((m) => ({ model: several ? `${r.label}/${m.inputs.model}` : m.inputs.model, files: [...m.resultFiles, ...m.scoreFiles] })));
  const scoredModels = runs.runs.flatMap((r) => r.models);
  if (scoredModels.length === 0) return done([...problems, problem("nothing-scored", "no model could be scored under the --results directories")]);
  if (scoredModels.every((m) => m.inputs.records.every((r) => r.status === "missing"))) return done([...problems, problem("no-pairs", "no model has a pair to score: every result file is empty or holds none of the manifest's items; no report is written")]);
  const bootstrap = boot.value;
  req.progress?.(`gathering numbers${bootstrap.resamples > 0 ? ` (bootstrap B = ${bootstrap.resamples})` : ""}`);
  const assembled = assembleReport({
    title: req.title ?? "twinscore report",
    manifest,
    runs: runs.runs,
    compare: req.compare ? [req.compare[0], req.compare[1]] : null,
    labels: judgeLabels,
    bootstrap,
    rule,
    maxUndecided: req.maxUndecided ?? DEFAULT_MAX_UNDECIDED,
  });
  if (!assembled.ok) return done([...problems, ...assembled.problems]);
  const html = renderReport(assembled.value);
  const d = assembled.value;
  // no headline from a broken run, said as `score` says it (the page shows the same row empty)
  for (const m of d.models) if (m.noHeadline !== null) problems.push(problem("no-headline", `model ${m.name}: ${m.noHeadline}`));
  const withAligned = d.models.filter((m) => m.aligned !== null);
  const facts = {
    models: d.models.length,
    pairs: d.pairs.length,
    comparisons: d.compare.length,
    aligned: withAligned.length > 0 ? withAligned.map((m) => m.aligned!) : null,
    emptyTurns: d.emptyTurns.length > 0 ? d.emptyTurns : null,
    bytes: byteLength(html),
    modelFiles,
    html,
  };
  if (target !== null) {
    const written = writeFileAtomic(target, html);
    if (!written.ok) return done([...problems, ...written.problems], facts);
  }
  return done(problems, { ...facts, file: target, exitCode: strictExitCode(problems.some((p) => p.severity === "error") ? 1 : 0, problems, req.strict) });
}
