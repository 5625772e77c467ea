/**
 * Every number the paper publishes about a run, computed in one pass from the per-pair
 * records, the official verdicts and the manifest, under the dotted keys of
 * `paper-numbers/published.tsv` (`tables.<definition>.<model>.<column>`, `rank1…`,
 * `spread…`, `companions…`, `counts…`). One source for `verify`, for `score
 * --sensitivity` and for the report: a number shown anywhere is looked up here.
 *
 * Definitions (the table under each reading, Appendix E–F):
 * - `C`: Table 1, the 223 certified pairs; `C-credited`: the same pairs with the
 *   compound turns credited; `C-uncertified`: the 231 gold world-changing pairs;
 *   `C-login`: logins counted as world-changing (225 pairs); `C-reached`: pairs where
 *   either rollout ended before the anchor dropped; `C-all`: all 365 content-verified
 *   pairs; `C-restored`: the bad keys restored (+7 pairs).
 */
import type { OfficialVerdict } from "../bfcl/scores.js";
import type { PairRecord } from "../decision/types.js";
import type { Manifest, ManifestPair, ShouldAskCategory } from "../pairs/types.js";
import {
  bootstrapIntervals,
  clusterOrder,
  clusterTotals,
  rankOneFrequencies,
  spearman,
  type BootstrapOptions,
  type PairOutcome,
} from "../stats/index.js";
import { lossKeys, officialCompanion, type LossPlace } from "./companion.js";

/** A computed number: a count or rate, a label, or a list (an interval, a pair of counts). */
export type MetricValue = number | string | readonly number[];

/** Computed numbers by key. */
export type Metrics = Map<string, MetricValue>;

/** The readings of the table the metrics cover. */
export const definitions = ["C", "C-credited", "C-uncertified", "C-login", "C-reached", "C-all", "C-restored"] as const;
export type Definition = (typeof definitions)[number];

/** What one model contributes. */
export interface ModelInputs {
  /** The model directory name (the key used in metric names). */
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

/** Options of one computation. */
export interface RunMetricsOptions {
  /** Bootstrap resamples and seed; `resamples: 0` computes no interval and no rank-1. */
  readonly bootstrap: BootstrapOptions;
  /** Display names by model (labels only). */
  readonly displayNames?: ReadonlyMap<string, string>;
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

const pct = (count: number, n: number): number => (n === 0 ? Number.NaN : (100 * count) / n);

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

function outcomes(records: readonly PairRecord[], credited: boolean): PairOutcome[] {
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

function callName(call: string): string | null {
  const m = /^\s*([A-Za-z_][\w.]*)\s*\(/.exec(call);
  return m ? m[1] : null;
}

/** The manifest-only counts (`counts.*`): these need no rollouts. */
export function manifestCounts(manifest: Manifest, out: Metrics = new Map()): Metrics {
  const pairs = manifest.pairs;
  const scored = pairs.filter((p) => p.status === "scored");
  const excluded = pairs.filter((p) => p.status !== "scored");
  const certified = pairs.filter((p) => p.certification !== null);
  const readOnly = pairs.filter((p) => p.goldAnchorKind !== "world-changing");
  const byCat = (ps: readonly ManifestPair[], c: ShouldAskCategory) => ps.filter((p) => p.category === c).length;
  out.set("counts.content_verified_pairs", pairs.length);
  out.set("counts.certified_pairs", certified.length);
  for (const v of ["valid", "compound", "construction"] as const) {
    out.set(`counts.certification_verdicts.${v}`, certified.filter((p) => p.certification!.verdict === v).length);
  }
  out.set("counts.construction_errors", certified.filter((p) => p.certification!.verdict === "construction").length);
  out.set("counts.compound_pairs", certified.filter((p) => p.certification!.verdict === "compound").length);
  out.set("counts.scored_pairs", scored.length);
  out.set("counts.excluded_pairs", excluded.length);
  out.set("counts.scored_pairs_login", scored.length + pairs.filter((p) => p.goldAnchorKind === "login-only").length);
  for (const c of ["miss_func", "miss_param"] as const) {
    out.set(`counts.scored_${c}`, byCat(scored, c));
    out.set(`counts.excluded_${c}`, byCat(excluded, c));
    out.set(`counts.read_only_excluded_${c}`, byCat(readOnly, c));
  }
  const reasons = new Map<string, number>();
  for (const p of excluded) reasons.set(p.exclusionReason ?? "", (reasons.get(p.exclusionReason ?? "") ?? 0) + 1);
  for (const [reason, count] of [...reasons].sort()) out.set(`counts.excluded_reasons.${reason}`, count);
  out.set("counts.read_only_excluded_pairs", readOnly.length);
  const fns = new Map<string, number>();
  for (const p of readOnly) {
    for (const call of p.goldAnchorCalls) {
      const name = callName(call);
      if (name !== null) fns.set(name, (fns.get(name) ?? 0) + 1);
    }
  }
  for (const [name, count] of [...fns].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) out.set(`counts.excluded_top_gold_functions.${name}`, count);
  out.set("counts.distinct_base_twins_all", new Set(pairs.map((p) => p.baseId)).size);
  out.set("counts.distinct_base_twins_scored", new Set(scored.map((p) => p.baseId)).size);
  out.set("counts.distinct_base_anchor_turns_scored", new Set(scored.map((p) => `${p.baseId}#${p.anchorTurn}`)).size);
  out.set("counts.bad_key_restored_pairs", scored.length + manifest.restoredPairs.length);
  out.set("counts.bad_key_restored_added", manifest.restoredPairs.length);
  out.set("companions.distinct_base_twins", new Set(scored.map((p) => p.baseId)).size);
  return out;
}

/** Order model names by a value, highest first; ties keep the listed order. */
function rankedBy(models: readonly string[], value: (m: string) => number): string[] {
  return models
    .map((m, i) => [m, value(m), i] as const)
    .sort((a, b) => b[1] - a[1] || a[2] - b[2])
    .map(([m]) => m);
}

function setModelCompanions(manifest: Manifest, model: ModelInputs, out: Metrics): void {
  const m = model.model;
  const { records } = recordsFor(manifest, model, "C");
  // per category
  for (const c of ["miss_func", "miss_param"] as const) {
    const rs = records.filter((r) => r.category === c);
    const row = definitionRow(rs, false, { resamples: 0, seed: 0 });
    out.set(`companions.by_category.${m}.${c}.n`, row.n);
    out.set(`companions.by_category.${m}.${c}.act`, row.act);
    out.set(`companions.by_category.${m}.${c}.hold`, row.hold);
    out.set(`companions.by_category.${m}.${c}.decision`, row.decision);
  }
  // the excluded pairs whose reference only reads or logs in
  const readOnlyIds = new Set(manifest.pairs.filter((p) => p.goldAnchorKind !== "world-changing").map((p) => p.missId));
  const ex = model.records.filter((r) => readOnlyIds.has(r.missId));
  out.set(`companions.excluded_attempts.${m}.n`, ex.length);
  out.set(`companions.excluded_attempts.${m}.act_base`, pct(ex.filter((r) => r.actedOnBase).length, ex.length));
  out.set(`companions.excluded_attempts.${m}.act_miss`, pct(ex.filter((r) => r.actedOnMiss).length, ex.length));
  out.set(`companions.excluded_attempts.${m}.either`, pct(ex.filter((r) => r.actedOnBase || r.actedOnMiss).length, ex.length));
  // act once per distinct base anchor turn
  const anchors = new Map<string, boolean>();
  for (const r of records) {
    const key = `${r.baseId}#${r.anchorTurn}`;
    if (!anchors.has(key)) anchors.set(key, r.actedOnBase);
  }
  out.set(`companions.act_per_anchor.${m}.anchors`, anchors.size);
  out.set(`companions.act_per_anchor.${m}.act_per_pair`, pct(records.filter((r) => r.actedOnBase).length, records.length));
  out.set(`companions.act_per_anchor.${m}.act_per_anchor`, pct([...anchors.values()].filter(Boolean).length, anchors.size));
  // same validated pre-anchor call names on both twins
  const same = records.filter((r) => JSON.stringify(r.base.preAnchorCallNames) === JSON.stringify(r.miss.preAnchorCallNames));
  const sameRow = definitionRow(same, false, { resamples: 0, seed: 0 });
  out.set(`companions.same_history.${m}.n`, sameRow.n);
  out.set(`companions.same_history.${m}.act`, sameRow.act);
  out.set(`companions.same_history.${m}.hold`, sameRow.hold);
  out.set(`companions.same_history.${m}.decision`, sameRow.decision);
  // what the held-back turns contain
  const held = records.filter((r) => r.heldBack);
  const withText = held.filter((r) => r.miss.anchorText.some((t) => t.trim() !== ""));
  out.set(`companions.heldback_content.${m}.held`, held.length);
  out.set(`companions.heldback_content.${m}.read_only`, held.filter((r) => r.miss.anchorCalls.length > 0).length);
  out.set(`companions.heldback_content.${m}.text`, withText.length);
  out.set(`companions.heldback_content.${m}.silent`, held.length - withText.length);
  // base anchor turns with no world-changing attempt
  const noAttempt = records.filter((r) => !r.actedOnBase);
  const zeroCalls = noAttempt.filter((r) => r.base.anchorCalls.length === 0).length;
  out.set(`companions.base_no_attempt.${m}.n`, noAttempt.length);
  out.set(`companions.base_no_attempt.${m}.zero_calls`, zeroCalls);
  out.set(`companions.base_no_attempt.${m}.read_only`, noAttempt.length - zeroCalls);
  // bad keys restored
  const restored = definitionRow(recordsFor(manifest, model, "C-restored").records, false, { resamples: 0, seed: 0 });
  const base = definitionRow(records, false, { resamples: 0, seed: 0 });
  out.set(`companions.bad_keys_restored.models.${m}.decision`, base.decision);
  out.set(`companions.bad_keys_restored.models.${m}.restored`, restored.decision);
  out.set(`companions.bad_keys_restored.models.${m}.change`, restored.decision - base.decision);
  // rollouts BFCL force-terminated (fewer turns than the item) among the scored items
  if (model.turnCounts !== null) {
    const pairOf = new Map(manifest.pairs.map((p) => [p.missId, p]));
    const baseShort = new Set<string>();
    let missShort = 0;
    for (const r of records) {
      const p = pairOf.get(r.missId)!;
      const bt = model.turnCounts.get(r.baseId);
      if (typeof bt === "number" && bt < p.turnCount.base) baseShort.add(r.baseId);
      const mt = model.turnCounts.get(r.missId);
      if (typeof mt === "number" && mt < p.turnCount.miss) missShort++;
    }
    out.set(`truncation.${m}`, [baseShort.size, missShort]);
  }
  // the official companion (its decision column needs no score file)
  out.set(`companions.official_raw.${m}.decision`, base.decision);
  if (model.verdicts !== null) {
    const oc = officialCompanion(records, model.verdicts);
    if (oc.missingVerdicts.length === 0) {
      out.set(`companions.official_raw.${m}.miss`, oc.rawMiss);
      out.set(`companions.official_raw.${m}.base`, oc.rawBase);
      out.set(`companions.official_raw.${m}.miss_items`, oc.missItems);
      out.set(`companions.official_raw.${m}.base_twins`, oc.baseTwins);
      const va = oc.verdictVsAttempt;
      out.set(`companions.verdict_vs_attempt.${m}.passes`, va.passes);
      out.set(`companions.verdict_vs_attempt.${m}.pass_attempt`, va.passAttempt ?? Number.NaN);
      out.set(`companions.verdict_vs_attempt.${m}.fails`, va.fails);
      out.set(`companions.verdict_vs_attempt.${m}.fail_attempt`, va.failAttempt ?? Number.NaN);
      out.set(`companions.lost.${m}.held_failed`, oc.losses.heldBackFailed);
      for (const [place, key] of Object.entries(lossKeys)) out.set(`companions.lost.${m}.${key}`, oc.losses[place as LossPlace]);
    }
  }
}

/**
 * Compute every metric of a run for the models given (in the run's listed order, which
 * is also the tie order of rank-1). Cross-model numbers (spread, rank-1, Spearman,
 * ranks, pooled counts) cover exactly the models given.
 */
export function computeRunMetrics(manifest: Manifest, models: readonly ModelInputs[], options: RunMetricsOptions): Metrics {
  const out: Metrics = new Map();
  manifestCounts(manifest, out);
  out.set("definition", "C");
  out.set("bootstrap.B", options.bootstrap.resamples);
  out.set("bootstrap.seed", typeof options.bootstrap.seed === "bigint" ? Number(options.bootstrap.seed) : options.bootstrap.seed);
  models.forEach((m, i) => out.set(`models_order[${i}]`, m.model));
  for (const def of definitions) {
    const decisions: number[] = [];
    for (const m of models) {
      const { records, credited } = recordsFor(manifest, m, def);
      const row = definitionRow(records, credited, options.bootstrap);
      const key = `tables.${def}.${m.model}`;
      const display = options.displayNames?.get(m.model);
      if (display !== undefined) out.set(`${key}.display`, display);
      out.set(`${key}.n`, row.n);
      out.set(`${key}.act`, row.act);
      out.set(`${key}.hold`, row.hold);
      out.set(`${key}.decision`, row.decision);
      out.set(`${key}.both`, row.both);
      if (row.ci95 !== null) out.set(`${key}.ci95`, row.ci95);
      if (row.actCi95 !== null) out.set(`${key}.act_ci95`, row.actCi95);
      if (row.holdCi95 !== null) out.set(`${key}.hold_ci95`, row.holdCi95);
      decisions.push(row.decision);
    }
    if (models.length > 0) out.set(`spread.${def}`, Math.max(...decisions) - Math.min(...decisions));
    if (options.bootstrap.resamples > 0 && models.length > 0 && def !== "C-reached") {
      const sets = models.map((m) => recordsFor(manifest, m, def));
      const keys = clusterOrder(sets.flatMap((s) => outcomes(s.records, s.credited)));
      const totals = sets.map((s) => clusterTotals(outcomes(s.records, s.credited), keys));
      const freq = rankOneFrequencies(totals, options.bootstrap);
      models.forEach((m, i) => out.set(`rank1.${def}.${m.model}`, freq[i]));
    }
  }
  for (const m of models) setModelCompanions(manifest, m, out);
  const restoredPairs = definitionPairs(manifest, "C-restored").ids.size;
  out.set("companions.bad_keys_restored.pairs", restoredPairs);
  out.set("companions.bad_keys_restored.added", manifest.restoredPairs.length);
  // pooled held-back content
  if (models.length > 0) {
    let held = 0;
    let silent = 0;
    for (const m of models) {
      held += out.get(`companions.heldback_content.${m.model}.held`) as number;
      silent += out.get(`companions.heldback_content.${m.model}.silent`) as number;
    }
    out.set("companions.heldback_pooled.held", held);
    out.set("companions.heldback_pooled.silent", silent);
  }
  // cross-model official numbers: only when every model has them
  const names = models.map((m) => m.model);
  const decision = (m: string) => out.get(`tables.C.${m}.decision`) as number;
  if (models.length > 0) rankedBy(names, decision).forEach((m, i) => out.set(`companions.ranks.decision[${i}]`, m));
  if (models.length > 0 && names.every((m) => out.has(`companions.official_raw.${m}.miss`))) {
    const miss = (m: string) => out.get(`companions.official_raw.${m}.miss`) as number;
    const base = (m: string) => out.get(`companions.official_raw.${m}.base`) as number;
    rankedBy(names, miss).forEach((m, i) => out.set(`companions.ranks.official[${i}]`, m));
    const sMiss = spearman(names.map(miss), names.map(decision));
    const sBase = spearman(names.map(base), names.map(decision));
    out.set("companions.spearman.miss_rho", sMiss.rho);
    out.set("companions.spearman.miss_p", sMiss.p);
    out.set("companions.spearman.base_rho", sBase.rho);
    out.set("companions.spearman.base_p", sBase.p);
    const pooled: Record<string, number> = { held_failed: 0 };
    for (const key of Object.values(lossKeys)) pooled[key] = 0;
    for (const m of names) {
      pooled.held_failed += out.get(`companions.lost.${m}.held_failed`) as number;
      for (const key of Object.values(lossKeys)) pooled[key] += out.get(`companions.lost.${m}.${key}`) as number;
    }
    for (const [key, v] of Object.entries(pooled)) out.set(`companions.lost_pooled.${key}`, v);
  }
  return out;
}
