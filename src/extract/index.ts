/** Call extraction from recorded BFCL turns: the public surface other folders import. */
export type { ArgValue, CallShape, DecodeError, ExtractedCall, StepKinds, TurnExtraction } from "./types.js";
export { extractTurn, listCallNames, namesInCallPosition, type ExtractOptions } from "./extract.js";
export { bfclPromptingSource, decodePythonText, looksLikeCallText, type PythonTextDecode } from "./python-text.js";
export { loadsJson, type JsonArgs } from "./json-args.js";
