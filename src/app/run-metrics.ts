/**
 * What one model read by the pipeline contributes to the run metrics
 * (`official/metrics.ts`): its records on every pair any reading reads, its official
 * verdicts when all three score files were read, and the turns each line recorded (for
 * the truncation count).
 */
import { scoredResultCategories } from "../bfcl/categories.js";
import type { ModelInputs } from "../official/metrics.js";
import type { ModelRead } from "./pipeline.js";

/** A model's metrics inputs (its records must cover every reading's pairs: read with `pairs: "every"`). */
export function metricsInputs(m: ModelRead): ModelInputs {
  const turnCounts = new Map<string, number | null>();
  for (const c of scoredResultCategories) for (const [id, t] of m.census[c]?.turnCount ?? []) turnCounts.set(id, t);
  const complete = m.official !== null && m.official.categories.length === scoredResultCategories.length;
  return { model: m.model, records: m.score?.records ?? [], verdicts: complete ? m.official!.verdicts : null, turnCounts };
}
