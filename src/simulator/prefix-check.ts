/**
 * "Asked, then did it": BFCL's checker on the turns of a twin up to a point. The base twin is completed when
 * the checker passes every turn through the anchor turn T, the should-ask twin every turn through T+1, once it
 * had what it needed. A prefix is checked as BFCL would check a rollout that ended there. More in this folder's
 * README.md.
 */
import { err, errAll, ok, problem, type Problem, type Result } from "../messages/index.js";
import { jsonLoadsOrThrow } from "../python/json.js";
import type { PyValue } from "../python/value.js";
import type { ManifestPair, ShouldAskCategory } from "../pairs/types.js";
import {
  checkDecoded,
  decodeTurns,
  type CheckPrompt,
  type EntryVerdict,
  type MultiTurnErrorType,
  type PlainStepDecoder,
  type StepDecoder,
} from "./checker.js";
import type { EvaluatorProcess } from "./executor.js";
import { bfclDefaultDecoder } from "../bfcl/decode/index.js";
import { lineFor } from "../bfcl/results.js";
import { stepsAreStringArgs, type CategoryInputs } from "./run-check.js";

/** Whether a twin's prefix passes BFCL's checker, and if not, why. */
export type PrefixOutcome =
  | { readonly completed: true }
  /** The line is an inference error, the rollout ended before the prefix did, or the result file has no line for the id. */
  | { readonly completed: false; readonly reason: "inference-error" | "short" | "missing" }
  /** The checker failed the prefix: its error type and the turn it failed on. */
  | { readonly completed: false; readonly reason: "checker"; readonly errorType: MultiTurnErrorType; readonly turn: number };

/** How prefixes are checked: the model's result directory name, a fresh evaluator per check, the step decoder. */
export interface PrefixCheckOptions {
  readonly modelName: string;
  /** A fresh evaluator process (one per prefix check). */
  readonly newProcess: () => EvaluatorProcess;
  /** BFCL's `decode_execute` of the model's handler; FC by default. */
  readonly decode?: StepDecoder;
  /** The same decoder on `JSON.parse` values, if it has such a path (see `PlainStepPath`); FC's when `decode` is not given. */
  readonly decodePlain?: PlainStepDecoder;
}

/** The turn a checker failure names: in the message for empty-turn and response mismatches, the execution records for state mismatches. */
export function failingTurnOf(verdict: Extract<EntryVerdict, { valid: false }>): number {
  if (verdict.errorType === "multi_turn:instance_state_mismatch") {
    const records = verdict.error.get("execution_result");
    return Array.isArray(records) ? records.length - 1 : -1;
  }
  const m = /turn (\d+)\.?$/.exec(verdict.errorMessage);
  return m ? Number(m[1]) : -1;
}

/**
 * BFCL's checker on turns 0..`through` of one result line's `result` (its JSON text),
 * against `groundTruth` cut after `through`. Throws only on text that is not JSON (the
 * pipeline's texts, kept by `app/result-lines.ts` `readResultFile`, are only texts that parse).
 */
export function checkPrefix(
  resultText: string,
  groundTruth: readonly (readonly string[])[],
  prompt: CheckPrompt,
  through: number,
  opts: PrefixCheckOptions,
): PrefixOutcome {
  const result: unknown = JSON.parse(resultText);
  if (!Array.isArray(result)) return { completed: false, reason: "inference-error" };
  if (result.length < through + 1) return { completed: false, reason: "short" };
  const turns = result.slice(0, through + 1);
  // without a decoder the run is read as BFCL reads a native function-calling run
  const fallback = bfclDefaultDecoder("records");
  const decoded = stepsAreStringArgs(turns)
    ? decodeTurns(turns as PyValue[], opts.decodePlain ?? opts.decode ?? fallback.plain?.decode ?? fallback.decode)
    : decodeTurns((jsonLoadsOrThrow(resultText) as PyValue[]).slice(0, through + 1), opts.decode ?? fallback.decode);
  const verdict = checkDecoded(decoded, groundTruth.slice(0, through + 1), prompt, {
    modelName: opts.modelName,
    process: opts.newProcess(),
  });
  if (verdict.valid) return { completed: true };
  return { completed: false, reason: "checker", errorType: verdict.errorType, turn: failingTurnOf(verdict) };
}

/** The completion of both twins of one pair. */
export interface PairPrefixes {
  readonly missId: string;
  readonly baseId: string;
  readonly anchorTurn: number;
  /** BFCL's checker on the base twin through the anchor turn T. */
  readonly base: PrefixOutcome;
  /** BFCL's checker on the should-ask twin through T+1. */
  readonly miss: PrefixOutcome;
}

/** What the pair prefixes are checked against: each category's BFCL data and the model's `result` texts by id. */
export interface PrefixSources {
  readonly inputs: Readonly<Record<"base" | ShouldAskCategory, CategoryInputs>>;
  /** `result` texts of the model's base, miss_func and miss_param lines, by id (a line played from the reference also by `id@T`: `lineFor`). */
  readonly results: ReadonlyMap<string, string>;
}

/**
 * Check both twins of every pair: the base twin through T, the should-ask twin through
 * T+1. A base twin shared by pairs with the same anchor is checked once. An id the BFCL
 * data does not know is a problem (the manifest and the data disagree).
 */
export function checkPairPrefixes(
  pairs: readonly ManifestPair[],
  sources: PrefixSources,
  opts: PrefixCheckOptions,
): Result<PairPrefixes[]> {
  const done = new Map<string, PrefixOutcome>();
  const problems: Problem[] = [];
  const twin = (id: string, category: "base" | ShouldAskCategory, anchorTurn: number, through: number): PrefixOutcome => {
    const key = `${id}@${anchorTurn}@${through}`;
    const known = done.get(key);
    if (known) return known;
    // a line played from the reference is the one generated for this pair's anchor
    const text = lineFor(sources.results, id, anchorTurn);
    const q = sources.inputs[category].questions.get(id);
    const gt = sources.inputs[category].groundTruth.get(id);
    let outcome: PrefixOutcome;
    if (q === undefined || gt === undefined) {
      problems.push(problem("pair-unknown", `${id} is not in the BFCL data for multi_turn_${category}`));
      outcome = { completed: false, reason: "missing" };
    } else if (text === undefined) outcome = { completed: false, reason: "missing" };
    else outcome = checkPrefix(text, gt, q.prompt, through, opts);
    done.set(key, outcome);
    return outcome;
  };
  const out = pairs.map((p) => ({
    missId: p.missId,
    baseId: p.baseId,
    anchorTurn: p.anchorTurn,
    base: twin(p.baseId, "base", p.anchorTurn, p.anchorTurn),
    miss: twin(p.missId, p.category, p.anchorTurn, p.anchorTurn + 1),
  }));
  return problems.length > 0 ? errAll(problems) : ok(out);
}

/** Why a should-ask twin's prefix through T+1 failed, read off where the checker failed it (see `official/aligned.ts`, `NotCompletedWhy`). */
export function notCompletedWhy(
  miss: PrefixOutcome,
  anchorTurn: number,
): "no-call-on-answer" | "failed-on-answer" | "failed-before-answer" | "no-rollout" | null {
  if (miss.completed) return null;
  if (miss.reason !== "checker") return "no-rollout";
  if (miss.turn < 0) return null; // the checker's message named no turn
  if (miss.turn < anchorTurn) return "failed-before-answer";
  return miss.turn === anchorTurn + 1 && miss.errorType === "multi_turn:empty_turn_model_response"
    ? "no-call-on-answer"
    : "failed-on-answer";
}

/** Each pair's completion bits by should-ask id, with why the should-ask twin is not completed (`official/aligned.ts` reads them as `TwinCompletion`). */
export function twinCompletions(
  prefixes: readonly PairPrefixes[],
): Map<string, { readonly baseCompleted: boolean; readonly missCompleted: boolean; readonly missWhy: ReturnType<typeof notCompletedWhy> }> {
  return new Map(
    prefixes.map((p) => [
      p.missId,
      { baseCompleted: p.base.completed, missCompleted: p.miss.completed, missWhy: notCompletedWhy(p.miss, p.anchorTurn) },
    ]),
  );
}
