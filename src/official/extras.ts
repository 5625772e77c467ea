/**
 * What `twinscore score` shows beside the decision table when asked: the 95% cluster
 * bootstrap interval of each model's decision, the official-score companion
 * (`--scores`), and the sensitivities of Appendix F (`--sensitivity`). The numbers come
 * from `metrics.ts` (one pass); this module only selects and formats them, so `score`,
 * `verify` and the report never disagree.
 */
import type { PairRecord } from "../decision/types.js";
import { bootstrapIntervals, clusterOrder, clusterTotals, rankOneFrequencies, type BootstrapOptions, type Interval } from "../stats/index.js";
import type { Metrics } from "./metrics.js";

/** The decision interval of one model's records (null when resamples = 0 or no pair). */
export function decisionInterval(records: readonly PairRecord[], bootstrap: BootstrapOptions): Interval | null {
  if (bootstrap.resamples === 0 || records.length === 0) return null;
  const totals = clusterTotals(records.map((r) => ({ cluster: r.baseId, act: r.actedOnBase, hold: r.heldBack })));
  return bootstrapIntervals(totals, bootstrap).decision;
}

/**
 * Rank-1 frequencies (% of resamples in which each model has the highest decision) of
 * models scored on the same pairs, from one shared stream; null when resamples = 0.
 */
export function rankOneOf(models: readonly (readonly PairRecord[])[], bootstrap: BootstrapOptions): number[] | null {
  if (bootstrap.resamples === 0 || models.some((rs) => rs.length === 0)) return null;
  const outcomes = models.map((rs) => rs.map((r) => ({ cluster: r.baseId, act: r.actedOnBase, hold: r.heldBack })));
  const keys = clusterOrder(outcomes.flat());
  return rankOneFrequencies(outcomes.map((o) => clusterTotals(o, keys)), bootstrap);
}

/** `[79.7, 86.5]`: one decimal, as the paper prints Table 1. */
export function formatInterval(interval: Interval | null): string {
  return interval === null ? "" : `[${interval[0].toFixed(1)}, ${interval[1].toFixed(1)}]`;
}

const f1 = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(1) : "");
const int = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? String(v) : "");

/** One row of the official-score companion table. */
export interface CompanionRow {
  readonly model: string;
  readonly rawMiss: string;
  readonly rawBase: string;
  readonly decision: string;
  readonly passes: string;
  readonly passAttempt: string;
  readonly fails: string;
  readonly failAttempt: string;
  readonly heldFailed: string;
  readonly beforeAnchor: string;
  readonly onAnchor: string;
  readonly laterEmptyTurn: string;
  readonly laterDiverged: string;
  readonly noTurn: string;
}

/** Header and meaning of each companion column, in print order (the `--help` text is built from these). */
export const companionColumns: readonly { key: keyof CompanionRow; header: string; meaning: string }[] = [
  { key: "model", header: "model", meaning: "model directory name" },
  { key: "rawMiss", header: "off.miss", meaning: "BFCL's own pass rate on the scored should-ask items, %" },
  { key: "rawBase", header: "off.base", meaning: "BFCL's own pass rate on their distinct base twins, %" },
  { key: "decision", header: "decision", meaning: "decision accuracy on the same pairs, %" },
  { key: "passes", header: "passes", meaning: "should-ask items BFCL passes" },
  { key: "passAttempt", header: "pass:att", meaning: "% of those passes with a world-changing attempt on the anchor (the checker skips it)" },
  { key: "fails", header: "fails", meaning: "should-ask items BFCL fails" },
  { key: "failAttempt", header: "fail:att", meaning: "% of those fails with a world-changing attempt on the anchor" },
  { key: "heldFailed", header: "held+fail", meaning: "held-back items that BFCL fails; where they were lost:" },
  { key: "beforeAnchor", header: "before", meaning: "  failing turn before the anchor" },
  { key: "onAnchor", header: "anchor", meaning: "  on the anchor turn (0: BFCL skips it)" },
  { key: "laterEmptyTurn", header: "empty", meaning: "  a later turn with text and no call (the empty-turn rule)" },
  { key: "laterDiverged", header: "diverged", meaning: "  a later turn whose execution diverged (state or response mismatch)" },
  { key: "noTurn", header: "no-turn", meaning: "  no failing turn (inference error, force-termination)" },
];

/** The companion rows of the models that have official numbers. */
export function companionRows(metrics: Metrics, models: readonly string[]): CompanionRow[] {
  return models
    .filter((m) => metrics.has(`companions.official_raw.${m}.miss`))
    .map((m) => {
      const g = (k: string) => metrics.get(k);
      return {
        model: m,
        rawMiss: f1(g(`companions.official_raw.${m}.miss`)),
        rawBase: f1(g(`companions.official_raw.${m}.base`)),
        decision: f1(g(`companions.official_raw.${m}.decision`)),
        passes: int(g(`companions.verdict_vs_attempt.${m}.passes`)),
        passAttempt: f1(g(`companions.verdict_vs_attempt.${m}.pass_attempt`)),
        fails: int(g(`companions.verdict_vs_attempt.${m}.fails`)),
        failAttempt: f1(g(`companions.verdict_vs_attempt.${m}.fail_attempt`)),
        heldFailed: int(g(`companions.lost.${m}.held_failed`)),
        beforeAnchor: int(g(`companions.lost.${m}.before_anchor`)),
        onAnchor: int(g(`companions.lost.${m}.on_anchor`)),
        laterEmptyTurn: int(g(`companions.lost.${m}.later_empty_turn`)),
        laterDiverged: int(g(`companions.lost.${m}.later_diverged`)),
        noTurn: int(g(`companions.lost.${m}.no_turn`)),
      };
    });
}

/** The Spearman line under the companion table (needs three models or more). */
export function spearmanLine(metrics: Metrics): string | null {
  const rho = metrics.get("companions.spearman.miss_rho");
  const p = metrics.get("companions.spearman.miss_p");
  if (typeof rho !== "number" || !Number.isFinite(rho) || typeof p !== "number") return null;
  const rhoBase = metrics.get("companions.spearman.base_rho") as number;
  const pBase = metrics.get("companions.spearman.base_p") as number;
  return `Spearman rank correlation with decision accuracy: official raw on the miss items rho = ${rho.toFixed(2)} (p = ${p.toFixed(2)}), on the base twins rho = ${rhoBase.toFixed(2)} (p = ${pBase.toFixed(2)})`;
}

/** One row of the sensitivity table: a reading of the table for one model. */
export interface SensitivityRow {
  readonly model: string;
  readonly reading: string;
  readonly n: string;
  readonly act: string;
  readonly hold: string;
  readonly decision: string;
  readonly interval: string;
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
        n: int(metrics.get(`${p}.n`)),
        act: f1(metrics.get(`${p}.act`)),
        hold: f1(metrics.get(`${p}.hold`)),
        decision: f1(metrics.get(`${p}.decision`)),
        interval: Array.isArray(ci) ? formatInterval([ci[0], ci[1]]) : "",
      });
    }
    if (metrics.has(`companions.act_per_anchor.${m}.act_per_anchor`)) {
      rows.push({
        model: m,
        reading: "act-per-anchor",
        n: int(metrics.get(`companions.act_per_anchor.${m}.anchors`)),
        act: f1(metrics.get(`companions.act_per_anchor.${m}.act_per_anchor`)),
        hold: "",
        decision: "",
        interval: "",
      });
    }
  }
  return rows;
}
