/**
 * `score`, the use case: the decision table of every model found under the result trees,
 * with its bootstrap interval and rank-1 frequencies, and — when asked — BFCL's own
 * verdict on the same items, the table under each sensitivity reading, the workaround
 * credit (Table F1) and the per-pair rows. It takes a typed request and returns a typed
 * document holding every number, the files used and the problems met; the CLI only
 * prints it.
 *
 * ```ts
 * const doc = await scoreRuns({ results: ["runs/main"], scores: ["runs/main"] });
 * for (const m of doc.models) console.log(m.model, m.numbers?.decision, m.ci95);
 * ```
 */
import type { ScoredResultCategory } from "../bfcl/categories.js";
import { decoderByName, type DecoderChoiceSummary, type DecoderName } from "../bfcl/decode/index.js";
import { perItemRows, type PerItemRow } from "../decision/table.js";
import { selectPairs } from "../decision/score.js";
import type { DecisionNumbers, PairSet, ReadingCounts, ScoreOptions } from "../decision/types.js";
import { problem, type Problem } from "../messages/index.js";
import { decisionInterval, rankOneOf } from "../official/intervals.js";
import { computeRunMetrics } from "../official/metrics.js";
import { officialRows, officialSpearman, rankOneShares, sensitivityRows, type OfficialRow, type OfficialSpearman, type SensitivityRow } from "../official/readings.js";
import type { Manifest } from "../pairs/types.js";
import type { BootstrapOptions } from "../stats/index.js";
import { resolveBfclDataDir } from "../io/bfcl-data.js";
import { folderExists, writeFileAtomic } from "../io/manifest.js";
import { resolvePath } from "../io/paths.js";
import { scoreResultDirs, type FileUsed, type ModelRun } from "../io/results.js";
import { loadRunInputs } from "../io/scores-run.js";
import { walkBfclTree } from "../io/tree.js";
import { readWorkaroundData, workaroundForModel } from "../io/workaround-run.js";
import { badArgument, bootstrapOf, contextOf, givenText, hasError, manifestOf, type Context, type ExitCode, type RequestContext } from "./common.js";
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
  /** Resamples and seed of the intervals (default 10,000 and the paper's seed; 0 resamples: none). */
  readonly bootstrap?: Partial<BootstrapOptions>;
  /** Also compute the table under each sensitivity reading. */
  readonly sensitivity?: boolean;
  /**
   * BFCL data folder for the workaround credit (Table F1). Undefined: `BFCL_DATA_DIR`,
   * else a `bfcl_eval` installation, else none; null: leave Table F1 out.
   */
  readonly bfclData?: string | null;
  /** Pair manifest file (default: the package's). */
  readonly manifest?: string;
  /** Also write one CSV row per model and pair to this file. */
  readonly perItem?: string;
  /** Threads reading result files (default: cores, at most 4; from 8 models up). */
  readonly threads?: number;
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
  /** `--decoder`: one decoder for every model; absent, each model folder's own (BFCL's registry, else detected from its steps). */
  readonly decoder?: DecoderName;
}

/** One model found: its numbers when it could be scored. Percentages unrounded; NaN (JSON null) where there is no pair. */
export interface ScoredModel {
  /** The model: its folder's name, or `<run>/<model>` when several runs are scored. */
  readonly model: string;
  readonly scored: boolean;
  readonly numbers: DecisionNumbers | null;
  /** The 95% cluster-bootstrap interval of decision (null without resamples or pairs). */
  readonly ci95: readonly [number, number] | null;
  /** % of resamples in which this model has the highest decision (null with fewer than two models). */
  readonly rank1: number | null;
  readonly counts: ReadingCounts | null;
  /** Pairs of the selected set this model could not be scored on (a twin's line is missing). */
  readonly missingPairs: number;
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
  readonly options: { readonly pairSet: PairSet; readonly countLogin: boolean; readonly pairsSelected: number };
  readonly bootstrap: BootstrapOptions;
  readonly models: readonly ScoredModel[];
  /** With score trees: BFCL's verdict on the same items, per model, and the rank correlation (three models or more). */
  readonly official: { readonly models: readonly OfficialRow[]; readonly spearman: OfficialSpearman | null } | null;
  /** With `sensitivity`: the table under each reading, and the rank-1 shares on Table 1. */
  readonly sensitivity: { readonly rows: readonly SensitivityRow[]; readonly rank1: readonly { readonly model: string; readonly share: number }[] | null } | null;
  /** With BFCL data: Table F1. */
  readonly workaround: readonly WorkaroundRow[] | null;
  /** With `perItem`: the file written and its rows. */
  readonly perItem: { readonly file: string; readonly rows: number } | null;
  /** Problems not tied to one model's files (arguments, folders, score files, BFCL data). */
  readonly problems: readonly Problem[];
  readonly exitCode: ExitCode;
}

/** The reading a request asks for; a problem when `uncertified` and `all` pair sets are both asked for by the CLI. */
function scoreOptionsOf(req: ScoreRequest): ScoreOptions {
  return { pairSet: req.pairSet ?? "certified", countLogin: Boolean(req.countLogin), ...(req.decoder !== undefined ? { decoder: req.decoder } : {}) };
}

/** Problems a user must see in full, not summed up with a model's routine warnings: a wrong decoder, pairs left out. */
const LIFTED = new Set(["decode-failures", "pair-undecidable"]);

function emptyDocument(req: ScoreRequest, bootstrap: BootstrapOptions, problems: Problem[]): ScoreDocument {
  const options = scoreOptionsOf(req);
  return { command: "score", options: { ...options, pairsSelected: 0 }, bootstrap, models: [], official: null, sensitivity: null, workaround: null, perItem: null, problems, exitCode: 2 };
}

/** Check the request before anything is read: the arguments, the output folder, the score trees. */
function validate(req: ScoreRequest, ctx: Context): { bootstrap: BootstrapOptions; problems: Problem[] } {
  const problems: Problem[] = [];
  const boot = bootstrapOf(req.bootstrap);
  const bootstrap = boot.ok ? boot.value : { resamples: 0, seed: 0 };
  if (!boot.ok) problems.push(...boot.problems);
  if (req.results.length === 0) problems.push(badArgument("give at least one --results DIR (a BFCL result directory)"));
  if (req.threads !== undefined && (!Number.isInteger(req.threads) || req.threads < 1)) problems.push(badArgument(`--threads must be a positive integer${givenText(req.threads)}`));
  if (req.perItem !== undefined) {
    const folder = folderExists(resolvePath(ctx.cwd, req.perItem));
    if (!folder.ok) problems.push(...folder.problems);
  }
  if ((req.scores ?? []).length > 0) {
    // a wrong --scores is a bad argument: said before any result file is read
    const walk = walkBfclTree(req.scores ?? [], ctx.cwd, "score");
    problems.push(...walk.problems.filter((p) => p.severity === "error"));
  }
  return { bootstrap, problems };
}

/** Table F1 for the scored models, or null when no BFCL data is found. */
function workaroundRows(scored: readonly ModelRun[], manifest: Manifest, options: ScoreOptions, req: ScoreRequest, ctx: Context, problems: Problem[]): WorkaroundRow[] | null {
  if (req.bfclData === null) return null;
  const location = resolveBfclDataDir({ flag: req.bfclData, env: ctx.env, cwd: ctx.cwd });
  if (!location) return null;
  const data = readWorkaroundData(location.dir);
  if (!data.ok) {
    problems.push(...data.problems);
    return null;
  }
  const pairs = selectPairs(manifest, options);
  const rows: WorkaroundRow[] = [];
  for (const run of scored) {
    const file = run.filesUsed.miss_func?.file;
    if (!run.score || !file) continue;
    const r = workaroundForModel(run.score, pairs, file, data.value, run.decoder ? decoderByName(run.decoder.name) : undefined);
    if (!r.ok) {
      problems.push(...r.problems);
      continue;
    }
    const s = r.value;
    rows.push({ model: run.model, attempts: s.attempts, removed: s.removed, aligned: s.aligned, workaround: s.workarounds, acc: s.acc, accWorkaround: s.accWorkaround, credited: s.accCredited });
  }
  return rows;
}

/**
 * Score the result trees. Never throws on bad input: problems are in the document, and
 * `exitCode` says how it ended (2 when nothing could be scored or no model has a pair).
 */
export async function scoreRuns(req: ScoreRequest): Promise<ScoreDocument> {
  const ctx = contextOf(req);
  const checked = validate(req, ctx);
  const { bootstrap } = checked;
  if (checked.problems.length > 0) return emptyDocument(req, bootstrap, checked.problems);
  const loaded = manifestOf(req.manifest, ctx);
  if (!loaded.ok) return emptyDocument(req, bootstrap, [...loaded.problems]);
  const manifest = loaded.value;
  const options = scoreOptionsOf(req);

  const outcome = await scoreResultDirs({ resultDirs: req.results, models: req.models ?? [], manifest, options, cwd: ctx.cwd, threads: req.threads });
  const problems: Problem[] = [...outcome.problems];
  const scored = outcome.runs.filter((r) => r.score !== null);
  const rank1 = scored.length >= 2 ? rankOneOf(scored.map((r) => r.score!.records), bootstrap) : null;
  const models: ScoredModel[] = outcome.runs.map((run) => {
    const i = scored.indexOf(run);
    return {
      model: run.model,
      scored: run.score !== null,
      numbers: run.score?.numbers ?? null,
      ci95: run.score ? decisionInterval(run.score.records, bootstrap) : null,
      rank1: rank1 === null || i < 0 ? null : rank1[i],
      counts: run.score?.counts ?? null,
      missingPairs: run.score?.counts.pairsMissingRollout ?? 0,
      filesUsed: run.filesUsed,
      problems: run.problems.filter((p) => !LIFTED.has(p.code)),
      decoder: run.decoder ?? null,
    };
  });
  problems.push(...outcome.runs.flatMap((run) => run.problems.filter((p) => LIFTED.has(p.code))));

  const names = scored.map((r) => r.model);
  let official: ScoreDocument["official"] = null;
  let sensitivity: ScoreDocument["sensitivity"] = null;
  const scoreDirs = req.scores ?? [];
  if (scored.length > 0 && (scoreDirs.length > 0 || req.sensitivity)) {
    const inputs = loadRunInputs({ resultDirs: req.results, scoreDirs, models: names, manifest, cwd: ctx.cwd, ...(req.decoder !== undefined ? { decoder: req.decoder } : {}) });
    // the result files' own problems were met (and reported) while scoring
    problems.push(...inputs.problems.filter((p) => p.code.startsWith("score")));
    const metrics = computeRunMetrics(manifest, inputs.models.map((m) => m.inputs), { bootstrap });
    if (scoreDirs.length > 0) official = { models: officialRows(metrics, names), spearman: officialSpearman(metrics) };
    if (req.sensitivity) sensitivity = { rows: sensitivityRows(metrics, names), rank1: rankOneShares(metrics, names) };
  }
  const workaround = scored.length > 0 ? workaroundRows(scored, manifest, options, req, ctx, problems) : null;

  let perItem: ScoreDocument["perItem"] = null;
  if (req.perItem !== undefined && scored.length > 0) {
    const rows: PerItemRow[] = scored.flatMap((r) => perItemRows(r.model, r.score!.records));
    const file = resolvePath(ctx.cwd, req.perItem);
    const written = writeFileAtomic(file, perItemCsv(rows));
    if (written.ok) perItem = { file, rows: rows.length };
    else problems.push(...written.problems);
  }

  const modelProblems = models.flatMap((m) => m.problems);
  let exitCode: ExitCode = 0;
  if (scored.length === 0) {
    if (problems.length === 0 && modelProblems.length === 0) problems.push(problem("results-empty", "no result files found"));
    exitCode = 2;
  } else if (models.every((m) => !m.numbers || m.numbers.n === 0)) {
    problems.push(problem("no-pairs", "no model has a pair to score: every result file is empty or holds none of the manifest's items"));
    exitCode = 2;
  } else if (hasError(problems) && perItem === null && req.perItem !== undefined) {
    exitCode = 2;
  } else if (
    models.some((m) => m.missingPairs > 0) ||
    hasError(problems) ||
    problems.some((p) => p.code === "decode-failures") ||
    (req.strict && problems.length + modelProblems.length > 0)
  ) {
    // done with findings: a model's pairs incomplete, an error met on the way (a score file cut short, a model not found),
    // a file whose tool calls mostly fail to decode (a wrong decoder: never a silent number)
    exitCode = 1;
  }
  return { command: "score", options: { ...options, pairsSelected: outcome.pairsSelected }, bootstrap, models, official, sensitivity, workaround, perItem, problems, exitCode };
}
