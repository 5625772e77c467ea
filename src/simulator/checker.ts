/**
 * BFCL's multi-turn checker (`_evaluate_single_multi_turn_entry` + `multi_turn_checker`), re-implemented on
 * the simulated classes. More in this folder's README.md.
 */
import { PyDict } from "../python/containers.js";
import { pyNotEquals } from "../python/compare.js";
import type { PyValue } from "../python/value.js";
import { bfclDefaultDecoder, isEmptyDecoded, type DecodeOutcome } from "../bfcl/decode/index.js";
import { bindEntry, runCalls, type EntryBinding, type ExecutionContext, type EvaluatorProcess } from "./executor.js";
import type { ApiInstance } from "./types.js";

/** BFCL's multi-turn error types. */
export type MultiTurnErrorType =
  | "multi_turn:inference_error"
  | "multi_turn:force_terminated"
  | "multi_turn:empty_turn_model_response"
  | "multi_turn:instance_state_mismatch"
  | "multi_turn:execution_response_mismatch"
  // only with the empty-reference turns scored (`irrelevance.ts`): BFCL's type, and twinscore's for the world-changing reading
  | "multi_turn:irrelevance_error:decoder_success"
  | "multi_turn:irrelevance_error:world_changing_attempt";

/** Decodes one step of a result line into call strings (BFCL's `handler.decode_execute`). */
export type StepDecoder = (step: PyValue) => DecodeOutcome;

/** A decoder's path on steps as `JSON.parse` gave them (exact on steps whose argument values are all strings). */
export type PlainStepDecoder = (step: unknown) => DecodeOutcome;

/** The evaluation-time question entry fields the checker reads. */
export interface CheckPrompt {
  readonly id: string;
  readonly initialConfig: PyDict;
  readonly involvedClasses: readonly string[];
}

/**
 * The verdict on one entry. `error` is BFCL's error dict minus `valid`, as a Python dict.
 * `afterInferenceError`: BFCL v3's runner wrote an inference-error line for this entry
 * (its `result` is not a list) and went on checking: this verdict is what it decided next
 * (a second line, or a pass counted beside the inference-error line).
 */
export type EntryVerdict = (
  | { readonly valid: true; readonly decoded: string[][][] }
  | {
      readonly valid: false;
      /** True for the runner's pre-checks (the score line then carries `model_result`). */
      readonly runnerLevel: boolean;
      readonly errorType: MultiTurnErrorType;
      /** The message as BFCL writes it (runner-level: the single list element). */
      readonly errorMessage: string;
      readonly error: PyDict;
      /** Decoded steps per turn (checker-level failures only). */
      readonly decoded: string[][][] | null;
    }
) & { readonly afterInferenceError?: true };

/** A failed entry's verdict (one score line). */
export type FailedVerdict = Extract<EntryVerdict, { valid: false }>;

/** The runner's verdict on a `result` that is not a list. */
export function inferenceErrorVerdict(): FailedVerdict {
  return runnerFailure("multi_turn:inference_error", INFERENCE_ERROR_MESSAGE) as FailedVerdict;
}

/** The error BFCL v3's runner stops the whole evaluation with (`len()` of a result that has none). */
export class EvaluatorStops extends Error {
  constructor(readonly pythonError: string) {
    super(pythonError);
  }
}

/** Everything the checker needs about how the result was produced and how to run it. */
export interface CheckOptions {
  /** Result directory name, used in BFCL's instance names. */
  readonly modelName: string;
  /** `multi_turn_<category>`; decides long_context loading like BFCL (`long_context`/`composite` in the id's category). */
  readonly process: EvaluatorProcess;
  readonly decode?: StepDecoder;
}

/** BFCL's message for a result that is not a list of turns. */
export const INFERENCE_ERROR_MESSAGE = "Error during inference phase. Model did not output a list of model responses.";

function dict(entries: [string, PyValue][]): PyDict {
  return new PyDict(entries);
}

/** The category BFCL derives from an id: `id.rsplit("_", 1)[0]`. */
export function testCategoryOfId(id: string): string {
  const i = id.lastIndexOf("_");
  return i < 0 ? id : id.slice(0, i);
}

function runnerFailure(errorType: MultiTurnErrorType, message: string): EntryVerdict {
  return {
    valid: false,
    runnerLevel: true,
    errorType,
    errorMessage: message,
    error: dict([
      ["error_message", [message]],
      ["error_type", errorType],
    ]),
    decoded: null,
  };
}

/** Python iteration over a turn/step container as the runner's `for` loop sees it. */
function iterate(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return Array.from(v);
  if (v instanceof PyDict) return v.keys();
  return [];
}

/**
 * Decode a whole result (turns × steps) the way the runner does: failing or empty steps
 * are dropped.
 */
export function decodeTurns(result: readonly PyValue[], decode: StepDecoder = bfclDefaultDecoder("records").decode): string[][][] {
  return result.map((turn) => {
    const steps: string[][] = [];
    for (const step of iterate(turn)) {
      const out = decode(step);
      if (out.ok && !isEmptyDecoded(out.calls)) steps.push(out.calls);
    }
    return steps;
  });
}

/** Check one result line: the runner's pre-checks, decoding, then the turn-by-turn checker. */
export function checkEntry(
  result: PyValue,
  groundTruth: readonly (readonly string[])[],
  prompt: CheckPrompt,
  opts: CheckOptions,
): EntryVerdict {
  if (!Array.isArray(result)) {
    if (!opts.process.revision.inferenceErrorFallsThrough) return runnerFailure("multi_turn:inference_error", INFERENCE_ERROR_MESSAGE);
    // v3 goes on with `len(result)` and, when that equals the reference's turn count, iterates the value as turns
    const turns = lenAndTurns(result);
    const next = checkTurns(turns, groundTruth, prompt, opts);
    return { ...next, afterInferenceError: true };
  }
  return checkTurns(result, groundTruth, prompt, opts);
}

/** The runner's turn-count check, decoding, then the checker. */
function checkTurns(
  result: readonly PyValue[],
  groundTruth: readonly (readonly string[])[],
  prompt: CheckPrompt,
  opts: CheckOptions,
): EntryVerdict {
  if (result.length !== groundTruth.length) {
    return runnerFailure(
      "multi_turn:force_terminated",
      `Model was force-terminated during inference phase. The length of the model result turns (${result.length}) does not match the length of the ground truth turns (${groundTruth.length}).`,
    );
  }
  const decoded = decodeTurns(result, opts.decode);
  return checkDecoded(decoded, groundTruth, prompt, opts);
}

/**
 * What Python's `for turn in result` sees of a non-list `result` (its length is `len`):
 * a str's characters, a dict's keys; anything without `len()` stops BFCL v3's evaluation.
 */
function lenAndTurns(result: PyValue): PyValue[] {
  if (typeof result === "string" || result instanceof PyDict) return iterate(result);
  const type =
    result === null
      ? "NoneType"
      : typeof result === "boolean"
        ? "bool"
        : typeof result === "bigint"
          ? "int"
          : typeof result === "number"
            ? "float"
            : "object";
  throw new EvaluatorStops(`TypeError: object of type '${type}' has no len()`);
}

/** Python `list.remove`-based multiset containment: which reference results the model results lack. */
export function missingResults(reference: readonly string[], model: readonly string[]): string[] {
  // a linear scan per reference item, like `list.remove`: the lists are short and the
  // strings mostly differ in length, so no string is hashed
  const used = new Uint8Array(model.length);
  const missing: string[] = [];
  for (const r of reference) {
    let found = -1;
    for (let i = 0; i < model.length; i++) {
      if (used[i] === 0 && model[i] === r) {
        found = i;
        break;
      }
    }
    if (found >= 0) used[found] = 1;
    else missing.push(r);
  }
  return missing;
}

/** Public attributes that differ (`!=`), over the reference instance's attribute names. */
export function stateDifferences(model: ApiInstance, reference: ApiInstance): [string, PyValue, PyValue][] {
  const modelState = model.publicState();
  const diffs: [string, PyValue, PyValue][] = [];
  for (const [name, refValue] of reference.publicState()) {
    // a handful of attributes: a scan beats building a Map per comparison
    const found = modelState.find((e) => e[0] === name);
    const modelValue = found === undefined ? null : found[1];
    if (pyNotEquals(modelValue, refValue)) diffs.push([name, modelValue, refValue]);
  }
  return diffs;
}

/** `multi_turn_checker` on already-decoded steps (`decoded[turn][step][call]`). */
export function checkDecoded(
  decoded: string[][][],
  groundTruth: readonly (readonly string[])[],
  prompt: CheckPrompt,
  opts: CheckOptions,
): EntryVerdict {
  const category = testCategoryOfId(prompt.id);
  const longContext = category.includes("long_context") || category.includes("composite");
  // two literals of one shape (an object spread here cost more than the rest of this function)
  const context = (modelName: string): ExecutionContext => ({
    initialConfig: prompt.initialConfig,
    involvedClasses: prompt.involvedClasses,
    modelName,
    entryId: prompt.id,
    longContext,
    evalRun: true,
  });
  const run: EntryRun = {
    decoded,
    process: opts.process,
    modelCtx: context(opts.modelName),
    refCtx: context(`${opts.modelName}_ground_truth`),
    modelBinding: undefined,
    refBinding: undefined,
    turnResults: [],
    allModelResults: [],
  };
  for (let turn = 0; turn < groundTruth.length; turn++) {
    const failed = checkTurn(run, turn, groundTruth[turn]);
    if (failed !== null) return failed;
  }
  return { valid: true, decoded };
}

/** One entry's two executions (the model's and the reference's) as far as the check has gone. */
interface EntryRun {
  readonly decoded: string[][][];
  readonly process: EvaluatorProcess;
  readonly modelCtx: ExecutionContext;
  readonly refCtx: ExecutionContext;
  modelBinding: EntryBinding | undefined;
  refBinding: EntryBinding | undefined;
  /** Per turn: the model's results per step and the reference's; made Python dicts only for an error object. */
  readonly turnResults: { readonly model: PyValue[]; readonly reference: string[] }[];
  readonly allModelResults: string[];
}

function executionResults(run: EntryRun): PyValue[] {
  return run.turnResults.map((t) =>
    dict([
      ["model", t.model],
      ["ground_truth", t.reference],
    ]),
  );
}

function failed(run: EntryRun, errorType: MultiTurnErrorType, message: string, rest: [string, PyValue][]): EntryVerdict {
  return {
    valid: false,
    runnerLevel: false,
    errorType,
    errorMessage: message,
    error: dict([["error_message", message], ["error_type", errorType], ...rest]),
    decoded: run.decoded,
  };
}

/** One turn played on both sides, then BFCL's three checks in its order: an empty response, the state, the results. */
function checkTurn(run: EntryRun, turn: number, reference: readonly string[]): EntryVerdict | null {
  const steps = run.decoded[turn] ?? [];
  const perStep: PyValue[] = [];
  let modelInstances: Map<string, ApiInstance> | null = null;
  for (const step of steps) {
    // bound at the first call, as BFCL creates the instances then
    run.modelBinding ??= bindEntry(run.process, run.modelCtx);
    const results = runCalls(run.process, step, run.modelBinding);
    perStep.push(results);
    run.allModelResults.push(...results);
    modelInstances = run.modelBinding.instances;
  }
  run.refBinding ??= bindEntry(run.process, run.refCtx);
  const ref = { results: runCalls(run.process, reference, run.refBinding), instances: run.refBinding.instances };
  run.turnResults.push({ model: perStep, reference: ref.results });

  if (reference.length > 0 && (steps.length === 0 || (steps.length === 1 && steps[0].length === 0))) {
    return failed(run, "multi_turn:empty_turn_model_response", `Model response list is empty for turn ${turn}`, [
      ["details", dict([["execution_result", executionResults(run)]])],
    ]);
  }
  if (reference.length === 0) return null;
  for (const [cls, refInstance] of ref.instances) {
    const modelInstance = modelInstances?.get(cls);
    if (!modelInstance) continue;
    const diffs = stateDifferences(modelInstance, refInstance);
    if (diffs.length > 0) return stateMismatch(run, cls, modelInstance, refInstance, diffs);
  }
  const missing = missingResults(ref.results, run.allModelResults);
  if (missing.length === 0) return null;
  return failed(
    run,
    "multi_turn:execution_response_mismatch",
    `Model response execution results so far does not contain all the ground truth response execution results for turn ${turn}.`,
    [
      [
        "details",
        dict([
          ["missing_items", missing],
          ["model_response (including all previous turns)", [...run.allModelResults]],
          ["ground_truth_response (only the current turn)", ref.results],
        ]),
      ],
    ],
  );
}

/** BFCL's error for an instance whose public state differs from the reference's. */
function stateMismatch(
  run: EntryRun,
  cls: string,
  modelInstance: ApiInstance,
  refInstance: ApiInstance,
  diffs: [string, PyValue, PyValue][],
): EntryVerdict {
  const differences = dict(
    diffs.map(([n, m, r]) => [
      n,
      dict([
        ["model", m],
        ["ground_truth", r],
      ]),
    ]),
  );
  return failed(
    run,
    "multi_turn:instance_state_mismatch",
    `Model instance for ${cls} does not match the state with ground truth instance.`,
    [
      [
        "details",
        dict([
          ["differences", differences],
          ["model_instance_state", dict(modelInstance.publicState())],
          ["ground_truth_instance_state", dict(refInstance.publicState())],
        ]),
      ],
      ["execution_result", executionResults(run)],
    ],
  );
}
