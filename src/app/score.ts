/**
 * `score`, the use case: the decision table of every model found under the result trees,
 * with its bootstrap interval and rank-1 frequencies, and — when asked — BFCL's own
 * verdict on the same items, the table under each sensitivity reading, the workaround
 * credit (Table F1) and the per-pair rows. It takes a typed request and returns a typed
 * document holding every number, the files used and the problems met; the CLI only
 * prints it.
 */
import type { BfclVersion, ScoredResultCategory } from "../bfcl/categories.js";
import { decoderByName, type DecoderChoiceSummary, type DecoderName } from "../bfcl/decode/index.js";
import { perItemRows, type PerItemRow } from "../decision/table.js";
import { DEFAULT_MAX_UNDECIDED, headlineOf, headlineSpec, outcomesOf, readingPairs, type Headline } from "../decision/readings.js";
import type { DecisionNumbers, PairSet, ReadingCounts, ScoreOptions, SideRule, UndecidedCounts } from "../decision/types.js";

export { DEFAULT_MAX_UNDECIDED } from "../decision/readings.js";
import { ok, problem, type Problem, type Result } from "../messages/index.js";
import type { AlignedRow, TwinCompletion } from "../official/aligned.js";
import type { EmptyTurnCounts, EmptyTurnRow } from "../official/empty-turns.js";
import { rankOneOf } from "../official/intervals.js";
import type { OfficialRow, OfficialSpearman, SensitivityRow } from "../official/readings.js";
import type { Manifest, ManifestPair } from "../pairs/types.js";
import type { PairRecord } from "../decision/types.js";
import type { BootstrapOptions } from "../stats/index.js";
import type { AlignedData, AlignedModelFiles } from "../io/aligned-run.js";
import { folderExists, overwritesInput, writeFileAtomic } from "../io/files.js";
import type { WorkaroundData } from "../io/workaround-run.js";
import { resolvePath } from "../io/paths.js";
import { scoreResultDirs, selectModels, type FileUsed, type ModelRun, type RecordsKept } from "../io/results.js";
import { committedManifestSource, dataFolderVersion } from "../io/rollout-data.js";
import { walkBfclTree } from "../io/tree.js";
import { badArgument, bootstrapOf, contextOf, givenText, hasError, manifestOf, type Context, type ExitCode, type RequestContext } from "./common.js";
import { manifestsForModels } from "./data-version.js";
import { perItemCsv } from "./per-item.js";

/** What to score. Only `results` is required. */
export interface ScoreRequest extends RequestContext {
  /** BFCL result trees (a model folder, a result root, a run, or a folder of runs). */
  readonly results: readonly string[];
  /** Models to keep, by folder name or `<run>/<model>`, in this order (default: all, in the order found). */
  readonly models?: readonly string[];
  /** BFCL score trees: adds BFCL's own verdict on the same items. */
  readonly scores?: readonly string[];
  /** Which pairs (default: Table 1's certified pairs). */
  readonly pairSet?: PairSet;
  /** Count login/logout as world-changing. */
  readonly countLogin?: boolean;
  /**
   * How sides that are not decisions are read: `decided` (default) scores only pairs decided
   * on both twins; `release` reads inference-error lines and rollouts that ended before the
   * anchor as no call, as the paper's released scorer does.
   */
  readonly reading?: SideRule;
  /**
   * A model whose undecided pairs exceed this percentage of its pairs gets no act, hold or
   * decision (default 10): its run is broken, not its decision.
   */
  readonly maxUndecided?: number;
  /** Resamples and seed of the intervals (default 10,000 and the paper's seed; 0 resamples: none). */
  readonly bootstrap?: Partial<BootstrapOptions>;
  /** Also compute the table under each sensitivity reading. */
  readonly sensitivity?: boolean;
  /**
   * BFCL data folder for the workaround credit (Table F1). Undefined: `BFCL_DATA_DIR`,
   * else none (no `bfcl_eval` installation is searched for: asking Python takes longer
   * than scoring a model); null: leave Table F1 out.
   */
  readonly bfclData?: string | null;
  /**
   * Also compute the aligned numbers, which run BFCL's checker (in TypeScript) on every
   * model's files: each pair's `base_completed` / `miss_completed` (the base twin passes
   * every turn through the anchor turn T, the should-ask twin every turn through T+1), the
   * withheld twin's cells, the aligned pair score with its interval, and the empty-turn
   * table. Default: when `bfclData` names a folder (not when it is only found through
   * `BFCL_DATA_DIR` or an installation: scoring stays fast unless asked). Only models of
   * the data folder's BFCL version get them.
   */
  readonly aligned?: boolean;
  /**
   * Pair manifest file for every model (default: the package's manifest of the BFCL
   * version each model's result files name; rollouts generated on other data stop the
   * command, unless this forces one manifest).
   */
  readonly manifest?: string;
  /** Also write one CSV row per model and pair to this file. */
  readonly perItem?: string;
  /** Threads reading result files (default: 1 on two cores or fewer; else one per core, at most 4, from 8 models up). */
  readonly threads?: number;
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
  /** `--decoder`: one decoder for every model; absent, each model folder's own (BFCL's registry, else detected from its steps). */
  readonly decoder?: DecoderName;
  /** Called once, just before the models are scored: the bin bounds V8's heap there (`io/v8-heap.ts`). */
  readonly tuneForManyModels?: () => void;
}

/** One model found: its numbers when it could be scored. Percentages unrounded; NaN (JSON null) where there is no pair. */
export interface ScoredModel {
  /** The model: its folder's name, or `<run>/<model>` when several runs are scored. */
  readonly model: string;
  /** The BFCL version its result files name (null when it has none). */
  readonly bfclVersion: BfclVersion | null;
  /** Whether its files could be read and it has a pair scored under the reading (with or without a headline). */
  readonly scored: boolean;
  /** The decision table's row; null when not scored, or when `noHeadline` says why it is not shown. */
  readonly numbers: DecisionNumbers | null;
  /** Pairs of the selected set, and those not decided on both sides by status (null when its files could not be read). */
  readonly undecided: Headline["undecided"] | null;
  /** Why no act, hold or decision is shown (too many undecided pairs, or none decided), with the fix; null when they are. */
  readonly noHeadline: string | null;
  /** The 95% cluster-bootstrap interval of decision (null without resamples or pairs). */
  readonly ci95: readonly [number, number] | null;
  /** % of resamples in which this model has the highest decision (null with fewer than two models). */
  readonly rank1: number | null;
  readonly counts: ReadingCounts | null;
  readonly filesUsed: Partial<Record<ScoredResultCategory, FileUsed>>;
  /** Problems met reading this model's files. */
  readonly problems: readonly Problem[];
  /** The decoder its steps were read with, and why (`flag`, `registry`, or `detected` from its steps); null when no file could be read. */
  readonly decoder: DecoderChoiceSummary | null;
}

/** One Table F1 row: miss_func attempts on the withheld turn replayed on the simulated BFCL classes. Accuracies in %. */
export interface WorkaroundRow {
  readonly model: string;
  readonly attempts: number;
  readonly removed: number;
  readonly aligned: number;
  readonly workaround: number;
  readonly acc: number;
  readonly accWorkaround: number;
  readonly credited: number;
}

/** Everything `score` found and computed. */
export interface ScoreDocument {
  readonly command: "score";
  readonly options: {
    readonly pairSet: PairSet;
    readonly countLogin: boolean;
    /** How sides that are not decisions were read. */
    readonly reading: SideRule;
    /** The largest share of undecided pairs, in %, that still gets a headline. */
    readonly maxUndecided: number;
    /** Pairs of the set asked for (in the manifest of the first version scored). */
    readonly pairsSelected: number;
    /** Pairs of the set asked for, per BFCL version scored (their manifests differ). */
    readonly pairsSelectedByVersion: Readonly<Partial<Record<BfclVersion, number>>>;
    /** Of those, the pairs no hand ruling covers (`uncertified`: their items differ from the ones certified), per version. */
    readonly uncertifiedByVersion: Readonly<Partial<Record<BfclVersion, number>>>;
    /** Whether `manifest` forced one manifest for every model. */
    readonly manifestForced: boolean;
  };
  readonly bootstrap: BootstrapOptions;
  readonly models: readonly ScoredModel[];
  /** With score trees: BFCL's verdict on the same items, per model, and the rank correlation (three models or more). */
  readonly official: { readonly models: readonly OfficialRow[]; readonly spearman: OfficialSpearman | null } | null;
  /** With `sensitivity`: the table under each reading, and the rank-1 shares on Table 1. */
  readonly sensitivity: { readonly rows: readonly SensitivityRow[]; readonly rank1: readonly { readonly model: string; readonly share: number }[] | null } | null;
  /** With BFCL data: Table F1. */
  readonly workaround: readonly WorkaroundRow[] | null;
  /**
   * With `aligned`: per model, the withheld twin's cells (held back / acted × completed
   * through T+1), the base twin acted and completed through T, and the aligned pair
   * score (both twins decided right and completed) with its 95% cluster-bootstrap interval.
   */
  readonly aligned: { readonly models: readonly AlignedRow[] } | null;
  /** With `aligned`: BFCL's score, the strict and the world-changing counterfactual per category and model, with the ranking under each. */
  readonly emptyTurns: readonly EmptyTurnRow[] | null;
  /** With `perItem`: the file written and its rows. */
  readonly perItem: { readonly file: string; readonly rows: number } | null;
  /** Problems not tied to one model's files (arguments, folders, score files, BFCL data). */
  readonly problems: readonly Problem[];
  readonly exitCode: ExitCode;
}

/** The reading a request asks for; a problem when `uncertified` and `all` pair sets are both asked for by the CLI. */
function scoreOptionsOf(req: ScoreRequest): ScoreOptions & { rule: SideRule } {
  return { pairSet: req.pairSet ?? "certified", countLogin: Boolean(req.countLogin), rule: req.reading ?? "decided", ...(req.decoder !== undefined ? { decoder: req.decoder } : {}) };
}



/** Problems a user must see in full, not summed up with a model's routine warnings: a wrong decoder, pairs left out. */
const LIFTED = new Set(["decode-failures", "pair-undecidable"]);

function emptyDocument(req: ScoreRequest, bootstrap: BootstrapOptions, problems: Problem[]): ScoreDocument {
  const { rule, ...options } = scoreOptionsOf(req);
  return {
    command: "score",
    options: { ...options, reading: rule, maxUndecided: req.maxUndecided ?? DEFAULT_MAX_UNDECIDED, pairsSelected: 0, pairsSelectedByVersion: {}, uncertifiedByVersion: {}, manifestForced: req.manifest !== undefined },
    bootstrap,
    models: [],
    official: null,
    sensitivity: null,
    workaround: null,
    aligned: null,
    emptyTurns: null,
    perItem: null,
    problems,
    exitCode: 2,
  };
}

/** Check the request before anything is read: the arguments, the output folder, the score trees. */
function validate(req: ScoreRequest, ctx: Context): { bootstrap: BootstrapOptions; problems: Problem[] } {
  const problems: Problem[] = [];
  const boot = bootstrapOf(req.bootstrap);
  const bootstrap = boot.ok ? boot.value : { resamples: 0, seed: 0 };
  if (!boot.ok) problems.push(...boot.problems);
  if (req.results.length === 0) problems.push(badArgument("give at least one --results DIR (a BFCL result directory)"));
  if (req.threads !== undefined && (!Number.isInteger(req.threads) || req.threads < 1)) problems.push(badArgument(`--threads must be a positive integer${givenText(req.threads)}`));
  if (req.maxUndecided !== undefined && !(Number.isFinite(req.maxUndecided) && req.maxUndecided >= 0 && req.maxUndecided <= 100)) {
    problems.push(badArgument(`--max-undecided must be a percentage from 0 to 100${givenText(req.maxUndecided)}`));
  }
  if (req.perItem !== undefined) {
    const target = resolvePath(ctx.cwd, req.perItem);
    const folder = folderExists(target);
    if (!folder.ok) problems.push(...folder.problems);
    const inputs = [...walkBfclTree(req.results, ctx.cwd, "result").models, ...walkBfclTree(req.scores ?? [], ctx.cwd, "score").models].flatMap((m) =>
      Object.values(m.files).flatMap((fs) => (fs ?? []).map((f) => f.path)),
    );
    if (req.manifest !== undefined) inputs.push(resolvePath(ctx.cwd, req.manifest));
    const clash = overwritesInput(target, inputs, "--per-item");
    if (clash !== null && !clash.ok) problems.push(...clash.problems);
  }
  if ((req.scores ?? []).length > 0) {
    // a wrong --scores is a bad argument: said before any result file is read
    const walk = walkBfclTree(req.scores ?? [], ctx.cwd, "score");
    problems.push(...walk.problems.filter((p) => p.severity === "error"));
  }
  return { bootstrap, problems };
}

/**
 * The BFCL data folder found for the request, its version, and the scored models of that
 * version; models of another version are left out of `what`, said once.
 */
async function dataForVersion(
  scored: readonly ModelRun[],
  versionFor: (model: string) => BfclVersion,
  flag: string | undefined,
  ctx: Context,
  problems: Problem[],
  what: { readonly label: string; readonly code: string },
): Promise<{ readonly dir: string; readonly version: BfclVersion; readonly models: readonly ModelRun[] } | null> {
  // only a folder named by the flag or BFCL_DATA_DIR: asking Python for a bfcl_eval installation
  // takes longer than scoring a model, and the data reader loads only when there is data to read
  if ((flag ?? "") === "" && (ctx.env.BFCL_DATA_DIR ?? "") === "") return null;
  const { resolveBfclDataDir } = await import("../io/bfcl-data.js");
  const location = resolveBfclDataDir({ flag, env: ctx.env, cwd: ctx.cwd, findPython: () => null });
  if (!location) return null;
  const dataVersion = dataFolderVersion(location.dir) ?? "v4";
  const left = [...new Set(scored.map((r) => versionFor(r.model)).filter((v) => v !== dataVersion))];
  if (left.length > 0) {
    problems.push(problem(what.code, `${what.label} leaves out the BFCL ${left.join(", ")} models: the BFCL data found is ${dataVersion}`, { file: location.dir, severity: "warning" }));
  }
  return { dir: location.dir, version: dataVersion, models: scored.filter((r) => versionFor(r.model) === dataVersion) };
}

/**
 * Table F1 for the scored models, or null when no BFCL data is found. Models of another
 * BFCL version than the data are left out, said once. The data already read for the
 * aligned numbers is reused. The replay (the simulated classes) loads only here, when it is
 * needed, so a plain `score` starts without it.
 */
async function workaroundRows(
  scored: readonly ModelRun[],
  scoredRecords: (run: ModelRun) => readonly PairRecord[],
  pairsFor: (model: string) => readonly ManifestPair[],
  versionFor: (model: string) => BfclVersion,
  req: ScoreRequest,
  ctx: Context,
  problems: Problem[],
  aligned: AlignedData | null,
): Promise<WorkaroundRow[] | null> {
  if (req.bfclData === null) return null;
  const found = await dataForVersion(scored, versionFor, req.bfclData, ctx, problems, { label: "Table F1", code: "workaround-version" });
  if (found === null || found.models.length === 0) return null;
  const ofVersion = found.models;
  const { readWorkaroundData, workaroundForModel } = await import("../io/workaround-run.js");
  const data: Result<WorkaroundData> =
    aligned !== null && aligned.dataDir === found.dir && aligned.version === found.version
      ? ok({ version: aligned.version, base: aligned.inputs.base, missFunc: aligned.inputs.miss_func })
      : readWorkaroundData(found.dir, found.version);
  if (!data.ok) {
    problems.push(...data.problems);
    return null;
  }
  const rows: WorkaroundRow[] = [];
  for (const run of ofVersion) {
    const file = run.filesUsed.miss_func?.file;
    if (!run.score || !file) continue;
    const r = workaroundForModel({ ...run.score, records: scoredRecords(run) }, pairsFor(run.model), file, data.value, run.decoder ? decoderByName(run.decoder.name) : undefined);
    if (!r.ok) {
      problems.push(...r.problems);
      continue;
    }
    const s = r.value;
    rows.push({ model: run.model, attempts: s.attempts, removed: s.removed, aligned: s.aligned, workaround: s.workarounds, acc: s.acc, accWorkaround: s.accWorkaround, credited: s.accCredited });
  }
  return rows;
}

/** The aligned numbers of the scored models: completions per pair, the aligned rows and the empty-turn counts. */
interface AlignedOutcome {
  readonly completions: ReadonlyMap<string, ReadonlyMap<string, TwinCompletion>>;
  readonly rows: AlignedRow[];
  readonly emptyTurns: EmptyTurnRow[];
}

/**
 * Run BFCL's checker on every scored model's prefixes and files (see `ScoreRequest.aligned`).
 * The checker and the simulated classes load only here, so a plain `score` starts without them.
 */
async function alignedNumbers(
  scored: readonly ModelRun[],
  scoredRecords: (run: ModelRun) => readonly PairRecord[],
  data: AlignedData,
  pairsFor: (model: string) => readonly ManifestPair[],
  bootstrap: BootstrapOptions,
  problems: Problem[],
): Promise<AlignedOutcome> {
  const [{ modelCompletions, modelEmptyTurns }, { twinCompletions }, { alignedRow, alignedScore }, { countReadings, emptyTurnTable }] = await Promise.all([
    import("../io/aligned-run.js"),
    import("../simulator/prefix-check.js"),
    import("../official/aligned.js"),
    import("../official/empty-turns.js"),
  ]);
  const completions = new Map<string, ReadonlyMap<string, TwinCompletion>>();
  const rows: AlignedRow[] = [];
  const counts: EmptyTurnCounts[] = [];
  for (const run of scored) {
    const model: AlignedModelFiles = { modelName: run.folder, files: Object.fromEntries(Object.entries(run.filesUsed).map(([c, f]) => [c, f.file])), decoder: run.decoder?.name };
    const prefixes = modelCompletions(model, pairsFor(run.model), data);
    if (!prefixes.ok) problems.push(...prefixes.problems);
    else {
      problems.push(...prefixes.value.problems);
      const bits = twinCompletions(prefixes.value.prefixes);
      completions.set(run.model, bits);
      rows.push(alignedRow(run.model, alignedScore(scoredRecords(run), bits, bootstrap)));
    }
    const entries = modelEmptyTurns(model, data);
    if (!entries.ok) problems.push(...entries.problems);
    else {
      problems.push(...entries.value.problems);
      for (const [category, readings] of entries.value.readings) counts.push(countReadings(run.model, category, readings));
    }
  }
  return { completions, rows, emptyTurns: emptyTurnTable(counts) };
}

/**
 * Score the result trees. Never throws on bad input: problems are in the document, and
 * `exitCode` says how it ended (2 when nothing could be scored or no model has a pair).
 *
 * @example
 * import { scoreRuns } from "twinscore";
 * const doc = await scoreRuns({ results: ["runs/main"], scores: ["runs/main"] });
 * for (const m of doc.models) console.log(m.model, m.numbers?.decision, m.ci95);
 */
export async function scoreRuns(req: ScoreRequest): Promise<ScoreDocument> {
  const ctx = contextOf(req);
  const checked = validate(req, ctx);
  const { bootstrap } = checked;
  if (checked.problems.length > 0) return emptyDocument(req, bootstrap, checked.problems);
  // each model on the manifest of the BFCL version its files name; its rollouts are checked
  // against that data in the scoring pass over its files (one read), and a model generated
  // on other data stops the command before anything is shown, as when checked first
  const walk = walkBfclTree(req.results, ctx.cwd, "result");
  const selected = selectModels(walk, req.models ?? []);
  const source = committedManifestSource();
  const found = manifestsForModels(selected.models, req.manifest, ctx, { rollouts: "defer", source });
  if (!found.ok) return emptyDocument(req, bootstrap, [...found.problems]);
  if (hasError(found.value.problems)) {
    // stopped by the file names: every model's problems, the rollouts checked too
    const full = manifestsForModels(selected.models, req.manifest, ctx, { source });
    return emptyDocument(req, bootstrap, full.ok ? [...full.value.problems] : [...full.problems]);
  }
  const { manifestOf: manifestByModel, versionOf } = found.value;
  const distinct = [...new Set(manifestByModel.values())];
  const loaded = distinct.length > 0 ? { ok: true as const, value: distinct[0] } : manifestOf(req.manifest, ctx);
  if (!loaded.ok) return emptyDocument(req, bootstrap, [...loaded.problems]);
  const manifest = loaded.value;
  const manifestFor = (model: string) => manifestByModel.get(model) ?? manifest;
  const versionFor = (model: string) => versionOf.get(model) ?? manifestFor(model).source.bfclVersion;
  const { rule, ...options } = scoreOptionsOf(req);
  const maxUndecided = req.maxUndecided ?? DEFAULT_MAX_UNDECIDED;
  const spec = headlineSpec(options);

  // each model keeps only what is read of its pair records below, so memory stays flat in the
  // number of models: the twins' calls for per-item rows, the aligned numbers and Table F1
  // (whenever BFCL data may be found), the decisions for the intervals, else the statuses
  const dataNamed = req.bfclData !== null && ((req.bfclData ?? "") !== "" || (ctx.env.BFCL_DATA_DIR ?? "") !== "");
  const records: RecordsKept = req.perItem !== undefined || dataNamed || (req.aligned ?? typeof req.bfclData === "string") ? "all" : "outcomes";
  req.tuneForManyModels?.();
  const outcome = await scoreResultDirs({ resultDirs: req.results, models: req.models ?? [], manifest, manifestOf: manifestByModel, options, cwd: ctx.cwd, threads: req.threads, records, checkData: true, walk });
  const checks = new Map(outcome.runs.flatMap((r) => (r.dataCheck ? [[r.model, r.dataCheck] as const] : [])));
  const checkedData = manifestsForModels(selected.models, req.manifest, ctx, { checks, source });
  if (!checkedData.ok) return emptyDocument(req, bootstrap, [...checkedData.problems]);
  if (hasError(checkedData.value.problems)) return emptyDocument(req, bootstrap, [...checkedData.value.problems]);
  const problems: Problem[] = [...checkedData.value.problems, ...outcome.problems];

  // each model's headline: the pairs its reading scores, its row, and whether it is shown
  const headlines = new Map<ModelRun, Headline>();
  for (const run of outcome.runs) if (run.score !== null) headlines.set(run, headlineOf(run.score.records, manifestFor(run.model), spec, rule, maxUndecided, bootstrap));
  const shown = outcome.runs.filter((r) => headlines.get(r)?.noHeadline === null);
  const scoredRecords = (run: ModelRun) => headlines.get(run)!.selection.scored.map((x) => x.record);
  // models scored on different pairs (several BFCL versions) are not ranked against each other
  const groups = new Map<Manifest, ModelRun[]>();
  for (const run of shown) groups.set(manifestFor(run.model), [...(groups.get(manifestFor(run.model)) ?? []), run]);
  const rank1 = shown.length >= 2 && groups.size === 1 ? rankOneOf(shown.map((r) => outcomesOf(headlines.get(r)!.selection)), bootstrap) : null;
  const pairsSelectedByVersion: Partial<Record<BfclVersion, number>> = {};
  const uncertifiedByVersion: Partial<Record<BfclVersion, number>> = {};
  for (const m of distinct.length > 0 ? distinct : [manifest]) {
    const selectedPairs = readingPairs(m, spec);
    pairsSelectedByVersion[m.source.bfclVersion] = selectedPairs.length;
    uncertifiedByVersion[m.source.bfclVersion] = selectedPairs.filter((p) => p.certification?.verdict === "uncertified").length;
  }
  const models: ScoredModel[] = outcome.runs.map((run) => {
    const h = headlines.get(run);
    const i = shown.indexOf(run);
    return {
      model: run.model,
      bfclVersion: versionOf.get(run.model) ?? null,
      scored: h !== undefined && h.numbers.n > 0,
      numbers: h !== undefined && h.noHeadline === null ? h.numbers : null,
      undecided: h === undefined ? null : h.undecided,
      noHeadline: h?.noHeadline ?? null,
      ci95: h !== undefined && h.noHeadline === null ? h.ci95 : null,
      rank1: rank1 === null || i < 0 ? null : rank1[i],
      counts: run.score?.counts ?? null,
      filesUsed: run.filesUsed,
      problems: run.problems.filter((p) => !LIFTED.has(p.code)),
      decoder: run.decoder ?? null,
    };
  });
  problems.push(...outcome.runs.flatMap((run) => run.problems.filter((p) => LIFTED.has(p.code))));
  for (const m of models) {
    if (m.noHeadline !== null) problems.push(problem("no-headline", `model ${m.model}: ${m.noHeadline}`));
  }

  const names = shown.map((r) => r.model);
  let official: ScoreDocument["official"] = null;
  let sensitivity: ScoreDocument["sensitivity"] = null;
  const scoreDirs = req.scores ?? [];
  if (shown.length > 0 && (scoreDirs.length > 0 || req.sensitivity)) {
    // one pass per manifest (BFCL version); rank statistics only among models scored on the same pairs.
    // The official reader and the run metrics load only when asked for.
    const [{ loadRunInputs }, { computeRunMetrics }, { officialRows, officialSpearman, rankOneShares, sensitivityRows }] = await Promise.all([
      import("../io/scores-run.js"),
      import("../official/metrics.js"),
      import("../official/readings.js"),
    ]);
    const officialModels: OfficialRow[] = [];
    const sensitivityModels: SensitivityRow[] = [];
    let spearman: OfficialSpearman | null = null;
    let shares: { readonly model: string; readonly share: number }[] | null = null;
    for (const [groupManifest, runs] of groups) {
      const groupNames = names.filter((n) => runs.some((r) => r.model === n));
      const inputs = loadRunInputs({ resultDirs: req.results, scoreDirs, models: groupNames, manifest: groupManifest, cwd: ctx.cwd, ...(req.decoder !== undefined ? { decoder: req.decoder } : {}) });
      // the result files' own problems were met (and reported) while scoring
      problems.push(...inputs.problems.filter((p) => p.code.startsWith("score")));
      const metrics = computeRunMetrics(groupManifest, inputs.models.map((m) => m.inputs), { bootstrap, rule });
      officialModels.push(...officialRows(metrics, groupNames));
      sensitivityModels.push(...sensitivityRows(metrics, groupNames));
      if (groups.size === 1) {
        spearman = officialSpearman(metrics);
        shares = rankOneShares(metrics, groupNames);
      }
    }
    const inOrder = <R extends { model: string }>(rows: R[]) => names.flatMap((n) => rows.filter((r) => r.model === n));
    if (scoreDirs.length > 0) official = { models: inOrder(officialModels), spearman };
    if (req.sensitivity) sensitivity = { rows: inOrder(sensitivityModels), rank1: shares };
  }
  let alignedData: AlignedData | null = null;
  let alignedOut: AlignedOutcome | null = null;
  const pairsFor = (model: string) => readingPairs(manifestFor(model), spec);
  if (shown.length > 0 && (req.aligned ?? typeof req.bfclData === "string")) {
    const found = await dataForVersion(shown, versionFor, req.bfclData ?? undefined, ctx, problems, { label: "The aligned numbers", code: "aligned-version" });
    if (found === null) problems.push(problem("bfcl-data-missing", "the aligned numbers need the BFCL data: pass --bfcl-data DIR or set BFCL_DATA_DIR"));
    else if (found.models.length > 0) {
      const { readAlignedData } = await import("../io/aligned-run.js");
      const data = readAlignedData(found.dir);
      if (!data.ok) problems.push(...data.problems);
      else {
        alignedData = data.value;
        alignedOut = await alignedNumbers(found.models, scoredRecords, alignedData, pairsFor, bootstrap, problems);
      }
    }
  }
  const workaround = shown.length > 0 ? await workaroundRows(shown, scoredRecords, pairsFor, versionFor, req, ctx, problems, alignedData) : null;

  let perItem: ScoreDocument["perItem"] = null;
  const withRecords = outcome.runs.filter((r) => r.score !== null);
  if (req.perItem !== undefined && withRecords.length > 0) {
    const rows: PerItemRow[] = withRecords.flatMap((r) => perItemRows(r.model, r.score!.records, spec, rule));
    const file = resolvePath(ctx.cwd, req.perItem);
    const written = writeFileAtomic(file, perItemCsv(rows, alignedOut?.completions ?? null));
    if (written.ok) perItem = { file, rows: rows.length };
    else problems.push(...written.problems);
  }

  const modelProblems = models.flatMap((m) => m.problems);
  let exitCode: ExitCode = 0;
  if (withRecords.length === 0) {
    if (problems.length === 0 && modelProblems.length === 0) problems.push(problem("results-empty", "no result files found"));
    exitCode = 2;
  } else if (models.every((m) => m.undecided === null || m.undecided.byStatus.missing === m.undecided.pairs)) {
    problems.push(problem("no-pairs", "no model has a pair to score: every result file is empty or holds none of the manifest's items"));
    exitCode = 2;
  } else if (hasError(problems.filter((p) => p.code !== "no-headline")) && perItem === null && req.perItem !== undefined) {
    exitCode = 2;
  } else if (
    models.some((m) => m.noHeadline !== null || m.undecided === null) ||
    hasError(problems) ||
    problems.some((p) => p.code === "decode-failures") ||
    (req.strict && problems.length + modelProblems.length + models.filter((m) => (m.undecided?.total ?? 0) > 0).length > 0)
  ) {
    // done with findings: a model with no headline (too many undecided pairs) or not scored, an error met on the way
    // (a score file cut short, a model not found), a file whose tool calls mostly fail to decode (a wrong decoder:
    // never a silent number); under --strict, also any problem and any undecided pair
    exitCode = 1;
  }
  return {
    command: "score",
    options: { ...options, reading: rule, maxUndecided, pairsSelected: outcome.pairsSelected, pairsSelectedByVersion, uncertifiedByVersion, manifestForced: found.value.forced },
    bootstrap,
    models,
    official,
    sensitivity,
    workaround,
    aligned: alignedOut === null ? null : { models: alignedOut.rows },
    emptyTurns: alignedOut === null ? null : alignedOut.emptyTurns,
    perItem,
    problems,
    exitCode,
  };
}

