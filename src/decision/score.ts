/**
 * The decision score (paper Eq. 1): on each twin pair, did the model attempt a
 * world-changing call on the anchor turn of the complete twin (right) and of the
 * incomplete twin (wrong)? Averaged over pairs into act, hold and their mean, with the
 * compound-turn credit of Appendix E, the pair rate, and the per-category decision.
 * Pure: the caller passes the recorded rollouts it has read.
 */
import { fcDecoder, type Decoder } from "../bfcl/decode/index.js";
import { ITEMS_PER_CATEGORY, isShouldAskCategory, parseItemId, type ScoredResultCategory } from "../bfcl/categories.js";
import { lineFor, type RecordedRollout } from "../bfcl/results.js";
import type { Manifest, ManifestPair } from "../pairs/types.js";
import { readTwin, readTwinOutcome } from "./read-twin.js";
import { sideStatuses, type PairRecord, type ReadingCounts, type SideStatus, type TwinReading } from "./types.js";

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

/** A pair's status: decided when both sides are, else the first of their statuses in `sideStatuses` order. */
export function pairStatus(base: SideStatus, miss: SideStatus): SideStatus {
  if (base === miss) return base;
  for (const s of sideStatuses) if (base === s || miss === s) return s;
  return "decided";
}

/**
 * A line read as it went by (`outcomeReader`): the outcome reading of each pair that reads
 * it, taken under `decoder`; its rollout was not kept.
 */
export interface ReadLine {
  readonly kind: "read";
  readonly decoder: Decoder;
  readonly byPair: ReadonlyMap<ManifestPair, TwinReading>;
}

/** A twin's line as scoring is given it: its rollout, read when the pair is scored, or its readings taken as it was read. */
export type KeptLine = RecordedRollout | ReadLine;

/** Reads each wanted line for its pairs as it is read, keeping only their outcome readings (`readTwinOutcome`), and counts the lines read. */
export interface OutcomeReader {
  readonly keep: (id: string, rollout: RecordedRollout) => ReadLine;
  readonly decoder: Decoder;
  readLines(): number;
}

/**
 * The reader that reads each line of `pairs`' twins under `decoder` the moment it is
 * decoded, so a model's rollouts are not all held until it is scored: scoring then takes
 * the readings (`scorePair`). Only for records kept as outcomes; a model whose lines turn
 * out to need another decoder must be read again with its rollouts kept.
 */
export function outcomeReader(pairs: readonly ManifestPair[], decoder: Decoder): OutcomeReader {
  const pairsOf = new Map<string, ManifestPair[]>();
  for (const p of pairs) {
    for (const id of [p.baseId, p.missId]) {
      const list = pairsOf.get(id);
      if (list === undefined) pairsOf.set(id, [p]);
      else list.push(p);
    }
  }
  let readLines = 0;
  const keep = (id: string, rollout: RecordedRollout): ReadLine => {
    const byPair = new Map<ManifestPair, TwinReading>();
    for (const p of pairsOf.get(id) ?? []) byPair.set(p, readTwinOutcome(rollout, p.anchorTurn, toolSetOf(p), decoder));
    readLines++;
    return { kind: "read", decoder, byPair };
  };
  return { keep, decoder, readLines: () => readLines };
}

/** One side's reading: read off its rollout, or taken from its line's readings (read under the same decoder). */
function sideReading(line: KeptLine | undefined, pair: ManifestPair, tools: ReadonlySet<string>, decoder: Decoder): TwinReading {
  if (line === undefined || line.kind !== "read") return readTwin(line, pair.anchorTurn, tools, decoder);
  const reading = line.byPair.get(pair);
  if (reading === undefined || line.decoder !== decoder)
    throw new Error(`${pair.missId}: a line read for other pairs or under decoder ${line.decoder.name} was scored under ${decoder.name}`);
  return reading;
}

/**
 * Read both twins of one pair (an absent line is a missing side) and decide: acted on
 * base, acted on miss, held back (strict and credited). A side that is not decided reads
 * as no call here; which pairs enter the numbers is the reading's (`readings.ts`).
 */
export function scorePair(
  pair: ManifestPair,
  base: KeptLine | undefined,
  miss: KeptLine | undefined,
  decoder: Decoder = fcDecoder,
): PairRecord {
  const tools = toolSetOf(pair);
  const b = sideReading(base, pair, tools, decoder);
  const m = sideReading(miss, pair, tools, decoder);
  const compound = pair.certification?.verdict === "compound";
  const independent = compound ? pair.certification!.independent : [];
  const independentSet = new Set(independent);
  return {
    missId: pair.missId,
    baseId: pair.baseId,
    category: pair.category,
    anchorTurn: pair.anchorTurn,
    compound,
    independentSteps: independent,
    actedOnBase: b.acted,
    actedOnMiss: m.acted,
    heldBack: !m.acted,
    heldBackCredited: compound ? !m.anchorCalls.some((c) => c.worldChanging && !independentSet.has(c.name)) : !m.acted,
    heldBackCreditedWithLogin: compound
      ? !m.anchorCalls.some((c) => (c.worldChanging || c.kind === "login") && !independentSet.has(c.name))
      : !m.actedWithLogin,
    status: pairStatus(b.status, m.status),
    base: b,
    miss: m,
  };
}

/** A model's recorded rollouts by id (a line played from the reference also by `id@T`: `lineFor`), per result category (only the ids scoring asked for need be present). */
export type ModelRollouts = Readonly<Record<ScoredResultCategory, ReadonlyMap<string, KeptLine>>>;

/**
 * Score one model on `pairs`, its steps read with its decoder: one record per pair, a
 * twin without a line in its result file read as a missing side. The `missing` list names
 * those pairs so the caller can report which lines are absent. Which records enter the
 * numbers, and how, is a reading's (`readings.ts`).
 */
export function scoreModel(
  model: string,
  pairs: readonly ManifestPair[],
  rollouts: ModelRollouts,
  decoder: Decoder = fcDecoder,
): { model: string; records: PairRecord[]; missing: { pair: ManifestPair; absent: string[] }[] } {
  const records: PairRecord[] = [];
  const missing: { pair: ManifestPair; absent: string[] }[] = [];
  for (const pair of pairs) {
    // a line played from the reference is read for the anchor it was generated for (`lineFor`)
    const base = lineFor(rollouts.base, pair.baseId, pair.anchorTurn);
    const miss = lineFor(rollouts[pair.category], pair.missId, pair.anchorTurn);
    if (base === undefined || miss === undefined) {
      missing.push({
        pair,
        absent: [base === undefined ? pair.baseId : null, miss === undefined ? pair.missId : null].filter((x): x is string => x !== null),
      });
    }
    records.push(scorePair(pair, base, miss, decoder));
  }
  return { model, records, missing };
}

/**
 * Decode failures, short rollouts and inference errors over the twins of the records.
 * A base twin shared by several pairs is counted once per distinct anchor turn (decode
 * failures, short) or once (inference errors: the whole line is the error).
 */
export function readingCounts(records: readonly PairRecord[]): ReadingCounts {
  let decodeFailures = 0;
  let shortRollouts = 0;
  let inferenceErrors = 0;
  const seen = new Set<string>();
  for (const r of records) {
    for (const [key, twin] of [
      [`${r.baseId}@${r.anchorTurn}`, r.base],
      [`${r.missId}@${r.anchorTurn}`, r.miss],
    ] as const) {
      if (twin.status === "inference-error") {
        const id = key.slice(0, key.indexOf("@"));
        if (!seen.has(id)) inferenceErrors++;
        seen.add(id);
        continue;
      }
      if (seen.has(key)) continue;
      seen.add(key);
      decodeFailures += twin.decodeFailures;
      if (twin.status === "not-reached") shortRollouts++;
    }
  }
  return { decodeFailures, shortRollouts, inferenceErrors };
}
