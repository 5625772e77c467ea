/**
 * Which entries a run generates, and where `--until-anchor` stops each one. The decision on a pair is read on
 * its anchor turn, which depends only on the turns up to it, so a pair's two items can stop right after it: a
 * base item in several pairs stops after the latest anchor among them; an item in no pair runs to the end.
 * More in this folder's README.md.
 */
import { scoredResultCategories, type ScoredResultCategory } from "../bfcl/categories.js";
import type { ManifestPair } from "../pairs/types.js";
import { compareIds } from "./lines.js";

/** `pairs`: the items of the scored pairs; `all-pairs`: of every content-verified pair; `all`: every entry of the categories. */
export type ItemSelection = "pairs" | "all-pairs" | "all";

/** The categories `run` generates (those `score` and the official companion read). */
export const runCategories = scoredResultCategories;
export type RunCategory = ScoredResultCategory;

/** The ids to generate (sorted as BFCL sorts them) and, per id, the last turn to run under `--until-anchor`. */
export interface Selection {
  readonly ids: readonly string[];
  readonly lastTurn: ReadonlyMap<string, number>;
  /** Per id, the distinct anchor turns of its pairs, ascending (one for a should-ask item). */
  readonly anchors: ReadonlyMap<string, readonly number[]>;
}

/** Select the items. `allIds` is every entry id of the run categories in the data. */
export function selectItems(selection: ItemSelection, pairs: readonly ManifestPair[], allIds: readonly string[]): Selection {
  const chosen = selection === "pairs" ? pairs.filter((p) => p.status === "scored") : pairs;
  const anchorPairs = selection === "all" ? pairs : chosen;
  const lastTurn = new Map<string, number>();
  const anchorSets = new Map<string, Set<number>>();
  for (const p of anchorPairs) {
    for (const id of [p.missId, p.baseId]) {
      lastTurn.set(id, Math.max(lastTurn.get(id) ?? -1, p.anchorTurn));
      const set = anchorSets.get(id) ?? new Set<number>();
      set.add(p.anchorTurn);
      anchorSets.set(id, set);
    }
  }
  const anchors = new Map([...anchorSets].map(([id, set]) => [id, [...set].sort((a, b) => a - b)]));
  const ids = new Set<string>(selection === "all" ? allIds : chosen.flatMap((p) => [p.baseId, p.missId]));
  return { ids: [...ids].sort(compareIds), lastTurn, anchors };
}
