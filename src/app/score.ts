/**
 * `score`, the use case: the decision table of every model found under the result trees, and whatever else is
 * asked for. It returns a typed document holding every number, the files used and the problems met; the CLI
 * only prints it. More in this folder's README.md.
 */
import { describeRun, type RunRecord } from "../rollout/run-record.js";
import { questionsFile, type BfclVersion, type ScoredResultCategory } from "../bfcl/categories.js";
import type { OfficialVerdict } from "../bfcl/scores.js";
import type { DecoderChoiceSummary } from "../bfcl/decode/index.js";
import { pairHistoryCounts, type ModelHistory, type PairHistoryCounts } from "../decision/history.js";
import { perItemRows, type PerItemRow } from "../decision/table.js";
import { readingCounts } from "../decision/score.js";
import {
  DEFAULT_MAX_UNDECIDED,
  headlineOf,
  headlineSpec,
  outcomesOf,
  readingIds,
  readingPairs,
  readingsWithoutHeadline,
  type BfclDecodedReading,
  type Headline,
} from "../decision/readings.js";
import { parseAudit, textCallsPastLimit, type CategoryAudit } from "../decision/parse-audit.js";
import type { DecisionNumbers, PairSet, ReadingCounts, ScoreOptions, SideRule } from "../decision/types.js";
import { pushAll, problem, type Problem, type ProblemCode, type Result } from "../messages/index.js";
import type { AlignedRow, TwinCompletion } from "../official/aligned.js";
import type { EmptyTurnCounts, EmptyTurnRow } from "../official/empty-turns.js";
import { rankOneOf } from "../official/intervals.js";
import type { ModelInputs } from "../official/metrics.js";
import type { OfficialRow, OfficialSpearman, SensitivityRow } from "../official/readings.js";
import type { Manifest } from "../pairs/types.js";
import type { BootstrapOptions, PairOutcome } from "../stats/index.js";
import type { ScoredData } from "./bfcl-inputs.js";
import { resolvePath } from "../io/paths.js";
import {
  badArgument,
  bootstrapOf,
  folderListProblem,
  contextOf,
  givenText,
  hasError,
  type Context,
  type ExitCode,
  type RequestContext,
  type ModelsOption,
  type ManifestOption,
  type DecoderOption,
} from "./common.js";
import { perItemCsv } from "./per-item.js";
import { readModels, walkInputs, type FileUsed, type InputWalks, type ModelRead } from "./pipeline.js";
import { metricsInputs } from "./run-metrics.js";
import type { TrialsSummary } from "./score-trials.js";
import { combineTrialReads } from "./trials-of.js";
import type { Host } from "../io/host.js";

export { DEFAULT_MAX_UNDECIDED } from "../decision/readings.js";

/** What to score. Only `results` is required. */
export interface ScoreRequest extends RequestContext, ModelsOption, ManifestOption, DecoderOption {
  /** BFCL result trees (a model folder, a result root, a run, or a folder of runs). */
  readonly results: readonly string[];
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
   * Also compute the aligned numbers (the twins' completions, the aligned pair score, the empty-turn table) by
   * running BFCL's checker on every model's files. Default: when `bfclData` names a folder, not when the data
   * is only found through `BFCL_DATA_DIR` or an installation, so scoring stays fast unless asked. Only models
   * of the data folder's BFCL version get them.
   */
  readonly aligned?: boolean;
  /** Also write one CSV row per model and pair to this file. */
  readonly perItem?: string;
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
  /**
   * `--trials-of`: these folders (each one model: a model folder, or a run holding one)
   * are K trials of one model on the same pairs, read instead of `results`; the document
   * adds the repeated-trial numbers (`trials`), and no model is ranked against its own trials.
   */
  readonly trialsOf?: readonly string[];
  /** Called once, just before the models are read, with how many: the bin bounds V8's heap there (`io/v8-heap.ts`). */
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
  /**
   * Only when some of its lines played their turns before the anchor from the reference
   * (`twinscore run --history reference`): its protocol (`reference`, or `mixed`: not
   * scored), its lines by history, and the selected pairs by how their twins reached the anchor.
   */
  readonly history?: ModelHistory & { readonly pairs: PairHistoryCounts & { readonly selected: number } };
  /** Only for a folder `twinscore run` made (its `run.json`): what the run is, in words, and the record itself. */
  readonly run?: { readonly description: string; readonly record: RunRecord };
  /**
   * Only when its decision as BFCL decodes the steps (a call written where BFCL's decoder
   * fails is no call) differs from the headline's by a point or more: that reading's act,
   * hold and decision, shown beside the headline (`bfclDecodedBeside`).
   */
  readonly bfclDecoded?: BfclDecodedReading;
  /**
   * Only when the anchor-turn steps of a category hold more than 5 % calls written as text
   * that the handler does not parse: each category's steps by kind (the parse audit, over
   * the table's pairs).
   */
  readonly parseAudit?: readonly CategoryAudit[];
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
  readonly sensitivity: {
    readonly rows: readonly SensitivityRow[];
    readonly rank1: readonly { readonly model: string; readonly share: number }[] | null;
  } | null;
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
  /** With `trialsOf`: the model's numbers over its trials (means, two-level interval, flip rates, spread); else null. */
  readonly trials: TrialsSummary | null;
  /** With no `scores` given: the `score/` folders beside `result/` in the runs given, whose verdicts were read as if given (absolute); else empty. */
  readonly scoresBeside: readonly string[];
  /** Problems not tied to one model's files (arguments, folders, score files, BFCL data). */
  readonly problems: readonly Problem[];
  readonly exitCode: ExitCode;
}

/** The reading a request asks for. */
function scoreOptionsOf(req: ScoreRequest): ScoreOptions & { rule: SideRule } {
  return {
    pairSet: req.pairSet ?? "certified",
    countLogin: Boolean(req.countLogin),
    rule: req.reading ?? "decided",
    ...(req.decoder !== undefined ? { decoder: req.decoder } : {}),
  };
}

/** Problems a user must see in full, not summed up with a model's routine warnings: a wrong decoder, pairs left out. */
/**
 * What a model without a headline must do instead of regenerating failed items, when its
 * lines are of another shape than BFCL's: they are read as missing, and regenerating
 * failed items would not bring them back (undefined: the lines are BFCL's).
 */
export function reshapeFix(problems: readonly Problem[]): string | undefined {
  return problems.some((p) => p.code === "not-bfcl-lines")
    ? "write the lines as bfcl generate does (the not-bfcl-lines warning says what was found)"
    : undefined;
}

export const LIFTED = new Set<ProblemCode>([
  "decode-failures",
  "undecoded-steps",
  "text-calls",
  "not-bfcl-lines",
  "pair-undecidable",
  "history-anchor-played",
  "history-partial",
]);

function emptyDocument(req: ScoreRequest, bootstrap: BootstrapOptions, problems: readonly Problem[]): ScoreDocument {
  const { rule, ...options } = scoreOptionsOf(req);
  return {
    command: "score",
    options: {
      ...options,
      reading: rule,
      maxUndecided: req.maxUndecided ?? DEFAULT_MAX_UNDECIDED,
      pairsSelected: 0,
      pairsSelectedByVersion: {},
      uncertifiedByVersion: {},
      manifestForced: req.manifest !== undefined,
    },
    bootstrap,
    models: [],
    official: null,
    sensitivity: null,
    workaround: null,
    aligned: null,
    emptyTurns: null,
    perItem: null,
    trials: null,
    scoresBeside: [],
    problems: [...problems],
    exitCode: 2,
  };
}

/** Check the request before anything is read: the arguments, the output folder, the score trees. */
function validate(req: ScoreRequest, ctx: Context, walked: InputWalks): { bootstrap: BootstrapOptions; problems: Problem[] } {
  const problems: Problem[] = [];
  const boot = bootstrapOf(req.bootstrap);
  const bootstrap = boot.ok ? boot.value : { resamples: 0, seed: 0 };
  if (!boot.ok) pushAll(problems, boot.problems);
  const trialsOf = req.trialsOf ?? [];
  if (trialsOf.length > 0 && req.results.length > 0)
    problems.push(badArgument("give the trials of one model with --trials-of DIR… alone, not beside --results"));
  else if (req.results.length === 0 && trialsOf.length === 0)
    problems.push(badArgument("give at least one --results DIR (a BFCL result directory)"));
  if (req.maxUndecided !== undefined && !(Number.isFinite(req.maxUndecided) && req.maxUndecided >= 0 && req.maxUndecided <= 100)) {
    problems.push(badArgument(`--max-undecided must be a percentage from 0 to 100${givenText(req.maxUndecided)}`));
  }
  if (req.perItem !== undefined) {
    const target = resolvePath(ctx.cwd, req.perItem);
    const folder = ctx.host.folderExists(target);
    if (!folder.ok) pushAll(problems, folder.problems);
    const inputs = [...walked.results.models, ...(walked.scores?.models ?? [])].flatMap((m) =>
      Object.values(m.files).flatMap((fs) => (fs ?? []).map((f) => f.path)),
    );
    if (req.manifest !== undefined) inputs.push(resolvePath(ctx.cwd, req.manifest));
    const clash = ctx.host.overwritesInput(target, inputs, "--per-item");
    if (clash !== null && !clash.ok) pushAll(problems, clash.problems);
  }
  if ((req.scores ?? []).length > 0) {
    // a wrong --scores is a bad argument: said before any result file is read
    pushAll(
      problems,
      (walked.scores?.problems ?? []).filter((p) => p.severity === "error"),
    );
  }
  return { bootstrap, problems };
}

/**
 * The BFCL data the companions of BFCL's checker need: named by `bfclData` (or, for Table F1
 * alone, by `BFCL_DATA_DIR`), read once. No `bfcl_eval` installation is searched for: asking
 * Python takes longer than scoring a model.
 */
async function bfclDataFor(req: ScoreRequest, ctx: Context, problems: Problem[]): Promise<ScoredData | null> {
  if (req.bfclData === null) return null;
  if ((req.bfclData ?? "") === "" && (ctx.env.BFCL_DATA_DIR ?? "") === "") return null;
  const location = ctx.host.resolveBfclDataDir({ flag: req.bfclData, env: ctx.env, cwd: ctx.cwd, installed: false });
  if (!location) return null;
  // the data's readers (and the simulator they prepare) load only when BFCL data is named
  const { readScoredData } = await import("./bfcl-inputs.js");
  const data = readScoredData(location.dir, ctx.host);
  if (!data.ok) {
    pushAll(problems, data.problems);
    return null;
  }
  return data.value;
}

/** What `score` keeps of one model once it is read. */
interface ScoredRead {
  readonly read: Omit<ModelRead, "texts" | "bytes" | "census" | "official">;
  /** Its headline; without trials, its selection keeps no pair (`outcomes` holds what the ranks read). */
  readonly headline: Headline | null;
  /** The outcome of each pair its headline scores (what the rank-1 shares resample); null without a headline shown. */
  readonly outcomes: readonly PairOutcome[] | null;
  /** Decode failures, short rollouts and error lines over the twins of the pairs the reading selects. */
  readonly counts: ReadingCounts | null;
  readonly metrics: ModelInputs | null;
  /** For a model with no headline under `--sensitivity`: the readings under which it has none either, with why. */
  readonly gated: ReadonlyMap<string, string> | null;
  readonly officialProblems: readonly Problem[];
  readonly completions: ReadonlyMap<string, TwinCompletion> | null;
  readonly aligned: AlignedRow | null;
  readonly emptyTurns: EmptyTurnCounts[];
  readonly workaround: WorkaroundRow | null;
  readonly perItem: PerItemRow[];
  /** With `--per-item` and BFCL's score files: its verdicts by item id. */
  readonly verdicts: ReadonlyMap<string, OfficialVerdict> | null;
  readonly history: ScoredModel["history"];
  /** The parse audit of the table's pairs, when a category is past the text-call limit. */
  readonly audit: CategoryAudit[] | null;
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
export async function scoreRuns(request: ScoreRequest): Promise<ScoreDocument> {
  // the folder lists are checked before anything reads them
  const listed = folderListsProblem(request);
  if (listed !== null) return emptyDocument({ ...request, results: [] }, { resamples: 0, seed: 0 }, [listed]);
  const given = await scoreSetup(request);
  if ("document" in given) return given.document;
  let setup: ScoreSetup = given;
  const { req, bootstrap, data, aligned, problems } = setup;
  const versionsLeft = new Set<BfclVersion>();
  const tally = { alignedModels: 0 };
  // the checker and the simulated classes load only when BFCL data asks for them
  const companions = data !== null ? await companionModules() : null;
  const read = readModels<ScoredRead>(readRequestOf(setup), (m) => scoreModelRead(m, setup, companions, { versionsLeft, tally }));
  if (!read.ok) return emptyDocument(req, bootstrap, read.problems);
  const run = read.value;
  const asTrials = trialsSetup(setup, run.outputs);
  if ("problem" in asTrials) return emptyDocument(req, bootstrap, [asTrials.problem]);
  setup = asTrials.setup;
  problems.unshift(...run.problems);
  if (versionsLeft.size > 0) problems.push(versionsLeftProblem(versionsLeft, run.outputs, data!));
  const outputs = run.outputs;
  const ranked = rankModels(setup, outputs, run);
  const models = scoredModels(outputs, ranked.shown, ranked.rank1);
  pushAll(
    problems,
    outputs.flatMap((o) => o.read.problems.filter((p) => LIFTED.has(p.code))),
  );
  for (const m of models) if (m.noHeadline !== null) problems.push(problem("no-headline", `model ${m.model}: ${m.noHeadline}`));
  const { official, sensitivity } = await officialAndSensitivity(setup, outputs, ranked, models);
  const alignedTables = aligned && tally.alignedModels > 0 ? await alignedAndEmptyTurns(outputs) : { aligned: null, emptyTurns: null };
  const workaround = workaroundRows(data !== null && ranked.shown.length > 0, outputs, versionsLeft.size === 0);
  const withRecords = outputs.filter((o) => o.read.score !== null);
  const perItem = req.perItem !== undefined && withRecords.length > 0 ? writePerItem(setup, outputs, withRecords) : null;
  const trials = setup.trialsOf.length > 0 ? trialsSummary(outputs, ranked.groups.size, bootstrap, problems, setup.ctx.host) : null;
  const exitCode = scoreExitCode(setup, { models, withRecords: withRecords.length, perItem, trials });
  return {
    command: "score",
    options: {
      ...setup.options,
      reading: setup.rule,
      maxUndecided: setup.maxUndecided,
      pairsSelected: readingPairs(run.manifest, setup.spec).length,
      ...ranked.byVersion,
      manifestForced: run.forced,
    },
    bootstrap,
    models,
    official,
    sensitivity,
    workaround,
    aligned: alignedTables.aligned,
    emptyTurns: alignedTables.emptyTurns,
    perItem,
    trials,
    scoresBeside: setup.walked.scoresBeside,
    problems,
    exitCode,
  };
}

/** The first problem of the folder lists given (results, scores, trials-of), or null. */
function folderListsProblem(request: ScoreRequest): Problem | null {
  return (
    folderListProblem(request.results, "results") ??
    (request.scores === undefined ? null : folderListProblem(request.scores, "scores")) ??
    (request.trialsOf === undefined ? null : folderListProblem(request.trialsOf, "trialsOf"))
  );
}

/**
 * A folder of `run --trials K` is read as its K trials, alone: beside other models its trials
 * would rank as models. The setup to score with, or the problem that refuses the mix.
 */
function trialsSetup(setup: ScoreSetup, outputs: readonly ScoredRead[]): { setup: ScoreSetup } | { problem: Problem } {
  const trialModels = outputs.filter((o) => o.read.trial !== null);
  if (trialModels.length === 0 || setup.trialsOf.length !== 0) return { setup };
  const folders = [...new Set(trialModels.map((o) => o.read.found.dir))];
  if (folders.length > 1 || trialModels.length < outputs.length) {
    const many = folders.map((dir) => `${dir} (${trialModels.find((o) => o.read.found.dir === dir)!.read.trial!.of} trials)`);
    return {
      problem: badArgument(
        `--results: ${many.join(", ")} holds several trials of one model: score it alone (--results or --trials-of with that folder only)`,
      ),
    };
  }
  return { setup: { ...setup, trialsOf: setup.req.results } };
}

/** The workaround rows of the models read, or null when not shown (no BFCL data, no model shown, or no row while some version was left out). */
function workaroundRows(shown: boolean, outputs: readonly ScoredRead[], noVersionLeft: boolean): WorkaroundRow[] | null {
  const workarounds = shown ? outputs.flatMap((o) => (o.workaround === null ? [] : [o.workaround])) : null;
  return workarounds !== null && (workarounds.length > 0 || noVersionLeft) ? workarounds : null;
}

/** The trials combined into one summary, or null with the problems that prevented it added to `problems`. */
function trialsSummary(
  outputs: readonly ScoredRead[],
  manifests: number,
  bootstrap: BootstrapOptions,
  problems: Problem[],
  host: Host,
): TrialsSummary | null {
  const combined = combineTrials(outputs, manifests, bootstrap, host);
  if (combined.ok) return combined.value;
  problems.push(...combined.problems);
  return null;
}

/** What every phase of `score` reads: the request as read, its context and walked inputs, and the settings it asks for. */
interface ScoreSetup {
  readonly req: ScoreRequest;
  readonly ctx: Context;
  readonly walked: InputWalks;
  readonly bootstrap: BootstrapOptions;
  readonly trialsOf: readonly string[];
  readonly rule: SideRule;
  readonly options: ScoreOptions;
  readonly maxUndecided: number;
  readonly spec: ReturnType<typeof headlineSpec>;
  readonly withScores: boolean;
  readonly wantsMetrics: boolean;
  readonly data: ScoredData | null;
  readonly aligned: boolean;
  /** The problems met so far; the phases add theirs. */
  readonly problems: Problem[];
}

/** Check the request and walk its inputs once: the settings, or the document that ends the command there. */
async function scoreSetup(request: ScoreRequest): Promise<ScoreSetup | { document: ScoreDocument }> {
  const trialsOf = request.trialsOf ?? [];
  // the trials' folders are read as result trees; `validate` still sees the request as given
  const req: ScoreRequest = trialsOf.length > 0 && request.results.length === 0 ? { ...request, results: trialsOf } : request;
  const ctx = contextOf(req);
  // the one walk of the inputs: the score trees given, else the score/ folders beside result/ in the runs given
  const walked = walkInputs(ctx, req.results, req.scores ?? []);
  const checked = validate(request, ctx, walked);
  const { bootstrap } = checked;
  if (checked.problems.length > 0) return { document: emptyDocument(req, bootstrap, checked.problems) };
  const { rule, ...options } = scoreOptionsOf(req);
  const problems: Problem[] = [];
  const withScores = walked.scores !== null;
  const data = await bfclDataFor(req, ctx, problems);
  const alignedAsked = req.aligned ?? typeof req.bfclData === "string";
  if (alignedAsked && data === null && problems.length === 0)
    problems.push(problem("bfcl-data-missing", "the aligned numbers need the BFCL data: pass --bfcl-data DIR or set BFCL_DATA_DIR"));
  return {
    req,
    ctx,
    walked,
    bootstrap,
    trialsOf,
    rule,
    options,
    maxUndecided: req.maxUndecided ?? DEFAULT_MAX_UNDECIDED,
    spec: headlineSpec(options),
    withScores,
    wantsMetrics: withScores || Boolean(req.sensitivity),
    data,
    aligned: alignedAsked && data !== null,
    problems,
  };
}

/** The pipeline's request: which models, pairs and extra passes over the files `score` needs. */
function readRequestOf(setup: ScoreSetup): Parameters<typeof readModels>[0] {
  const { req, ctx, walked, options, data, wantsMetrics, aligned } = setup;
  return {
    ctx,
    results: req.results,
    scores: req.scores ?? [],
    walked,
    models: req.models,
    manifest: req.manifest,
    decoder: req.decoder,
    pairs: wantsMetrics ? "every" : { headline: options },
    keep: req.perItem !== undefined || data !== null || wantsMetrics ? "all" : "outcomes",
    needs: { census: wantsMetrics, texts: data !== null, wholeFiles: aligned },
    beforeReading: () => req.tuneForManyModels?.(),
  };
}

/** The companion checker's modules, once loaded. */
type Companions = Awaited<ReturnType<typeof companionModules>>;

/** What the per-model phase tells the whole run: the BFCL versions the data left out, and how many models the aligned numbers read. */
interface ReadTally {
  readonly versionsLeft: Set<BfclVersion>;
  readonly tally: { alignedModels: number };
}

/**
 * What a model's read keeps once it is scored: its records and its headline's pairs only for
 * the trials (`--trials-of`, or a K-trial folder's), which combine them after every model is read. Everything else the document
 * needs of them is computed per model, so 200 models do not hold 200 models' records.
 */
function keptOfRead(
  read: ScoredRead["read"],
  headline: Headline | null,
  setup: ScoreSetup,
): { read: ScoredRead["read"]; headline: Headline | null } {
  // a trial of a `run --trials K` folder is combined with its folder's other trials, as `--trials-of` ones are
  if (setup.trialsOf.length > 0 || read.trial !== null) return { read, headline };
  return {
    read: read.score === null ? read : { ...read, score: { ...read.score, records: [] } },
    headline: headline === null ? null : { ...headline, selection: { ...headline.selection, scored: [] } },
  };
}

/** Score one model as soon as it is read, keeping only what the document needs of it. */
function scoreModelRead(m: ModelRead, setup: ScoreSetup, companions: Companions | null, run: ReadTally): ScoredRead {
  const { req, spec, rule, maxUndecided, bootstrap, data, wantsMetrics } = setup;
  const reshape = reshapeFix(m.problems);
  const headline = m.score === null ? null : headlineOf(m.score.records, m.manifest, spec, rule, maxUndecided, bootstrap, reshape);
  const shown = headline !== null && headline.noHeadline === null;
  const scored = headline === null ? [] : headline.selection.scored.map((x) => x.record);
  if (data !== null && shown && m.bfclVersion !== data.version && m.bfclVersion !== null) run.versionsLeft.add(m.bfclVersion);
  // BFCL's checker replays every model of the data's version: the skipped-turn scores do not hang on the decision's
  // headline (report shows them for every model too); the aligned row and Table F1 only for a model with one
  const companion =
    data !== null && headline !== null && m.bfclVersion === data.version && companions !== null
      ? companionRows(m, scored, setup, companions, run, shown)
      : null;
  // the records of the pairs this reading selects: with metrics wanted the pipeline scored every pair,
  // and the counts, the per-item rows and the history describe the table's pairs only
  const ids = readingIds(m.manifest, spec);
  const selected = (m.score?.records ?? []).filter((r) => ids.has(r.missId));
  const counts = m.score === null ? null : readingCounts(selected);
  const perItem: PerItemRow[] = req.perItem !== undefined && m.score !== null ? perItemRows(m.model, selected, spec, rule) : [];
  let history: ScoredModel["history"];
  if (m.history.protocol !== "own") history = { ...m.history, pairs: { ...pairHistoryCounts(selected), selected: ids.size } };
  const { texts: _t, bytes: _b, census: _c, official, ...rest } = m;
  const audit = parseAudit(selected);
  const kept = keptOfRead(rest, headline, setup);
  return {
    history,
    audit: audit.some(textCallsPastLimit) ? audit : null,
    counts,
    read: kept.read,
    headline: kept.headline,
    outcomes: shown ? outcomesOf(headline.selection) : null,
    metrics: wantsMetrics && headline !== null && (shown || req.sensitivity === true) ? metricsInputs(m) : null,
    // the readings under which a model with no headline still has none (its sensitivity rows left empty)
    gated:
      req.sensitivity === true && headline !== null && !shown && m.score !== null
        ? readingsWithoutHeadline(m.score.records, m.manifest, rule, maxUndecided)
        : null,
    officialProblems: official?.problems ?? [],
    completions: companion?.completions ?? null,
    aligned: companion?.aligned ?? null,
    emptyTurns: companion?.emptyTurns ?? [],
    workaround: companion?.workaround ?? null,
    perItem,
    verdicts: req.perItem !== undefined && official !== null && official.categories.length > 0 ? official.verdicts : null,
  };
}

/**
 * A model of the BFCL data's version replayed through BFCL's checker: its empty-turn counts, and for a model shown
 * (with a headline) its completions, aligned row and workaround row.
 */
function companionRows(
  m: ModelRead,
  scored: Parameters<Companions["replaysOf"]>[1],
  setup: ScoreSetup,
  companions: Companions,
  run: ReadTally,
  shown: boolean,
): Pick<ScoredRead, "completions" | "aligned" | "emptyTurns" | "workaround"> {
  const { aligned, bootstrap, problems } = setup;
  const replays = companions.replaysOf(m, scored, readingPairs(m.manifest, setup.spec), setup.data!, {
    workaround: shown,
    checker: aligned,
  });
  pushAll(problems, replays.problems);
  const emptyTurns: EmptyTurnCounts[] = [];
  for (const [category, readings] of replays.emptyTurns ?? []) emptyTurns.push(companions.countReadings(m.model, category, readings));
  if (!shown) return { completions: null, aligned: null, emptyTurns, workaround: null };
  if (aligned) run.tally.alignedModels++;
  const completions = replays.completions;
  const alignedRow = completions === null ? null : companions.alignedRow(m.model, companions.alignedScore(scored, completions, bootstrap));
  const s = replays.workaround;
  const workaround: WorkaroundRow | null =
    s === null
      ? null
      : {
          model: m.model,
          attempts: s.attempts,
          removed: s.removed,
          aligned: s.aligned,
          workaround: s.workarounds,
          acc: s.acc,
          accWorkaround: s.accWorkaround,
          credited: s.accCredited,
        };
  return { completions, aligned: alignedRow, emptyTurns, workaround };
}

/** Which data to give for the models the BFCL data left out; with no model of the data's version shown, nothing --bfcl-data asked for is: an error (exit 1). */
function versionsLeftProblem(versionsLeft: ReadonlySet<BfclVersion>, outputs: readonly ScoredRead[], data: ScoredData): Problem {
  const wanted = [...versionsLeft].sort();
  const matched = outputs.some((o) => o.read.bfclVersion === data.version && o.headline !== null && o.headline.noHeadline === null);
  return problem(
    "bfcl-version-differs",
    `the BFCL checker's numbers (aligned, skipped turn, Table F1) leave out the BFCL ${wanted.join(", ")} models: this BFCL data is ${data.version}; give the ${wanted.join(" or ")} data with --bfcl-data DIR (the folder holding ${wanted.map((v) => questionsFile(v, "base")).join(" or ")})`,
    { file: data.dataDir, severity: matched ? "warning" : "error" },
  );
}

/** The models with a headline, grouped by the pairs they were scored on, their rank-1 shares, and the pairs each version's reading selects. */
interface RankedModels {
  readonly shown: ScoredRead[];
  readonly groups: Map<Manifest, ScoredRead[]>;
  readonly rank1: ReturnType<typeof rankOneOf> | null;
  readonly byVersion: {
    pairsSelectedByVersion: Partial<Record<BfclVersion, number>>;
    uncertifiedByVersion: Partial<Record<BfclVersion, number>>;
  };
}

/** Group and rank the models with a headline; count each version's selected and uncertified pairs. */
function rankModels(
  setup: ScoreSetup,
  outputs: readonly ScoredRead[],
  run: { readonly manifestOf: ReadonlyMap<unknown, Manifest>; readonly manifest: Manifest },
): RankedModels {
  const shown = outputs.filter((o) => o.headline !== null && o.headline.noHeadline === null);
  // models scored on different pairs (several BFCL versions) are not ranked against each other
  const groups = new Map<Manifest, ScoredRead[]>();
  for (const o of shown) groups.set(o.read.manifest, [...(groups.get(o.read.manifest) ?? []), o]);
  const rank1 =
    shown.length >= 2 && groups.size === 1 && setup.trialsOf.length === 0
      ? rankOneOf(
          shown.map((o) => o.outcomes!),
          setup.bootstrap,
        )
      : null;
  const pairsSelectedByVersion: Partial<Record<BfclVersion, number>> = {};
  const uncertifiedByVersion: Partial<Record<BfclVersion, number>> = {};
  const manifests = [...new Set(run.manifestOf.values())];
  for (const m of manifests.length > 0 ? manifests : [run.manifest]) {
    const selectedPairs = readingPairs(m, setup.spec);
    pairsSelectedByVersion[m.source.bfclVersion] = selectedPairs.length;
    uncertifiedByVersion[m.source.bfclVersion] = selectedPairs.filter((p) => p.certification?.verdict === "uncertified").length;
  }
  return { shown, groups, rank1, byVersion: { pairsSelectedByVersion, uncertifiedByVersion } };
}

/** Each model's entry of the document. */
function scoredModels(outputs: readonly ScoredRead[], shown: readonly ScoredRead[], rank1: RankedModels["rank1"]): ScoredModel[] {
  return outputs.map((o) => {
    const h = o.headline;
    const i = shown.indexOf(o);
    return {
      model: o.read.model,
      bfclVersion: o.read.bfclVersion,
      scored: h !== null && h.numbers.n > 0,
      numbers: h !== null && h.noHeadline === null ? h.numbers : null,
      undecided: h === null ? null : h.undecided,
      noHeadline: h?.noHeadline ?? null,
      ci95: h !== null && h.noHeadline === null ? h.ci95 : null,
      rank1: rank1 === null || i < 0 ? null : rank1[i],
      counts: o.counts,
      filesUsed: o.read.filesUsed,
      problems: o.read.problems.filter((p) => !LIFTED.has(p.code)),
      decoder: o.read.decoder,
      ...(o.history === undefined ? {} : { history: o.history }),
      ...(o.read.runRecord === null ? {} : { run: { description: describeRun(o.read.runRecord), record: o.read.runRecord } }),
      ...(h === null || h.bfclDecoded === null ? {} : { bfclDecoded: h.bfclDecoded }),
      ...(o.audit === null ? {} : { parseAudit: o.audit }),
    };
  });
}

/** BFCL's official rows (with score files) and the sensitivity table (`--sensitivity`), from the run metrics of each group of models. */
async function officialAndSensitivity(
  setup: ScoreSetup,
  outputs: readonly ScoredRead[],
  ranked: RankedModels,
  models: readonly ScoredModel[],
): Promise<{ official: ScoreDocument["official"]; sensitivity: ScoreDocument["sensitivity"] }> {
  const { req, bootstrap, rule, withScores, wantsMetrics, problems } = setup;
  const { shown, groups } = ranked;
  // a model with no headline keeps its sensitivity rows: each reading under which it is within --max-undecided gives it numbers
  const hidden = outputs.filter((o) => o.headline !== null && o.headline.noHeadline !== null && o.metrics !== null && o.gated !== null);
  if (!((shown.length > 0 && wantsMetrics) || hidden.length > 0)) return { official: null, sensitivity: null };
  // rank statistics only among models scored on the same pairs; the run metrics load only when asked for
  const [{ computeRunMetrics }, { officialRows, officialSpearman, rankOneShares, sensitivityRows }] = await Promise.all([
    import("../official/metrics.js"),
    import("../official/readings.js"),
  ]);
  pushAll(
    problems,
    shown.flatMap((o) => o.officialProblems),
  );
  const officialModels: OfficialRow[] = [];
  const sensitivityModels: SensitivityRow[] = [];
  let spearman: OfficialSpearman | null = null;
  let shares: { readonly model: string; readonly share: number }[] | null = null;
  for (const [groupManifest, group] of groups) {
    const names = group.map((o) => o.read.model);
    const metrics = computeRunMetrics(
      groupManifest,
      group.map((o) => o.metrics!),
      { bootstrap, rule },
    );
    pushAll(officialModels, officialRows(metrics, names));
    pushAll(sensitivityModels, sensitivityRows(metrics, names));
    if (groups.size === 1) {
      spearman = officialSpearman(metrics);
      shares = rankOneShares(metrics, names);
    }
  }
  for (const o of hidden) {
    // computed on its own, so the other models' rank statistics stay those of the models with a headline
    const alone = computeRunMetrics(o.read.manifest, [o.metrics!], { bootstrap, rule });
    sensitivityModels.push(...sensitivityRows(alone, [o.read.model]).map((r) => withoutHeadline(r, o.gated!)));
  }
  const names = outputs.map((o) => o.read.model);
  const inOrder = <R extends { model: string }>(rows: R[]) => names.flatMap((n) => rows.filter((r) => r.model === n));
  const official = withScores && shown.length > 0 ? { models: inOrder(officialModels), spearman } : null;
  const sensitivity = req.sensitivity
    ? { rows: inOrder(sensitivityModels).map((r, _, rows) => withHistoryNote(r, rows, models)), rank1: shares }
    : null;
  return { official, sensitivity };
}

/** The aligned numbers and the empty-turn table of the models BFCL's checker read. */
async function alignedAndEmptyTurns(
  outputs: readonly ScoredRead[],
): Promise<{ aligned: { models: AlignedRow[] }; emptyTurns: EmptyTurnRow[] }> {
  const { emptyTurnTable } = await import("../official/empty-turns.js");
  return {
    aligned: { models: outputs.flatMap((o) => (o.aligned === null ? [] : [o.aligned])) },
    emptyTurns: emptyTurnTable(outputs.flatMap((o) => o.emptyTurns)),
  };
}

/** Write the `--per-item` CSV; its file and row count, or null (the problem recorded) when it cannot be written. */
function writePerItem(setup: ScoreSetup, outputs: readonly ScoredRead[], withRecords: readonly ScoredRead[]): ScoreDocument["perItem"] {
  const { req, ctx, aligned, withScores, problems } = setup;
  const rows = withRecords.flatMap((o) => o.perItem);
  const completions = new Map<string, ReadonlyMap<string, TwinCompletion>>();
  for (const o of outputs) if (o.completions !== null) completions.set(o.read.model, o.completions);
  const file = resolvePath(ctx.cwd, req.perItem!);
  // BFCL's own pass/fail per item, when its score files were read (as the report's pair browser shows them)
  const verdicts = new Map(outputs.flatMap((o) => (o.verdicts === null ? [] : [[o.read.model, o.verdicts] as const])));
  const written = ctx.host.writeFileAtomic(
    file,
    perItemCsv(rows, aligned ? completions : null, withScores && verdicts.size > 0 ? verdicts : null),
  );
  if (written.ok) return { file, rows: rows.length };
  pushAll(problems, written.problems);
  return null;
}

/** How `score` ended: 2 when nothing could be scored, 1 with findings, else 0. */
function scoreExitCode(
  setup: ScoreSetup,
  run: {
    readonly models: readonly ScoredModel[];
    readonly withRecords: number;
    readonly perItem: ScoreDocument["perItem"];
    readonly trials: TrialsSummary | null;
  },
): ExitCode {
  const { req, problems, trialsOf } = setup;
  const { models, perItem, trials } = run;
  const modelProblems = models.flatMap((m) => m.problems);
  if (run.withRecords === 0) {
    if (problems.length === 0 && modelProblems.length === 0) problems.push(problem("results-empty", "no result files found"));
    return 2;
  }
  if (models.every((m) => m.undecided === null || m.undecided.byStatus.missing === m.undecided.pairs)) {
    problems.push(problem("no-pairs", "no model has a pair to score: every result file is empty or holds none of the manifest's items"));
    return 2;
  }
  if (hasError(problems.filter((p) => p.code !== "no-headline")) && perItem === null && req.perItem !== undefined) return 2;
  if (trialsOf.length > 0 && trials === null) return 2;
  if (
    models.some((m) => m.noHeadline !== null || m.undecided === null) ||
    hasError(problems) ||
    problems.some((p) => p.code === "decode-failures") ||
    (req.strict && problems.length + modelProblems.length + models.filter((m) => (m.undecided?.total ?? 0) > 0).length > 0)
  ) {
    // done with findings: a model with no headline (too many undecided pairs) or not scored, an error met on the way
    // (a score file cut short, a model not found), a file whose tool calls mostly fail to decode (a wrong decoder:
    // never a silent number); under --strict, also any problem and any undecided pair
    return 1;
  }
  return 0;
}

/** The trials of `--trials-of` as one model (`combineTrialReads`), each with the run record above its first file. */
function combineTrials(outputs: readonly ScoredRead[], manifests: number, bootstrap: BootstrapOptions, host: Host): Result<TrialsSummary> {
  const reads = outputs.map((o) => {
    const file = Object.values(o.read.filesUsed).find((f) => f !== undefined);
    return { model: o.read.model, headline: o.headline, record: file === undefined ? null : host.runRecordAbove(file.file) };
  });
  return combineTrialReads(reads, manifests, bootstrap);
}

/**
 * A sensitivity row of a model read from the reference, labelled: its `same-history`
 * reading keeps every pair by construction when the twins are exact (both played the same
 * reference turns before the anchor); the label says so, or how many pairs it kept.
 */
/** A sensitivity row of a model with no headline under its reading: no numbers, the reason as its note (act-per-anchor is gated as Table 1). */
function withoutHeadline(row: SensitivityRow, gated: ReadonlyMap<string, string>): SensitivityRow {
  const why = gated.get(row.reading === "act-per-anchor" ? "table-1" : row.reading);
  if (why === undefined) return row;
  return { ...row, act: Number.NaN, hold: Number.NaN, decision: Number.NaN, ci95: null, note: why };
}

function withHistoryNote(row: SensitivityRow, rows: readonly SensitivityRow[], models: readonly ScoredModel[]): SensitivityRow {
  const m = models.find((x) => x.model === row.model);
  if (m?.history?.protocol !== "reference" || row.reading !== "same-history") return row;
  const all = rows.find((r) => r.model === row.model && r.reading === "table-1")?.n;
  const note =
    row.n === all
      ? "all pairs: both twins played the reference before the anchor"
      : `${row.n} of ${all ?? "?"} pairs: not every pair is an exact twin`;
  return { ...row, note };
}

/** The modules the companions of BFCL's checker need: the replays, the aligned score, the empty-turn counts (loaded only when BFCL data is named). */
async function companionModules() {
  const [{ replaysOf }, { alignedRow, alignedScore }, { countReadings }] = await Promise.all([
    import("./replays.js"),
    import("../official/aligned.js"),
    import("../official/empty-turns.js"),
  ]);
  return { replaysOf, alignedRow, alignedScore, countReadings };
}
