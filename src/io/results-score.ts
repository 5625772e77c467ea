/**
 * Scoring one model from its result files: choose one copy per category when its folder
 * holds several (the copy with the most distinct ids wins, the first found on a tie;
 * copies are never merged), read
 * only the lines and turns scoring needs, and hand them to the pure scorer. This is the
 * unit of work a worker thread runs (`results-pool.ts`).
 */
import { chooseDecoder, decodeFailureMessage, pyStepsOf, summarizeChoice, type DecoderChoiceSummary } from "../bfcl/decode/index.js";
import type { RecordedRollout } from "../bfcl/results.js";
import { categoryOfItemId, scoredResultCategories, type ScoredResultCategory } from "../bfcl/categories.js";
import { readingCounts, scoreModel, turnsNeeded } from "../decision/score.js";
import type { ModelScore, PairRecord, ScoreOptions, TwinReading } from "../decision/types.js";
import { problem, type Problem } from "../messages/index.js";
import type { ManifestPair } from "../pairs/types.js";
import { rolloutDataCheckBuilder, type DataCandidate, type RolloutDataCheck } from "../pairs/rollout-data.js";
import type { PyValue } from "../python/value.js";
import type { TreeModel } from "./tree.js";
import { readResultFile, type LineVisitor } from "./results-read.js";
import { firstTurnVisitor } from "./rollout-data.js";

/**
 * The unit of work of scoring one model (plain data, so it can cross to a worker): its
 * name as printed and its candidate files per scored category, in the walk's order.
 */
export interface ModelCandidates {
  readonly model: string;
  /** The model folder's name: BFCL's model name, which its checker uses (`model` may be `<run>/<model>`). */
  readonly folder: string;
  readonly files: Readonly<Record<ScoredResultCategory, readonly string[]>>;
}

/** The scoring job of a model the walk found. */
export function candidatesOf(found: TreeModel): ModelCandidates {
  const paths = (c: ScoredResultCategory) => (found.files[c] ?? []).map((f) => f.path);
  return { model: found.name, folder: found.model, files: Object.fromEntries(scoredResultCategories.map((c) => [c, paths(c)])) as Record<ScoredResultCategory, string[]> };
}

/** The file used for one category of one model, and how it was chosen. */
export interface FileUsed {
  readonly file: string;
  readonly lines: number;
  readonly distinctIds: number;
  /** How many copies of this (model, category) were found in all trees. */
  readonly candidates: number;
}

/** One model's outcome: scored, or not scored because a category is missing or unreadable. */
export interface ModelRun {
  readonly model: string;
  /** The model folder's name (BFCL's model name). */
  readonly folder: string;
  readonly filesUsed: Partial<Record<ScoredResultCategory, FileUsed>>;
  /** Null when the model could not be scored (a category missing). */
  readonly score: ModelScore | null;
  readonly problems: Problem[];
  /** The model's decoder and why it was chosen (absent when no file could be read). */
  readonly decoder?: DecoderChoiceSummary;
  /** With `ScoreFilesOptions.dataCheck`: the first turns of its lines against that data (`checkRecordedFirstTurns`). */
  readonly dataCheck?: RolloutDataCheck;
}

/** What else scoring a model's files does. */
export interface ScoreFilesOptions {
  /** How much of the pair records to return (default all). */
  readonly kept?: RecordsKept;
  /**
   * The data the model's rollouts should have been generated on: its lines' first turns
   * are compared with it in the same pass over the files (the check `manifestsForModels`
   * otherwise reads the files for), the outcome in `ModelRun.dataCheck`.
   */
  readonly dataCheck?: DataCandidate | null;
}

/** Choose among copies of one (model, category): most distinct ids, first found on a tie; unreadable copies are passed over. */
function chooseCopy(
  paths: readonly string[],
  category: string,
  knownMissIds: ReadonlySet<string> | null,
  problems: Problem[],
  onLine: LineVisitor | undefined,
): { path: string; candidates: number } | null {
  if (paths.length === 1) return { path: paths[0], candidates: 1 };
  let best: { path: string; ids: number } | null = null;
  for (const path of paths) {
    const counted = readResultFile(path, category, null, knownMissIds, onLine);
    if (!counted.readable) {
      problems.push(...counted.problems);
      continue;
    }
    if (best === null || counted.distinctIds > best.ids) best = { path, ids: counted.distinctIds };
  }
  return best ? { path: best.path, candidates: paths.length } : null;
}


/** The steps of the rollouts read, file by file, as Python values (detection's samples). */
function* stepsOf(read: readonly ReadonlyMap<string, RecordedRollout>[]): Generator<PyValue> {
  for (const rollouts of read) for (const r of rollouts.values()) if (r.kind === "turns") yield* pyStepsOf(r.turns);
}

/**
 * How much of a model's pair records the caller reads once the model is scored: `all`
 * (per-item rows, the aligned numbers and Table F1 read the twins' calls) or `outcomes`
 * (the readings and the bootstrap read each side's status and decisions only: the twins'
 * calls and text are left empty). Whatever is not kept is dropped as each model ends, so
 * memory stays flat in the number of models.
 */
export type RecordsKept = "all" | "outcomes";

/** A twin reading reduced to its counts (see `RecordsKept`). */
function bareReading(t: TwinReading): TwinReading {
  return { ...t, anchorCalls: [], preAnchorCallNames: [], anchorText: [], offListNames: [] };
}

/** The records a caller keeps (see `RecordsKept`). */
function keptRecords(records: readonly PairRecord[], kept: RecordsKept): readonly PairRecord[] {
  if (kept === "all") return records;
  return records.map((r) => ({ ...r, independentSteps: [], base: bareReading(r.base), miss: bareReading(r.miss) }));
}

/**
 * Score one model's candidates on `pairs` (the pairs selected for `options`).
 * `knownMissIds` (the manifest's should-ask ids) lets foreign ids be reported; `kept`
 * says how much of the pair records to return.
 */
export function scoreModelFiles(
  candidates: ModelCandidates,
  pairs: readonly ManifestPair[],
  options: ScoreOptions,
  knownMissIds: ReadonlySet<string> | null = null,
  more: ScoreFilesOptions = {},
): ModelRun {
  const kept = more.kept ?? "all";
  const check = more.dataCheck ? rolloutDataCheckBuilder([more.dataCheck], "first") : null;
  const onLine = check === null ? undefined : firstTurnVisitor((item) => check.add(item));
  const checked = (run: ModelRun): ModelRun => (check === null ? run : { ...run, dataCheck: check.result() });
  const problems: Problem[] = [];
  const need = turnsNeeded(pairs);
  const filesUsed: Partial<Record<ScoredResultCategory, FileUsed>> = {};
  const rollouts: Partial<Record<ScoredResultCategory, ReturnType<typeof readResultFile>>> = {};
  const missingCategories: string[] = [];
  for (const category of scoredResultCategories) {
    const paths = candidates.files[category];
    const chosen = paths.length === 0 ? null : chooseCopy(paths, category, knownMissIds, problems, onLine);
    if (chosen === null) {
      missingCategories.push(category);
      continue;
    }
    const wanted = category === "base" ? need.base : new Map([...need.miss].filter(([id]) => categoryOfItemId(id) === category));
    const reading = readResultFile(chosen.path, category, wanted, knownMissIds, onLine);
    problems.push(...reading.problems);
    if (!reading.readable) {
      missingCategories.push(category);
      continue;
    }
    rollouts[category] = reading;
    filesUsed[category] = { file: chosen.path, lines: reading.lines, distinctIds: reading.distinctIds, candidates: chosen.candidates };
  }
  if (missingCategories.length > 0) {
    problems.push(
      problem(
        "category-missing",
        `model ${candidates.model}: no readable ${missingCategories.join(", ")} result file; a model is scored only when base, miss_func and miss_param are all present`,
      ),
    );
    return checked({ model: candidates.model, folder: candidates.folder, filesUsed, score: null, problems });
  }
  // the model's decoder: --decoder, else BFCL's registry entry for the folder, else detected from its steps
  const read = [rollouts.base!.rollouts, rollouts.miss_func!.rollouts, rollouts.miss_param!.rollouts];
  const choice = chooseDecoder({ folder: candidates.folder, override: options.decoder ?? null, samples: () => stepsOf(read) });
  if (choice === null) {
    problems.push(problem("decoder-unknown", `unknown decoder ${options.decoder}`));
    return checked({ model: candidates.model, folder: candidates.folder, filesUsed, score: null, problems });
  }
  const scored = scoreModel(
    candidates.model,
    pairs,
    { base: rollouts.base!.rollouts, miss_func: rollouts.miss_func!.rollouts, miss_param: rollouts.miss_param!.rollouts },
    choice.decoder,
  );
  // the wrong-decoder guard, on the anchor-turn steps scoring read: one line per file past 5 % failures
  for (const category of scoredResultCategories) {
    const health = { steps: 0, toolLooking: 0, failed: 0, firstError: null };
    const seen = new Set<string>();
    for (const r of scored.records) {
      const twin = category === "base" ? r.base : r.category === category ? r.miss : null;
      const key = category === "base" ? `${r.baseId}@${r.anchorTurn}` : r.missId;
      if (twin === null || seen.has(key)) continue;
      seen.add(key);
      health.toolLooking += twin.toolCallSteps;
      health.failed += twin.decodeFailures;
    }
    const line = decodeFailureMessage(health, choice.decoder.name, "anchor-turn tool-call steps");
    if (line !== null) problems.push(problem("decode-failures", line, { file: filesUsed[category]!.file, severity: "warning" }));
  }
  const reported = new Set<string>();
  for (const m of scored.missing) {
    for (const id of m.absent) {
      if (reported.has(id)) continue;
      reported.add(id);
      const category = categoryOfItemId(id) === "base" ? "base" : m.pair.category;
      problems.push(
        problem("rollout-missing", `${id} has no line in this file; the pairs on it are not scored for ${candidates.model}`, {
          file: filesUsed[category]!.file,
          severity: "warning",
        }),
      );
    }
  }
  const undecidable = scored.records.filter((r) => r.status === "undecidable");
  if (undecidable.length > 0) {
    problems.push(
      problem(
        "pair-undecidable",
        `model ${candidates.model}: ${undecidable.length} pair(s) undecidable: an anchor turn holds call-like text that names no function (${undecidable
          .slice(0, 3)
          .map((r) => r.missId)
          .join(", ")}${undecidable.length > 3 ? ", …" : ""})`,
        { severity: "warning" },
      ),
    );
  }
  const score = { model: candidates.model, counts: readingCounts(scored.records), records: keptRecords(scored.records, kept) };
  return checked({ model: candidates.model, folder: candidates.folder, filesUsed, score, problems, decoder: summarizeChoice(choice) });
}
