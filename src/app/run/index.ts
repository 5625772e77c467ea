/**
 * `twinscore run`, the use case: generate BFCL result files for a model behind an
 * OpenAI-compatible endpoint. Reads the BFCL data, selects the items, runs BFCL's loop
 * (`rollout/`) on each with the project's client (`io/openai-chat.ts`) and the
 * re-implemented executor, appends each finished line to its category file, and at the
 * end rewrites each file sorted as BFCL sorts it. Resumable: lines already in the output
 * are skipped (error lines too, unless `retryErrors`).
 *
 * Interactive mode (`userSim`): on each should-ask item of the manifest's pairs, an LLM
 * behind a second endpoint plays the user on the answer turn T+1 (`rollout/user-sim.ts`);
 * base items and every other entry run on BFCL's script.
 *
 * `history: "reference"` (exact twins): each item of the selected pairs gets one line per
 * distinct anchor turn of its pairs, whose turns before the anchor are played from the
 * reference (`rollout/reference-history.ts`) and whose anchor turn is generated; the line
 * stops after it unless `continueAfterAnchor`. Each such line runs in an executor process
 * of its own, so two lines of one base item never share instances (BFCL's instance names
 * are per model and id) and no other line's calls reach its world.
 *
 * `trials: K` (K > 1): every line K times, each with its trial index and its own seed.
 *
 * The phases, one file each: validate (`validate.ts`), inputs and plan (`inputs.ts`,
 * `plan.ts`), provenance and resume (`provenance.ts`, `resume.ts`), endpoint
 * (`endpoint.ts`), generation (`generate.ts`), output (`output.ts`); `model.ts` runs them
 * in order and `command.ts` is the command's flags.
 */
export { runModel } from "./model.js";
export { runCommand, type RunCommandRequest } from "./command.js";
export { loadReferenceTurns, loadRunEntries } from "./inputs.js";
export { endpointFor, userSimEndpointFor } from "./endpoint.js";
export { modelDirProblem } from "./validate.js";
export { trialSeed } from "./generate.js";
export { planText, type RunPlan, type Narrowing } from "./plan.js";
export { MAX_TIMEOUT_SECONDS } from "../endpoint-check.js";
export {
  DEFAULT_MAX_CONSECUTIVE_ERRORS,
  type ErrorLineNote,
  type RunDocument,
  type RunFileSummary,
  type RunProgress,
  type RunRequest,
  type UserSimSetup,
  type UserSimSummary,
} from "./types.js";
