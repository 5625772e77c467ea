/**
 * The decision table's numbers of a scored model in tests: Table 1's row under a side
 * rule, computed from the records the scorer returned (the way `score` computes it).
 */
import { readingById, readingPairs, summarize } from "../decision/readings.js";
import type { DecisionNumbers, PairRecord, SideRule } from "../decision/types.js";
import type { Manifest } from "../pairs/types.js";

/** Table 1's row of a model's records (`release` reads error and short sides as no call, as the paper's scorer). */
export function table1Numbers(records: readonly PairRecord[], manifest: Manifest, rule: SideRule = "decided"): DecisionNumbers {
  return summarize(records, manifest, readingById("table-1")!, rule);
}

/** The should-ask ids of Table 1's pairs. */
export function table1Ids(manifest: Manifest): Set<string> {
  return new Set(readingPairs(manifest, readingById("table-1")!).map((p) => p.missId));
}
