/**
 * What a decoder declares about itself: each file in `decoders/` declares one decoder with `defineDecoder`, and
 * everything else is derived from these declarations (`decoders.ts`), so no code outside a decoder's own file
 * asks for it by name. More in this folder's README.md.
 */
import type { PyValue } from "../../python/value.js";
import type { BfclVersion } from "../categories.js";
import type { DecodeOutcome } from "./outcome.js";

/**
 * A BFCL class that defines `decode_execute` (the registry table's `owner`) and, where that
 * method reads `self.is_fc_model`, the mode; where its code differs between BFCL
 * revisions, the revision.
 */
export interface DecodeOwner {
  /** The class in a handler's MRO that defines `decode_execute`. */
  readonly owner: string;
  /** Only for an owner whose `decode_execute` branches on `is_fc_model`: the mode this decoder reproduces. */
  readonly mode?: "fc" | "prompting";
  /**
   * Only for an owner whose `decode_execute` (or what it calls) changed between the BFCL
   * revisions twinscore reads: the revision whose code this decoder reproduces. Absent:
   * the owner decodes alike at every revision.
   */
  readonly revision?: BfclVersion;
}

/**
 * Decoding a step straight from `JSON.parse` values (no Python value conversion), for
 * speed. Exact where `JSON.parse` loses nothing the decoder reads: steps whose argument
 * values are all strings (the checker makes sure before choosing it).
 */
export interface PlainStepPath {
  /** The decode, on the step as `JSON.parse` gave it. */
  readonly decode: (step: unknown) => DecodeOutcome;
  /**
   * Whether the decode accepts the step, without rendering its call strings: null when it
   * does, else the exception text. For name-keyed records, whose calls call extraction
   * reads from the records themselves.
   */
  readonly stepError: (step: unknown) => string | null;
}

/** One decoder: how BFCL decodes a step for the handlers that share this behaviour. */
export interface DecoderSpec<N extends string = string> {
  /** What `--decoder` takes and every output reports; never changes meaning. */
  readonly name: N;
  /** What the step looks like and what the decoder does, in one line (for `--help` and the READMEs). */
  readonly summary: string;
  /** BFCL handler classes whose `decode_execute` behaves like this, in words (with the mode, for handlers that have both). */
  readonly handlers: readonly string[];
  /** The `decode_execute` owners this decoder reproduces: the registry table's handler → decoder map is generated from these. */
  readonly owners: readonly DecodeOwner[];
  /** BFCL's `decode_execute` on one step. */
  readonly decode: (step: PyValue) => DecodeOutcome;
  /** True when the model's steps are structured records (lists/dicts) rather than text. */
  readonly records: boolean;
  /** True when the steps are `{name: arguments}` records: the keys are the call names. */
  readonly nameKeyed: boolean;
  /** The `[open, close]` tags the handler's calls sit in inside text (the text around them is prose); empty when none. */
  readonly tags: readonly (readonly [string, string])[];
  /**
   * Where detection tries this decoder for a folder BFCL does not know: lower first, and a
   * tie goes to the lower. Null: never detected (its steps look like another decoder's, or
   * it decodes nothing).
   */
  readonly detectionRank: number | null;
  /** BFCL's default decoder for steps of this kind, the one detection falls back to when nothing decodes. */
  readonly bfclDefaultFor?: "records" | "text";
  /**
   * For the decoders that end in BFCL's default prompting decoder: the text they hand it
   * (null: no text, the step decodes to no call). Lets call extraction read the same text
   * with the Python grammar and keep what BFCL drops (positional arguments).
   */
  readonly pythonSource?: (step: PyValue) => string | null;
  /** A faster path on `JSON.parse` values, for a decoder that has one. */
  readonly plain?: PlainStepPath;
}

/** Declare a decoder (the one export of each file in `decoders/`). */
export function defineDecoder<const N extends string>(spec: DecoderSpec<N>): DecoderSpec<N> {
  return Object.freeze(spec);
}
