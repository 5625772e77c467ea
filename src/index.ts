/**
 * The library entry point: the pure core, for programs that embed twinscore. Nothing
 * exported here touches the file system; read files yourself (or use the CLI) and pass
 * their text and parsed lines in.
 */
export * from "./messages/index.js";
export * from "./catalog/index.js";
export * from "./bfcl/decode/index.js";
export * from "./extract/index.js";
export * from "./pairs/index.js";
export * from "./stats/index.js";
export * from "./decision/types.js";
export { selectPairs, scorePair, scoreModel, summarize } from "./decision/score.js";
export { readTwin } from "./decision/read-twin.js";
export { parseExpression } from "./python/parse.js";
export { renderReport } from "./report/render.js";
export type { ReportData } from "./report/types.js";
export {
  runEntry,
  scriptedTurns,
  prepareEntry,
  convertToTools,
  renderLine,
  selectItems,
  injectionCheck,
  llmUser,
  parseUserSimPrompt,
  NO_QUESTION,
  type InteractiveUser,
  type UserSimEndpoint,
  type UserSimPrompt,
  type WithheldFacts,
  type ChatEndpoint,
  type ChatRequest,
  type ChatOutcome,
  type UserTurns,
  type LoopOptions,
  type EntryExecutor,
  type RolloutEntry,
  type InjectionCheck,
} from "./rollout/index.js";

// The aligned numbers: BFCL's checker on turn prefixes ("asked, then did it") and on the
// turns whose reference is empty (the skipped turn, scored). Prepare each category's BFCL
// data from its file texts (`prepareCategory`), check a model's twins with
// `checkPairPrefixes` and a fresh `newEvaluatorProcess` per prefix, then score the pairs
// with `alignedScore`; `checkResultFile` with `emptyTurns` gives every entry under the
// three readings, which `countReadings` and `emptyTurnTable` tabulate.
export { prepareCategory, checkResultFile, type CategoryInputs, type EntryReadings, type FileCheck } from "./simulator/run-check.js";
export { newEvaluatorProcess } from "./simulator/runtime.js";
export { decodeResult, type RecordedRollout } from "./bfcl/results.js";
export { checkPrefix, checkPairPrefixes, twinCompletions, notCompletedWhy, type PairPrefixes, type PrefixOutcome, type PrefixSources, type PrefixCheckOptions } from "./simulator/prefix-check.js";
export { checkIrrelevance, withEmptyTurnsScored, emptyTurnReadings, IRRELEVANCE_ERROR, WORLD_CHANGING_ERROR, type EmptyTurnReading } from "./simulator/irrelevance.js";
export {
  alignedScore,
  alignedOutcome,
  alignedRow,
  alignedClusterTotals,
  withheldCells,
  notCompletedReasons,
  type AlignedScore,
  type AlignedOutcome,
  type AlignedRow,
  type TwinCompletion,
  type WithheldCell,
  type NotCompletedWhy,
} from "./official/aligned.js";
export {
  countReadings,
  emptyTurnTable,
  emptyTurnShifts,
  emptyTurnScores,
  emptyTurnScoreMeaning,
  type EmptyTurnCounts,
  type EmptyTurnRow,
  type EmptyTurnCell,
  type EmptyTurnScore,
  type EmptyTurnShift,
  type EntryUnderReadings,
} from "./official/empty-turns.js";
