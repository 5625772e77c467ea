/**
 * The decoders by name: one per distinct `decode_execute` behaviour among BFCL's model
 * handlers (bfcl_eval 2026.3.23, and BFCL v3's where they differ), each declared in its
 * own file under `decoders/`. Every list and lookup here is derived from those declarations. The names are what
 * `--decoder` takes and what every output reports, so they never change meaning.
 */
import type { PyValue } from "../../python/value.js";
import type { BfclVersion } from "../categories.js";
import { PyException } from "../../python/exception.js";
import type { DecoderSpec } from "./decoder.js";
import { declaredDecoders } from "./decoders/index.js";
import { plainToPy } from "./fc.js";
import { decodeFailure, type DecodeOutcome } from "./outcome.js";

/** A decoder's name. */
export type DecoderName = (typeof declaredDecoders)[number]["name"];

/** One decoder: how BFCL decodes a step for the handlers that share this behaviour (see `DecoderSpec`). */
export type Decoder = DecoderSpec<DecoderName>;

/** All decoders, in the order `--help` lists them. */
export const decoders: readonly Decoder[] = declaredDecoders;

/** Every decoder name, in the order `--help` lists them. */
export const DECODER_NAMES: readonly DecoderName[] = decoders.map((d) => d.name);

const BY_NAME = new Map<string, Decoder>(decoders.map((d) => [d.name, d]));

/** The decoder of a name, or undefined for a name that is not one. */
export function decoderByName(name: string): Decoder | undefined {
  return BY_NAME.get(name);
}

/** BFCL's default decoder for record steps or for text steps (the one declared `bfclDefaultFor` that kind). */
export function bfclDefaultDecoder(kind: "records" | "text"): Decoder {
  return decoders.find((d) => d.bfclDefaultFor === kind) as Decoder;
}

/** BFCL's FC decoder, the one for native function-calling runs. */
export const fcDecoder: Decoder = bfclDefaultDecoder("records");

/** BFCL's default prompting decoder, the one most prompting handlers keep. */
export const promptingDecoder: Decoder = bfclDefaultDecoder("text");

/** The decoders detection tries, in the order it tries them (by `detectionRank`). */
export const detectionOrder: readonly Decoder[] = decoders
  .filter((d) => d.detectionRank !== null)
  .sort((a, b) => (a.detectionRank as number) - (b.detectionRank as number));

/**
 * Every `[open, close]` tag pair any decoder declares, each once, in declaration order:
 * call extraction reads the text outside them as prose, whatever the model's decoder.
 */
export const toolCallTags: readonly (readonly [string, string])[] = (() => {
  const seen = new Set<string>();
  const out: (readonly [string, string])[] = [];
  for (const d of decoders)
    for (const tag of d.tags) {
      const key = `${tag[0]}\u0000${tag[1]}`;
      if (!seen.has(key)) out.push(tag);
      seen.add(key);
    }
  return out;
})();

/**
 * The decoder of each BFCL `decode_execute` owner at a BFCL revision: a name, or
 * `[FC mode, prompting mode]` for an owner whose method reads `is_fc_model`. An owner
 * declared for a revision is that revision's alone; one declared without is every
 * revision's. What tools/gen-model-registry.py maps the registry's handlers with
 * (tools/decoder-owners.mjs prints it).
 */
export function decodeOwnerTable(revision: BfclVersion = "v4"): Record<string, DecoderName | [DecoderName, DecoderName]> {
  const out: Record<string, DecoderName | [DecoderName, DecoderName]> = {};
  for (const d of decoders)
    for (const o of d.owners) {
      if (o.revision !== undefined && o.revision !== revision) continue;
      if (o.mode === undefined) out[o.owner] = d.name;
      else {
        const pair = (Array.isArray(out[o.owner]) ? out[o.owner] : []) as [DecoderName, DecoderName];
        pair[o.mode === "fc" ? 0 : 1] = d.name;
        out[o.owner] = pair;
      }
    }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * A decoder on a step as `JSON.parse` gave it (objects plain, numbers JavaScript's). A
 * decoder with a plain path reads such values directly; the others get Python values,
 * and a step too deeply nested to become one fails as Python's json.loads would
 * (RecursionError).
 */
export function decodePlainStep(decoder: Decoder, step: unknown): DecodeOutcome {
  if (decoder.plain !== undefined) return decoder.plain.decode(step);
  let value: PyValue;
  try {
    value = plainToPy(step);
  } catch (e) {
    if (e instanceof PyException) return decodeFailure(e.pyType, e.pyMessage);
    throw e;
  }
  return decoder.decode(value);
}

/** `decodePlainStep` of one decoder, as a step decoder of its own (its plain path itself when it has one). */
export function plainStepDecoder(decoder: Decoder): (step: unknown) => DecodeOutcome {
  return decoder.plain !== undefined ? decoder.plain.decode : (step) => decodePlainStep(decoder, step);
}
