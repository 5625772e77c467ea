/**
 * The file side of the workaround credit (Table F1): read the BFCL data of base and
 * miss_func and the model's miss_func result file, and replay each miss_func pair with
 * the pure `simulator/workaround.ts`. Used by `twinscore score` when BFCL data is
 * available.
 */
import { plainStepDecoder, type Decoder } from "../bfcl/decode/index.js";
import type { BfclVersion } from "../bfcl/data.js";
import type { ModelScore } from "../decision/types.js";
import { err, ok, problem, type Result } from "../messages/index.js";
import type { ManifestPair } from "../pairs/types.js";
import type { CategoryInputs } from "../simulator/run-check.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import { readCategoryInputs } from "./bfcl-data.js";
import { readFailure, readResultTexts } from "./results-read.js";
import { workaroundCredit, type WorkaroundPairInput, type WorkaroundSummary } from "../simulator/workaround.js";

/** Prepared base and miss_func inputs of a BFCL data folder (read once, reused for every model). */
export interface WorkaroundData {
  /** The BFCL version of the data: the replay runs that version's evaluator (its API classes differ between v3 and v4). */
  readonly version: BfclVersion;
  readonly base: CategoryInputs;
  readonly missFunc: CategoryInputs;
}

/** Read base and miss_func (questions, references, docs) from a BFCL data folder. */
export function readWorkaroundData(dataDir: string, version: BfclVersion = "v4"): Result<WorkaroundData> {
  const base = readCategoryInputs(dataDir, version, "base");
  if (!base.ok) return base;
  const missFunc = readCategoryInputs(dataDir, version, "miss_func");
  if (!missFunc.ok) return missFunc;
  return ok({ version, base: base.value, missFunc: missFunc.value });
}

/** The `result` values of the given ids in a result file (parsed JSON), by id, read with the one streaming reader. */
export function readResultsById(file: string, ids: ReadonlySet<string>): Map<string, unknown> {
  return new Map([...readResultTexts(file, ids)].map(([id, text]) => [id, JSON.parse(text) as unknown]));
}

/**
 * Table F1 for one scored model: replay its miss_func pairs. `missFuncFile` is the
 * result file the scorer used for miss_func.
 */
export function workaroundForModel(score: ModelScore, pairs: readonly ManifestPair[], missFuncFile: string, data: WorkaroundData, decoder?: Decoder): Result<WorkaroundSummary> {
  const byId = new Map(pairs.map((p) => [p.missId, p]));
  const missIds = new Set(score.records.filter((r) => r.category === "miss_func").map((r) => r.missId));
  let results: Map<string, unknown>;
  try {
    results = readResultsById(missFuncFile, missIds);
  } catch (e) {
    return err(problem("file-unreadable", `cannot read result file (${readFailure(e)})`, { file: missFuncFile }));
  }
  const inputs = new Map<string, Omit<WorkaroundPairInput, "record">>();
  for (const id of missIds) {
    const pair = byId.get(id);
    const miss = data.missFunc.questions.get(id);
    const base = pair ? data.base.questions.get(pair.baseId) : undefined;
    const gt = pair ? data.base.groundTruth.get(pair.baseId) : undefined;
    if (!pair || !miss || !base || !gt) return err(problem("bfcl-data-mismatch", `${id}: pair or its BFCL entries not found`));
    inputs.set(id, { pair, missResult: results.get(id), missPrompt: miss.prompt, basePrompt: base.prompt, baseGroundTruth: gt });
  }
  // the replay decodes the recorded steps (as JSON.parse gives them) with the model's decoder
  const decode = decoder === undefined ? undefined : plainStepDecoder(decoder);
  return ok(workaroundCredit(score.records, inputs, () => newEvaluatorProcess(undefined, false, data.version), decode));
}
