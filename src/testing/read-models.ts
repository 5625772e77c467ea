/**
 * The pipeline's read of result trees in tests: every model as `readModels` reads it,
 * or the first problem that stopped the read as a thrown error.
 */
import { readModels, type ModelRead, type ReadRequest } from "../app/pipeline.js";
import { contextOf } from "../app/common.js";
import type { Problem } from "../messages/index.js";
import type { ScoredResultCategory } from "../bfcl/categories.js";
import type { ModelInputs } from "../official/metrics.js";
import type { OfficialReading } from "../app/official-scores.js";
import { metricsInputs } from "../app/run-metrics.js";

/** Read result trees as a command would (every pair any reading reads, all records kept, unless said otherwise). */
export function readForTest(
  results: readonly string[],
  more: Partial<Omit<ReadRequest, "ctx" | "results">> & { cwd?: string } = {},
): { models: ModelRead[]; problems: readonly Problem[] } {
  const { cwd, ...rest } = more;
  const read = readModels({ ctx: contextOf({ cwd: cwd ?? "/" }), results, pairs: "every", keep: "all", ...rest }, (m) => m);
  if (!read.ok) throw new Error(read.problems.map((p) => p.message).join("; "));
  return { models: [...read.value.outputs], problems: read.value.problems };
}

/** What the run metrics get from one model, as tests look at it. */
export interface LoadedForTest {
  readonly inputs: ModelInputs;
  readonly folder: string;
  readonly official: OfficialReading | null;
  readonly resultFiles: Partial<Record<ScoredResultCategory, string>>;
  readonly read: ModelRead;
}

/** Models read for the run metrics (every reading's pairs, census and score files): `inputs` is what `computeRunMetrics` takes. */
export function loadInputsForTest(req: {
  resultDirs: readonly string[];
  scoreDirs?: readonly string[];
  models?: readonly string[];
  cwd?: string;
}): { models: LoadedForTest[]; problems: readonly Problem[] } {
  const read = readForTest(req.resultDirs, {
    scores: req.scoreDirs ?? [],
    models: req.models ?? [],
    needs: { census: true },
    cwd: req.cwd,
  });
  const models = read.models
    .filter((m) => m.score !== null)
    .map((m) => ({
      inputs: metricsInputs(m),
      folder: m.folder,
      official: m.official,
      resultFiles: Object.fromEntries(Object.entries(m.filesUsed).map(([c, f]) => [c, f.file])) as Partial<
        Record<ScoredResultCategory, string>
      >,
      read: m,
    }));
  return { models, problems: read.problems };
}
