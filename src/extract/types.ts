/**
 * What call extraction produces from one recorded turn. A call counts only when it
 * parses structurally out of the output and its name is on the item's tool list, so
 * prose never becomes a call; arguments are kept so the `echo` rule can be decided.
 */

import type { LiteralValue } from "../python/literal.js";

/** A JSON-like argument value: Python None is `null`, tuples become arrays (the same type the Python-literal reader produces). */
export type ArgValue = LiteralValue;

/** How the call was written in the recorded step (`json-text`: a text step that is a JSON call object or list, as the llama-3.1-style handlers write). */
export type CallShape = "fc-json-string" | "fc-object" | "tool-call-tag" | "json-text" | "python-text";

/** One structurally parsed call. */
export interface ExtractedCall {
  readonly name: string;
  /** Positional arguments in order (BFCL's prompting decoder drops these; the echo rule does not). */
  readonly positional: readonly ArgValue[];
  /** Keyword arguments in the order written. */
  readonly keywords: readonly (readonly [string, ArgValue])[];
  readonly shape: CallShape;
  /** Index of the step (within the turn) the call was read from; set by `extractTurn`. */
  readonly step?: number;
  /**
   * True when BFCL's own decoder rejects the step holding this call (another entry of
   * the step has bad JSON arguments, a keyword value it cannot resolve, a non-call
   * element…), so BFCL never executed it although it parses structurally.
   */
  readonly stepDecodeFailed?: boolean;
}

/** One step (or one entry of a step) that failed to decode. */
export interface DecodeError {
  /** Index of the step within the turn. */
  readonly step: number;
  /** Which reader failed: a call shape, or `step` when the step itself has no readable shape. */
  readonly shape: CallShape | "step";
  /** Python's error text where BFCL would raise (e.g. `Expecting value: line 1 column 1 (char 0)`). */
  readonly message: string;
  /** The function name of the failing entry, when one was readable (it is not counted as a call). */
  readonly name?: string;
  /** Whether that name is on the item's tool list. */
  readonly onToolList?: boolean;
}

/**
 * A turn's steps by what the handler made of them (the parse audit): `native`, calls the
 * handler parses (records, or text its decoder decodes to calls); `textCalls`, calls
 * written as text that the handler does not parse (BFCL executes no call there: a
 * server whose tool-call parser or chat template did not turn them into records);
 * `prose`, the model's own words; `empty`, nothing written.
 */
export interface StepKinds {
  readonly native: number;
  readonly textCalls: number;
  readonly prose: number;
  readonly empty: number;
}

/** Everything read off one turn of one rollout. */
export interface TurnExtraction {
  /** Calls whose name is on the tool list, in step order. */
  readonly calls: readonly ExtractedCall[];
  /** Names that parsed as calls but are not on the tool list (prose, leaked tokens). */
  readonly offListNames: readonly string[];
  /** Steps whose text or arguments failed to decode; never read as holding back. */
  readonly decodeFailures: number;
  /** What failed, one entry per failing step entry (several may share a step); `decodeFailures` counts distinct steps. */
  readonly decodeErrors: readonly DecodeError[];
  /**
   * Failed steps that look like a call but name no function at all (a cut `<tool_call>`
   * block before its name, a record that is not an object …): what the model did there
   * cannot be read, so the turn can be read neither as acting nor as holding back.
   */
  readonly undecidableSteps: number;
  /**
   * Tool-call attempts: steps that look like tool calls (`looksLikeToolCall`) or failed to
   * decode. With `decodeFailures`, what both score's and check's wrong-decoder guards count.
   */
  readonly toolCallSteps: number;
  /** The decoder's error (type included) on the first step that failed to decode; null when none did. */
  readonly firstDecodeFailure: string | null;
  /** Natural-language text the model wrote on the turn (text steps), in order. */
  readonly text: readonly string[];
  /** Number of steps recorded for the turn. */
  readonly steps: number;
  /** The steps by kind (`StepKinds`): they add up to `steps`. */
  readonly stepKinds: StepKinds;
}
