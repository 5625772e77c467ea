/**
 * The one read of a run that every command consumes, so `score`, `check`, `report`, `compare`, `verify`,
 * `judge` and `demo` see the same models, decoders, warnings and counts. Each model is handed on as soon as it
 * is read, so memory stays flat in the number of models. More in this folder's README.md.
 */
import { scoredResultCategories, type BfclVersion, type MultiTurnCategory, type ScoredResultCategory } from "../bfcl/categories.js";
import {
  chooseDecoder,
  decodeFailureMessage,
  fcDecoder,
  promptingDecoder,
  sampleSteps,
  summarizeChoice,
  DETECTION_SAMPLE,
  type DecoderChoice,
  type Decoder,
  type DecoderChoiceSummary,
  type DecoderName,
} from "../bfcl/decode/index.js";
import { everyReadingPair, readingPairs } from "../decision/readings.js";
import { parseAudit, textCallLine, twinsIn } from "../decision/parse-audit.js";
import { mixedHistoryMessage, modelHistory, type ModelHistory } from "../decision/history.js";
import { knownShouldAskIds, outcomeReader, readingCounts, scoreModel, turnsNeeded } from "../decision/score.js";
import type { ModelScore, PairRecord, ScoreOptions, TwinReading } from "../decision/types.js";
import { counted, pushAll, err, errAll, ok, problem, type Problem, type Result } from "../messages/index.js";
import { dataCandidate, rolloutDataCheckBuilder, type DataCandidate, type RolloutDataCheck } from "../pairs/rollout-data.js";
import type { Manifest, ManifestPair } from "../pairs/types.js";
import { anchoredKey, notBfclLinesMessage } from "../bfcl/results.js";
import type { TurnQueries } from "../bfcl/inference-log.js";
import { readFailure } from "../io/results-read.js";
import {
  linesOfTrial,
  NO_BLOCK,
  readResultFile,
  trialKey,
  trialPart,
  type FilePass,
  type LineVisitor,
  type ResultCensus,
  type ResultFileReading,
} from "./result-lines.js";
import { TRIAL_KEY } from "../bfcl/line-keys.js";
import type { RunRecord } from "../rollout/run-record.js";
import type { RunMode } from "../bfcl/line-keys.js";
import type { PyValue } from "../python/value.js";
import { dataCheckWithPrompts, LoggedTurnsMemo, recordedTurnsVisitor } from "./recorded-turns.js";
import { readOfficial, type OfficialReading } from "./official-scores.js";
import { matchingModel, resultRunsOf, type TreeModel, type TreeWalk } from "../io/tree.js";
import { nodeHost, type Host } from "../io/host.js";
import {
  hasError,
  manifestOf as manifestFile,
  type Context,
  type ModelsOption,
  type ManifestOption,
  type DecoderOption,
} from "./common.js";
import { manifestsForModels, versionsText, type ManifestChoice } from "./data-version.js";
import { decoderExpected, longTextCutter, type LineKeeper } from "./long-texts.js";

/**
 * How much of a model's pair records the caller keeps: `all` (per-item rows, the
 * companions, the aligned numbers and Table F1 read the twins' calls) or `outcomes`
 * (the readings and the bootstrap read each side's status and decisions only: the
 * twins' calls and text are left empty).
 */
export type RecordsKept = "all" | "outcomes";

/** What a command needs read beyond the records. */
export interface ReadNeeds {
  /** Every line's id and turn count (the official companion, the truncation count); always read with `scores`. */
  readonly census?: boolean;
  /** The whole `result` text of every pair's twins (the aligned prefixes and the workaround replay run on it). */
  readonly texts?: boolean;
  /** The files' bytes (BFCL's checker on every entry: the empty-turn table). */
  readonly wholeFiles?: boolean;
  /** Each line's first step's input token count (the injection check of two arms). */
  readonly firstStepTokens?: boolean;
  /** The reply the simulated user answered, of each interactive line (`judge` reads it for a turn whose steps kept no text). */
  readonly openings?: boolean;
  /** How many lines record an injected prompt block (`run --inject`; compare's injection check is shown for such arms). */
  readonly injected?: boolean;
}

/** What to read. */
export interface ReadRequest extends ModelsOption, ManifestOption, DecoderOption {
  readonly ctx: Context;
  /** Result trees (a model folder, a result root, a run, or a folder of runs). */
  readonly results: readonly string[];
  /** Score trees: each model's official verdicts are read and cross-checked. */
  readonly scores?: readonly string[];
  /** When every model must be on one manifest, the command's name for the line that says they are not. */
  readonly oneManifest?: string;
  /** The pairs each model is scored on: the headline reading's, or every pair any reading reads. */
  readonly pairs: { readonly headline: Pick<ScoreOptions, "pairSet" | "countLogin"> } | "every";
  readonly keep: RecordsKept;
  readonly needs?: ReadNeeds;
  /** What the lines about rollouts of other data and about a missing manifest tell the user to do (for commands without `--manifest`). */
  readonly hints?: { readonly force?: string; readonly missing?: string };
  /** Called once the models are known, before the first is read (the bin bounds V8's heap there). */
  readonly beforeReading?: (models: number) => void;
  /**
   * Cut each text step longer than this many characters as its line is read, where the cut
   * changes no reading (`app/long-texts.ts`): for a command that shows texts bounded (the
   * report); the records' anchor texts are then cut too. Absent: every text is kept whole.
   */
  readonly textLimit?: number;
  /** The walks of `results` and `scores` when the command has made them already (to check its arguments), so the trees are walked once. */
  readonly walked?: { readonly results: TreeWalk; readonly scores: TreeWalk | null };
}

/** The file used for one category of one model, and how it was chosen. */
export interface FileUsed {
  readonly file: string;
  readonly lines: number;
  readonly distinctIds: number;
  /** How many copies of this (model, category) were found in all trees. */
  readonly candidates: number;
}

/** One model as read. */
export interface ModelRead {
  /** How commands name it: its folder's name, or `<run>/<model>` when several runs were found. */
  readonly model: string;
  /** The model folder's name (BFCL's model name, which its checker uses). */
  readonly folder: string;
  readonly run: string;
  readonly found: TreeModel;
  readonly bfclVersion: BfclVersion | null;
  readonly manifest: Manifest;
  readonly filesUsed: Partial<Record<ScoredResultCategory, FileUsed>>;
  /** The decoder its steps were read with, and why; null when no file could be read. */
  readonly decoder: DecoderChoiceSummary | null;
  /** Problems met reading its files. */
  readonly problems: Problem[];
  /** One record per pair; null when a category is missing or unreadable. */
  readonly score: ModelScore | null;
  /** With `needs.census` or `scores`: each file's census. */
  readonly census: Partial<Record<ScoredResultCategory, ResultCensus>>;
  /** With `scores`: the official verdicts, cross-checked with the census. */
  readonly official: OfficialReading | null;
  /** With `needs.texts`: the `result` text of every pair's twins, by id. */
  readonly texts: ReadonlyMap<string, string> | null;
  /** With `needs.wholeFiles`: each file's bytes. */
  readonly bytes: Partial<Record<ScoredResultCategory, Uint8Array>> | null;
  /** With `needs.firstStepTokens`: each line's first step's input token count, by id (null where there is none). */
  readonly firstStepTokens: ReadonlyMap<string, number | null> | null;
  /** With `needs.openings`: the reply the simulated user answered, by should-ask id. */
  readonly openings: ReadonlyMap<string, string> | null;
  /** With `needs.injected`: the lines of its files that record an injected prompt block. */
  readonly injectedLines: number | null;
  /** The first-turn check of its rollouts against its manifest's data, made in the same pass. */
  readonly dataCheck: RolloutDataCheck;
  /** Whose turns its lines hold before the anchor: its own, or the reference's (`run --history reference`); a model mixing both is not scored. */
  readonly history: ModelHistory;
  /** The folder's `run.json` (written by `twinscore run`), or null: BFCL's own runs, and runs made before it was written. */
  readonly runRecord: RunRecord | null;
  /** In a folder of `run --trials K` (K > 1), the trial this model read is (0 to K − 1) of K: each trial is read as a model of its own, named `trial-<t>/<model>`; null for a run of one. */
  readonly trial: { readonly index: number; readonly of: number } | null;
  /** Lines with turns, and how many of them record each injected block (`none`: without one); null when no file was read. */
  readonly blocks: {
    readonly lines: number;
    readonly byBlock: ReadonlyMap<string, { readonly lines: number; readonly head: string | null }>;
  } | null;
}

/** The run as read: what the walk found, each model's manifest, and every problem not tied to one model. */
export interface RunRead<T> {
  readonly walk: TreeWalk;
  /** The models selected, in output order (those that could not be put on a manifest left out). */
  readonly selected: readonly TreeModel[];
  /** The first model's manifest (the package's v4 one when there is none): every model's with `oneManifest`. */
  readonly manifest: Manifest;
  readonly manifestOf: ReadonlyMap<string, Manifest>;
  readonly versionOf: ReadonlyMap<string, BfclVersion>;
  /** Whether `--manifest` forced one manifest. */
  readonly forced: boolean;
  /** What `consume` returned for each model read, in order. */
  readonly outputs: readonly T[];
  /** Problems of the walk, the selection and the manifests (warnings; the errors stop the read). */
  readonly problems: readonly Problem[];
}

/**
 * The models of a walk that `--model` names (by folder name, by `<run>/<model>`, or by BFCL's
 * model name with its `/`, as `run --model` takes it), in the
 * order named; all of them, in the order found, when none is named. A name that matches
 * nothing is a problem listing what was found.
 */
export function selectModels(walk: TreeWalk, names: readonly string[]): { models: TreeModel[]; problems: Problem[] } {
  if (names.length === 0) return { models: walk.models, problems: [] };
  const problems: Problem[] = [];
  const models: TreeModel[] = [];
  for (const name of names) {
    // BFCL's model name as `run --model` takes it (`openai/gpt-oss-120b`) names the folder BFCL writes (`openai_gpt-oss-120b`)
    let hits = walk.models.filter((m) => m.name === name || m.model === name);
    if (hits.length === 0 && name.includes("/")) hits = walk.models.filter((m) => m.model === name.replace(/\//g, "_"));
    if (hits.length === 0) {
      const known = walk.models.map((m) => m.name).join(", ") || "none";
      problems.push(problem("model-missing", `--model ${name}: no such model directory under the results (found: ${known})`));
    }
    for (const m of hits) if (!models.includes(m)) models.push(m);
  }
  return { models, problems };
}

/** The walks a read starts from, and where its score trees came from. */
export interface InputWalks {
  readonly results: TreeWalk;
  /** The score trees given, else those found beside the results (`scoresBeside`); null when there are none. */
  readonly scores: TreeWalk | null;
  /** With no score tree given: the `score/` folders beside `result/` in the run folders given, read as if given with `--scores` (absolute); else empty. */
  readonly scoresBeside: readonly string[];
}

/**
 * Walk a command's inputs once: the result trees, and the score trees given. With none
 * given, a run folder (or each run of a folder of runs) that holds BFCL's `score/` beside
 * its `result/` gives its verdicts as `--scores` would: BFCL's own layout is read whole.
 * Score folders given always win.
 */
export function walkInputs(ctx: Context, results: readonly string[], scores: readonly string[]): InputWalks {
  const walk = ctx.host.walkBfclTree(results, ctx.cwd, "result");
  if (scores.length > 0) return { results: walk, scores: ctx.host.walkBfclTree(scores, ctx.cwd, "score"), scoresBeside: [] };
  const beside = ctx.host.scoreFoldersBeside(walk);
  const found = beside.length === 0 ? null : ctx.host.walkBfclTree(beside, ctx.cwd, "score");
  // a score/ folder without multi-turn score files is simply not used
  const used = found === null ? [] : beside.filter((dir) => found.models.some((m) => m.given === dir));
  if (found === null || used.length === 0) return { results: walk, scores: null, scoresBeside: [] };
  return { results: walk, scores: { ...found, problems: found.problems.filter((p) => p.code !== "scores-empty") }, scoresBeside: used };
}

/** Per manifest, what reading a model on it needs, made once. */
interface OnManifest {
  readonly pairs: readonly ManifestPair[];
  readonly known: ReadonlySet<string>;
  /** Per category, the turns to keep of each id its file is read for. */
  readonly need: Readonly<Record<ScoredResultCategory, ReadonlyMap<string, number>>>;
  readonly texts: ReadonlySet<string>;
  readonly candidate: DataCandidate;
}

/**
 * Read every model under the result trees, handing each to `consume` as soon as it is
 * read. Never throws on bad input: a walk or manifest error stops the read (the problems
 * are returned); a model whose files cannot be read is one model with problems.
 */
export function readModels<T>(req: ReadRequest, consume: (model: ModelRead) => T): Result<RunRead<T>> {
  const { host } = req.ctx;
  const walk = req.walked?.results ?? host.walkBfclTree(req.results, req.ctx.cwd, "result");
  const scores =
    req.walked !== undefined
      ? req.walked.scores
      : (req.scores ?? []).length > 0
        ? host.walkBfclTree(req.scores!, req.ctx.cwd, "score")
        : null;
  const selected = selectModels(walk, req.models ?? []);
  const problems: Problem[] = [...walk.problems, ...selected.problems, ...(scores?.problems ?? [])];
  const placed = placeOnManifests(req, selected.models);
  if (!placed.ok) return placed;
  const { manifestOf, versionOf, forced, fallback, checkChoice } = placed.value;
  const prepared = manifestPreparer(req);
  const toRead = selected.models.filter((m) => manifestOf.has(m.name));
  req.beforeReading?.(toRead.length);
  const outputs: T[] = [];
  const checks = new Map<string, RolloutDataCheck>();
  // models run on the same data log the same questions: each is parsed and checked once for the whole read
  const logged = new LoggedTurnsMemo();
  const resultRuns = resultRunsOf(walk.models);
  for (const found of toRead) {
    const manifest = manifestOf.get(found.name)!;
    const scoreModel = scores === null ? null : matchingModel(found, resultRuns, scores.models);
    const { models, check } = readModel(found, manifest, prepared(manifest), req, scores === null ? null : { model: scoreModel }, logged);
    checks.set(found.name, check);
    for (const model of models) outputs.push(consume({ ...model, bfclVersion: versionOf.get(found.name) ?? null, dataCheck: check }));
  }
  // the rollouts against their data, from the pass just made: a model generated on other data stops the command
  const checked = manifestsForModels(selected.models, req.manifest, req.ctx, { checks, ...checkChoice });
  if (!checked.ok) return checked;
  if (hasError(checked.value.problems)) return errAll(checked.value.problems.filter((p) => p.severity === "error"));
  pushAll(problems, checked.value.problems);
  return ok({ walk, selected: toRead, manifest: fallback, manifestOf, versionOf, forced, outputs, problems });
}

/** The models' manifests as their file names place them, and the manifest to fall back on. */
interface PlacedModels {
  readonly manifestOf: ReadonlyMap<string, Manifest>;
  readonly versionOf: ReadonlyMap<string, BfclVersion>;
  readonly forced: boolean;
  /** The first model's manifest, else the one given, else the package's v4 one. */
  readonly fallback: Manifest;
  /** The manifest source and hints the rollouts are checked with once read. */
  readonly checkChoice: Pick<ManifestChoice, "source" | "forceHint" | "missingHint">;
}

/**
 * Put each model on the manifest of the BFCL version its files name; its rollouts are checked
 * against that data in the one pass over its files, and a model generated on other data
 * stops the command before anything is shown.
 */
function placeOnManifests(req: ReadRequest, models: readonly TreeModel[]): Result<PlacedModels> {
  const source = req.ctx.host.committedManifestSource();
  const hints = { forceHint: req.hints?.force, missingHint: req.hints?.missing };
  const found = manifestsForModels(models, req.manifest, req.ctx, { rollouts: "defer", source, ...hints });
  if (!found.ok) return found;
  if (hasError(found.value.problems)) {
    // stopped by the file names: every model's problems, the rollouts checked too
    const full = manifestsForModels(models, req.manifest, req.ctx, { source, ...hints });
    return errAll(full.ok ? full.value.problems : full.problems);
  }
  const { manifestOf, versionOf, forced } = found.value;
  const distinct = [...new Set(manifestOf.values())];
  if (req.oneManifest !== undefined && distinct.length > 1) {
    return err(
      problem(
        "bfcl-version-mixed",
        `${req.oneManifest} puts every model on one pair manifest, and these result files are of several BFCL versions: ${versionsText(versionOf)}; give one version's runs, or --manifest FILE to force one`,
      ),
    );
  }
  // with no model to decide by: the manifest given, else the package's v4 one (the command reports what is missing)
  let fallback = distinct[0] ?? null;
  if (fallback === null) {
    const loaded = manifestFile(req.manifest, req.ctx);
    if (!loaded.ok) return loaded;
    fallback = loaded.value;
  }
  return ok({ manifestOf, versionOf, forced, fallback, checkChoice: { source, ...hints } });
}

/** What reading a model on a manifest needs, made once per manifest for the whole read. */
function manifestPreparer(req: ReadRequest): (m: Manifest) => OnManifest {
  const onManifest = new Map<Manifest, OnManifest>();
  return (m: Manifest): OnManifest => {
    let o = onManifest.get(m);
    if (o === undefined) {
      const pairs = req.pairs === "every" ? everyReadingPair(m) : readingPairs(m, req.pairs.headline);
      o = {
        pairs,
        known: new Set(knownShouldAskIds(m)),
        need: needByCategory(turnsNeeded(pairs)),
        texts: new Set(pairs.flatMap((p) => [p.baseId, p.missId])),
        candidate: dataCandidate(m),
      };
      onManifest.set(m, o);
    }
    return o;
  };
}

/** The turns needed of each id (`turnsNeeded`), split by the result file the id's line is in. */
function needByCategory(need: ReturnType<typeof turnsNeeded>): Record<ScoredResultCategory, ReadonlyMap<string, number>> {
  const missOf = (category: ScoredResultCategory) => new Map([...need.miss].filter(([id]) => id.startsWith(`multi_turn_${category}_`)));
  return { base: need.base, miss_func: missOf("miss_func"), miss_param: missOf("miss_param") };
}

/** The files a model's decoder is detected from: the first of base, miss_func and miss_param as the walk lists them (long_context's when it has none of those). */
export function detectionFiles(found: TreeModel): string[] {
  const first = (c: MultiTurnCategory) => found.files[c]?.[0]?.path;
  const scored = scoredResultCategories.flatMap((c) => (first(c) === undefined ? [] : [first(c)!]));
  return scored.length > 0 ? scored : first("long_context") === undefined ? [] : [first("long_context")!];
}

/**
 * A model's decoder: `--decoder`, else the mode its `run.json` records, else the registry entry for its folder,
 * else the one the head of its files decodes best. `check` chooses with this same function, so both commands
 * read a model alike. More in this folder's README.md.
 */
export function chooseModelDecoder(
  found: TreeModel,
  override: DecoderName | undefined,
  version: BfclVersion,
  host: Host,
): { choice: DecoderChoice | null; problems: Problem[] } {
  const problems: Problem[] = [];
  const choice = chooseFolderDecoder(
    { folder: found.model, dir: found.dir, detectionFiles: detectionFiles(found) },
    override,
    version,
    (files) => headSamples(files, problems, host),
    host,
  );
  return { choice, problems };
}

/** What choosing a model folder's decoder needs to know of it (plain data: `check` sends it to the thread that reads the files). */
export interface FolderToDecode {
  /** The folder's name, looked up in BFCL's registry. */
  readonly folder: string;
  /** The folder, where `run` leaves its run.json. */
  readonly dir: string;
  /** The files whose head detection samples, in order (`detectionFiles`). */
  readonly detectionFiles: readonly string[];
}

/**
 * `chooseModelDecoder`'s rule, with the sample of the detection files' steps taken by
 * `samples` (called only when detection decides): `check` samples the bytes its job has
 * read already, so a result file is not opened again for its head.
 */
export function chooseFolderDecoder(
  folder: FolderToDecode,
  override: DecoderName | undefined,
  version: BfclVersion,
  samples: (files: readonly string[]) => PyValue[],
  host: Host = nodeHost(),
): DecoderChoice | null {
  // a folder `run` made says its mode: a text-only FC run looks like a prompting one to detection
  const recorded = override === undefined ? host.readRunRecord(folder.dir).record : null;
  if (recorded !== null) {
    const mode = recorded.settings.mode;
    return {
      decoder: mode === "fc" ? fcDecoder : promptingDecoder,
      source: "run",
      reason: `run.json: made by twinscore run in ${mode} mode`,
    };
  }
  return chooseDecoder({ folder: folder.folder, override: override ?? null, version, samples: () => samples(folder.detectionFiles) });
}

/** The first `DETECTION_SAMPLE` non-empty steps of `files`, reading only as much of each file's head as they take; a file that cannot be read is a problem and passed over. */
function headSamples(files: readonly string[], problems: Problem[], host: Host): PyValue[] {
  const heads: Uint8Array[] = [];
  // the sample of the bytes read so far, kept with how many bytes of the last file it read: each head is sampled once
  let sampled: PyValue[] = [];
  let sampledBytes = -1;
  for (const file of files) {
    sampledBytes = -1;
    try {
      const head = host.readFileHead(file, (lines) => {
        sampled = sampleSteps([...heads, lines]);
        sampledBytes = lines.length;
        return sampled.length >= DETECTION_SAMPLE;
      });
      heads.push(head);
      if (sampledBytes !== head.length) sampled = sampleSteps(heads);
    } catch (e) {
      problems.push(problem("file-unreadable", `cannot read result file (${readFailure(e)})`, { file }));
      sampled = sampleSteps(heads);
    }
    if (sampled.length >= DETECTION_SAMPLE) break;
  }
  return sampled;
}

/** The copy of one (model, category) to use: the one with the most distinct ids, the first found on a tie; unreadable copies are passed over. */
function chooseCopy(
  paths: readonly string[],
  category: ScoredResultCategory,
  known: ReadonlySet<string>,
  problems: Problem[],
  onLine: ReturnType<typeof recordedTurnsVisitor>,
  host: Host,
): { path: string; candidates: number } | null {
  if (paths.length === 1) return { path: paths[0], candidates: 1 };
  let best: { path: string; ids: number } | null = null;
  for (const path of paths) {
    const counted = readResultFile(path, category, { host, wanted: null, knownMissIds: known, onLine });
    if (!counted.readable) {
      pushAll(problems, counted.problems);
      continue;
    }
    if (best === null || counted.distinctIds > best.ids) best = { path, ids: counted.distinctIds };
  }
  return best ? { path: best.path, candidates: paths.length } : null;
}

/** The one empty list every reduced record shares (none is ever added to: the record types are read-only). */
const NONE: readonly never[] = Object.freeze([]);

/** A twin reading reduced to its status and decisions (see `RecordsKept`). */
function bareReading(t: TwinReading): TwinReading {
  // a reading taken as its line was read may hold nothing more already
  if (t.anchorCalls.length + t.preAnchorCallNames.length + t.anchorText.length + t.offListNames.length === 0) return t;
  return { ...t, anchorCalls: NONE, preAnchorCallNames: NONE, anchorText: NONE, offListNames: NONE };
}

/** What reading one model gives back: its models (one per trial) and the check of its rollouts against their data. */
type ModelReadOut = { models: Omit<ModelRead, "bfclVersion" | "dataCheck">[]; check: RolloutDataCheck };

/** Read one model's files in one pass each, and score it. */
function readModel(
  found: TreeModel,
  manifest: Manifest,
  on: OnManifest,
  req: ReadRequest,
  scores: { model: TreeModel | null } | null,
  logged: LoggedTurnsMemo,
  keepWhole = false,
): ModelReadOut {
  const problems: Problem[] = [];
  // lines without a log (inference errors) are compared last, with the turns their score file's prompt keeps, when it is read
  const streamed = dataCheckWithPrompts(on.candidate);
  const onLine = recordedTurnsVisitor(streamed.onItem, logged);
  const dataCheck = streamed.result;
  const base = { model: found.name, folder: found.model, run: found.run, found, manifest };
  const { host } = req.ctx;
  const runRecord = readRunRecord(found, host, problems);
  const none = unscored(runRecord);
  // the copy of each category, then the decoder from the head of the files chosen
  const { chosen, missing } = chooseCopies(found, on, problems, onLine, host);
  const paths = scoredResultCategories.flatMap((c) => (chosen[c] ? [chosen[c]!.path] : []));
  const decided =
    paths.length === 0 ? { choice: null, problems: [] } : chooseModelDecoder(found, req.decoder, manifest.source.bfclVersion, host);
  pushAll(problems, decided.problems);
  const choice = decided.choice;
  if (paths.length > 0 && choice === null) {
    problems.push(problem("decoder-unknown", `unknown decoder ${req.decoder}`));
    return { models: [{ ...base, filesUsed: {}, decoder: null, problems, ...none }], check: dataCheck() };
  }
  // one pass per file: the lines the pairs need (their long texts cut, or only their readings, when that is all that is kept), and whatever else was asked for
  const keeper =
    choice === null
      ? undefined
      : lineKeeper(req, on, decoderExpected(choice.decoder, req.decoder !== undefined, runRecord?.settings.mode ?? null), keepWhole);
  const { filesUsed, readings } = readChosenFiles(chosen, missing, { host, on, onLine, req, scores, keepRollout: keeper?.keep }, problems);
  const shapes = notBfclLinesProblem(found.name, problems);
  if (shapes !== null) problems.push(shapes);
  const census: Partial<Record<ScoredResultCategory, ResultCensus>> = {};
  for (const c of scoredResultCategories) if (readings[c]?.census) census[c] = readings[c]!.census!;
  const decoder = choice === null ? null : summarizeChoice(choice);
  if (missing.length > 0) {
    problems.push(
      problem(
        "category-missing",
        `model ${found.name}: no readable ${[...new Set(missing)].join(", ")} result file; a model is scored only when base, miss_func and miss_param are all present`,
      ),
    );
    return { models: [{ ...base, filesUsed, decoder, problems, ...none, census }], check: dataCheck() };
  }
  const read = { base, filesUsed, decoder, problems, none, census, runRecord, dataCheck };
  const scored = scoreModelFiles(read, readings as Record<ScoredResultCategory, ResultFileReading>, choice!, keeper, req, on, scores);
  // lines kept for a decoder other than the one the lines record: read again with them whole
  return scored ?? readModel(found, manifest, on, req, scores, logged, true);
}

/**
 * How the lines of a model read under `expected` are kept: their long texts cut (a command
 * that shows texts bounded), only their outcome readings (a command that keeps outcomes),
 * or whole (any other, and a model read again whole: `keepWhole`).
 */
function lineKeeper(req: ReadRequest, on: OnManifest, expected: Decoder, keepWhole: boolean): LineKeeper | undefined {
  if (keepWhole) return undefined;
  if (req.textLimit !== undefined) return longTextCutter(on.pairs, expected, req.textLimit);
  if (req.keep !== "outcomes") return undefined;
  const reader = outcomeReader(on.pairs, expected);
  return { keep: reader.keep, decoder: reader.decoder, tiedLines: reader.readLines };
}

/** The folder's `run.json`, or null (a record that cannot be read is a warning, and the folder is read as one without it). */
function readRunRecord(found: TreeModel, host: Host, problems: Problem[]): RunRecord | null {
  const recorded = host.readRunRecord(found.dir);
  if (recorded.problem !== null)
    problems.push({
      ...recorded.problem,
      severity: "warning",
      message: `${recorded.problem.message}; the folder is read as one without it`,
    });
  return recorded.record;
}

/** What a model that is not scored reads as, besides its names, files and problems. */
function unscored(runRecord: RunRecord | null) {
  return {
    score: null,
    census: {},
    official: null,
    texts: null,
    bytes: null,
    firstStepTokens: null,
    openings: null,
    injectedLines: null,
    history: modelHistory({ own: 0, reference: 0 }),
    runRecord,
    blocks: null,
    trial: null,
  };
}

/** The copy of each scored category's file to read (the categories with none listed as missing). */
function chooseCopies(
  found: TreeModel,
  on: OnManifest,
  problems: Problem[],
  onLine: LineVisitor,
  host: Host,
): { chosen: Partial<Record<ScoredResultCategory, { path: string; candidates: number }>>; missing: string[] } {
  const chosen: Partial<Record<ScoredResultCategory, { path: string; candidates: number }>> = {};
  const missing: string[] = [];
  for (const category of scoredResultCategories) {
    const paths = (found.files[category] ?? []).map((f) => f.path);
    const c = paths.length === 0 ? null : chooseCopy(paths, category, on.known, problems, onLine, host);
    if (c === null) missing.push(category);
    else chosen[category] = c;
  }
  return { chosen, missing };
}

/** What each file of a model is read with. */
interface FileReadOptions {
  readonly host: Host;
  readonly on: OnManifest;
  readonly onLine: LineVisitor;
  readonly req: ReadRequest;
  readonly scores: { model: TreeModel | null } | null;
  readonly keepRollout: FilePass["keepRollout"];
}

/** Read each chosen file in one pass (a file that cannot be read is added to `missing`). */
function readChosenFiles(
  chosen: Partial<Record<ScoredResultCategory, { path: string; candidates: number }>>,
  missing: string[],
  opts: FileReadOptions,
  problems: Problem[],
): { filesUsed: Partial<Record<ScoredResultCategory, FileUsed>>; readings: Partial<Record<ScoredResultCategory, ResultFileReading>> } {
  const { host, on, onLine, scores } = opts;
  const needs = opts.req.needs ?? {};
  const filesUsed: Partial<Record<ScoredResultCategory, FileUsed>> = {};
  const readings: Partial<Record<ScoredResultCategory, ResultFileReading>> = {};
  for (const category of scoredResultCategories) {
    const c = chosen[category];
    if (c === undefined) continue;
    const wanted = on.need[category];
    const reading = readResultFile(c.path, category, {
      host,
      wanted,
      knownMissIds: on.known,
      onLine,
      census: needs.census === true || scores !== null || needs.texts === true,
      texts: needs.texts ? on.texts : undefined,
      wholeFile: needs.wholeFiles,
      firstStepTokens: needs.firstStepTokens,
      openings: needs.openings && category !== "base",
      injected: needs.injected,
      keepRollout: opts.keepRollout,
    });
    pushAll(problems, reading.problems);
    if (!reading.readable) {
      missing.push(category);
      continue;
    }
    readings[category] = reading;
    filesUsed[category] = { file: c.path, lines: reading.lines, distinctIds: reading.distinctIds, candidates: c.candidates };
  }
  return { filesUsed, readings };
}

/** A model whose three files were read: what its reading carries whether or not it is scored. */
interface ModelFilesRead {
  readonly base: Pick<ModelRead, "model" | "folder" | "run" | "found" | "manifest">;
  readonly filesUsed: Partial<Record<ScoredResultCategory, FileUsed>>;
  readonly decoder: DecoderChoiceSummary | null;
  readonly problems: Problem[];
  readonly none: ReturnType<typeof unscored>;
  readonly census: Partial<Record<ScoredResultCategory, ResultCensus>>;
  readonly runRecord: RunRecord | null;
  readonly dataCheck: (prompts?: ReadonlyMap<string, TurnQueries>) => RolloutDataCheck;
}

/**
 * Score a model whose three files were read, once its lines agree on their history, mode,
 * injected block and trials (else it is one model with the problem, not scored); null when
 * its texts were cut for a decoder other than the one its lines record (read it again whole).
 */
function scoreModelFiles(
  read: ModelFilesRead,
  readings: Record<ScoredResultCategory, ResultFileReading>,
  choice: DecoderChoice,
  keeper: LineKeeper | undefined,
  req: ReadRequest,
  on: OnManifest,
  scores: { model: TreeModel | null } | null,
): ModelReadOut | null {
  const { base, filesUsed, decoder, problems, none, census, runRecord, dataCheck } = read;
  const all = scoredResultCategories.map((c) => readings[c]);
  // the twins of a pair must reach the anchor the same way: a model whose lines mix both histories is not scored
  const history = modelHistory({
    own: all.reduce((n, r) => n + r.histories.own, 0),
    reference: all.reduce((n, r) => n + r.histories.reference, 0),
  });
  if (history.protocol === "mixed") {
    problems.push(problem("history-mixed", mixedHistoryMessage(base.model, history)));
    return { models: [{ ...base, filesUsed, decoder, problems, ...none, census, history }], check: dataCheck() };
  }
  // what made the lines: one mode (it chooses the decoder) and one injected block, or the model is not scored
  const made = madeBy(base.model, all, runRecord);
  if (made.refusal !== null) {
    problems.push(made.refusal);
    return { models: [{ ...base, filesUsed, decoder, problems, ...none, census, history, blocks: made.blocks }], check: dataCheck() };
  }
  const used =
    req.decoder === undefined && made.mode !== null
      ? { decoder: made.mode === "fc" ? fcDecoder : promptingDecoder, source: "run" as const, reason: made.reason }
      : choice;
  if (keeper !== undefined && keeper.tiedLines() > 0 && keeper.decoder !== used.decoder) return null;
  // a folder of `run --trials K` is K models of one pass: each trial's lines scored on their own
  const trials = trialCount(base.model, runRecord, all);
  if (typeof trials !== "number") {
    problems.push(trials);
    return { models: [{ ...base, filesUsed, decoder, problems, ...none, census, history, blocks: made.blocks }], check: dataCheck() };
  }
  const folder = { ...base, filesUsed, history, runRecord, blocks: made.blocks };
  if (trials === 1 && readings.base.trials.indexed + readings.miss_func.trials.indexed + readings.miss_param.trials.indexed === 0) {
    const one = scoreReadings(folder, readings, used, problems, req, on, scores);
    return { models: [one], check: dataCheck(one.official?.promptTurns) };
  }
  const models = Array.from({ length: trials }, (_, t) => {
    const view = Object.fromEntries(scoredResultCategories.map((c) => [c, trialReading(readings[c], t)]));
    // the folder's own problems go with its first trial; each trial's reading warnings with it
    const name = `trial-${t}/${base.model}`;
    const trial = { index: t, of: trials };
    return scoreReadings(
      { ...folder, model: name, trial },
      view as Record<ScoredResultCategory, ResultFileReading>,
      used,
      t === 0 ? problems : [],
      req,
      on,
      scores,
    );
  });
  return { models, check: dataCheck(models[0].official?.promptTurns) };
}

/** How many trials a model's lines hold (1: a run of one), or the problem that keeps it from being scored: lines with and without a trial index, or indices past `run.json`'s count. */
function trialCount(model: string, record: RunRecord | null, readings: readonly ResultFileReading[]): number | Problem {
  const recorded = record?.settings.trials ?? null;
  const indexed = readings.reduce((n, r) => n + r.trials.indexed, 0);
  if (indexed === 0 && (recorded === null || recorded <= 1)) return 1;
  const refuse = (why: string, at?: { file: string; line: number }) =>
    problem("trial-malformed", `model ${model}: ${why}; a folder of run --trials K holds one line of each item per trial (not scored)`, at);
  const bare = readings.find((r) => r.trials.firstUnindexed !== null);
  if (bare !== undefined) {
    const unindexed = readings.reduce((n, r) => n + r.trials.unindexed, 0);
    const why =
      indexed === 0
        ? `run.json records ${recorded} trials and its lines carry no trial index (${TRIAL_KEY})`
        : `${counted(unindexed, "line")} ${unindexed === 1 ? "carries" : "carry"} no trial index (${TRIAL_KEY}) beside ${counted(indexed, "line")} that ${indexed === 1 ? "does" : "do"}`;
    return refuse(why, { file: bare.file, line: bare.trials.firstUnindexed! });
  }
  const max = Math.max(...readings.map((r) => r.trials.max));
  if (recorded !== null && recorded <= 1) {
    const first = readings.find((r) => r.trials.firstIndexed !== null)!;
    return refuse(
      `run.json records one trial and ${counted(indexed, "line")} ${indexed === 1 ? "carries" : "carry"} a trial index (${TRIAL_KEY})`,
      {
        file: first.file,
        line: first.trials.firstIndexed!,
      },
    );
  }
  if (recorded !== null && max >= recorded) {
    const past = readings.find((r) => r.trials.max === max)!;
    return refuse(`a line is of trial ${max}, past the ${counted(recorded, "trial")} run.json records`, {
      file: past.file,
      line: past.trials.maxLine!,
    });
  }
  return recorded ?? max + 1;
}

/** One trial's part of a file's reading: its lines' rollouts, census, texts and counts, under their own keys. */
function trialReading(r: ResultFileReading, t: number): ResultFileReading {
  const census = r.census === null ? null : censusOfTrial(r.census, t);
  return {
    ...r,
    rollouts: trialPart(r.rollouts, t),
    lineOf: trialPart(r.lineOf, t),
    census,
    texts: r.texts === null ? null : trialPart(r.texts, t),
    bytes: r.bytes === null ? null : linesOfTrial(r.bytes, t),
    firstStepTokens: r.firstStepTokens === null ? null : trialPart(r.firstStepTokens, t),
    openings: r.openings === null ? null : trialPart(r.openings, t),
  };
}

/** One trial's part of a file's census. */
function censusOfTrial(c: ResultCensus, t: number): ResultCensus {
  const suffix = trialKey("", t);
  return {
    file: c.file,
    ids: c.ids.filter((id) => id.endsWith(suffix)).map((id) => id.slice(0, -suffix.length)),
    turnCount: trialPart(c.turnCount, t),
    stopped: trialPart(c.stopped, t),
  };
}

/** What a model's scoring reads of its folder besides its lines: its names, files used, history, record and blocks (a trial also its index). */
type FolderRead = Pick<ModelRead, "model" | "folder" | "run" | "found" | "manifest" | "filesUsed" | "history" | "runRecord" | "blocks"> & {
  readonly trial?: ModelRead["trial"];
};

/** Score one model (or one trial of it) from its files' readings, with the extras asked for. */
function scoreReadings(
  folder: FolderRead,
  readings: Record<ScoredResultCategory, ResultFileReading>,
  used: DecoderChoice,
  problems: Problem[],
  req: ReadRequest,
  on: OnManifest,
  scores: { model: TreeModel | null } | null,
): Omit<ModelRead, "bfclVersion" | "dataCheck"> {
  const needs = req.needs ?? {};
  const { model: name, filesUsed, history } = folder;
  const census: Partial<Record<ScoredResultCategory, ResultCensus>> = {};
  for (const c of scoredResultCategories) if (readings[c].census) census[c] = readings[c].census!;
  const scored = scoreModel(
    name,
    on.pairs,
    { base: readings.base.rollouts, miss_func: readings.miss_func.rollouts, miss_param: readings.miss_param.rollouts },
    used.decoder,
  );
  pushAll(problems, readingWarnings(name, scored.records, scored.missing, used, filesUsed, history.protocol === "reference"));
  const records: readonly PairRecord[] =
    req.keep === "all"
      ? scored.records
      : scored.records.map((r) => ({ ...r, independentSteps: NONE, base: bareReading(r.base), miss: bareReading(r.miss) }));
  const official = scores === null ? null : officialOf(name, census, scores.model, history, req.ctx.host);
  const merged = <V>(pick: (r: ResultFileReading) => ReadonlyMap<string, V> | null): Map<string, V> => {
    const all = new Map<string, V>();
    for (const c of scoredResultCategories) for (const [id, v] of pick(readings[c]) ?? []) all.set(id, v);
    return all;
  };
  let bytes: Partial<Record<ScoredResultCategory, Uint8Array>> | null = null;
  if (needs.wholeFiles) {
    bytes = {};
    for (const c of scoredResultCategories) if (readings[c].bytes) bytes[c] = readings[c].bytes!;
  }
  return {
    ...folder,
    trial: folder.trial ?? null,
    decoder: summarizeChoice(used),
    problems,
    score: { model: name, counts: readingCounts(scored.records), records },
    census,
    official,
    texts: needs.texts ? merged((r) => r.texts) : null,
    bytes,
    firstStepTokens: needs.firstStepTokens ? merged((r) => r.firstStepTokens) : null,
    openings: needs.openings ? merged((r) => r.openings) : null,
    injectedLines: needs.injected ? scoredResultCategories.reduce((n, c) => n + (readings[c].injectedLines ?? 0), 0) : null,
  };
}

/** BFCL's verdicts of a model's files (under the --scores given), with why they are missing or not the model's. */
function officialOf(
  name: string,
  census: Partial<Record<ScoredResultCategory, ResultCensus>>,
  scoresModel: TreeModel | null,
  history: ModelHistory,
  host: Host,
): OfficialReading {
  let official = readOfficial(name, census, scoresModel, host);
  if (scoresModel === null) {
    official = {
      ...official,
      problems: [
        problem("score-model-missing", `model ${name}: no score files under the --scores directories`, { severity: "warning" }),
        ...official.problems,
      ],
    };
  }
  if (history.protocol === "reference") {
    // BFCL's checker read the reference's calls on the played turns as the model's: no verdict of its files is the model's
    official = {
      ...official,
      verdicts: new Map(),
      categories: [],
      problems: [problem("official-meaningless", officialMeaninglessMessage(name), { severity: "warning" })],
    };
  }
  return official;
}

/**
 * The mode and injected block a model's lines were made with: the mode from `run.json`,
 * else from the lines' `twinscore_mode` (null: neither says, the decoder is chosen as for
 * BFCL's runs); a refusal when the lines record two modes, a mode other than the record's,
 * or lines with turns of which some carry an injected block and others another or none.
 */
export function madeBy(
  model: string,
  readings: readonly Pick<ResultFileReading, "modes" | "blocks">[],
  record: RunRecord | null,
): { mode: RunMode | null; reason: string; refusal: Problem | null; blocks: NonNullable<ModelRead["blocks"]> } {
  const modes = { fc: 0, prompting: 0, unrecorded: 0 };
  const byBlock = new Map<string, { lines: number; head: string | null }>();
  for (const r of readings) {
    modes.fc += r.modes.fc;
    modes.prompting += r.modes.prompting;
    modes.unrecorded += r.modes.unrecorded;
    for (const [k, v] of r.blocks) {
      const seen = byBlock.get(k);
      byBlock.set(k, { lines: (seen?.lines ?? 0) + v.lines, head: v.head });
    }
  }
  const blocks = { lines: modes.fc + modes.prompting + modes.unrecorded, byBlock };
  const refuse = (message: string) => ({
    mode: null,
    reason: "",
    refusal: problem("run-mixed", `model ${model}: ${message}; one folder must hold one run's lines (not scored)`),
    blocks,
  });
  if (modes.fc > 0 && modes.prompting > 0)
    return refuse(`its lines were made in two modes (${modes.fc} fc, ${modes.prompting} prompting), which no one decoder reads`);
  const lineMode: RunMode | null = modes.fc > 0 ? "fc" : modes.prompting > 0 ? "prompting" : null;
  const recordMode = record?.settings.mode ?? null;
  if (recordMode !== null && lineMode !== null && recordMode !== lineMode)
    return refuse(`run.json says mode ${recordMode} and ${modes[lineMode]} lines say ${lineMode}`);
  if (byBlock.size > 1) {
    const parts = [...byBlock]
      .sort((a, b) => b[1].lines - a[1].lines)
      .map(([k, v]) => (k === NO_BLOCK ? `${v.lines} without an injected block` : `${v.lines} with ${JSON.stringify(v.head)}`));
    return refuse(`its lines were made with different injected blocks (${parts.join(", ")})`);
  }
  if (recordMode !== null)
    return { mode: recordMode, reason: `run.json: made by twinscore run in ${recordMode} mode`, refusal: null, blocks };
  if (lineMode !== null) return { mode: lineMode, reason: `its lines record twinscore run's ${lineMode} mode`, refusal: null, blocks };
  return { mode: null, reason: "", refusal: null, blocks };
}

/**
 * One line for a model whose lines are not in the shape `bfcl generate` writes (each turn a
 * string rather than a list of steps, say): how many, what shape was found (first where),
 * and what BFCL writes. Each such line is also a `result-shape` warning of its own, and is
 * read as missing; null when every line has BFCL's shape.
 */
export function notBfclLinesProblem(model: string, problems: readonly Problem[]): Problem | null {
  const shaped = problems.filter((p) => p.code === "result-shape");
  if (shaped.length === 0) return null;
  const found = new Map<string, number>();
  for (const p of shaped) {
    const what = p.message
      .replace(/^turn \d+ of /, "a turn of ")
      .replace(/, (not a list of steps|neither a list of turns nor an error string)$/, "");
    found.set(what, (found.get(what) ?? 0) + 1);
  }
  const first = shaped[0];
  return problem(
    "not-bfcl-lines",
    notBfclLinesMessage(
      `model ${model}`,
      found,
      "These lines are read as missing: write them in BFCL's shape (or generate them with bfcl generate or twinscore run)",
    ),
    {
      ...(first.file !== undefined ? { file: first.file } : {}),
      ...(first.line !== undefined ? { line: first.line } : {}),
      severity: "warning",
    },
  );
}

/** The handler BFCL's registry gives a model, and its decoder, in words: `MistralHandler (BFCL registry key …, function-calling mode; decoder fc)`. */
function handlerWords(chosen: DecoderChoiceSummary): string {
  return `the handler BFCL's registry gives it (${chosen.reason.replace(/^BFCL (v\d+ )?registry key /, "key ")}; decoder ${chosen.name})`;
}

/** Why BFCL's verdicts on a model whose turns before the anchor were played from the reference are left out. */
export function officialMeaninglessMessage(model: string): string {
  return (
    `model ${model}: BFCL's verdicts on its lines are left out: their turns before the anchor were played from the reference (twinscore run --history reference), ` +
    `not generated by the model, so BFCL's checker reads the reference's calls as the model's; the official score of such a run is meaningless`
  );
}

/**
 * What reading a model's records is warned about: a file whose anchor-turn tool calls
 * mostly fail to decode (a wrong decoder), each missing line, the twins whose history is
 * not exact, the undecidable pairs.
 */
function readingWarnings(
  model: string,
  records: readonly PairRecord[],
  missing: readonly { pair: ManifestPair; absent: string[] }[],
  choice: DecoderChoice,
  filesUsed: Partial<Record<ScoredResultCategory, FileUsed>>,
  reference: boolean,
): Problem[] {
  return [
    ...decoderWarnings(model, records, choice, filesUsed),
    ...missingLineWarnings(model, missing, filesUsed, reference),
    ...historyWarnings(model, records),
    ...undecidableWarnings(model, records),
  ];
}

/**
 * The wrong-decoder guard, on the anchor-turn steps scoring read: one line per file past 5 %
 * failures; with the decoder of the model's handler in BFCL's registry, calls written as text
 * are the server's doing, and the audit says so.
 */
function decoderWarnings(
  model: string,
  records: readonly PairRecord[],
  choice: DecoderChoice,
  filesUsed: Partial<Record<ScoredResultCategory, FileUsed>>,
): Problem[] {
  const problems: Problem[] = [];
  const chosen = summarizeChoice(choice);
  const audit = chosen.source === "registry" ? parseAudit(records) : null;
  for (const category of scoredResultCategories) {
    const file = filesUsed[category]!.file;
    const textCalls =
      audit !== null
        ? textCallLine(
            model,
            audit.find((a) => a.category === category)!,
            handlerWords(chosen),
          )
        : null;
    if (textCalls !== null) {
      problems.push(problem("text-calls", textCalls, { file, severity: "warning" }));
      continue;
    }
    const health = { steps: 0, toolLooking: 0, failed: 0, firstError: null };
    for (const twin of twinsIn(records, category)) {
      health.toolLooking += twin.toolCallSteps;
      health.failed += twin.decodeFailures;
    }
    const line = decodeFailureMessage(health, chosen, "anchor-turn tool-call steps");
    if (line !== null)
      problems.push(problem(chosen.source === "registry" ? "undecoded-steps" : "decode-failures", line, { file, severity: "warning" }));
  }
  return problems;
}

/** One warning per line the pairs need and the files lack (per item and anchor for lines played from the reference). */
function missingLineWarnings(
  model: string,
  missing: readonly { pair: ManifestPair; absent: string[] }[],
  filesUsed: Partial<Record<ScoredResultCategory, FileUsed>>,
  reference: boolean,
): Problem[] {
  const problems: Problem[] = [];
  const reported = new Set<string>();
  for (const m of missing) {
    for (const id of m.absent) {
      // lines played from the reference are one per item and anchor: a line is missing for an anchor
      const key = reference ? anchoredKey(id, m.pair.anchorTurn) : id;
      if (reported.has(key)) continue;
      reported.add(key);
      const category = id.startsWith("multi_turn_base_") ? "base" : m.pair.category;
      const line = reference ? `no line for anchor turn ${m.pair.anchorTurn}` : "no line";
      problems.push(
        problem("rollout-missing", `${id} has ${line} in this file; the pairs on it are not scored for ${model}`, {
          file: filesUsed[category]!.file,
          severity: "warning",
        }),
      );
    }
  }
  return problems;
}

/** The first few pairs of `rs`, by their should-ask ids. */
function firstIds(rs: readonly PairRecord[]): string {
  return `${rs
    .slice(0, 3)
    .map((r) => r.missId)
    .join(", ")}${rs.length > 3 ? ", …" : ""}`;
}

/** Lines played from the reference: the pairs whose twins did not both reach the anchor on the reference's turns. */
function historyWarnings(model: string, records: readonly PairRecord[]): Problem[] {
  const problems: Problem[] = [];
  const anchorPlayed = records.filter((r) => r.base.history === "anchor-played" || r.miss.history === "anchor-played");
  if (anchorPlayed.length > 0) {
    problems.push(
      problem(
        "history-anchor-played",
        `model ${model}: ${counted(anchorPlayed.length, "pair")} ${anchorPlayed.length === 1 ? "has" : "have"} a twin whose anchor turn itself was played from the reference, not generated (${firstIds(anchorPlayed)}); that side holds no decision of the model's and is read as missing`,
        { severity: "warning" },
      ),
    );
  }
  const partial = records.filter((r) => !anchorPlayed.includes(r) && (r.base.history === "partial" || r.miss.history === "partial"));
  if (partial.length > 0) {
    problems.push(
      problem(
        "history-partial",
        `model ${model}: ${counted(partial.length, "pair")} ${partial.length === 1 ? "is not an exact twin" : "are not exact twins"}: a twin's line played from the reference only some of the turns before this pair's anchor, the others are the model's (${firstIds(partial)}); they are scored as read`,
        { severity: "warning" },
      ),
    );
  }
  return problems;
}

/** The pairs whose anchor turn holds call-like text that names no function. */
function undecidableWarnings(model: string, records: readonly PairRecord[]): Problem[] {
  const undecidable = records.filter((r) => r.status === "undecidable");
  if (undecidable.length === 0) return [];
  const first = undecidable
    .slice(0, 3)
    .map((r) => r.missId)
    .join(", ");
  return [
    problem(
      "pair-undecidable",
      `model ${model}: ${counted(undecidable.length, "pair")} undecidable: an anchor turn holds call-like text that names no function (${first}${undecidable.length > 3 ? ", …" : ""})`,
      {
        severity: "warning",
      },
    ),
  ];
}
