/**
 * The tables `score` shows beside its decision table when asked, read from the run
 * metrics (`metrics.ts`, one pass) so that `score`, `verify` and the report never
 * disagree: BFCL's own verdict on the same items (`--scores`), and the table under each
 * sensitivity reading (`--sensitivity`). Numbers stay numbers (NaN where there is none);
 * printing is the caller's.
 */
import { readings } from "../decision/readings.js";
import type { LossPlace } from "./companion.js";
import type { RunMetrics } from "./metrics.js";

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

/** The official rows of the models that have official numbers (all three score files read). */
export function officialRows(metrics: RunMetrics, models: readonly string[]): OfficialRow[] {
  return models.flatMap((name) => {
    const m = metrics.models.find((x) => x.model === name);
    if (!m || m.official === null) return [];
    const o = m.official;
    const { heldFailed, ...lost } = o.lost;
    return [
      {
        model: name,
        rawMiss: o.miss,
        rawBase: o.base,
        decision: m.officialDecision,
        passes: o.verdictVsAttempt.passes,
        passAttempt: o.verdictVsAttempt.passAttempt,
        fails: o.verdictVsAttempt.fails,
        failAttempt: o.verdictVsAttempt.failAttempt,
        heldFailed,
        lost,
      },
    ];
  });
}

/** Spearman's rank correlation of official raw with decision accuracy across the models (three or more). */
export interface OfficialSpearman {
  readonly missRho: number;
  readonly missP: number;
  readonly baseRho: number;
  readonly baseP: number;
}

/** The rank correlations, or null with fewer than three models (or no official numbers). */
export function officialSpearman(metrics: RunMetrics): OfficialSpearman | null {
  return metrics.spearman !== null && Number.isFinite(metrics.spearman.missRho) ? metrics.spearman : null;
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
  /** What the reading means for this model when that differs from the reading's name (a model read from the reference: `same-history` is every pair). */
  readonly note?: string;
}

/** The readings `--sensitivity` shows, in order, with what each is: every reading of `decision/readings.ts`. */
export const sensitivityReadings: readonly { readonly reading: string; readonly meaning: string }[] = readings.map((r) => ({
  reading: r.id,
  meaning: r.meaning,
}));

/** The sensitivity rows, model by model (every reading, then act-per-anchor). */
export function sensitivityRows(metrics: RunMetrics, models: readonly string[]): SensitivityRow[] {
  const rows: SensitivityRow[] = [];
  for (const name of models) {
    const m = metrics.models.find((x) => x.model === name);
    if (!m) continue;
    for (const r of readings) {
      const x = m.readings[r.id];
      rows.push({ model: name, reading: r.id, n: x.n, act: x.act, hold: x.hold, decision: x.decision, ci95: x.ci95 });
    }
    rows.push({
      model: name,
      reading: "act-per-anchor",
      n: m.actPerAnchor.anchors,
      act: m.actPerAnchor.actPerAnchor,
      hold: Number.NaN,
      decision: Number.NaN,
      ci95: null,
    });
  }
  return rows;
}

/** Rank-1 frequencies on Table 1 (% of resamples), when every model has one. */
export function rankOneShares(metrics: RunMetrics, models: readonly string[]): { readonly model: string; readonly share: number }[] | null {
  const shares = models.map((name) => ({ model: name, share: metrics.models.find((x) => x.model === name)?.rank1.C ?? Number.NaN }));
  return models.length >= 2 && shares.every((s) => Number.isFinite(s.share)) ? shares : null;
}
