/**
 * Where `bfcl evaluate` behaves differently between the BFCL releases twinscore checks, as data: the executor,
 * the multi-turn runner and the score-file writer of BFCL v3 final (Gorilla cd9429cc, the last release with
 * `BFCL_v3_` files) and of bfcl-eval 2026.3.23 (Gorilla 6ea57973, `BFCL_v4_`). More in this folder's
 * README.md.
 */
import type { BfclVersion } from "./data.js";

/** How the evaluator of one BFCL release runs and records the multi-turn categories. */
export interface EvaluatorRevision {
  readonly version: BfclVersion;
  /** The Gorilla commit this was read from. */
  readonly gorillaCommit: string;
  /**
   * Which revision of the eight API classes (`func_source_code/`) the release ships: the
   * classes differ in results, messages and method sets between releases.
   */
  readonly classSource: BfclVersion;
  /**
   * How the executor names an entry's instances in its module globals: `whole-name-sanitized`
   * (`{model}_{id}_{Class}_instance`, every `-./:` made `_`) or `model-sanitized-class-lower` (only the model
   * name sanitized, the class lower-cased). More in this folder's README.md.
   */
  readonly instanceNames: "whole-name-sanitized" | "model-sanitized-class-lower";
  /**
   * The runner records an inference error (a `result` that is not a list) and then goes
   * on to the turn-count check instead of stopping: an error string longer or shorter
   * than the reference gets a second, force-terminated line; one of the same length is
   * decoded character by character.
   */
  readonly inferenceErrorFallsThrough: boolean;
  /** Runner-level failure lines (inference error, force-terminated) carry `inference_log` too. */
  readonly inferenceLogOnRunnerLines: boolean;
  /**
   * The score line's `prompt` is the evaluation-time entry, whose `missed_function`
   * names are replaced by their function docs; otherwise the question entry as stored.
   */
  readonly promptMissedFunctionDocs: boolean;
  /** Score files are written with `json.dumps(…)` (ASCII escapes) rather than `ensure_ascii=False`. */
  readonly scoreFileAscii: boolean;
  /** Every score-file line ends in a newline (else the last line has none). */
  readonly scoreFileFinalNewline: boolean;
}

/** The releases twinscore emulates, by the version their file names carry. */
export const EVALUATOR_REVISIONS: Readonly<Record<BfclVersion, EvaluatorRevision>> = {
  v3: {
    version: "v3",
    gorillaCommit: "cd9429cc",
    classSource: "v3",
    instanceNames: "model-sanitized-class-lower",
    inferenceErrorFallsThrough: true,
    inferenceLogOnRunnerLines: false,
    promptMissedFunctionDocs: false,
    scoreFileAscii: true,
    scoreFileFinalNewline: false,
  },
  v4: {
    version: "v4",
    gorillaCommit: "6ea57973",
    classSource: "v4",
    instanceNames: "whole-name-sanitized",
    inferenceErrorFallsThrough: false,
    inferenceLogOnRunnerLines: true,
    promptMissedFunctionDocs: true,
    scoreFileAscii: false,
    scoreFileFinalNewline: true,
  },
};

/** The evaluator revision of a BFCL version. */
export function evaluatorRevision(version: BfclVersion): EvaluatorRevision {
  return EVALUATOR_REVISIONS[version];
}

/**
 * The global name BFCL's executor stores an instance under (`model` already carries the
 * `_eval` suffix of an evaluation run).
 */
export function bfclInstanceName(revision: EvaluatorRevision, model: string, entryId: string, className: string): string {
  if (revision.instanceNames === "model-sanitized-class-lower") {
    return `${model.replace(/[-./]/g, "_")}_${entryId}_${className.toLowerCase()}_instance`;
  }
  return `${model}_${entryId}_${className}_instance`.replace(/[-./:]/g, "_");
}

/**
 * The part of an instance name that an entry id becomes: two ids with the same key share
 * instances in BFCL's globals (v4 sanitizes the id; v3 keeps it as it is).
 */
export function instanceEntryKey(revision: EvaluatorRevision, entryId: string): string {
  return revision.instanceNames === "model-sanitized-class-lower" ? entryId : entryId.replace(/[-./:]/g, "_");
}
