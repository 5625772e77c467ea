/** The document of a run that generated nothing: refused, or the start every other document is built from. */
import type { Problem } from "../../messages/index.js";
import { modelDirName, type ItemSelection } from "../../rollout/index.js";
import type { HistorySource } from "../../bfcl/line-keys.js";
import type { RunDocument } from "./types.js";

/** The document of a run that stopped before generating anything (exit 2), with every count 0. */
export function emptyDocument(
  req: { readonly model: string; readonly mode?: "fc" | "prompting"; readonly items?: ItemSelection; readonly history?: HistorySource },
  problems: Problem[],
): RunDocument {
  return {
    command: "run",
    exitCode: 2,
    model: req.model,
    modelDir: modelDirName(req.model),
    mode: req.mode ?? "fc",
    items: req.items ?? "pairs",
    history: req.history ?? "own",
    pairs: 0,
    selected: 0,
    generated: 0,
    resumed: 0,
    requests: 0,
    playedSteps: 0,
    inputTokens: 0,
    outputTokens: 0,
    stoppedAtAnchor: 0,
    userSimulator: null,
    files: [],
    errors: [],
    keptErrors: [],
    halted: null,
    plan: null,
    dryRun: false,
    record: null,
    problems,
  };
}
