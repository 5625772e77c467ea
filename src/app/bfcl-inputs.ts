/**
 * BFCL's inputs to the checker, read by io and prepared here: a category's questions,
 * references and function docs, and the filler text of BFCL's `long_context.py`.
 */
import { scoredResultCategories, type ScoredResultCategory } from "../bfcl/categories.js";
import { detectVersion, type BfclVersion, type MultiTurnCategory } from "../bfcl/data.js";
import { evaluatorRevision } from "../bfcl/evaluator-versions.js";
import { ok, type Result } from "../messages/index.js";
import { parseLongContextModule } from "../simulator/long-context.js";
import { prepareCategory, type CategoryInputs } from "../simulator/run-check.js";
import type { LongContextData } from "../simulator/types.js";
import type { Host } from "../io/host.js";

/**
 * One category's questions and references, with every class's function docs, read from a
 * data folder and prepared for the checker (`check`, the workaround credit). A missing
 * file is one problem naming it.
 */
export function readCategoryInputs(dataDir: string, version: BfclVersion, category: MultiTurnCategory, host: Host): Result<CategoryInputs> {
  const texts = host.readCategoryTexts(dataDir, version, category);
  if (!texts.ok) return texts;
  const t = texts.value;
  return prepareCategory(t.questions, t.questionsPath, t.answers, t.answersPath, t.docs, evaluatorRevision(version));
}

/** Read and parse BFCL's long_context.py at `path`. */
export function readLongContext(path: string, host: Host): Result<LongContextData> {
  const text = host.readLongContextText(path);
  return text.ok ? parseLongContextModule(text.value, path) : text;
}

/** The BFCL data of the scored categories (base, miss_func, miss_param), read once for every model: what BFCL's checker and the replays check against. */
export interface ScoredData {
  readonly dataDir: string;
  readonly version: BfclVersion;
  readonly inputs: Readonly<Record<ScoredResultCategory, CategoryInputs>>;
  /** The host it was read through: a check job run on it (the replays') reads through the same one. */
  readonly host: Host;
}

/** Read and prepare base, miss_func and miss_param of a BFCL data folder (its version detected from the file names). */
export function readScoredData(dataDir: string, host: Host): Result<ScoredData> {
  const names = host.listDataFolder(dataDir);
  if (!names.ok) return names;
  const version = detectVersion(dataDir, names.value);
  if (!version.ok) return version;
  const inputs: Partial<Record<ScoredResultCategory, CategoryInputs>> = {};
  for (const c of scoredResultCategories) {
    const r = readCategoryInputs(dataDir, version.value, c, host);
    if (!r.ok) return r;
    inputs[c] = r.value;
  }
  return ok({ dataDir, version: version.value, inputs: inputs as Record<ScoredResultCategory, CategoryInputs>, host });
}
