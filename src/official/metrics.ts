/**
 * Every number the paper publishes about a run, computed in one pass from the per-pair records, the official
 * verdicts and the manifest, as one typed object: the table under each reading per model, rank-1 frequencies,
 * the companions (official raw, where held-back items were lost, the sensitivities, …) and the manifest's
 * counts. More in this folder's README.md.
 */
import { shouldAskCategories, type ShouldAskCategory } from "../bfcl/categories.js";
import type { CertificationVerdict, Manifest, ManifestPair } from "../pairs/types.js";
import {
  outcomesOf,
  pairRates,
  rateOf,
  rateWhere,
  ratesOf,
  readingById,
  readingPairs,
  readings,
  selectUnder,
  type ReadingRates,
  type ReadingSelection,
} from "../decision/readings.js";
import type { PairRecord, SideRule } from "../decision/types.js";
import { clusterOrder, clusterTotals, rankOneFrequencies, spearman, type BootstrapOptions } from "../stats/index.js";
import { officialCompanion, type LossPlace } from "./companion.js";
import { definitionReadings, definitions, rankedDefinitions, type Definition, type ModelInputs } from "./definitions.js";

export { definitions, type Definition, type ModelInputs } from "./definitions.js";

/** One row of the table under one reading (`ReadingRates`: n, act, hold, decision, both, intervals, and what was left out). */
export type DefinitionRow = ReadingRates;

/** Options of one computation. */
export interface RunMetricsOptions {
  /** Bootstrap resamples and seed; `resamples: 0` computes no interval and no rank-1. */
  readonly bootstrap: BootstrapOptions;
  /** Display names by model (labels only). */
  readonly displayNames?: ReadonlyMap<string, string>;
  /** How sides that are not decisions are read (default `decided`; `verify` reads published numbers under `release`). */
  readonly rule?: SideRule;
}

/** N, act, hold and decision of a slice of the pairs, in %. */
export interface SliceRates {
  readonly n: number;
  readonly act: number;
  readonly hold: number;
  readonly decision: number;
}

/** What the manifest alone says: the pairing funnel's counts (no rollouts needed). */
export interface ManifestCounts {
  readonly contentVerifiedPairs: number;
  /** The candidate pairs (gold world-changing anchor) put through certification; their verdicts below sum to this. */
  readonly certifiedPairs: number;
  /** Candidates per verdict; `uncertified`: no hand ruling covers the pair's items (BFCL v3 items that differ from v4's), scored all the same. */
  readonly certificationVerdicts: {
    readonly valid: number;
    readonly compound: number;
    readonly construction: number;
    readonly uncertified: number;
  };
  readonly constructionErrors: number;
  readonly compoundPairs: number;
  readonly scoredPairs: number;
  readonly excludedPairs: number;
  readonly scoredPairsLogin: number;
  readonly byCategory: Readonly<
    Record<ShouldAskCategory, { readonly scored: number; readonly excluded: number; readonly readOnlyExcluded: number }>
  >;
  /** Excluded pairs per reason, in reason order. */
  readonly excludedReasons: readonly { readonly reason: string; readonly count: number }[];
  readonly readOnlyExcludedPairs: number;
  /** The functions of the read-only excluded pairs' reference anchor calls, most frequent first. */
  readonly excludedTopGoldFunctions: readonly { readonly name: string; readonly count: number }[];
  readonly distinctBaseTwinsAll: number;
  readonly distinctBaseTwinsScored: number;
  readonly distinctBaseAnchorTurnsScored: number;
  readonly badKeyRestoredPairs: number;
  readonly badKeyRestoredAdded: number;
}

/** BFCL's own verdict on the items one model's decision is scored on (needs all three score files). */
export interface OfficialRaw {
  /** Official pass rate on the scored should-ask items and on their distinct base twins, %. */
  readonly miss: number;
  readonly base: number;
  readonly missItems: number;
  readonly baseTwins: number;
  readonly verdictVsAttempt: {
    readonly passes: number;
    readonly passAttempt: number;
    readonly fails: number;
    readonly failAttempt: number;
  };
  /** Held-back items that BFCL fails, and the turn where each was lost. */
  readonly lost: Readonly<Record<LossPlace, number>> & { readonly heldFailed: number };
}

/** Everything computed for one model. */
export interface ModelMetrics {
  readonly model: string;
  readonly display: string | null;
  /** The table under every reading of `decision/readings.ts`, by its id (intervals for those with a table name). */
  readonly readings: Readonly<Record<string, ReadingRates>>;
  /** The same rows by table name (`C`, `C-credited`, …): the names expected-numbers files use. */
  readonly tables: Readonly<Record<Definition, DefinitionRow>>;
  /** % of resamples in which this model ranks first, per reading (with resamples; the readings of `rankedDefinitions`). */
  readonly rank1: Readonly<Partial<Record<Definition, number>>>;
  /** Table 1's pairs of one category alone. */
  readonly byCategory: Readonly<Record<ShouldAskCategory, SliceRates>>;
  /** The excluded pairs whose reference only reads or logs in: how often the model attempted a world-changing call there. */
  readonly excludedAttempts: { readonly n: number; readonly actBase: number; readonly actMiss: number; readonly either: number };
  /** act counted once per distinct base anchor turn. */
  readonly actPerAnchor: { readonly anchors: number; readonly actPerPair: number; readonly actPerAnchor: number };
  /** Pairs with the same validated pre-anchor call names on both twins. */
  readonly sameHistory: SliceRates;
  /** What the held-back turns hold. */
  readonly heldbackContent: { readonly held: number; readonly readOnly: number; readonly text: number; readonly silent: number };
  /** Base anchor turns with no world-changing attempt. */
  readonly baseNoAttempt: { readonly n: number; readonly zeroCalls: number; readonly readOnly: number };
  /** Decision with the bad keys restored, and the change. */
  readonly badKeysRestored: { readonly decision: number; readonly restored: number; readonly change: number };
  /** Rollouts BFCL force-terminated among the scored items: distinct base twins, should-ask items (null without turn counts). */
  readonly truncation: readonly [number, number] | null;
  /** Decision on Table 1's pairs (the official table's decision column; needs no score file). */
  readonly officialDecision: number;
  /** BFCL's verdict on the same items (null without complete score files). */
  readonly official: OfficialRaw | null;
}

/** Every number of a run. */
export interface RunMetrics {
  readonly bootstrap: { readonly resamples: number; readonly seed: number };
  /** How sides that are not decisions were read. */
  readonly rule: SideRule;
  /** The models in the run's listed order (the tie order of rank-1). */
  readonly models: readonly ModelMetrics[];
  readonly counts: ManifestCounts;
  /** Highest minus lowest decision across the models, per reading. */
  readonly spread: Readonly<Partial<Record<Definition, number>>>;
  readonly badKeysRestored: { readonly pairs: number; readonly added: number };
  /** Held-back turns and silent ones over every model. */
  readonly heldbackPooled: { readonly held: number; readonly silent: number } | null;
  /** Models ranked by decision and, when every model has official numbers, by official raw on the should-ask items. */
  readonly ranks: { readonly decision: readonly string[]; readonly official: readonly string[] | null };
  /** Rank correlation of official raw with decision (when every model has official numbers). */
  readonly spearman: { readonly missRho: number; readonly missP: number; readonly baseRho: number; readonly baseP: number } | null;
  /** Where held-back items were lost, over every model (when every model has official numbers). */
  readonly lostPooled: (Readonly<Record<LossPlace, number>> & { readonly heldFailed: number }) | null;
}

function callName(call: string): string | null {
  const m = /^\s*([A-Za-z_][\w.]*)\s*\(/.exec(call);
  return m ? m[1] : null;
}

/** The manifest-only counts: these need no rollouts. */
export function manifestCounts(manifest: Manifest): ManifestCounts {
  const pairs = manifest.pairs;
  const scored = pairs.filter((p) => p.status === "scored");
  const excluded = pairs.filter((p) => p.status !== "scored");
  const certified = pairs.filter((p) => p.certification !== null);
  const readOnly = pairs.filter((p) => p.goldAnchorKind !== "world-changing");
  const byCat = (ps: readonly ManifestPair[], c: ShouldAskCategory) => ps.filter((p) => p.category === c).length;
  const verdicts = (v: CertificationVerdict) => certified.filter((p) => p.certification!.verdict === v).length;
  const reasons = new Map<string, number>();
  for (const p of excluded) reasons.set(p.exclusionReason ?? "", (reasons.get(p.exclusionReason ?? "") ?? 0) + 1);
  const fns = new Map<string, number>();
  for (const p of readOnly) {
    for (const call of p.goldAnchorCalls) {
      const name = callName(call);
      if (name !== null) fns.set(name, (fns.get(name) ?? 0) + 1);
    }
  }
  return {
    contentVerifiedPairs: pairs.length,
    certifiedPairs: certified.length,
    certificationVerdicts: {
      valid: verdicts("valid"),
      compound: verdicts("compound"),
      construction: verdicts("construction"),
      uncertified: verdicts("uncertified"),
    },
    constructionErrors: verdicts("construction"),
    compoundPairs: verdicts("compound"),
    scoredPairs: scored.length,
    excludedPairs: excluded.length,
    scoredPairsLogin: scored.length + pairs.filter((p) => p.goldAnchorKind === "login-only").length,
    byCategory: Object.fromEntries(
      shouldAskCategories.map((c) => [c, { scored: byCat(scored, c), excluded: byCat(excluded, c), readOnlyExcluded: byCat(readOnly, c) }]),
    ) as ManifestCounts["byCategory"],
    excludedReasons: [...reasons].sort().map(([reason, count]) => ({ reason, count })),
    readOnlyExcludedPairs: readOnly.length,
    excludedTopGoldFunctions: [...fns].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name, count]) => ({ name, count })),
    distinctBaseTwinsAll: new Set(pairs.map((p) => p.baseId)).size,
    distinctBaseTwinsScored: new Set(scored.map((p) => p.baseId)).size,
    distinctBaseAnchorTurnsScored: new Set(scored.map((p) => `${p.baseId}#${p.anchorTurn}`)).size,
    badKeyRestoredPairs: scored.length + manifest.restoredPairs.length,
    badKeyRestoredAdded: manifest.restoredPairs.length,
  };
}

/** Order model names by a value, highest first; ties keep the listed order. */
function rankedBy(models: readonly string[], value: (m: string) => number): string[] {
  return models
    .map((m, i) => [m, value(m), i] as const)
    .sort((a, b) => b[1] - a[1] || a[2] - b[2])
    .map(([m]) => m);
}

function rates(row: ReadingRates): SliceRates {
  return { n: row.n, act: row.act, hold: row.hold, decision: row.decision };
}

/** Every model's selection under every reading, made once: the tables, rank-1 and the companions all read these. */
function selectionsOf(manifest: Manifest, model: ModelInputs, rule: SideRule): Map<string, ReadingSelection> {
  return new Map(readings.map((r) => [r.id, selectUnder(model.records, manifest, r, rule)]));
}

/** The selection of a table name (`C`, `C-credited`, …). */
function tableSelection(selections: ReadonlyMap<string, ReadingSelection>, def: Definition): ReadingSelection {
  return selections.get(definitionReadings.find((r) => r.metric === def)!.id)!;
}

/** How often the model attempted a world-changing call on the excluded pairs whose reference only reads or logs in, as the all-pairs reading scores them. */
function excludedAttemptsOf(manifest: Manifest, allPairs: ReadingSelection): ModelMetrics["excludedAttempts"] {
  const readOnlyIds = new Set(manifest.pairs.filter((p) => p.goldAnchorKind !== "world-changing").map((p) => p.missId));
  const ex = allPairs.scored.filter((s) => readOnlyIds.has(s.record.missId));
  return {
    n: ex.length,
    actBase: rateWhere(ex, (s) => s.act),
    actMiss: rateWhere(ex, (s) => !s.hold),
    either: rateWhere(ex, (s) => s.act || !s.hold),
  };
}

/** Act per scored pair, and counted once per distinct base anchor turn (its first pair's act). */
function actPerAnchorOf(table1: ReadingSelection): ModelMetrics["actPerAnchor"] {
  const anchors = new Map<string, boolean>();
  for (const { record: r, act } of table1.scored) {
    const key = `${r.baseId}#${r.anchorTurn}`;
    if (!anchors.has(key)) anchors.set(key, act);
  }
  return { anchors: anchors.size, actPerPair: pairRates(table1.scored).act, actPerAnchor: rateOf([...anchors.values()]) };
}

/** Rollouts BFCL force-terminated among the scored items: distinct base twins and should-ask items shorter than their entries (null without turn counts). */
function truncationOf(manifest: Manifest, model: ModelInputs, records: readonly PairRecord[]): readonly [number, number] | null {
  if (model.turnCounts === null) return null;
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
  return [baseShort.size, missShort];
}

/** BFCL's verdict on the scored items, from the official companion (null without a verdict for every one of them). */
function officialRawOf(records: readonly PairRecord[], verdicts: ModelInputs["verdicts"]): OfficialRaw | null {
  if (verdicts === null) return null;
  const oc = officialCompanion(records, verdicts);
  if (oc.missingVerdicts.length > 0) return null;
  const va = oc.verdictVsAttempt;
  return {
    miss: oc.rawMiss,
    base: oc.rawBase,
    missItems: oc.missItems,
    baseTwins: oc.baseTwins,
    verdictVsAttempt: { passes: va.passes, passAttempt: va.passAttempt, fails: va.fails, failAttempt: va.failAttempt },
    lost: { ...stripHeld(oc.losses), heldFailed: oc.losses.heldBackFailed },
  };
}

/** Everything of one model but rank-1 (which needs every model). */
function modelMetrics(
  manifest: Manifest,
  model: ModelInputs,
  selections: ReadonlyMap<string, ReadingSelection>,
  options: RunMetricsOptions,
): Omit<ModelMetrics, "rank1"> {
  // intervals for the readings with a table name; the slices without one are shown without
  const byReading = Object.fromEntries(
    readings.map((r) => [r.id, ratesOf(selections.get(r.id)!, r.metric !== null ? options.bootstrap : null)]),
  ) as Record<string, ReadingRates>;
  const tables = Object.fromEntries(definitionReadings.map((r) => [r.metric, byReading[r.id]])) as Record<Definition, ReadingRates>;
  const table1 = selections.get("table-1")!;
  const records = table1.scored.map((s) => s.record);
  const byCategory = Object.fromEntries(shouldAskCategories.map((c) => [c, rates(byReading[c])])) as Record<ShouldAskCategory, SliceRates>;
  const held = table1.scored.filter((s) => s.hold).map((s) => s.record);
  const withText = held.filter((r) => r.miss.anchorText.some((t) => t.trim() !== ""));
  const noAttempt = table1.scored.filter((s) => !s.act).map((s) => s.record);
  const zeroCalls = noAttempt.filter((r) => r.base.anchorCalls.length === 0).length;
  const base = tables.C;
  const restored = tables["C-restored"];
  return {
    model: model.model,
    display: options.displayNames?.get(model.model) ?? null,
    readings: byReading,
    tables,
    byCategory,
    excludedAttempts: excludedAttemptsOf(manifest, selections.get("all-pairs")!),
    actPerAnchor: actPerAnchorOf(table1),
    sameHistory: rates(byReading["same-history"]),
    heldbackContent: {
      held: held.length,
      readOnly: held.filter((r) => r.miss.anchorCalls.length > 0).length,
      text: withText.length,
      silent: held.length - withText.length,
    },
    baseNoAttempt: { n: noAttempt.length, zeroCalls, readOnly: noAttempt.length - zeroCalls },
    badKeysRestored: { decision: base.decision, restored: restored.decision, change: restored.decision - base.decision },
    truncation: truncationOf(manifest, model, records),
    officialDecision: base.decision,
    official: officialRawOf(records, model.verdicts),
  };
}

function stripHeld(losses: Readonly<Record<LossPlace, number>> & { readonly heldBackFailed: number }): Record<LossPlace, number> {
  const { heldBackFailed: _held, ...places } = losses;
  return places;
}

/**
 * Compute every metric of a run for the models given (in the run's listed order, which
 * is also the tie order of rank-1). Cross-model numbers (spread, rank-1, Spearman,
 * ranks, pooled counts) cover exactly the models given.
 */
export function computeRunMetrics(manifest: Manifest, models: readonly ModelInputs[], options: RunMetricsOptions): RunMetrics {
  const rule = options.rule ?? "decided";
  const selections = models.map((m) => selectionsOf(manifest, m, rule));
  const partial = models.map((m, i) => modelMetrics(manifest, m, selections[i], options));
  const { spread, rank1 } = spreadAndRankOne(partial, selections, options);
  const all: ModelMetrics[] = partial.map((m, i) => ({ ...m, rank1: rank1[i] }));
  const names = all.map((m) => m.model);
  const byName = new Map(all.map((m) => [m.model, m]));
  const decision = (m: string) => byName.get(m)!.tables.C.decision;
  const everyOfficial = all.length > 0 && all.every((m) => m.official !== null);
  const official = everyOfficial ? officialAcrossModels(all, decision) : { spearman: null, lostPooled: null };
  return {
    bootstrap: {
      resamples: options.bootstrap.resamples,
      seed: typeof options.bootstrap.seed === "bigint" ? Number(options.bootstrap.seed) : options.bootstrap.seed,
    },
    rule,
    models: all,
    counts: manifestCounts(manifest),
    spread,
    badKeysRestored: { pairs: readingPairs(manifest, readingById("bad-keys-restored")!).length, added: manifest.restoredPairs.length },
    heldbackPooled:
      all.length > 0
        ? { held: all.reduce((a, m) => a + m.heldbackContent.held, 0), silent: all.reduce((a, m) => a + m.heldbackContent.silent, 0) }
        : null,
    ranks: {
      decision: all.length > 0 ? rankedBy(names, decision) : [],
      official: everyOfficial ? rankedBy(names, (m) => byName.get(m)!.official!.miss) : null,
    },
    spearman: official.spearman,
    lostPooled: official.lostPooled,
  };
}

/** Per definition: the spread of the decision over the models and, with resamples, each model's rank-1 frequency. */
function spreadAndRankOne(
  partial: readonly Omit<ModelMetrics, "rank1">[],
  selections: readonly ReturnType<typeof selectionsOf>[],
  options: RunMetricsOptions,
): { spread: Partial<Record<Definition, number>>; rank1: Partial<Record<Definition, number>>[] } {
  const rank1 = partial.map(() => ({}) as Partial<Record<Definition, number>>);
  const spread: Partial<Record<Definition, number>> = {};
  for (const def of definitions) {
    if (partial.length === 0) continue;
    const decisions = partial.map((m) => m.tables[def].decision);
    spread[def] = Math.max(...decisions) - Math.min(...decisions);
    if (options.bootstrap.resamples > 0 && rankedDefinitions.includes(def)) {
      const sets = selections.map((s) => outcomesOf(tableSelection(s, def)));
      const keys = clusterOrder(sets.flat());
      const totals = sets.map((o) => clusterTotals(o, keys));
      const freq = rankOneFrequencies(totals, options.bootstrap);
      freq.forEach((f, i) => (rank1[i][def] = f));
    }
  }
  return { spread, rank1 };
}

/** When every model has official verdicts: their rank correlation with the decision, and the losses pooled over models. */
function officialAcrossModels(
  all: readonly ModelMetrics[],
  decision: (model: string) => number,
): { spearman: RunMetrics["spearman"]; lostPooled: RunMetrics["lostPooled"] } {
  const names = all.map((m) => m.model);
  const byName = new Map(all.map((m) => [m.model, m]));
  const miss = (m: string) => byName.get(m)!.official!.miss;
  const base = (m: string) => byName.get(m)!.official!.base;
  const sMiss = spearman(names.map(miss), names.map(decision));
  const sBase = spearman(names.map(base), names.map(decision));
  const sum = (k: LossPlace | "heldFailed") => all.reduce((a, m) => a + m.official!.lost[k], 0);
  return {
    spearman: { missRho: sMiss.rho, missP: sMiss.p, baseRho: sBase.rho, baseP: sBase.p },
    lostPooled: {
      heldFailed: sum("heldFailed"),
      "before-anchor": sum("before-anchor"),
      "on-anchor": sum("on-anchor"),
      "later-empty-turn": sum("later-empty-turn"),
      "later-diverged": sum("later-diverged"),
      "no-turn": sum("no-turn"),
    },
  };
}
