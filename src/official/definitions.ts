/**
 * The readings of the decision table the paper reports (Appendix E–F), each a set of pairs
 * and a hold rule, and the table row under one reading:
 * - `C`: Table 1, the 223 certified pairs; `C-credited`: the same pairs with the
 *   compound turns credited; `C-uncertified`: the 231 gold world-changing pairs;
 *   `C-login`: logins counted as world-changing (225 pairs); `C-reached`: pairs where
 *   either rollout ended before the anchor dropped; `C-all`: all 365 content-verified
 *   pairs; `C-restored`: the bad keys restored (+7 pairs).
 */
import type { OfficialVerdict } from "../bfcl/scores.js";
import type { PairRecord } from "../decision/types.js";
import type { Manifest, ManifestPair } from "../pairs/types.js";
import { bootstrapIntervals, clusterTotals, type BootstrapOptions, type PairOutcome } from "../stats/index.js";

/** The readings of the table the metrics cover. */
export const definitions = ["C", "C-credited", "C-uncertified", "C-login", "C-reached", "C-all", "C-restored"] as const;
export type Definition = (typeof definitions)[number];

/** What one model contributes. */
export interface ModelInputs {
  /** The model's name (the key used in metric names). */
  readonly model: string;
  /** Records under the default reading (logins not counted) on every content-verified pair and every restored pair. */
  readonly records: readonly PairRecord[];
  /** Records with logins counted, on Table 1's pairs plus the login-only pairs. */
  readonly loginRecords: readonly PairRecord[];
  /** Official verdict per item id; null when no score files were given. */
  readonly verdicts: ReadonlyMap<string, OfficialVerdict> | null;
  /** Turns recorded per item id (null: an inference-error line); null when unknown. */
  readonly turnCounts: ReadonlyMap<string, number | null> | null;
}

/** One row of the table under one definition. */
export interface DefinitionRow {
  readonly n: number;
  readonly act: number;
  readonly hold: number;
  readonly decision: number;
  readonly both: number;
  /** 95% cluster-bootstrap intervals of decision, act and hold (null when resamples = 0). */
  readonly ci95: readonly [number, number] | null;
  readonly actCi95: readonly [number, number] | null;
  readonly holdCi95: readonly [number, number] | null;
}

/** A percentage; NaN with nothing to divide by (an empty cell, `null` in JSON). */
export const pct = (count: number, n: number): number => (n === 0 ? Number.NaN : (100 * count) / n);

/** The pairs (by should-ask id) and the hold reading of each definition. */
export function definitionPairs(manifest: Manifest, definition: Definition): { ids: Set<string>; credited: boolean; login: boolean } {
  const pick = (ps: readonly ManifestPair[]) => new Set(ps.map((p) => p.missId));
  switch (definition) {
    case "C":
    case "C-credited":
    case "C-reached":
      return { ids: pick(manifest.pairs.filter((p) => p.status === "scored")), credited: definition === "C-credited", login: false };
    case "C-uncertified":
      return { ids: pick(manifest.pairs.filter((p) => p.certification !== null)), credited: false, login: false };
    case "C-login":
      return { ids: pick(manifest.pairs.filter((p) => p.status === "scored" || p.goldAnchorKind === "login-only")), credited: false, login: true };
    case "C-all":
      return { ids: pick(manifest.pairs), credited: false, login: false };
    case "C-restored":
      return { ids: pick([...manifest.pairs.filter((p) => p.status === "scored"), ...manifest.restoredPairs]), credited: false, login: false };
  }
}

/** The records of one model under one definition. */
export function recordsFor(manifest: Manifest, model: ModelInputs, definition: Definition): { records: PairRecord[]; credited: boolean } {
  const { ids, credited, login } = definitionPairs(manifest, definition);
  let records = (login ? model.loginRecords : model.records).filter((r) => ids.has(r.missId));
  if (definition === "C-reached") records = records.filter((r) => r.base.reach === "reached" && r.miss.reach === "reached");
  return { records, credited };
}

/** The records as bootstrap outcomes (clustered on the base twin), hold read as the definition reads it. */
export function outcomes(records: readonly PairRecord[], credited: boolean): PairOutcome[] {
  return records.map((r) => ({ cluster: r.baseId, act: r.actedOnBase, hold: credited ? r.heldBackCredited : r.heldBack }));
}

/** A table row (with its cluster-bootstrap interval on a fresh stream when resamples > 0). */
export function definitionRow(records: readonly PairRecord[], credited: boolean, bootstrap: BootstrapOptions): DefinitionRow {
  const n = records.length;
  const held = (r: PairRecord) => (credited ? r.heldBackCredited : r.heldBack);
  const act = pct(records.filter((r) => r.actedOnBase).length, n);
  const hold = pct(records.filter(held).length, n);
  const both = pct(records.filter((r) => r.actedOnBase && held(r)).length, n);
  const ci = bootstrap.resamples > 0 && n > 0 ? bootstrapIntervals(clusterTotals(outcomes(records, credited)), bootstrap) : null;
  return { n, act, hold, decision: (act + hold) / 2, both, ci95: ci?.decision ?? null, actCi95: ci?.act ?? null, holdCi95: ci?.hold ?? null };
}
