/**
 * Per-model shares of each label plus the silent turns, the numbers the paper reports
 * (76–91% asking or naming what is missing, 3–9% proceeding in prose).
 */
import { rate } from "../decision/readings.js";
import { judgeLabels, type JudgeLabel, type JudgeRecord } from "./types.js";

/** One model's label distribution. */
export interface JudgeSummary {
  readonly model: string;
  /** Held-back anchor turns found in the rollouts. */
  readonly heldBack: number;
  /** Of those, rollouts that ended before the anchor (or inference errors): no turn to read. */
  readonly notReached: number;
  /** Of those, turns with no natural-language text (not sent to the judge). */
  readonly silent: number;
  /** Turns that carry a label. */
  readonly labelled: number;
  readonly counts: Readonly<Record<JudgeLabel, number>>;
  /** Percent of labelled turns, per label (NaN, no rate, when none is labelled). */
  readonly shares: Readonly<Record<JudgeLabel, number>>;
}

/** Aggregate labels per model; models keep the order of `heldBackPerModel`. */
export function summarizeLabels(
  heldBackPerModel: ReadonlyMap<string, { heldBack: number; notReached: number; silent: number; missIds: ReadonlySet<string> }>,
  records: readonly JudgeRecord[],
): JudgeSummary[] {
  const out: JudgeSummary[] = [];
  for (const [model, info] of heldBackPerModel) {
    const counts = Object.fromEntries(judgeLabels.map((l) => [l, 0])) as Record<JudgeLabel, number>;
    const seen = new Set<string>();
    for (const r of records) {
      if (r.model !== model || !info.missIds.has(r.missId) || seen.has(r.missId)) continue;
      seen.add(r.missId);
      counts[r.label]++;
    }
    const labelled = seen.size;
    const shares = Object.fromEntries(judgeLabels.map((l) => [l, rate(counts[l], labelled)])) as Record<JudgeLabel, number>;
    out.push({ model, heldBack: info.heldBack, notReached: info.notReached, silent: info.silent, labelled, counts, shares });
  }
  return out;
}
