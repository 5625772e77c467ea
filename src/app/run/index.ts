/**
 * `twinscore run`, the use case: generate BFCL result files for a model behind an OpenAI-compatible endpoint,
 * resumably. One file per phase: validate, inputs, plan, provenance, resume, endpoint, generate, output;
 * `model.ts` runs them in order and `command.ts` is the command's flags. More in this folder's README.md.
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
