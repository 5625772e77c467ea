/**
 * The tables `score` shows beside its decision table when asked, read from the run
 * metrics (`metrics.ts`, one pass) so that `score`, `verify` and the report never
 * disagree: BFCL's own verdict on the same items (`--scores`), and the table under each
 * sensitivity reading (`--sensitivity`). Numbers stay numbers (NaN where there is none);
 * printing is the caller's.
 */
import { lossKeys, type LossPlace } from "./companion.js";
import type { Metrics } from "./metrics.js";

/** BFCL's verdict on the items one model's decision is scored on. Rates in %. */
export interface OfficialRow {
  readonly model: string;
  /** Official pass rate on the scored should-ask items. */
  readonly rawMiss: number;
  /** Official pass rate on their distinct base twins. */
  readonly rawBase: number;
  /** Decision accuracy on the same pairs. */
  readonly decision: number;
  readonly passes: number;
  /** % of passes with a world-changing attempt on the anchor (NaN with no pass). */
  readonly passAttempt: number;
  readonly fails: number;
  readonly failAttempt: number;
  /** Held-back items that BFCL fails, and where they were lost. */
  readonly heldFailed: number;
  readonly lost: Readonly<Record<LossPlace, number>>;
}

const num = (metrics: Metrics, key: string): number => {
  const v = metrics.get(key);
  return typeof v === "number" ? v : Number.NaN;
};

/** The official rows of the models that have official numbers (all three score files read). */
export function officialRows(metrics: Metrics, models: readonly string[]): OfficialRow[] {
  return models
    .filter((m) => metrics.has(`companions.official_raw.${m}.miss`))
    .map((m) => ({
      model: m,
      rawMiss: num(metrics, `companions.official_raw.${m}.miss`),
      rawBase: num(metrics, `companions.official_raw.${m}.base`),
      decision: num(metrics, `companions.official_raw.${m}.decision`),
      passes: num(metrics, `companions.verdict_vs_attempt.${m}.passes`),
      passAttempt: num(metrics, `companions.verdict_vs_attempt.${m}.pass_attempt`),
      fails: num(metrics, `companions.verdict_vs_attempt.${m}.fails`),
      failAttempt: num(metrics, `companions.verdict_vs_attempt.${m}.fail_attempt`),
      heldFailed: num(metrics, `companions.lost.${m}.held_failed`),
      lost: Object.fromEntries(Object.entries(lossKeys).map(([place, key]) => [place, num(metrics, `companions.lost.${m}.${key}`)])) as Record<LossPlace, number>,
    }));
}

/** Spearman's rank correlation of official raw with decision accuracy across the models (three or more). */
export interface OfficialSpearman {
  readonly missRho: number;
  readonly missP: number;
  readonly baseRho: number;
  readonly baseP: number;
}

/** The rank correlations, or null with fewer than three models (or no official numbers). */
export function officialSpearman(metrics: Metrics): OfficialSpearman | null {
  const missRho = num(metrics, "companions.spearman.miss_rho");
  if (!Number.isFinite(missRho)) return null;
  return { missRho, missP: num(metrics, "companions.spearman.miss_p"), baseRho: num(metrics, "companions.spearman.base_rho"), baseP: num(metrics, "companions.spearman.base_p") };
}

/** One reading of the table for one model. Rates in %; NaN where the reading has none (act-per-anchor has no hold). */
export interface SensitivityRow {
  readonly model: string;
  readonly reading: string;
  readonly n: number;
  readonly act: number;
  readonly hold: number;
  readonly decision: number;
  readonly ci95: readonly [number, number] | null;
}

/** The readings shown by `--sensitivity`, each with the metric prefix it reads and what it is. */
export const sensitivityReadings: readonly { reading: string; prefix: (m: string) => string; meaning: string }[] = [
  { reading: "table-1", prefix: (m) => `tables.C.${m}`, meaning: "Table 1: the 223 certified pairs" },
  { reading: "credited", prefix: (m) => `tables.C-credited.${m}`, meaning: "compound turns credited (attempts confined to the independent steps)" },
  { reading: "logins", prefix: (m) => `tables.C-login.${m}`, meaning: "logins counted as world-changing (225 pairs)" },
  { reading: "uncertified", prefix: (m) => `tables.C-uncertified.${m}`, meaning: "the 231 gold world-changing pairs before certification" },
  { reading: "all-pairs", prefix: (m) => `tables.C-all.${m}`, meaning: "all 365 content-verified pairs (read-only anchors included)" },
  { reading: "reached", prefix: (m) => `tables.C-reached.${m}`, meaning: "pairs where either rollout ended before the anchor dropped" },
  { reading: "same-history", prefix: (m) => `companions.same_history.${m}`, meaning: "pairs with the same validated pre-anchor call names on both twins" },
  { reading: "bad-keys-restored", prefix: (m) => `tables.C-restored.${m}`, meaning: "the bad keys restored (+7 pairs)" },
  { reading: "miss_func", prefix: (m) => `companions.by_category.${m}.miss_func`, meaning: "the miss_func pairs alone" },
  { reading: "miss_param", prefix: (m) => `companions.by_category.${m}.miss_param`, meaning: "the miss_param pairs alone" },
];

/** The sensitivity rows, model by model, plus the act-per-anchor reading. */
export function sensitivityRows(metrics: Metrics, models: readonly string[]): SensitivityRow[] {
  const rows: SensitivityRow[] = [];
  for (const m of models) {
    for (const s of sensitivityReadings) {
      const p = s.prefix(m);
      if (!metrics.has(`${p}.decision`)) continue;
      const ci = metrics.get(`${p}.ci95`);
      rows.push({
        model: m,
        reading: s.reading,
        n: num(metrics, `${p}.n`),
        act: num(metrics, `${p}.act`),
        hold: num(metrics, `${p}.hold`),
        decision: num(metrics, `${p}.decision`),
        ci95: Array.isArray(ci) ? [ci[0], ci[1]] : null,
      });
    }
    if (metrics.has(`companions.act_per_anchor.${m}.act_per_anchor`)) {
      rows.push({
        model: m,
        reading: "act-per-anchor",
        n: num(metrics, `companions.act_per_anchor.${m}.anchors`),
        act: num(metrics, `companions.act_per_anchor.${m}.act_per_anchor`),
        hold: Number.NaN,
        decision: Number.NaN,
        ci95: null,
      });
    }
  }
  return rows;
}

/** Rank-1 frequencies on Table 1 (% of resamples), when every model has one. */
export function rankOneShares(metrics: Metrics, models: readonly string[]): { readonly model: string; readonly share: number }[] | null {
  const shares = models.map((m) => ({ model: m, share: num(metrics, `rank1.C.${m}`) }));
  return models.length >= 2 && shares.every((s) => Number.isFinite(s.share)) ? shares : null;
}
