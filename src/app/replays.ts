/**
 * What BFCL's checker and the simulated classes say about a model's files, computed from what the pipeline
 * already read. These take seconds per model, so commands run them only when BFCL data is named. More in this
 * folder's README.md.
 */
import { scoredResultCategories, type BfclVersion } from "../bfcl/categories.js";
import { decoderByName, plainStepDecoder } from "../bfcl/decode/index.js";
import { lineFor } from "../bfcl/results.js";
import type { PairRecord } from "../decision/types.js";
import { counted, pushAll, err, errAll, ok, problem, type Problem, type Result } from "../messages/index.js";
import type { ManifestPair } from "../pairs/types.js";
import { checkPairPrefixes, twinCompletions, type PairPrefixes } from "../simulator/prefix-check.js";
import type { TwinCompletion } from "../official/aligned.js";
import type { EntryReadings } from "../simulator/run-check.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import { workaroundCredit, type WorkaroundPairInput, type WorkaroundSummary } from "../simulator/workaround.js";
import type { ScoredData } from "./bfcl-inputs.js";
import { CheckJobCache, runCheckJob, type CheckJob } from "./check-job.js";
import type { ModelRead } from "./pipeline.js";

/** Whether a model's result files are of the data's BFCL version (a file of another version would be checked against the wrong items). */
export function sameVersion(model: ModelRead, data: ScoredData): Result<void> {
  const problems: Problem[] = [];
  for (const c of scoredResultCategories) {
    const file = model.filesUsed[c];
    if (file !== undefined && model.bfclVersion !== null && model.bfclVersion !== data.version) {
      problems.push(
        problem(
          "bfcl-version-differs",
          `a BFCL ${model.bfclVersion} result file cannot be checked against the BFCL ${data.version} data in ${data.dataDir}`,
          { file: file.file },
        ),
      );
    }
  }
  return problems.length > 0 ? errAll(problems) : ok(undefined);
}

/** What BFCL's checker said on a model's twins, and the warnings met. */
export interface ModelCompletions {
  /** Both twins of every pair whose completion can be known, in pair order. */
  readonly prefixes: PairPrefixes[];
  /** Pairs left out, with why (a twin stopped by `run --until-anchor` before its prefix ends). */
  readonly problems: Problem[];
}

/**
 * Both twins of every pair checked on their prefixes, in pair order: the base twin through
 * the anchor turn T, the should-ask twin through T+1. A twin without a readable line is not
 * completed (reason `missing`). A pair with a twin that `run --until-anchor` stopped before
 * its prefix ends is left out (its completion is unknown, not false) and counted in one
 * warning.
 */
export function completionsOf(model: ModelRead, pairs: readonly ManifestPair[], data: ScoredData): Result<ModelCompletions> {
  const version = sameVersion(model, data);
  if (!version.ok) return version;
  const texts = model.texts ?? new Map<string, string>();
  const stopped = new Map<string, number>();
  for (const c of scoredResultCategories) for (const [id, t] of model.census[c]?.stopped ?? []) stopped.set(id, t);
  const cut = (id: string, anchorTurn: number, through: number) => (lineFor(stopped, id, anchorTurn) ?? Number.POSITIVE_INFINITY) < through;
  const known = pairs.filter((p) => !cut(p.baseId, p.anchorTurn, p.anchorTurn) && !cut(p.missId, p.anchorTurn, p.anchorTurn + 1));
  const decoder = model.decoder === null ? undefined : decoderByName(model.decoder.name);
  const checked = checkPairPrefixes(
    known,
    { inputs: data.inputs, results: texts },
    {
      modelName: model.folder,
      newProcess: () => newEvaluatorProcess(undefined, true, data.version),
      decode: decoder?.decode,
      decodePlain: decoder?.plain?.decode,
    },
  );
  if (!checked.ok) return checked;
  const problems: Problem[] = [];
  if (known.length < pairs.length) {
    problems.push(
      problem(
        "completion-unknown",
        `model ${model.folder}: ${counted(pairs.length - known.length, "pair")} ${pairs.length - known.length === 1 ? "has" : "have"} a twin that twinscore run stopped (--until-anchor, or --history reference without --continue) before the turn its completion needs (base: the anchor turn, withheld: the turn after); they are left out of the aligned numbers`,
        { severity: "warning" },
      ),
    );
  }
  return ok({ prefixes: checked.value, problems });
}

/** Every entry of a model's files under the three readings of the empty-reference turns, and the warnings met. */
export interface ModelEmptyTurns {
  readonly readings: Map<string, EntryReadings[]>;
  /** What `check` warns about on these files (lines stopped by `run --until-anchor`, left out). */
  readonly problems: Problem[];
}

/**
 * Every entry of the model's base, miss_func and miss_param files under BFCL's checker,
 * the strict and the world-changing reading of the empty-reference turns, by category —
 * checked as `check` checks a model folder (the same job, one evaluator process), on the
 * bytes the pipeline read.
 */
export function emptyTurnsOf(model: ModelRead, data: ScoredData): Result<ModelEmptyTurns> {
  const version = sameVersion(model, data);
  if (!version.ok) return version;
  const missing = scoredResultCategories.filter((c) => model.filesUsed[c] === undefined || model.bytes?.[c] === undefined);
  if (missing.length > 0 || model.decoder === null)
    return err(problem("category-missing", `model ${model.folder}: no ${missing.join(", ")} result file to check`));
  const cache = new CheckJobCache();
  for (const c of scoredResultCategories) cache.categories.set(`${data.version}/${c}`, ok(data.inputs[c]));
  const job: CheckJob = {
    model: model.folder,
    decoder: model.decoder,
    files: scoredResultCategories.map((category) => ({
      path: model.filesUsed[category]!.file,
      version: data.version,
      category,
      scoreRelative: "",
      storedScore: null,
      bytes: model.bytes![category],
    })),
  };
  const checked = runCheckJob(
    job,
    { dataDir: data.dataDir, longContextModule: null, emptyTurns: "strict", outDir: null, compareStored: false },
    cache,
  );
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  const readings = new Map<string, EntryReadings[]>();
  checked.forEach((r, i) => {
    if (!r.ok) pushAll(errors, r.problems);
    else {
      pushAll(warnings, r.value.problems);
      if (r.value.readings !== null) readings.set(scoredResultCategories[i], [...r.value.readings]);
    }
  });
  return errors.length > 0 ? errAll(errors) : ok({ readings, problems: warnings });
}

/**
 * Table F1 for one model: replay the miss_func attempts of `records` (the pairs its
 * reading scores) on the simulated BFCL classes of the data's version, from the texts the
 * pipeline read.
 */
export function workaroundOf(
  model: ModelRead,
  records: readonly PairRecord[],
  pairs: readonly ManifestPair[],
  data: ScoredData,
): Result<WorkaroundSummary> {
  const byId = new Map(pairs.map((p) => [p.missId, p]));
  const missIds = new Set(records.filter((r) => r.category === "miss_func").map((r) => r.missId));
  const inputs = new Map<string, Omit<WorkaroundPairInput, "record">>();
  for (const id of missIds) {
    const pair = byId.get(id);
    const miss = data.inputs.miss_func.questions.get(id);
    const base = pair ? data.inputs.base.questions.get(pair.baseId) : undefined;
    const gt = pair ? data.inputs.base.groundTruth.get(pair.baseId) : undefined;
    if (!pair || !miss || !base || !gt) return err(problem("bfcl-data-mismatch", `${id}: pair or its BFCL entries not found`));
    const text = model.texts?.get(id);
    inputs.set(id, {
      pair,
      missResult: text === undefined ? undefined : (JSON.parse(text) as unknown),
      missPrompt: miss.prompt,
      basePrompt: base.prompt,
      baseGroundTruth: gt,
    });
  }
  // the replay decodes the recorded steps (as JSON.parse gives them) with the model's decoder
  const decoder = model.decoder === null ? undefined : decoderByName(model.decoder.name);
  const decode = decoder === undefined ? undefined : plainStepDecoder(decoder);
  return ok(workaroundCredit(records, inputs, () => newEvaluatorProcess(undefined, false, data.version as BfclVersion), decode));
}

/** What BFCL's checker and the simulated classes say about one model, as far as a command asked. */
export interface ModelReplays {
  /** Table F1 (when asked): the miss_func attempts replayed. */
  readonly workaround: WorkaroundSummary | null;
  /** By miss id (when the checker was asked): did each twin complete its prefix. */
  readonly completions: ReadonlyMap<string, TwinCompletion> | null;
  /** By category (when the checker was asked): every entry under the empty-turn readings. */
  readonly emptyTurns: ReadonlyMap<string, EntryReadings[]> | null;
  /** Warnings and errors met; a part that failed is null. */
  readonly problems: Problem[];
}

/**
 * The one loop every command runs on a model when BFCL data is named: the workaround
 * replay of `records` (the pairs its reading scores), then BFCL's checker on the twins'
 * prefixes of `pairs` and on every entry of its files. `say` is told what starts.
 */
export function replaysOf(
  model: ModelRead,
  records: readonly PairRecord[],
  pairs: readonly ManifestPair[],
  data: ScoredData,
  want: { readonly workaround: boolean; readonly checker: boolean },
  say: (what: string) => void = () => {},
): ModelReplays {
  const problems: Problem[] = [];
  let workaround: WorkaroundSummary | null = null;
  let completions: ReadonlyMap<string, TwinCompletion> | null = null;
  let emptyTurns: ReadonlyMap<string, EntryReadings[]> | null = null;
  if (want.workaround) {
    say("workaround");
    const w = workaroundOf(model, records, pairs, data);
    if (w.ok) workaround = w.value;
    else pushAll(problems, w.problems);
  }
  if (want.checker) {
    say("checker");
    const prefixes = completionsOf(model, pairs, data);
    if (prefixes.ok) {
      completions = twinCompletions(prefixes.value.prefixes);
      pushAll(problems, prefixes.value.problems);
    } else pushAll(problems, prefixes.problems);
    const entries = emptyTurnsOf(model, data);
    if (entries.ok) {
      emptyTurns = entries.value.readings;
      pushAll(problems, entries.value.problems);
    } else pushAll(problems, entries.problems);
  }
  return { workaround, completions, emptyTurns, problems };
}
