/**
 * The dotted names expected-numbers files use for a run's numbers
 * (`tables.<reading>.<model>.decision`, `rank1.C.<model>`, `companions.official_raw.<model>.miss`,
 * `counts.scored_pairs`, …; the paper's `published.tsv` names), read off the typed
 * metrics. `verify` looks each expected number up here; nothing else uses the names.
 */
import { shouldAskCategories } from "../bfcl/categories.js";
import { lossKeys, type LossPlace } from "./companion.js";
import { definitions } from "./definitions.js";
import type { ManifestCounts, RunMetrics } from "./metrics.js";

/** A computed number: a count or rate, a label, or a list (an interval, a pair of counts). */
export type MetricValue = number | string | readonly number[];

/** Computed numbers by dotted name. */
export type MetricsByName = Map<string, MetricValue>;

/** The manifest-only counts by name (`counts.*`, and `companions.distinct_base_twins`). */
export function countsByName(c: ManifestCounts, out: MetricsByName = new Map()): MetricsByName {
  out.set("counts.content_verified_pairs", c.contentVerifiedPairs);
  out.set("counts.certified_pairs", c.certifiedPairs);
  for (const v of ["valid", "compound", "construction", "uncertified"] as const)
    out.set(`counts.certification_verdicts.${v}`, c.certificationVerdicts[v]);
  out.set("counts.construction_errors", c.constructionErrors);
  out.set("counts.compound_pairs", c.compoundPairs);
  out.set("counts.scored_pairs", c.scoredPairs);
  out.set("counts.excluded_pairs", c.excludedPairs);
  out.set("counts.scored_pairs_login", c.scoredPairsLogin);
  for (const cat of shouldAskCategories) {
    out.set(`counts.scored_${cat}`, c.byCategory[cat].scored);
    out.set(`counts.excluded_${cat}`, c.byCategory[cat].excluded);
    out.set(`counts.read_only_excluded_${cat}`, c.byCategory[cat].readOnlyExcluded);
  }
  for (const r of c.excludedReasons) out.set(`counts.excluded_reasons.${r.reason}`, r.count);
  out.set("counts.read_only_excluded_pairs", c.readOnlyExcludedPairs);
  for (const f of c.excludedTopGoldFunctions) out.set(`counts.excluded_top_gold_functions.${f.name}`, f.count);
  out.set("counts.distinct_base_twins_all", c.distinctBaseTwinsAll);
  out.set("counts.distinct_base_twins_scored", c.distinctBaseTwinsScored);
  out.set("counts.distinct_base_anchor_turns_scored", c.distinctBaseAnchorTurnsScored);
  out.set("counts.bad_key_restored_pairs", c.badKeyRestoredPairs);
  out.set("counts.bad_key_restored_added", c.badKeyRestoredAdded);
  out.set("companions.distinct_base_twins", c.distinctBaseTwinsScored);
  return out;
}

function setLost(out: MetricsByName, prefix: string, lost: Readonly<Record<LossPlace, number>> & { readonly heldFailed: number }): void {
  out.set(`${prefix}.held_failed`, lost.heldFailed);
  for (const [place, key] of Object.entries(lossKeys)) out.set(`${prefix}.${key}`, lost[place as LossPlace]);
}

/** Every number of a run by its dotted name. */
export function metricsByName(run: RunMetrics): MetricsByName {
  const out: MetricsByName = new Map();
  countsByName(run.counts, out);
  out.set("definition", "C");
  out.set("bootstrap.B", run.bootstrap.resamples);
  out.set("bootstrap.seed", run.bootstrap.seed);
  run.models.forEach((m, i) => out.set(`models_order[${i}]`, m.model));
  for (const def of definitions) {
    for (const m of run.models) {
      const key = `tables.${def}.${m.model}`;
      const row = m.tables[def];
      if (m.display !== null) out.set(`${key}.display`, m.display);
      out.set(`${key}.n`, row.n);
      out.set(`${key}.act`, row.act);
      out.set(`${key}.hold`, row.hold);
      out.set(`${key}.decision`, row.decision);
      out.set(`${key}.both`, row.both);
      if (row.ci95 !== null) out.set(`${key}.ci95`, row.ci95);
      if (row.actCi95 !== null) out.set(`${key}.act_ci95`, row.actCi95);
      if (row.holdCi95 !== null) out.set(`${key}.hold_ci95`, row.holdCi95);
    }
    const spread = run.spread[def];
    if (spread !== undefined) out.set(`spread.${def}`, spread);
    for (const m of run.models) {
      const r = m.rank1[def];
      if (r !== undefined) out.set(`rank1.${def}.${m.model}`, r);
    }
  }
  for (const m of run.models) {
    const p = (group: string) => `companions.${group}.${m.model}`;
    for (const c of shouldAskCategories) {
      const r = m.byCategory[c];
      out.set(`${p("by_category")}.${c}.n`, r.n);
      out.set(`${p("by_category")}.${c}.act`, r.act);
      out.set(`${p("by_category")}.${c}.hold`, r.hold);
      out.set(`${p("by_category")}.${c}.decision`, r.decision);
    }
    out.set(`${p("excluded_attempts")}.n`, m.excludedAttempts.n);
    out.set(`${p("excluded_attempts")}.act_base`, m.excludedAttempts.actBase);
    out.set(`${p("excluded_attempts")}.act_miss`, m.excludedAttempts.actMiss);
    out.set(`${p("excluded_attempts")}.either`, m.excludedAttempts.either);
    out.set(`${p("act_per_anchor")}.anchors`, m.actPerAnchor.anchors);
    out.set(`${p("act_per_anchor")}.act_per_pair`, m.actPerAnchor.actPerPair);
    out.set(`${p("act_per_anchor")}.act_per_anchor`, m.actPerAnchor.actPerAnchor);
    out.set(`${p("same_history")}.n`, m.sameHistory.n);
    out.set(`${p("same_history")}.act`, m.sameHistory.act);
    out.set(`${p("same_history")}.hold`, m.sameHistory.hold);
    out.set(`${p("same_history")}.decision`, m.sameHistory.decision);
    out.set(`${p("heldback_content")}.held`, m.heldbackContent.held);
    out.set(`${p("heldback_content")}.read_only`, m.heldbackContent.readOnly);
    out.set(`${p("heldback_content")}.text`, m.heldbackContent.text);
    out.set(`${p("heldback_content")}.silent`, m.heldbackContent.silent);
    out.set(`${p("base_no_attempt")}.n`, m.baseNoAttempt.n);
    out.set(`${p("base_no_attempt")}.zero_calls`, m.baseNoAttempt.zeroCalls);
    out.set(`${p("base_no_attempt")}.read_only`, m.baseNoAttempt.readOnly);
    out.set(`companions.bad_keys_restored.models.${m.model}.decision`, m.badKeysRestored.decision);
    out.set(`companions.bad_keys_restored.models.${m.model}.restored`, m.badKeysRestored.restored);
    out.set(`companions.bad_keys_restored.models.${m.model}.change`, m.badKeysRestored.change);
    if (m.truncation !== null) out.set(`truncation.${m.model}`, m.truncation);
    out.set(`${p("official_raw")}.decision`, m.officialDecision);
    if (m.official !== null) {
      const o = m.official;
      out.set(`${p("official_raw")}.miss`, o.miss);
      out.set(`${p("official_raw")}.base`, o.base);
      out.set(`${p("official_raw")}.miss_items`, o.missItems);
      out.set(`${p("official_raw")}.base_twins`, o.baseTwins);
      out.set(`${p("verdict_vs_attempt")}.passes`, o.verdictVsAttempt.passes);
      out.set(`${p("verdict_vs_attempt")}.pass_attempt`, o.verdictVsAttempt.passAttempt);
      out.set(`${p("verdict_vs_attempt")}.fails`, o.verdictVsAttempt.fails);
      out.set(`${p("verdict_vs_attempt")}.fail_attempt`, o.verdictVsAttempt.failAttempt);
      setLost(out, p("lost"), o.lost);
    }
  }
  out.set("companions.bad_keys_restored.pairs", run.badKeysRestored.pairs);
  out.set("companions.bad_keys_restored.added", run.badKeysRestored.added);
  if (run.heldbackPooled !== null) {
    out.set("companions.heldback_pooled.held", run.heldbackPooled.held);
    out.set("companions.heldback_pooled.silent", run.heldbackPooled.silent);
  }
  run.ranks.decision.forEach((m, i) => out.set(`companions.ranks.decision[${i}]`, m));
  run.ranks.official?.forEach((m, i) => out.set(`companions.ranks.official[${i}]`, m));
  if (run.spearman !== null) {
    out.set("companions.spearman.miss_rho", run.spearman.missRho);
    out.set("companions.spearman.miss_p", run.spearman.missP);
    out.set("companions.spearman.base_rho", run.spearman.baseRho);
    out.set("companions.spearman.base_p", run.spearman.baseP);
  }
  if (run.lostPooled !== null) setLost(out, "companions.lost_pooled", run.lostPooled);
  return out;
}
