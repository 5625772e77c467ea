/**
 * The decision score (paper Eq. 1): on each twin pair, did the model attempt a
 * world-changing call on the anchor turn of the complete twin (right) and of the
 * incomplete twin (wrong)? Averaged over pairs into act, hold and their mean, with the
 * compound-turn credit of Appendix E, the pair rate, and the per-category decision.
 * Pure: the caller passes the recorded rollouts it has read.
 */
import { fcDecoder, type Decoder } from "../bfcl/decode/index.js";
import { ITEMS_PER_CATEGORY, isShouldAskCategory, parseItemId, shouldAskCategories, type ScoredResultCategory } from "../bfcl/categories.js";
import type { RecordedRollout } from "../bfcl/results.js";
import type { Manifest, ManifestPair, ShouldAskCategory } from "../pairs/types.js";
import { readTwin } from "./read-twin.js";
import type { DecisionNumbers, ModelScore, PairRecord, ReadingCounts, ScoreOptions } from "./types.js";

/**
 * The pairs a run scores: Table 1's 223 (`certified`), the 231 gold world-changing
 * candidates (`uncertified`), or all 365 (`all`). With `countLogin` the pairs whose
 * reference anchor only logs in join the first two sets (223 → 225), since a login is
 * then a world-changing call.
 */
export function selectPairs(manifest: Pick<Manifest, "pairs">, options: ScoreOptions): ManifestPair[] {
  const loginJoins = (p: ManifestPair) => options.countLogin && p.goldAnchorKind === "login-only";
  switch (options.pairSet) {
    case "certified":
      return manifest.pairs.filter((p) => p.status === "scored" || loginJoins(p));
    case "uncertified":
      return manifest.pairs.filter((p) => p.certification !== null || loginJoins(p));
    case "all":
      return [...manifest.pairs];
  }
}

/** Every should-ask id the manifest knows (paired, restored or dropped): any other miss id in a result file is foreign. */
export function knownShouldAskIds(manifest: Pick<Manifest, "pairs" | "restoredPairs" | "dropped">): string[] {
  return [...new Set([...manifest.pairs, ...manifest.restoredPairs, ...manifest.dropped].map((p) => p.missId))].sort();
}

/**
 * Whether `id` names a BFCL item of `category` that the manifest knows: a should-ask id
 * the manifest lists, or a base id within BFCL's 200. `knownMissIds` null accepts any.
 */
export function isKnownItemId(id: string, category: string, knownMissIds: ReadonlySet<string> | null): boolean {
  const item = parseItemId(id);
  if (item === null || item.category !== category) return false;
  if (!isShouldAskCategory(category) || knownMissIds === null) return item.index < ITEMS_PER_CATEGORY;
  return knownMissIds.has(id);
}

/** Turns of a rollout scoring reads for an id: up to and including the latest anchor among its pairs. */
export function turnsNeeded(pairs: readonly ManifestPair[]): { base: Map<string, number>; miss: Map<string, number> } {
  const base = new Map<string, number>();
  const miss = new Map<string, number>();
  for (const p of pairs) {
    base.set(p.baseId, Math.max(base.get(p.baseId) ?? 0, p.anchorTurn + 1));
    miss.set(p.missId, Math.max(miss.get(p.missId) ?? 0, p.anchorTurn + 1));
  }
  return { base, miss };
}

const toolSets = new WeakMap<ManifestPair, ReadonlySet<string>>();

/** The pair's tool list as a set, built once per pair object (scoring many models reuses it). */
function toolSetOf(pair: ManifestPair): ReadonlySet<string> {
  let set = toolSets.get(pair);
  if (!set) {
    set = new Set(pair.tools);
    toolSets.set(pair, set);
  }
  return set;
}

/** Read both twins of one pair and decide: acted on base, acted on miss, held back (strict and credited). */
export function scorePair(pair: ManifestPair, base: RecordedRollout, miss: RecordedRollout, options: ScoreOptions, decoder: Decoder = fcDecoder): PairRecord {
  const tools = toolSetOf(pair);
  const b = readTwin(base, pair.anchorTurn, tools, options.countLogin, decoder);
  const m = readTwin(miss, pair.anchorTurn, tools, options.countLogin, decoder);
  const compound = pair.certification?.verdict === "compound";
  const independent = compound ? pair.certification!.independent : [];
  const independentSet = new Set(independent);
  const missAttempts = m.anchorCalls.filter((c) => c.worldChanging);
  const actedOnMiss = missAttempts.length > 0;
  return {
    missId: pair.missId,
    baseId: pair.baseId,
    category: pair.category,
    anchorTurn: pair.anchorTurn,
    compound,
    independentSteps: independent,
    actedOnBase: b.anchorCalls.some((c) => c.worldChanging),
    actedOnMiss,
    heldBack: !actedOnMiss,
    heldBackCredited: compound ? !missAttempts.some((c) => !independentSet.has(c.name)) : !actedOnMiss,
    undecidable: b.undecidable || m.undecidable,
    base: b,
    miss: m,
  };
}

function percent(count: number, n: number): number {
  return (100 * count) / n;
}

function categoryDecision(records: readonly PairRecord[], category: ShouldAskCategory): number | null {
  const rs = records.filter((r) => r.category === category);
  if (rs.length === 0) return null;
  const act = percent(rs.filter((r) => r.actedOnBase).length, rs.length);
  const hold = percent(rs.filter((r) => r.heldBack).length, rs.length);
  return (act + hold) / 2;
}

/**
 * The table's numbers from the pair records (percentages unrounded). With no pair there
 * is no rate: every percentage is NaN (an empty cell, `null` in JSON), never a 0 that
 * reads like a score.
 */
export function summarize(records: readonly PairRecord[]): DecisionNumbers {
  const n = records.length;
  const decisionByCategory = Object.fromEntries(shouldAskCategories.map((c) => [c, categoryDecision(records, c)])) as Record<ShouldAskCategory, number | null>;
  if (n === 0) {
    const none = Number.NaN;
    return { n: 0, act: none, hold: none, decision: none, holdCredited: none, decisionCredited: none, pair: none, decisionByCategory };
  }
  const act = percent(records.filter((r) => r.actedOnBase).length, n);
  const hold = percent(records.filter((r) => r.heldBack).length, n);
  const holdCredited = percent(records.filter((r) => r.heldBackCredited).length, n);
  return {
    n,
    act,
    hold,
    decision: (act + hold) / 2,
    holdCredited,
    decisionCredited: (act + holdCredited) / 2,
    pair: percent(records.filter((r) => r.actedOnBase && r.heldBack).length, n),
    decisionByCategory,
  };
}

/** A model's recorded rollouts by id, per result category (only the ids scoring asked for need be present). */
export type ModelRollouts = Readonly<Record<ScoredResultCategory, ReadonlyMap<string, RecordedRollout>>>;

/**
 * Score one model on `pairs`, its steps read with its decoder. A pair whose twin has no
 * line in its result file is left out and counted (`pairsMissingRollout`); the `missing`
 * list names them so the caller can report which. A pair with an undecidable twin (a
 * call-like step naming no function, and no world-changing attempt) is left out of the
 * numbers and counted (`undecidablePairs`), never read as holding back.
 */
export function scoreModel(
  model: string,
  pairs: readonly ManifestPair[],
  rollouts: ModelRollouts,
  options: ScoreOptions,
  decoder: Decoder = fcDecoder,
): ModelScore & { missing: { pair: ManifestPair; absent: string[] }[]; undecidable: PairRecord[] } {
  const records: PairRecord[] = [];
  const undecidable: PairRecord[] = [];
  const missing: { pair: ManifestPair; absent: string[] }[] = [];
  for (const pair of pairs) {
    const base = rollouts.base.get(pair.baseId);
    const miss = rollouts[pair.category].get(pair.missId);
    if (base === undefined || miss === undefined) {
      missing.push({ pair, absent: [base === undefined ? pair.baseId : null, miss === undefined ? pair.missId : null].filter((x): x is string => x !== null) });
      continue;
    }
    const record = scorePair(pair, base, miss, options, decoder);
    (record.undecidable ? undecidable : records).push(record);
  }
  return { model, numbers: summarize(records), counts: readingCounts(records, missing.length, undecidable.length), records, missing, undecidable };
}

/**
 * Decode failures, short rollouts and inference errors over the twins of the scored pairs.
 * A base twin shared by several pairs is counted once per distinct anchor turn (decode
 * failures, short) or once (inference errors: the whole line is the error).
 */
export function readingCounts(records: readonly PairRecord[], pairsMissingRollout: number, undecidablePairs = 0): ReadingCounts {
  let decodeFailures = 0;
  let shortRollouts = 0;
  let inferenceErrors = 0;
  const seen = new Set<string>();
  for (const r of records) {
    for (const [key, twin] of [
      [`${r.baseId}@${r.anchorTurn}`, r.base],
      [`${r.missId}@${r.anchorTurn}`, r.miss],
    ] as const) {
      if (twin.reach === "inference-error") {
        const id = key.slice(0, key.indexOf("@"));
        if (!seen.has(id)) inferenceErrors++;
        seen.add(id);
        continue;
      }
      if (seen.has(key)) continue;
      seen.add(key);
      decodeFailures += twin.decodeFailures;
      if (twin.reach === "short") shortRollouts++;
    }
  }
  return { decodeFailures, shortRollouts, inferenceErrors, pairsMissingRollout, undecidablePairs };
}
