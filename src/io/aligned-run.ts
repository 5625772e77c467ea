/**
 * The file side of the aligned numbers (`score --bfcl-data`, `report`, `compare`): read
 * the BFCL data of base, miss_func and miss_param once, then per model
 * - read the `result` of every twin of the pairs with the one streaming reader and run
 *   BFCL's checker on their prefixes (`simulator/prefix-check.ts`: base through the anchor
 *   turn, should-ask through the turn after it) — `base_completed`, `miss_completed`;
 * - check every entry of its three result files as `check` does (the same job, one
 *   evaluator process per model), under BFCL's checker and both readings of the turns
 *   whose reference is empty — the empty-turn table.
 * Both need the checker, so they are computed only when asked.
 */
import { readdirSync } from "node:fs";
import { basename } from "node:path";
import { parseBfclFileName, scoredResultCategories, type BfclVersion, type ScoredResultCategory } from "../bfcl/categories.js";
import { detectVersion } from "../bfcl/data.js";
import { decoderByName, fcDecoder, type DecoderName } from "../bfcl/decode/index.js";
import { err, ok, problem, type Problem, type Result } from "../messages/index.js";
import type { ManifestPair } from "../pairs/types.js";
import { checkPairPrefixes, type PairPrefixes } from "../simulator/prefix-check.js";
import type { CategoryInputs, EntryReadings } from "../simulator/run-check.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import { readCategoryInputs } from "./bfcl-data.js";
import { CheckJobCache, runCheckJob, type CheckJob } from "./check-job.js";
import { readFailure, readResultTexts } from "./results-read.js";

const categories = scoredResultCategories;

/** The BFCL data the aligned numbers are checked against, read once for every model. */
export interface AlignedData {
  readonly dataDir: string;
  readonly version: BfclVersion;
  readonly inputs: Readonly<Record<ScoredResultCategory, CategoryInputs>>;
}

/** Read and prepare base, miss_func and miss_param of a BFCL data folder (its version detected from the file names). */
export function readAlignedData(dataDir: string): Result<AlignedData> {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch (e) {
    return err(problem("file-missing", `BFCL data directory cannot be read (${readFailure(e)})`, { file: dataDir }));
  }
  const version = detectVersion(dataDir, names);
  if (!version.ok) return version;
  const inputs: Partial<Record<ScoredResultCategory, CategoryInputs>> = {};
  for (const c of categories) {
    const r = readCategoryInputs(dataDir, version.value, c);
    if (!r.ok) return r;
    inputs[c] = r.value;
  }
  return ok({ dataDir, version: version.value, inputs: inputs as Record<ScoredResultCategory, CategoryInputs> });
}

/** One model's three result files and its BFCL model name (the model folder's name, which BFCL's checker uses). */
export interface AlignedModelFiles {
  readonly modelName: string;
  readonly files: Readonly<Partial<Record<ScoredResultCategory, string>>>;
  /** The BFCL handler decoder of the model's steps, as `check --decoder` takes it (default: fc). */
  readonly decoder?: DecoderName;
}

/** The three files, each of the data's BFCL version (a file of another version would be checked against the wrong items). */
function filesOf(model: AlignedModelFiles, data: AlignedData): Result<Record<ScoredResultCategory, string>> {
  const missing = categories.filter((c) => model.files[c] === undefined);
  if (missing.length > 0) return err(problem("category-missing", `model ${model.modelName}: no ${missing.join(", ")} result file to check`));
  const problems: Problem[] = [];
  for (const c of categories) {
    const file = model.files[c] as string;
    const version = parseBfclFileName(basename(file))?.version;
    if (version !== undefined && version !== data.version) {
      problems.push(problem("bfcl-version-differs", `a BFCL ${version} result file cannot be checked against the BFCL ${data.version} data in ${data.dataDir}`, { file }));
    }
  }
  return problems.length > 0 ? err(...problems) : ok(model.files as Record<ScoredResultCategory, string>);
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
export function modelCompletions(model: AlignedModelFiles, pairs: readonly ManifestPair[], data: AlignedData): Result<ModelCompletions> {
  const files = filesOf(model, data);
  if (!files.ok) return files;
  const results = new Map<string, string>();
  const stopped = new Map<string, number>();
  for (const c of categories) {
    const ids = new Set(pairs.filter((p) => c === "base" || p.category === c).map((p) => (c === "base" ? p.baseId : p.missId)));
    try {
      for (const [id, text] of readResultTexts(files.value[c], ids, stopped)) results.set(id, text);
    } catch (e) {
      return err(problem("file-unreadable", `cannot read result file (${readFailure(e)})`, { file: files.value[c] }));
    }
  }
  const cut = (id: string, through: number) => (stopped.get(id) ?? Number.POSITIVE_INFINITY) < through;
  const known = pairs.filter((p) => !cut(p.baseId, p.anchorTurn) && !cut(p.missId, p.anchorTurn + 1));
  const decoder = model.decoder === undefined ? undefined : decoderByName(model.decoder);
  const checked = checkPairPrefixes(
    known,
    { inputs: data.inputs, results },
    { modelName: model.modelName, newProcess: () => newEvaluatorProcess(undefined, true, data.version), decode: decoder?.decode, decodePlain: decoder?.plain?.decode },
  );
  if (!checked.ok) return checked;
  const problems: Problem[] = [];
  if (known.length < pairs.length) {
    problems.push(
      problem(
        "completion-unknown",
        `model ${model.modelName}: ${pairs.length - known.length} pair(s) have a twin that twinscore run --until-anchor stopped before the turn its completion needs (base: the anchor turn, withheld: the turn after); they are left out of the aligned numbers`,
        { severity: "warning" },
      ),
    );
  }
  return ok({ prefixes: checked.value, problems });
}

/** Every entry of a model's files under the three readings of the empty-reference turns, and the warnings met. */
export interface ModelEmptyTurns {
  readonly readings: Map<ScoredResultCategory, EntryReadings[]>;
  /** What `check` warns about on these files (lines stopped by `run --until-anchor`, left out). */
  readonly problems: Problem[];
}

/**
 * Every entry of the model's base, miss_func and miss_param files under BFCL's checker,
 * the strict and the world-changing reading of the empty-reference turns, by category —
 * checked as `check` checks a model folder (one evaluator process, the same job).
 */
export function modelEmptyTurns(model: AlignedModelFiles, data: AlignedData): Result<ModelEmptyTurns> {
  const files = filesOf(model, data);
  if (!files.ok) return files;
  const cache = new CheckJobCache();
  for (const c of categories) cache.categories.set(`${data.version}/${c}`, ok(data.inputs[c]));
  const job: CheckJob = {
    model: model.modelName,
    files: categories.map((category) => ({ path: files.value[category], version: data.version, category, scoreRelative: "", storedScore: null })),
  };
  const checked = runCheckJob(job, { dataDir: data.dataDir, longContextModule: null, decoder: model.decoder ?? fcDecoder.name, emptyTurns: "strict", outDir: null, compareStored: false }, cache);
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  const readings = new Map<ScoredResultCategory, EntryReadings[]>();
  checked.forEach((r, i) => {
    if (!r.ok) errors.push(...r.problems);
    else {
      warnings.push(...r.value.problems);
      if (r.value.readings !== null) readings.set(categories[i], [...r.value.readings]);
    }
  });
  return errors.length > 0 ? err(...errors) : ok({ readings, problems: warnings });
}
