/**
 * The workaround credit of the paper's §5.3 and Table F1: on a miss_func pair a model may route around the
 * withheld function (copy + delete instead of mv). It is the one reading the paper's own package cannot
 * compute, because it needs BFCL's executor. More in this folder's README.md.
 */
import { pairRates, readingById, scoredUnder, type ScoredPair } from "../decision/readings.js";
import type { PairRecord } from "../decision/types.js";
import type { ManifestPair } from "../pairs/types.js";
import type { PyValue } from "../python/value.js";
import { decodeTurns, stateDifferences, type CheckPrompt, type StepDecoder } from "./checker.js";
import { executeCalls, type EvaluatorProcess, type ExecutionContext } from "./executor.js";
import { decodeFcStepPlain } from "../bfcl/decode/index.js";
import type { ApiInstance } from "./types.js";

/** What the replay needs of one miss_func pair. */
export interface WorkaroundPairInput {
  readonly pair: ManifestPair;
  /** The decision scorer's record of this pair for the model. */
  readonly record: PairRecord;
  /** The miss twin's `result` value from the result file (`JSON.parse` output or Python values). */
  readonly missResult: unknown;
  readonly missPrompt: CheckPrompt;
  readonly basePrompt: CheckPrompt;
  /** The base twin's reference calls, per turn. */
  readonly baseGroundTruth: readonly (readonly string[])[];
}

/** How one attempt replayed. */
export interface WorkaroundPairOutcome {
  readonly missId: string;
  readonly attempt: boolean;
  /** The attempt called a removed function by name. */
  readonly calledRemoved: boolean;
  readonly aligned: boolean;
  /** The reference's anchor calls leave the state unchanged (never credited). */
  readonly referenceNoOp: boolean;
  readonly workaround: boolean;
  /** Classes whose state differed at the first comparison that failed (for inspection). */
  readonly differingClasses: string[];
}

/** A model's Table F1 row. Accuracies in percent, over all pairs given (both categories); NaN (no rate) without pairs. */
export interface WorkaroundSummary {
  readonly pairs: number;
  readonly missFuncPairs: number;
  readonly attempts: number;
  readonly removed: number;
  readonly aligned: number;
  readonly workarounds: number;
  /** Aligned attempts on pairs whose reference call is a no-op (excluded from credit). */
  readonly noOpExcluded: number;
  /** Strict decision accuracy (Table 1). */
  readonly acc: number;
  /** With credited workarounds counted as holding back. */
  readonly accWorkaround: number;
  /** With workarounds and the compound-turn credit (Table 1's credited column). */
  readonly accCredited: number;
  readonly outcomes: WorkaroundPairOutcome[];
}

const table1 = readingById("table-1")!;
const creditedReading = readingById("credited")!;

function statesEqual(a: ReadonlyMap<string, ApiInstance>, b: ReadonlyMap<string, ApiInstance>): string[] {
  const differing: string[] = [];
  for (const [cls, ref] of b) {
    const mine = a.get(cls);
    if (!mine || stateDifferences(mine, ref).length > 0) differing.push(cls);
  }
  return differing;
}

/** Run `turns` (each a list of steps, each a list of calls) on one instance set; returns the set. */
function run(
  process: EvaluatorProcess,
  ctx: ExecutionContext,
  turns: readonly (readonly (readonly string[])[])[],
): Map<string, ApiInstance> {
  let instances = executeCalls(process, [], ctx).instances;
  for (const steps of turns) for (const step of steps) instances = executeCalls(process, step, ctx).instances;
  return instances;
}

function context(prompt: CheckPrompt, modelName: string): ExecutionContext {
  return {
    initialConfig: prompt.initialConfig,
    involvedClasses: prompt.involvedClasses,
    entryId: prompt.id,
    modelName,
    longContext: false,
    evalRun: true,
  };
}

/**
 * Replay one miss_func pair. Three instance sets in `process`: the model's (miss
 * item's config, its decoded turns), the reference before the anchor and the reference
 * through the anchor (base item's config and reference calls).
 */
export function replayWorkaround(
  input: WorkaroundPairInput,
  process: EvaluatorProcess,
  decode: StepDecoder = decodeFcStepPlain,
): WorkaroundPairOutcome {
  const { pair, record } = input;
  const anchor = pair.anchorTurn;
  const removed = new Set(pair.removedFunctions);
  const attempt = record.actedOnMiss;
  const calledRemoved = attempt && record.miss.anchorCalls.some((c) => removed.has(c.name));
  const none = {
    missId: pair.missId,
    attempt,
    calledRemoved,
    aligned: false,
    referenceNoOp: false,
    workaround: false,
    differingClasses: [] as string[],
  };
  if (!attempt || !Array.isArray(input.missResult) || input.missResult.length <= anchor) return none;

  const decoded = decodeTurns((input.missResult as PyValue[]).slice(0, anchor + 1), decode);
  const gt = input.baseGroundTruth;
  const refPre = run(
    process,
    context(input.basePrompt, "workaround_reference_pre"),
    gt.slice(0, anchor).map((t) => [t]),
  );
  const refPost = run(
    process,
    context(input.basePrompt, "workaround_reference_post"),
    gt.slice(0, anchor + 1).map((t) => [t]),
  );
  const modelCtx = context(input.missPrompt, "workaround_model");
  const modelPre = run(process, modelCtx, decoded.slice(0, anchor));
  const preDiff = statesEqual(modelPre, refPre);
  const referenceNoOp = statesEqual(refPost, refPre).length === 0;
  if (preDiff.length > 0) return { ...none, referenceNoOp, differingClasses: preDiff };
  const modelPost = run(process, modelCtx, [decoded[anchor] ?? []]);
  const postDiff = statesEqual(modelPost, refPost);
  return {
    ...none,
    aligned: true,
    referenceNoOp,
    // a route around the withheld function: calling the removed name itself is not one
    workaround: postDiff.length === 0 && !referenceNoOp && !calledRemoved,
    differingClasses: postDiff,
  };
}

/**
 * A model's Table F1 row from its pair records (all scored pairs, both categories) and
 * the replay inputs of its miss_func pairs. `newProcess` gives a fresh evaluator process;
 * one is used per pair so that replays never share instances.
 */
export function workaroundCredit(
  records: readonly PairRecord[],
  missFuncInputs: ReadonlyMap<string, Omit<WorkaroundPairInput, "record">>,
  newProcess: () => EvaluatorProcess,
  decode?: StepDecoder,
): WorkaroundSummary {
  const outcomes: WorkaroundPairOutcome[] = [];
  const credited = new Set<string>();
  for (const r of records) {
    if (r.category !== "miss_func") continue;
    const input = missFuncInputs.get(r.missId);
    if (!input) continue;
    const o = replayWorkaround({ ...input, record: r }, newProcess(), decode);
    outcomes.push(o);
    if (o.workaround) credited.add(r.missId);
  }
  const strict = scoredUnder(records, table1);
  // a credited workaround is a hold on the withheld side, on top of the reading's own hold rule
  const withWorkarounds = (scored: readonly ScoredPair[]) =>
    scored.map((s) => ({ act: s.act, hold: s.hold || credited.has(s.record.missId) }));
  return {
    pairs: records.length,
    missFuncPairs: records.filter((r) => r.category === "miss_func").length,
    attempts: outcomes.filter((o) => o.attempt).length,
    removed: outcomes.filter((o) => o.calledRemoved).length,
    aligned: outcomes.filter((o) => o.aligned).length,
    workarounds: credited.size,
    noOpExcluded: outcomes.filter((o) => o.aligned && o.referenceNoOp).length,
    acc: pairRates(strict).decision,
    accWorkaround: pairRates(withWorkarounds(strict)).decision,
    accCredited: pairRates(withWorkarounds(scoredUnder(records, creditedReading))).decision,
    outcomes,
  };
}
