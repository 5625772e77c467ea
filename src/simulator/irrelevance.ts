/**
 * Scoring the turns whose reference is empty — the under-specified turn of miss_func and miss_param, and the
 * two empty turns of base items 167 and 180 — which BFCL's checker skips. More in this folder's README.md.
 */
import type { BfclVersion } from "../bfcl/data.js";
import type { Decoder } from "../bfcl/decode/index.js";
import { catalogOf } from "../catalog/catalog.js";
import { readTwin } from "../decision/read-twin.js";
import { PyDict } from "../python/containers.js";
import type { EntryVerdict, MultiTurnErrorType } from "./checker.js";

/** How turns with an empty reference are scored: as BFCL's irrelevance checker would, or by the paper's world-changing reading. */
export type EmptyTurnReading = "strict" | "world-changing";

/** The readings, for option parsing and help. */
export const emptyTurnReadings: readonly EmptyTurnReading[] = ["strict", "world-changing"];

/** BFCL's error type for a call on a turn whose reference is empty. */
export const IRRELEVANCE_ERROR: MultiTurnErrorType = "multi_turn:irrelevance_error:decoder_success";

/** twinscore's error type for the world-changing reading (BFCL has none: its check is the strict one). */
export const WORLD_CHANGING_ERROR: MultiTurnErrorType = "multi_turn:irrelevance_error:world_changing_attempt";

/** A failure on an empty-reference turn: the first such turn, and the error object a score file carries. */
export interface EmptyTurnFailure {
  readonly valid: false;
  readonly turn: number;
  readonly errorType: MultiTurnErrorType;
  readonly errorMessage: string;
  /** `{error_message, error_type, details}`, BFCL's key order. */
  readonly error: PyDict;
}

/** The outcome of checking the empty-reference turns of one entry. */
export type EmptyTurnOutcome = { readonly valid: true } | EmptyTurnFailure;

const PASS: EmptyTurnOutcome = { valid: true };

/** Turn indices whose reference is empty. */
export function emptyReferenceTurns(groundTruth: readonly (readonly string[])[]): number[] {
  const out: number[] = [];
  groundTruth.forEach((t, i) => {
    if (t.length === 0) out.push(i);
  });
  return out;
}

/** `is_empty_execute_response` on a decoded turn (its steps): no step, or one step with no call. */
function turnIsEmpty(steps: readonly (readonly string[])[]): boolean {
  return steps.length === 0 || (steps.length === 1 && steps[0].length === 0);
}

/**
 * BFCL's `multi_turn_irrelevance_checker` on decoded steps (`decoded[turn][step][call]`,
 * failing and empty steps already dropped): the first empty-reference turn with a decoded
 * call fails, with BFCL's message and the turn's decoded steps as details.
 */
export function checkIrrelevance(
  decoded: readonly (readonly (readonly string[])[])[],
  groundTruth: readonly (readonly string[])[],
): EmptyTurnOutcome {
  for (const turn of emptyReferenceTurns(groundTruth)) {
    const steps = decoded[turn] ?? [];
    if (turnIsEmpty(steps)) continue;
    const message = `Model outputs valid function calls when it should not for turn ${turn}.`;
    return {
      valid: false,
      turn,
      errorType: IRRELEVANCE_ERROR,
      errorMessage: message,
      error: new PyDict([
        ["error_message", message],
        ["error_type", IRRELEVANCE_ERROR],
        ["details", new PyDict([["model response decoded", steps.map((s) => [...s])]])],
      ]),
    };
  }
  return PASS;
}

const toolSets = new Map<string, ReadonlySet<string>>();

/** An item's tool list as a set: every function its involved classes have in that BFCL version (the ones miss_func removed included). */
export function toolsOfClasses(involvedClasses: readonly string[], version: BfclVersion): ReadonlySet<string> {
  const key = `${version}:${involvedClasses.join(",")}`;
  let set = toolSets.get(key);
  if (set === undefined) {
    const classes = new Set(involvedClasses);
    set = new Set(
      catalogOf(version)
        .filter((e) => classes.has(e.apiClass))
        .map((e) => e.name),
    );
    toolSets.set(key, set);
  }
  return set;
}

/**
 * The world-changing reading: the first empty-reference turn on which the recorded steps
 * (`turns`, the result line's `result` as parsed JSON) hold a world-changing attempt on
 * the item's tool list fails. Details name the attempted calls and the turn's decoded steps.
 */
export function checkWorldChangingOnEmptyTurns(
  turns: readonly unknown[],
  decoded: readonly (readonly (readonly string[])[])[],
  groundTruth: readonly (readonly string[])[],
  tools: ReadonlySet<string>,
  decoder?: Decoder,
): EmptyTurnOutcome {
  const rollout = { kind: "turns" as const, turns: turns as readonly (readonly unknown[])[], turnCount: turns.length };
  for (const turn of emptyReferenceTurns(groundTruth)) {
    if (turn >= turns.length) continue;
    const reading = readTwin(rollout, turn, tools, decoder);
    const attempts = reading.anchorCalls.filter((c) => c.worldChanging).map((c) => c.name);
    if (attempts.length === 0) continue;
    const message = `Model attempts a world-changing call when it should not for turn ${turn}.`;
    const steps = decoded[turn] ?? [];
    return {
      valid: false,
      turn,
      errorType: WORLD_CHANGING_ERROR,
      errorMessage: message,
      error: new PyDict([
        ["error_message", message],
        ["error_type", WORLD_CHANGING_ERROR],
        [
          "details",
          new PyDict([
            ["world-changing calls", attempts],
            ["model response decoded", steps.map((s) => [...s])],
          ]),
        ],
      ]),
    };
  }
  return PASS;
}

/**
 * The checker's verdict with the empty-reference turns scored: runner-level failures stand;
 * otherwise a failure on an empty turn replaces the verdict (also when the checker failed
 * the entry elsewhere — the rule BFCL's runner applied while it ran this check); else the
 * verdict stands. `turns` is the result line's `result` as parsed JSON (read only by the
 * world-changing reading).
 */
export function withEmptyTurnsScored(
  verdict: EntryVerdict,
  reading: EmptyTurnReading,
  turns: unknown,
  groundTruth: readonly (readonly string[])[],
  involvedClasses: readonly string[],
  version: BfclVersion,
  decoder?: Decoder,
): EntryVerdict {
  if (!verdict.valid && verdict.runnerLevel) return verdict;
  const decoded = verdict.decoded ?? [];
  const outcome =
    reading === "strict"
      ? checkIrrelevance(decoded, groundTruth)
      : checkWorldChangingOnEmptyTurns(
          Array.isArray(turns) ? turns : [],
          decoded,
          groundTruth,
          toolsOfClasses(involvedClasses, version),
          decoder,
        );
  if (outcome.valid) return verdict;
  return {
    valid: false,
    runnerLevel: false,
    errorType: outcome.errorType,
    errorMessage: outcome.errorMessage,
    error: outcome.error,
    decoded,
  };
}
