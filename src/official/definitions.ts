/**
 * The readings of the decision table the run metrics cover, by the names expected-numbers
 * files use (`C`, `C-credited`, `C-login`, …): the readings of `decision/readings.ts` that
 * have such a name. What each reads is defined there, once.
 */
import type { OfficialVerdict } from "../bfcl/scores.js";
import { readings, type Reading } from "../decision/readings.js";
import type { PairRecord } from "../decision/types.js";

/** The readings with a table name, in table order. */
export const definitionReadings: readonly (Reading & { readonly metric: string })[] = readings.filter(
  (r): r is Reading & { metric: string } => r.metric !== null,
);

/** The table names, `C` first. */
export const definitions: readonly string[] = definitionReadings.map((r) => r.metric);

/** A table name (`C`, `C-credited`, …). */
export type Definition = string;

/**
 * The readings a model ranks first on in resamples: those that read every side by the
 * run's rule and keep every pair of their set (the paper's rank-1 frequencies).
 */
export const rankedDefinitions: readonly string[] = definitionReadings
  .filter((r) => r.sides === undefined && r.filter === undefined)
  .map((r) => r.metric);

/** What one model contributes. */
export interface ModelInputs {
  /** The model's name (the key used in metric names). */
  readonly model: string;
  /** Records on every pair any reading reads: the content-verified pairs and the restored ones (`everyReadingPair`). */
  readonly records: readonly PairRecord[];
  /** Official verdict per item id; null when no score files were given. */
  readonly verdicts: ReadonlyMap<string, OfficialVerdict> | null;
  /** Turns recorded per item id (null: an inference-error line); null when unknown. */
  readonly turnCounts: ReadonlyMap<string, number | null> | null;
}
