/**
 * `report`, the use case: one self-contained HTML report of the runs (each result tree is
 * a run; models of several runs are named `<run>/<model>`), with their score trees, a
 * paired comparison of two runs, the judge's labels and the workaround credit when asked.
 * The page is written atomically when `out` is given; the document says what it holds.
 */
import { describeRun } from "../rollout/run-record.js";
import { TWINSCORE_VERSION } from "../messages/version.js";
import { manifestSha256 } from "../pairs/digest.js";
import { pushAll, problem, type Problem } from "../messages/index.js";
import type { AlignedRow } from "../official/aligned.js";
import type { EmptyTurnRow } from "../official/empty-turns.js";
import { assembleReport, headlineReading, type ReportModelInput, type ReportRunInput } from "../report/assemble.js";
import { REPORT_TEXT_LIMIT } from "../report/bounded-text.js";
import { renderReport } from "../report/render.js";
import type { ReportData } from "../report/types.js";
import type { JudgeRecord } from "../judge/types.js";
import { reportFigures } from "../report/figures.js";
import { svgToPng } from "../io/png.js";
import type { BootstrapOptions } from "../stats/index.js";
import { readLabelsFile } from "./judge-run.js";
import { byteLength } from "../io/files.js";
import { joinPath, relativePath, resolvePath, runLabels } from "../io/paths.js";
import { readScoredData, type ScoredData } from "./bfcl-inputs.js";
import { headlineOf, readingPairs, selectUnder } from "../decision/readings.js";
import type { Manifest } from "../pairs/types.js";
import { sameManifest } from "../pairs/manifest-json.js";
import { err, ok, type Result } from "../messages/index.js";

import type { BfclVersion } from "../bfcl/categories.js";
import { versionsOfModel, versionsText } from "./data-version.js";

import { pairSets, sideRules, type PairSet, type SideRule } from "../decision/types.js";
import type { DecoderChoiceSummary } from "../bfcl/decode/index.js";
import type { RunRecord } from "../rollout/run-record.js";
import type { TrialsSummary } from "./score-trials.js";
import { combineTrialReads } from "./trials-of.js";
import {
  badArgument,
  bootstrapOf,
  contextOf,
  strictExitCode,
  type Context,
  type ExitCode,
  type RequestContext,
  type ModelsOption,
  type ManifestOption,
  type DecoderOption,
} from "./common.js";
import { DEFAULT_MAX_UNDECIDED, LIFTED, reshapeFix } from "./score.js";
import { readModels, selectModels, walkInputs, type InputWalks, type ModelRead } from "./pipeline.js";
import type { ModelReplays } from "./replays.js";
import { metricsInputs } from "./run-metrics.js";
import { requestShapeProblems, type RequestShape } from "./request-shape.js";

/** What the report shows. */
export interface ReportRequest extends RequestContext, ModelsOption, ManifestOption, DecoderOption {
  /** One result tree per run. */
  readonly results: readonly string[];
  /**
   * `--trials-of`: these folders (each one model) are repeated trials of one model, read
   * instead of `results`, each as a run of the page; the page adds the model's numbers over
   * its trials (as `score --trials-of` gives them) and each pair's flip rate.
   */
  readonly trialsOf?: readonly string[];
  /** The pair set of the headline and the pair browser (default `certified`: Table 1's pairs), as `score` takes it. */
  readonly pairSet?: PairSet;
  /** Count login/logout as world-changing (the login-only pairs join), as `score` takes it. */
  readonly countLogin?: boolean;
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
  /** The HTML file to write (atomically); without it the page is only returned. */
  readonly out?: string;
  /** A folder to write each figure of the page to, as `NN-<title>.svg` and `.png` (atomically). */
  readonly figures?: string;
  readonly title?: string;
  readonly bootstrap?: Partial<BootstrapOptions>;
  /** How sides that are not decisions are read (default `decided`). */
  readonly reading?: SideRule;
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
  /** A model whose undecided pairs exceed this percentage gets no headline (default 10, as `score`). */
  readonly maxUndecided?: number;
  /** Hears one line per step of the work (reading, scoring, replaying). */
  readonly progress?: (line: string) => void;
}

/** What a library caller's report request must hold (see `request-shape.ts`). */
const reportShape: RequestShape = {
  results: { rule: "list", required: true },
  trialsOf: { rule: "list" },
  pairSet: { rule: "string" },
  countLogin: { rule: "boolean" },
  scores: { rule: "list" },
  compare: { rule: "list" },
  labels: { rule: "string" },
  bfclData: { rule: "string" },
  models: { rule: "list" },
  out: { rule: "string" },
  figures: { rule: "string" },
  title: { rule: "string" },
  bootstrap: { rule: "bootstrap" },
  manifest: { rule: "string" },
  reading: { rule: "string" },
  decoder: { rule: "string" },
  strict: { rule: "boolean" },
  maxUndecided: { rule: "number" },
  progress: { rule: "function" },
};

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
  /** With no `scores` given: the `score/` folders beside `result/` in the runs given, whose verdicts were read as if given (absolute); else empty. */
  readonly scoresBeside: readonly string[];
  /** The page itself (left out of `--format json`). */
  readonly html: string | null;
  /** With `figures`: the folder (absolute) and the files written there, SVG and PNG of each figure, in page order. */
  readonly figures: { readonly dir: string; readonly files: readonly string[] } | null;
  readonly problems: readonly Problem[];
  /** With `trialsOf`: the model over its trials, as `score --trials-of` gives it; else null. */
  readonly trials: TrialsSummary | null;
  /** Problems met reading each model's files (routine warnings: printed as one line per model, as `score` prints them). */
  readonly modelProblems: readonly { readonly model: string; readonly problems: readonly Problem[] }[];
  /** Each model read and its decoder, named as `modelProblems` names it: the CLI notes the detected ones, as `score` does (left out of `--format json`, as `html` is). */
  readonly modelDecoders: readonly { readonly model: string; readonly decoder: DecoderChoiceSummary | null }[];
  readonly exitCode: ExitCode;
}

/** Build the report (and write it when `out` is given). Never throws on bad input.
 *
 * @example
 * import { buildReport } from "twinscore";
 * const doc = await buildReport({ results: ["runs/main", "runs/fixes"], scores: ["runs/main", "runs/fixes"], compare: ["main", "fixes"], out: "report.html" });
 * console.log(doc.file, doc.bytes, doc.models);
 */
export async function buildReport(request: ReportRequest): Promise<ReportDocument> {
  const shape = requestShapeProblems(request, reportShape, '{ results: ["runs/main"] }');
  if (shape.length > 0) return emptyReportDocument(shape);
  return buildReportOf(request);
}

/** A document that says why nothing was written (exit 2). */
function emptyReportDocument(problems: Problem[]): ReportDocument {
  return {
    command: "report",
    file: null,
    bytes: 0,
    models: 0,
    pairs: 0,
    comparisons: 0,
    aligned: null,
    emptyTurns: null,
    modelFiles: [],
    scoresBeside: [],
    html: null,
    figures: null,
    trials: null,
    problems,
    modelProblems: [],
    modelDecoders: [],
    exitCode: 2,
  };
}

/** The report once the request has its shape: the arguments checked, the runs read, the page assembled and written. */
async function buildReportOf(req: ReportRequest): Promise<ReportDocument> {
  const ctx = contextOf(req);
  const pageRuns = pageRunsOf(req, ctx);
  // each run walked once, on its own (the same model folder in two runs stays two models)
  // (its score tree: the one given, else the score/ folders beside result/ in it)
  const scores = req.scores ?? [];
  const walks = pageRuns.map((r, i) => walkInputs(ctx, r.dirs, scores[i] === undefined ? [] : [scores[i]]));
  const args = checkArguments(req, ctx, pageRuns, walks);
  if (args.problems.length > 0 || args.bootstrap === null) return failedReport(args.problems);
  // one manifest for the page: the runs' file names must be of one BFCL version (unless --manifest forces one), said before anything is read
  const mixed = req.manifest === undefined ? mixedVersions(req, pageRuns, walks) : null;
  if (mixed !== null) return failedReport([mixed]);
  const rule = req.reading ?? "decided";
  const problems: Problem[] = [];
  const data = readBfclDataFor(req, ctx, problems);
  const reading = newRunsReading(problems);
  const runs = await readReportRuns(req, ctx, pageRuns, walks, data, rule, reading);
  if (!runs.ok) return failedReport([...runs.problems]);
  const nothing = nothingToReport(runs.value.runs);
  if (nothing !== null) return failedReport([...problems, nothing]);
  const page = assemblePage(req, runs.value, reading, args.judgeLabels, args.bootstrap, rule);
  if (!page.ok) return failedReport([...problems, ...page.problems]);
  const { assembled, html, trials } = page.value;
  // no headline from a broken run, said as `score` says it (the page shows the same row empty)
  for (const m of assembled.models) if (m.noHeadline !== null) problems.push(problem("no-headline", `model ${m.name}: ${m.noHeadline}`));
  const facts = reportFacts(assembled, html, modelFilesOf(runs.value.runs), walks);
  if (args.target !== null) {
    const written = ctx.host.writeFileAtomic(args.target, html);
    if (!written.ok) return failedReport([...problems, ...written.problems], facts);
  }
  let figures: ReportDocument["figures"] = null;
  if (args.figuresDir !== null) {
    const written = writeFigures(args.figuresDir, html, ctx);
    problems.push(...written.problems);
    figures = { dir: args.figuresDir, files: written.files };
  }
  const met = [...problems, ...reading.modelProblems.flatMap((m) => m.problems)];
  return failedReport(problems, {
    ...facts,
    figures,
    trials,
    modelProblems: reading.modelProblems,
    modelDecoders: reading.modelDecoders,
    file: args.target,
    exitCode: strictExitCode(problems.some((p) => p.severity === "error") ? 1 : 0, met, req.strict),
  });
}

/** A document with `problems` and whatever is known (`rest`); exit 2 unless `rest` says otherwise. */
function failedReport(problems: Problem[], rest: Partial<ReportDocument> = {}): ReportDocument {
  return { ...emptyReportDocument(problems), ...rest };
}

/** The runs of the page: each `--results` tree, or the trials of `--trials-of` as one run (its models named as `score --trials-of` names them). */
function pageRunsOf(req: ReportRequest, ctx: Context): PageRun[] {
  const trialsOf = req.trialsOf ?? [];
  if (trialsOf.length > 0) return [{ label: "trials", dirs: trialsOf }];
  const given = runLabels(req.results.map((d) => resolvePath(ctx.cwd, d)));
  return req.results.map((d, i) => ({ label: given[i], dirs: [d] }));
}

/** What the arguments give once checked (before any input is read), or the problems with them. */
interface CheckedArguments {
  readonly problems: Problem[];
  readonly bootstrap: BootstrapOptions | null;
  /** The page's file and the figures' folder (absolute), when asked for. */
  readonly target: string | null;
  readonly figuresDir: string | null;
  readonly judgeLabels: JudgeRecord[] | null;
}

/** Every argument checked before any input is read: the runs, the scores, `--compare`, the outputs, the judge's labels. */
function checkArguments(req: ReportRequest, ctx: Context, pageRuns: readonly PageRun[], walks: readonly InputWalks[]): CheckedArguments {
  const bad: Problem[] = [];
  const boot = bootstrapOf(req.bootstrap);
  if (!boot.ok) pushAll(bad, boot.problems);
  // a library caller's names, checked as the CLI's choices are
  if (req.reading !== undefined && !sideRules.includes(req.reading))
    bad.push(badArgument(`reading must be one of ${sideRules.join(", ")}, not ${JSON.stringify(req.reading)}`));
  if (req.pairSet !== undefined && !pairSets.includes(req.pairSet))
    bad.push(badArgument(`pairSet must be one of ${pairSets.join(", ")}, not ${JSON.stringify(req.pairSet)}`));
  const scores = req.scores ?? [];
  if ((req.trialsOf ?? []).length > 0 && req.results.length > 0)
    bad.push(badArgument("give the trials of one model with --trials-of DIR… alone, not beside --results"));
  else if (pageRuns.length === 0) bad.push(badArgument("give at least one --results DIR (a BFCL result tree)"));
  if (scores.length !== 0 && scores.length !== pageRuns.length) {
    bad.push(
      badArgument(`give one --scores per --results, in the same order (got ${pageRuns.length} --results and ${scores.length} --scores)`),
    );
  }
  if (req.compare !== undefined && (req.trialsOf ?? []).length > 0)
    bad.push(
      badArgument(
        "--compare takes two --results runs, and --trials-of reads the trials of one model: give one or the other (two arms' trials compare with twinscore compare --trials-a DIR… --trials-b DIR…)",
      ),
    );
  else if (req.compare !== undefined) pushAll(bad, compareProblems(req.compare, req.results, pageRuns, walks, bad.length === 0));
  const target = req.out === undefined ? null : resolvePath(ctx.cwd, req.out);
  const figuresDir = req.figures === undefined ? null : resolvePath(ctx.cwd, req.figures);
  if (figuresDir !== null && !ctx.host.folderExists(joinPath(figuresDir, "figure.svg")).ok)
    bad.push(badArgument(`--figures ${req.figures}: no such folder`));
  // a folder below that cannot be read leaves the rest usable: it is reported with the scoring's problems, not as a bad argument
  const stops = (p: Problem) => p.severity === "error" && p.code !== "folder-unreadable";
  for (const w of walks) bad.push(...w.results.problems.filter(stops), ...(w.scores?.problems.filter(stops) ?? []));
  if (target !== null) pushAll(bad, outputProblems(target, req, ctx, walks));
  const labels = req.labels === undefined ? null : judgeLabelsOf(resolvePath(ctx.cwd, req.labels), ctx);
  if (labels !== null) pushAll(bad, labels.problems);
  return { problems: bad, bootstrap: boot.ok ? boot.value : null, target, figuresDir, judgeLabels: labels?.records ?? null };
}

/** `--compare`'s two runs: each a run of the page (a `--results` tree by its label, or a run inside a folder of runs by its folder's name), and two different ones. */
function compareProblems(
  compare: readonly string[],
  results: readonly string[],
  pageRuns: readonly PageRun[],
  walks: readonly InputWalks[],
  noneYet: boolean,
): Problem[] {
  if (compare.length !== 2) return [badArgument(`--compare takes two runs, got ${compare.length}`)];
  const bad: Problem[] = [];
  const runNames = comparableRunNames(
    pageRuns.map((r) => r.label),
    walks,
  );
  for (const key of compare) {
    if (!runNames.includes(key) && !results.includes(key))
      bad.push(problem("compare-run-missing", `--compare ${key}: no such run (runs: ${runNames.join(", ")})`));
  }
  if (noneYet && bad.length === 0 && compare[0] === compare[1])
    bad.push(problem("compare-same-run", `--compare needs two different runs, got ${compare[0]} twice`));
  return bad;
}

/** The page's file must be in a folder that exists, and must not name one of the inputs. */
function outputProblems(target: string, req: ReportRequest, ctx: Context, walks: readonly InputWalks[]): Problem[] {
  const bad: Problem[] = [];
  const folder = ctx.host.folderExists(target);
  if (!folder.ok) pushAll(bad, folder.problems);
  const inputs = walks
    .flatMap((w) => [...w.results.models, ...(w.scores?.models ?? [])])
    .flatMap((m) => Object.values(m.files).flatMap((fs) => (fs ?? []).map((f) => f.path)));
  for (const extra of [req.labels, req.manifest]) if (extra !== undefined) inputs.push(resolvePath(ctx.cwd, extra));
  const clash = ctx.host.overwritesInput(target, inputs, "--out");
  if (clash !== null && !clash.ok) pushAll(bad, clash.problems);
  return bad;
}

/** The judge's labels of `--labels` (a regular file holding at least one label), or why not. */
function judgeLabelsOf(file: string, ctx: Context): { records: JudgeRecord[]; problems: Problem[] } {
  const special = ctx.host.notRegularFile(file, "--labels");
  if (special !== null) return { records: [], problems: [special] };
  const records = readLabelsFile(file, ctx.host);
  return { records, problems: records.length === 0 ? [problem("labels-empty", "no judge label could be read", { file })] : [] };
}

/** The refusal when the runs' file names are of several BFCL versions (the page has one manifest), or null. */
function mixedVersions(req: ReportRequest, pageRuns: readonly PageRun[], walks: readonly InputWalks[]): Problem | null {
  const versionOf = new Map<string, BfclVersion>();
  walks.forEach((w, i) => {
    for (const m of selectModels(w.results, req.models ?? []).models) {
      const v = versionsOfModel(m);
      if (v.length === 1) versionOf.set(pageRuns.length > 1 ? `${pageRuns[i].label}/${m.name}` : m.name, v[0]);
    }
  });
  if (new Set(versionOf.values()).size <= 1) return null;
  return problem(
    "bfcl-version-mixed",
    `report puts every model on one pair manifest, and these result files are of several BFCL versions: ${versionsText(versionOf)}; give one version's runs, or --manifest FILE to force one`,
  );
}

/** BFCL's data when it is named (`--bfcl-data` or `BFCL_DATA_DIR`): the workaround credit and the aligned numbers need it, and take a while. */
function readBfclDataFor(req: ReportRequest, ctx: Context, problems: Problem[]): ScoredData | null {
  const bfcl = ctx.host.resolveBfclDataDir({ flag: req.bfclData, env: ctx.env, cwd: ctx.cwd, installed: false });
  if (bfcl === null) return null;
  req.progress?.(`reading BFCL data for the workaround credit and the aligned numbers (${bfcl.dir})`);
  const read = readScoredData(bfcl.dir, ctx.host);
  if (read.ok) return read.value;
  pushAll(problems, read.problems);
  return null;
}

/** Why there is no page when no model was scored, or none has a pair; else null. */
function nothingToReport(runs: readonly ReportRunInput[]): Problem | null {
  const scoredModels = runs.flatMap((r) => r.models);
  if (scoredModels.length === 0) return problem("nothing-scored", "no model could be scored under the --results directories");
  if (scoredModels.every((m) => m.inputs.records.every((r) => r.status === "missing")))
    return problem(
      "no-pairs",
      "no model has a pair to score: every result file is empty or holds none of the manifest's items; no report is written",
    );
  return null;
}

/** The page's numbers gathered (with the trials combined under `--trials-of`) and rendered. */
function assemblePage(
  req: ReportRequest,
  read: { manifest: Manifest; runs: ReportRunInput[] },
  reading: RunsReading,
  judgeLabels: JudgeRecord[] | null,
  bootstrap: BootstrapOptions,
  rule: SideRule,
): Result<{ assembled: ReportData; html: string; trials: TrialsSummary | null }> {
  const pairSet = pairSetOf(req);
  const maxUndecided = req.maxUndecided ?? DEFAULT_MAX_UNDECIDED;
  let trials: TrialsSummary | null = null;
  if ((req.trialsOf ?? []).length > 0) {
    req.progress?.(
      `combining ${read.runs.flatMap((r) => r.models).length} trials${bootstrap.resamples > 0 ? ` (two-level bootstrap B = ${bootstrap.resamples})` : ""}`,
    );
    const combined = trialsOfRuns(read, reading.records, pairSet, rule, maxUndecided, bootstrap);
    if (!combined.ok) return combined;
    trials = combined.value;
  }
  req.progress?.(`gathering numbers${bootstrap.resamples > 0 ? ` (bootstrap B = ${bootstrap.resamples})` : ""}`);
  const assembled = assembleReport({
    title: req.title ?? "twinscore report",
    manifest: read.manifest,
    runs: read.runs,
    compare: req.compare ? [req.compare[0], req.compare[1]] : null,
    labels: judgeLabels,
    bootstrap,
    rule,
    maxUndecided,
    ...(pairSet === undefined ? {} : { pairSet }),
    ...(trials === null ? {} : { trials }),
  });
  if (!assembled.ok) return assembled;
  const html = renderReport({
    ...assembled.value,
    provenance: { twinscoreVersion: TWINSCORE_VERSION, manifestSha256: manifestSha256(read.manifest), runs: reading.made },
  });
  return ok({ assembled: assembled.value, html, trials });
}

/** Each model of the page (named as the page names it) and the result and score files it was read from. */
function modelFilesOf(runs: readonly ReportRunInput[]): ReportDocument["modelFiles"] {
  const several = runs.length > 1;
  return runs.flatMap((r) =>
    r.models.map((m) => ({ model: several ? `${r.label}/${m.inputs.model}` : m.inputs.model, files: [...m.resultFiles, ...m.scoreFiles] })),
  );
}

/** What the document says of the page. */
function reportFacts(
  d: ReportData,
  html: string,
  modelFiles: ReportDocument["modelFiles"],
  walks: readonly InputWalks[],
): Partial<ReportDocument> {
  const withAligned = d.models.filter((m) => m.aligned !== null);
  return {
    models: d.models.length,
    pairs: d.pairs.length,
    comparisons: d.compare.length,
    aligned: withAligned.length > 0 ? withAligned.map((m) => m.aligned!) : null,
    emptyTurns: d.emptyTurns.length > 0 ? d.emptyTurns : null,
    bytes: byteLength(html),
    modelFiles,
    scoresBeside: walks.flatMap((w) => w.scoresBeside),
    html,
  };
}

/** Each figure of the page as an SVG file and a PNG beside it; a PNG that cannot be made is a problem, its SVG is still written. */
function writeFigures(dir: string, html: string, ctx: Context): { files: string[]; problems: Problem[] } {
  const files: string[] = [];
  const problems: Problem[] = [];
  for (const f of reportFigures(html)) {
    const svgFile = joinPath(dir, `${f.name}.svg`);
    const svg = ctx.host.writeFileAtomic(svgFile, f.svg);
    if (!svg.ok) return { files, problems: [...problems, ...svg.problems] };
    files.push(svgFile);
    const png = svgToPng(f.svg);
    if (!png.ok) {
      // said once: the renderer that failed on one figure fails on the others alike
      if (problems.length === 0) problems.push(...png.problems);
      continue;
    }
    const pngFile = joinPath(dir, `${f.name}.png`);
    const written = ctx.host.writeFileAtomic(pngFile, png.value);
    if (!written.ok) return { files, problems: [...problems, ...written.problems] };
    files.push(pngFile);
  }
  return { files, problems };
}

/** A run of the page: a `--results` tree, or the trials of `--trials-of` together. */
interface PageRun {
  readonly label: string;
  readonly dirs: readonly string[];
}

/** The pair set asked for, or undefined for Table 1's (certified, logins not counted). */
function pairSetOf(req: ReportRequest): { set: PairSet; countLogin: boolean } | undefined {
  return (req.pairSet ?? "certified") === "certified" && req.countLogin !== true
    ? undefined
    : { set: req.pairSet ?? "certified", countLogin: req.countLogin === true };
}

/**
 * The runs of `--trials-of` as one model over its trials: each run's one model, named as
 * the page names it, with its headline under the page's reading, combined as `score
 * --trials-of` combines them (the same checks, the same numbers).
 */
function trialsOfRuns(
  read: { manifest: Manifest; runs: readonly ReportRunInput[] },
  records: ReadonlyMap<ReportModelInput, RunRecord | null>,
  pairSet: { set: PairSet; countLogin: boolean } | undefined,
  rule: SideRule,
  maxUndecided: number,
  bootstrap: BootstrapOptions,
): Result<TrialsSummary> {
  const several = read.runs.length > 1;
  const spec = headlineReading(pairSet);
  const reads = read.runs.flatMap((r) =>
    r.models.map((m) => ({
      model: several ? `${r.label}/${m.inputs.model}` : m.inputs.model,
      headline: headlineOf(m.inputs.records, read.manifest, spec, rule, maxUndecided, null, m.reshape),
      record: records.get(m) ?? null,
    })),
  );
  return combineTrialReads(reads, 1, bootstrap);
}

/** The runs `--compare` can name before anything is read: each `--results` tree's label, and each run a folder of runs holds. */
function comparableRunNames(labels: readonly string[], walks: readonly InputWalks[]): string[] {
  const inner = walks.flatMap((w) => (w.results.runs > 1 ? w.results.models.map((m) => m.run) : []));
  return [...new Set([...labels, ...inner])];
}

/** What reading the runs gathers besides the runs themselves: the problems, each model's warnings, decoder and run record. */
interface RunsReading {
  /** Problems said in full (errors, a wrong decoder, undecidable pairs, the replays'). */
  readonly problems: Problem[];
  /** Each model's routine warnings, summed up per model as `score` prints them. */
  readonly modelProblems: { model: string; problems: Problem[] }[];
  readonly modelDecoders: { model: string; decoder: DecoderChoiceSummary | null }[];
  /** What each model's run is, where `twinscore run` recorded it. */
  readonly made: { model: string; run: string }[];
  readonly records: Map<ReportModelInput, RunRecord | null>;
  /** Folders of `run --trials K` given as `--results` runs (their trials would be models of the page): each with its K. */
  readonly trialFolders: Map<string, number>;
}

function newRunsReading(problems: Problem[]): RunsReading {
  return { problems, modelProblems: [], modelDecoders: [], made: [], records: new Map(), trialFolders: new Map() };
}

/**
 * Every run of the page read by the pipeline (each `--results` tree on its own, so the
 * same model folder in two runs stays two models), with what BFCL's checker and the
 * replays say when BFCL data was read. One manifest for the page: every run's models
 * must be of one BFCL version.
 */
async function readReportRuns(
  req: ReportRequest,
  ctx: Context,
  pageRuns: readonly PageRun[],
  walks: readonly InputWalks[],
  data: ScoredData | null,
  rule: SideRule,
  reading: RunsReading,
): Promise<Result<{ manifest: Manifest; runs: ReportRunInput[] }>> {
  const scores = req.scores ?? [];
  const { replaysOf } = await import("./replays.js");
  const runs: ReportRunInput[] = [];
  let manifest: Manifest | null = null;
  const trialFolders = new Map<string, number>();
  for (const [i, { label, dirs }] of pageRuns.entries()) {
    const resultDir = dirs.join(", ");
    // score folders found beside result/ are named from the folder given, as the page names every path (as given)
    const beside = walks[i].scoresBeside.map((d) =>
      dirs.length === 1 ? joinPath(resultDir, relativePath(resolvePath(ctx.cwd, resultDir), d)) : d,
    );
    const scoreDir = scores[i] ?? (beside.length > 0 ? beside.join(", ") : null);
    req.progress?.(`scoring ${label} (${resultDir})`);
    const page = { label, several: pageRuns.length > 1, scoreDir, data, rule, replaysOf };
    const read = readModels<ReportModelInput | null>(
      {
        ctx,
        results: dirs,
        scores: scores[i] === undefined ? [] : [scores[i]],
        models: req.models,
        manifest: req.manifest,
        oneManifest: "report",
        pairs: "every",
        keep: "all",
        needs: { census: true, texts: data !== null, wholeFiles: data !== null },
        // the page shows each text cut to its bound: a longer one is cut as it is read, never kept whole
        textLimit: REPORT_TEXT_LIMIT,
        decoder: req.decoder,
        walked: walks[i],
      },
      (m) => reportModelOf(m, req, page, reading),
    );
    if (!read.ok) return read;
    if (reading.trialFolders.size > 0) {
      const [dir, trials] = [...reading.trialFolders][0];
      return err(badArgument(`--results: ${dir} holds ${trials} trials of one model: give it with --trials-of ${dir}`));
    }
    pushAll(reading.problems, read.value.problems);
    if (manifest !== null && read.value.selected.length > 0 && !sameManifest(read.value.manifest, manifest))
      return err(manifestClash(read.value.manifest, manifest));
    if (read.value.selected.length > 0 || manifest === null) manifest = read.value.manifest;
    runs.push({ label, resultDir, scoreDir, models: read.value.outputs.filter((m): m is ReportModelInput => m !== null) });
  }
  return ok({ manifest: manifest!, runs });
}

/** The refusal when a run's manifest is not the page's. */
function manifestClash(found: Manifest, page: Manifest): Problem {
  const why =
    found.source.bfclVersion === page.source.bfclVersion ? `their pair manifests differ` : `these runs are of several BFCL versions`;
  return problem(
    "bfcl-version-mixed",
    `report puts every model on one pair manifest, and ${why}; give one version's runs, or --manifest FILE to force one`,
  );
}

/** The run of the page a model is read in, and what the page adds to each model: its score tree, BFCL's data, the reading. */
interface ModelPage {
  readonly label: string;
  readonly several: boolean;
  readonly scoreDir: string | null;
  readonly data: ScoredData | null;
  readonly rule: SideRule;
  readonly replaysOf: typeof import("./replays.js").replaysOf;
}

/** One model as read, made the page's input (null when it is not scored), its problems, decoder and run record noted in `reading`. */
function reportModelOf(m: ModelRead, req: ReportRequest, page: ModelPage, reading: RunsReading): ReportModelInput | null {
  // a folder of `run --trials K` is read as trials only with --trials-of: as a --results run its trials would be models of the page
  if (m.trial !== null && (req.trialsOf ?? []).length === 0) {
    reading.trialFolders.set(m.found.dir, m.trial.of);
    return null;
  }
  const { label, scoreDir, data } = page;
  const name = page.several ? `${label}/${m.model}` : m.model;
  // routine warnings summed up per model; errors, a wrong decoder and undecidable pairs said in full, as in score
  const inFull = (p: Problem) => p.severity === "error" || LIFTED.has(p.code);
  reading.modelProblems.push({ model: name, problems: m.problems.filter((p) => !inFull(p)) });
  reading.modelDecoders.push({ model: name, decoder: m.decoder });
  if (m.runRecord !== null) reading.made.push({ model: name, run: describeRun(m.runRecord) });
  pushAll(reading.problems, m.problems.filter(inFull));
  if (m.score === null) {
    // a model mixing both histories is not scored, and the pipeline's error says why
    if (m.history.protocol === "mixed") return null;
    reading.problems.push(
      problem("model-missing", `run ${label}: model ${m.model} has no complete set of result files (base, miss_func, miss_param)`),
    );
    return null;
  }
  if (scoreDir !== null) pushAll(reading.problems, m.official?.problems ?? []);
  const replays = data === null ? null : modelReplays(m, req, page, data);
  if (replays !== null) pushAll(reading.problems, replays.problems);
  const { workaround, completions, emptyTurns } = replays ?? { workaround: null, completions: null, emptyTurns: null };
  const reshape = reshapeFix(m.problems);
  const input: ReportModelInput = {
    inputs: metricsInputs(m),
    workaround,
    completions,
    emptyTurns,
    resultFiles: Object.values(m.filesUsed)
      .map((f) => f.file)
      .sort(),
    scoreFiles: Object.values(m.official?.scoreFiles ?? {}).sort(),
    run: m.run,
    folder: m.folder,
    ...(reshape === undefined ? {} : { reshape }),
  };
  reading.records.set(input, m.runRecord);
  return input;
}

/** With BFCL data: the workaround credit and BFCL's checker on the model's pairs of the headline reading. */
function modelReplays(m: ModelRead, req: ReportRequest, page: ModelPage, data: ScoredData): ModelReplays {
  const table1 = headlineReading(pairSetOf(req));
  const scored = selectUnder(m.score!.records, m.manifest, table1, page.rule).scored.map((x) => x.record);
  return page.replaysOf(m, scored, readingPairs(m.manifest, table1), data, { workaround: true, checker: true }, (what) =>
    req.progress?.(
      what === "workaround"
        ? `replaying miss_func attempts of ${page.label}/${m.model} (workaround credit)`
        : `checking ${page.label}/${m.model} with BFCL's checker (turn prefixes, empty-reference turns)`,
    ),
  );
}
