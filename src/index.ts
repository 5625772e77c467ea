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
  type ChatEndpoint,
  type ChatRequest,
  type ChatOutcome,
  type UserTurns,
  type LoopOptions,
  type EntryExecutor,
  type RolloutEntry,
  type InjectionCheck,
} from "./rollout/index.js";
