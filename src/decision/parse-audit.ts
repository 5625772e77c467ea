/**
 * The parse audit: what the handler made of each anchor-turn step of a model's twins, per result category —
 * native calls, calls written as text that the handler does not parse, prose, nothing. More in this folder's
 * README.md.
 */
import { scoredResultCategories, type ScoredResultCategory } from "../bfcl/categories.js";
import type { StepKinds } from "../extract/types.js";
import { rate } from "./readings.js";
import { firstAtAnchor } from "./score.js";
import type { PairRecord, TwinReading } from "./types.js";

/** One category's anchor-turn steps, by kind. */
export interface CategoryAudit {
  readonly category: ScoredResultCategory;
  /** Twins read (a base twin shared by several pairs at one anchor turn counts once). */
  readonly twins: number;
  readonly steps: StepKinds;
}

/** Share of a category's call steps (native and text) that may be text calls before the audit says so. */
export const TEXT_CALL_LIMIT = 0.05;

/**
 * The twins of `records` in one result category, each once: a base twin shared by several
 * pairs at one anchor turn is one twin.
 */
export function twinsIn(records: readonly PairRecord[], category: ScoredResultCategory): TwinReading[] {
  const twins: TwinReading[] = [];
  if (category === "base") {
    const anchorsSeen = new Map<string, number[]>();
    for (const r of records) if (firstAtAnchor(anchorsSeen, r.baseId, r.anchorTurn)) twins.push(r.base);
    return twins;
  }
  const seen = new Set<string>();
  for (const r of records) {
    if (r.category !== category || seen.has(r.missId)) continue;
    seen.add(r.missId);
    twins.push(r.miss);
  }
  return twins;
}

/** The anchor-turn steps of the twins of `records`, per category (base, miss_func, miss_param), each twin once. */
export function parseAudit(records: readonly PairRecord[]): CategoryAudit[] {
  return scoredResultCategories.map((category) => {
    const steps = { native: 0, textCalls: 0, prose: 0, empty: 0 };
    const twins = twinsIn(records, category);
    for (const twin of twins) {
      const k = twin.anchorSteps;
      steps.native += k.native;
      steps.textCalls += k.textCalls;
      steps.prose += k.prose;
      steps.empty += k.empty;
    }
    return { category, twins: twins.length, steps };
  });
}

/** True when more than `TEXT_CALL_LIMIT` of a category's call steps are calls written as text. */
export function textCallsPastLimit(audit: CategoryAudit): boolean {
  const { native, textCalls } = audit.steps;
  return textCalls > 0 && textCalls > TEXT_CALL_LIMIT * (native + textCalls);
}

/**
 * The one line a category past the limit gets (null when it is not): how many text calls,
 * the handler that does not parse them, and the likely cause. `handler` names the handler
 * and decoder BFCL's registry gives the model: the decoder is right, so the line never
 * points to another one.
 */
export function textCallLine(model: string, audit: CategoryAudit, handler: string): string | null {
  if (!textCallsPastLimit(audit)) return null;
  const { native, textCalls } = audit.steps;
  const calls = native + textCalls;
  const pct = rate(textCalls, calls).toFixed(1);
  return (
    `model ${model}: ${textCalls} of ${calls} anchor-turn call steps in ${audit.category} (${pct} %) are calls written as text that ${handler} does not parse, so BFCL executed no call there; ` +
    `likely cause: the server's tool-call parser or chat template returned the calls as text instead of tool calls. ` +
    `The headline counts them as attempts (the model's decision); the BFCL-decoded reading beside it counts them as no call`
  );
}
