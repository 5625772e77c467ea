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
import { renderReport } from "../report/render.js";
import { reportFigures } from "../report/figures.js";
import { svgToPng } from "../io/png.js";
import type { BootstrapOptions } from "../stats/index.js";
import { resolveBfclDataDir } from "../io/bfcl-data.js";
import { readLabelsFile } from "./judge-run.js";
import { byteLength, folderExists, notRegularFile, overwritesInput, writeFileAtomic } from "../io/files.js";
import { joinPath, relativePath, resolvePath, runLabels } from "../io/paths.js";
import { readScoredData, type ScoredData } from "./bfcl-inputs.js";
import { headlineOf, readingPairs, selectUnder } from "../decision/readings.js";
import type { Manifest } from "../pairs/types.js";
import { sameManifest } from "../pairs/manifest-json.js";
import { err, ok, type Result } from "../messages/index.js";

import type { BfclVersion } from "../bfcl/categories.js";
import { versionsOfModel, versionsText } from "./data-version.js";

import type { PairSet, SideRule } from "../decision/types.js";
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
import { readModels, selectModels, walkInputs, type InputWalks } from "./pipeline.js";
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

/** `buildReport` once every `--trials-of` folder holds one trial. */
async function buildReportOf(request: ReportRequest): Promise<ReportDocument> {
  const trialsOf = request.trialsOf ?? [];
  // the trials' folders are read as result trees, each a run of the page
  const req = request;
  const ctx = contextOf(req);
  // the trials of --trials-of are one run of the page, walked together, so its models are named as `score --trials-of` names them
  const given = runLabels(req.results.map((d) => resolvePath(ctx.cwd, d)));
  const pageRuns: PageRun[] =
    trialsOf.length > 0 ? [{ label: "trials", dirs: trialsOf }] : req.results.map((d, i) => ({ label: given[i], dirs: [d] }));
  const scores = req.scores ?? [];
  const done = (problems: Problem[], rest: Partial<ReportDocument> = {}): ReportDocument => ({ ...emptyReportDocument(problems), ...rest });
  // every argument before any input is read
  const bad: Problem[] = [];
  const boot = bootstrapOf(req.bootstrap);
  if (!boot.ok) pushAll(bad, boot.problems);
  if (trialsOf.length > 0 && request.results.length > 0)
    bad.push(badArgument("give the trials of one model with --trials-of DIR… alone, not beside --results"));
  else if (pageRuns.length === 0) bad.push(badArgument("give at least one --results DIR (a BFCL result tree)"));
  if (scores.length !== 0 && scores.length !== pageRuns.length) {
    bad.push(
      badArgument(`give one --scores per --results, in the same order (got ${pageRuns.length} --results and ${scores.length} --scores)`),
    );
  }
  const labels = pageRuns.map((r) => r.label);
  // each run walked once, on its own (the same model folder in two runs stays two models)
  // (its score tree: the one given, else the score/ folders beside result/ in it)
  const walks = pageRuns.map((r, i) => walkInputs(ctx, r.dirs, scores[i] === undefined ? [] : [scores[i]]));
  if (req.compare !== undefined && trialsOf.length > 0)
    bad.push(
      badArgument(
        "--compare takes two --results runs, and --trials-of reads the trials of one model: give one or the other (two arms' trials compare with twinscore compare --trials-a DIR… --trials-b DIR…)",
      ),
    );
  else if (req.compare !== undefined) {
    if (req.compare.length !== 2) bad.push(badArgument(`--compare takes two runs, got ${req.compare.length}`));
    else {
      // a --results tree by its label, or a run inside a folder of runs by its folder's name
      const runNames = comparableRunNames(labels, walks);
      for (const key of req.compare) {
        if (!runNames.includes(key) && !req.results.includes(key))
          bad.push(problem("compare-run-missing", `--compare ${key}: no such run (runs: ${runNames.join(", ")})`));
      }
      if (bad.length === 0 && req.compare[0] === req.compare[1])
        bad.push(problem("compare-same-run", `--compare needs two different runs, got ${req.compare[0]} twice`));
    }
  }
  const target = req.out === undefined ? null : resolvePath(ctx.cwd, req.out);
  const figuresDir = req.figures === undefined ? null : resolvePath(ctx.cwd, req.figures);
  if (figuresDir !== null) {
    const there = folderExists(joinPath(figuresDir, "figure.svg"));
    if (!there.ok) bad.push(badArgument(`--figures ${req.figures}: no such folder`));
  }
  // a folder below that cannot be read leaves the rest usable: it is reported with the scoring's problems, not as a bad argument
  const stops = (p: Problem) => p.severity === "error" && p.code !== "folder-unreadable";
  for (const w of walks) bad.push(...w.results.problems.filter(stops), ...(w.scores?.problems.filter(stops) ?? []));
  if (target !== null) {
    const folder = folderExists(target);
    if (!folder.ok) pushAll(bad, folder.problems);
    const inputs = walks
      .flatMap((w) => [...w.results.models, ...(w.scores?.models ?? [])])
      .flatMap((m) => Object.values(m.files).flatMap((fs) => (fs ?? []).map((f) => f.path)));
    for (const extra of [req.labels, req.manifest]) if (extra !== undefined) inputs.push(resolvePath(ctx.cwd, extra));
    const clash = overwritesInput(target, inputs, "--out");
    if (clash !== null && !clash.ok) pushAll(bad, clash.problems);
  }
  let judgeLabels = null;
  if (req.labels !== undefined) {
    const file = resolvePath(ctx.cwd, req.labels);
    const special = notRegularFile(file, "--labels");
    judgeLabels = special === null ? readLabelsFile(file) : [];
    if (special !== null) bad.push(special);
    else if (judgeLabels.length === 0) bad.push(problem("labels-empty", "no judge label could be read", { file }));
  }
  if (bad.length > 0 || !boot.ok) return done(bad);
  // one manifest for the page: the runs' file names must be of one BFCL version (unless --manifest forces one), said before anything is read
  if (req.manifest === undefined) {
    const versionOf = new Map<string, BfclVersion>();
    walks.forEach((w, i) => {
      for (const m of selectModels(w.results, req.models ?? []).models) {
        const v = versionsOfModel(m);
        if (v.length === 1) versionOf.set(pageRuns.length > 1 ? `${labels[i]}/${m.name}` : m.name, v[0]);
      }
    });
    if (new Set(versionOf.values()).size > 1) {
      return done([
        problem(
          "bfcl-version-mixed",
          `report puts every model on one pair manifest, and these result files are of several BFCL versions: ${versionsText(versionOf)}; give one version's runs, or --manifest FILE to force one`,
        ),
      ]);
    }
  }
  const rule = req.reading ?? "decided";
  // The workaround credit and the aligned numbers only when BFCL data is named (--bfcl-data or BFCL_DATA_DIR): they take a while.
  const problems: Problem[] = [];
  const bfcl = resolveBfclDataDir({ flag: req.bfclData, env: ctx.env, cwd: ctx.cwd, findPython: () => null });
  let data: ScoredData | null = null;
  if (bfcl !== null) {
    req.progress?.(`reading BFCL data for the workaround credit and the aligned numbers (${bfcl.dir})`);
    const read = readScoredData(bfcl.dir);
    if (read.ok) data = read.value;
    else pushAll(problems, read.problems);
  }
  const modelProblems: { model: string; problems: Problem[] }[] = [];
  const made: { model: string; run: string }[] = [];
  const records = new Map<ReportModelInput, RunRecord | null>();
  const modelDecoders: { model: string; decoder: DecoderChoiceSummary | null }[] = [];
  const runs = await readReportRuns(req, ctx, pageRuns, walks, data, rule, problems, modelProblems, modelDecoders, made, records);
  if (!runs.ok) return done([...runs.problems]);
  const manifest = runs.value.manifest;
  const several = runs.value.runs.length > 1;
  const modelFiles = runs.value.runs.flatMap((r) =>
    r.models.map((m) => ({ model: several ? `${r.label}/${m.inputs.model}` : m.inputs.model, files: [...m.resultFiles, ...m.scoreFiles] })),
  );
  const scoredModels = runs.value.runs.flatMap((r) => r.models);
  if (scoredModels.length === 0)
    return done([...problems, problem("nothing-scored", "no model could be scored under the --results directories")]);
  if (scoredModels.every((m) => m.inputs.records.every((r) => r.status === "missing")))
    return done([
      ...problems,
      problem(
        "no-pairs",
        "no model has a pair to score: every result file is empty or holds none of the manifest's items; no report is written",
      ),
    ]);
  const bootstrap = boot.value;
  const pairSet = pairSetOf(req);
  let trials: TrialsSummary | null = null;
  if (trialsOf.length > 0) {
    req.progress?.(
      `combining ${runs.value.runs.flatMap((r) => r.models).length} trials${bootstrap.resamples > 0 ? ` (two-level bootstrap B = ${bootstrap.resamples})` : ""}`,
    );
    const combined = trialsOfRuns(runs.value, records, pairSet, rule, req.maxUndecided ?? DEFAULT_MAX_UNDECIDED, bootstrap);
    if (!combined.ok) return done([...problems, ...combined.problems]);
    trials = combined.value;
  }
  req.progress?.(`gathering numbers${bootstrap.resamples > 0 ? ` (bootstrap B = ${bootstrap.resamples})` : ""}`);
  const assembled = assembleReport({
    title: req.title ?? "twinscore report",
    manifest,
    runs: runs.value.runs,
    compare: req.compare ? [req.compare[0], req.compare[1]] : null,
    labels: judgeLabels,
    bootstrap,
    rule,
    maxUndecided: req.maxUndecided ?? DEFAULT_MAX_UNDECIDED,
    ...(pairSet === undefined ? {} : { pairSet }),
    ...(trials === null ? {} : { trials }),
  });
  if (!assembled.ok) return done([...problems, ...assembled.problems]);
  const html = renderReport({
    ...assembled.value,
    provenance: { twinscoreVersion: TWINSCORE_VERSION, manifestSha256: manifestSha256(manifest), runs: made },
  });
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
    scoresBeside: walks.flatMap((w) => w.scoresBeside),
    html,
  };
  if (target !== null) {
    const written = writeFileAtomic(target, html);
    if (!written.ok) return done([...problems, ...written.problems], facts);
  }
  let figures: ReportDocument["figures"] = null;
  if (figuresDir !== null) {
    const written = writeFigures(figuresDir, html);
    problems.push(...written.problems);
    figures = { dir: figuresDir, files: written.files };
  }
  const met = [...problems, ...modelProblems.flatMap((m) => m.problems)];
  return done(problems, {
    ...facts,
    figures,
    trials,
    modelProblems,
    modelDecoders,
    modelFiles,
    file: target,
    exitCode: strictExitCode(problems.some((p) => p.severity === "error") ? 1 : 0, met, req.strict),
  });
}

/** Each figure of the page as an SVG file and a PNG beside it; a PNG that cannot be made is a problem, its SVG is still written. */
function writeFigures(dir: string, html: string): { files: string[]; problems: Problem[] } {
  const files: string[] = [];
  const problems: Problem[] = [];
  for (const f of reportFigures(html)) {
    const svgFile = joinPath(dir, `${f.name}.svg`);
    const svg = writeFileAtomic(svgFile, f.svg);
    if (!svg.ok) return { files, problems: [...problems, ...svg.problems] };
    files.push(svgFile);
    const png = svgToPng(f.svg);
    if (!png.ok) {
      // said once: the renderer that failed on one figure fails on the others alike
      if (problems.length === 0) problems.push(...png.problems);
      continue;
    }
    const pngFile = joinPath(dir, `${f.name}.png`);
    const written = writeFileAtomic(pngFile, png.value);
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
  problems: Problem[],
  modelProblems: { model: string; problems: Problem[] }[],
  modelDecoders: { model: string; decoder: DecoderChoiceSummary | null }[],
  made: { model: string; run: string }[] = [],
  records: Map<ReportModelInput, RunRecord | null> = new Map(),
): Promise<Result<{ manifest: Manifest; runs: ReportRunInput[] }>> {
  const scores = req.scores ?? [];
  const table1 = headlineReading(pairSetOf(req));
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
        decoder: req.decoder,
        walked: walks[i],
      },
      (m) => {
        // a folder of `run --trials K` is read as trials only with --trials-of: as a --results run its trials would be models of the page
        if (m.trial !== null && (req.trialsOf ?? []).length === 0) {
          trialFolders.set(m.found.dir, m.trial.of);
          return null;
        }
        const several = pageRuns.length > 1;
        // routine warnings summed up per model; errors, a wrong decoder and undecidable pairs said in full, as in score
        const inFull = (p: Problem) => p.severity === "error" || LIFTED.has(p.code);
        modelProblems.push({ model: several ? `${label}/${m.model}` : m.model, problems: m.problems.filter((p) => !inFull(p)) });
        modelDecoders.push({ model: several ? `${label}/${m.model}` : m.model, decoder: m.decoder });
        if (m.runRecord !== null) made.push({ model: several ? `${label}/${m.model}` : m.model, run: describeRun(m.runRecord) });
        pushAll(problems, m.problems.filter(inFull));
        if (m.score === null) {
          // a model mixing both histories is not scored, and the pipeline's error says why
          if (m.history.protocol === "mixed") return null;
          problems.push(
            problem("model-missing", `run ${label}: model ${m.model} has no complete set of result files (base, miss_func, miss_param)`),
          );
          return null;
        }
        if (scoreDir !== null) pushAll(problems, m.official?.problems ?? []);
        let replays: ModelReplays | null = null;
        if (data !== null) {
          const scored = selectUnder(m.score.records, m.manifest, table1, rule).scored.map((x) => x.record);
          replays = replaysOf(m, scored, readingPairs(m.manifest, table1), data, { workaround: true, checker: true }, (what) =>
            req.progress?.(
              what === "workaround"
                ? `replaying miss_func attempts of ${label}/${m.model} (workaround credit)`
                : `checking ${label}/${m.model} with BFCL's checker (turn prefixes, empty-reference turns)`,
            ),
          );
          pushAll(problems, replays.problems);
        }
        const { workaround, completions, emptyTurns } = replays ?? { workaround: null, completions: null, emptyTurns: null };
        const resultFiles = Object.values(m.filesUsed)
          .map((f) => f.file)
          .sort();
        const scoreFiles = Object.values(m.official?.scoreFiles ?? {}).sort();
        const reshape = reshapeFix(m.problems);
        const input: ReportModelInput = {
          inputs: metricsInputs(m),
          workaround,
          completions,
          emptyTurns,
          resultFiles,
          scoreFiles,
          run: m.run,
          folder: m.folder,
          ...(reshape === undefined ? {} : { reshape }),
        };
        records.set(input, m.runRecord);
        return input;
      },
    );
    if (!read.ok) return read;
    if (trialFolders.size > 0) {
      const [dir, trials] = [...trialFolders][0];
      return err(badArgument(`--results: ${dir} holds ${trials} trials of one model: give it with --trials-of ${dir}`));
    }
    pushAll(problems, read.value.problems);
    if (manifest !== null && read.value.selected.length > 0 && !sameManifest(read.value.manifest, manifest)) {
      const why =
        read.value.manifest.source.bfclVersion === manifest.source.bfclVersion
          ? `their pair manifests differ`
          : `these runs are of several BFCL versions`;
      return err(
        problem(
          "bfcl-version-mixed",
          `report puts every model on one pair manifest, and ${why}; give one version's runs, or --manifest FILE to force one`,
        ),
      );
    }
    if (read.value.selected.length > 0 || manifest === null) manifest = read.value.manifest;
    runs.push({ label, resultDir, scoreDir, models: read.value.outputs.filter((m): m is ReportModelInput => m !== null) });
  }
  return ok({ manifest: manifest!, runs });
}
