/**
 * Which decoder a model folder's steps go through, chosen the way BFCL chooses the handler: `--decoder NAME`,
 * else the registry, else detection from sample steps. Pure: the caller reads the files and hands the steps in.
 * More in this folder's README.md.
 */
import type { BfclVersion } from "../categories.js";
import type { PyValue } from "../../python/value.js";
import { bfclDefaultDecoder, DECODER_NAMES, decoderByName, detectionOrder, type Decoder, type DecoderName } from "./decoders.js";
import { registryEntryOfFolder } from "./registry.js";

/** How the decoder was chosen: `--decoder`, the run's own record (`run.json`, or its lines' mode key), BFCL's registry, or detection from the steps. */
export type DecoderSource = "flag" | "run" | "registry" | "detected";

/** The decoder of one model folder, and why. */
export interface DecoderChoice {
  readonly decoder: Decoder;
  readonly source: DecoderSource;
  /** One sentence a user can read: the flag, the registry key and handler, or what detection saw. */
  readonly reason: string;
}

/** The plain form a choice takes in output documents. */
export interface DecoderChoiceSummary {
  readonly name: DecoderName;
  readonly source: DecoderSource;
  readonly reason: string;
}

/** A choice as output documents carry it. */
export function summarizeChoice(choice: DecoderChoice): DecoderChoiceSummary {
  return { name: choice.decoder.name, source: choice.source, reason: choice.reason };
}

/** Steps detection needs at most (more only costs time: a run's steps all come from one handler). */
export const DETECTION_SAMPLE = 200;

/** A step that says nothing about the format: nothing written, or an empty record list. */
export function isEmptyStep(step: PyValue): boolean {
  if (step === null) return true;
  if (typeof step === "string") return step.trim() === "";
  return Array.isArray(step) && step.length === 0;
}

/** A call string: a name without spaces or brackets (leaked chat tokens included), then `(`. */
const CALL_STRING = /^[^\s()]+\(/;

/** A decode that produced calls a checker could run (not the raw text some decoders pass through). */
function decodesToCalls(decoder: Decoder, step: PyValue): boolean {
  const out = decoder.decode(step);
  return out.ok && out.calls.length > 0 && out.calls.every((c) => CALL_STRING.test(c));
}

/**
 * Detect the decoder from sample steps: the one that turns the most of them into calls
 * (ties go to the earlier in `detectionOrder`: the lower `detectionRank`; records first,
 * BFCL's defaults first). With nothing decodable, text steps get BFCL's default prompting
 * decoder and record steps (or none at all) the FC decoder.
 */
export function detectDecoder(samples: Iterable<PyValue>): { decoder: Decoder; reason: string } {
  const steps: PyValue[] = [];
  for (const s of samples) {
    if (isEmptyStep(s)) continue;
    steps.push(s);
    if (steps.length >= DETECTION_SAMPLE) break;
  }
  if (steps.length === 0)
    return { decoder: bfclDefaultDecoder("records"), reason: "no step with content to look at; BFCL's function-calling decoder" };
  const texts = steps.filter((s) => typeof s === "string").length;
  const scores: { decoder: Decoder; n: number }[] = [];
  for (const decoder of detectionOrder) {
    let n = 0;
    for (const s of steps) if ((typeof s === "string") !== decoder.records && decodesToCalls(decoder, s)) n++;
    scores.push({ decoder, n });
    if (n === steps.length) break; // every step decodes: no later decoder can do better, and ties go to the earlier
  }
  const ranked = [...scores].sort((a, b) => b.n - a.n || (a.decoder.detectionRank as number) - (b.decoder.detectionRank as number));
  const [best, next] = ranked;
  const kind = texts === steps.length ? "text steps" : texts === 0 ? "record steps" : "steps";
  if (best.n === 0) {
    const fallback = texts * 2 >= steps.length ? "text" : "records";
    return {
      decoder: bfclDefaultDecoder(fallback),
      reason: `none of ${steps.length} sampled ${kind} decodes to a call with any decoder; BFCL's default for ${fallback}`,
    };
  }
  const runnerUp = next && next.n > 0 ? `; next best ${next.decoder.name}: ${next.n}` : "";
  return {
    decoder: best.decoder,
    reason: `${best.n} of ${steps.length} sampled ${kind} decode to calls with ${best.decoder.name}${runnerUp}`,
  };
}

/** What choosing needs: the folder's name, a `--decoder` value if given, and (only consulted for unknown folders) sample steps. */
export interface ChooseDecoderInput {
  /** The model folder's own name (`openai_gpt-oss-120b`), the name BFCL gave it. */
  readonly folder: string;
  /** `--decoder NAME`, or null/undefined. */
  readonly override?: string | null;
  /** Steps of the folder's result files, in file order; read lazily, only for a folder BFCL does not know. */
  readonly samples: () => Iterable<PyValue>;
  /** The BFCL version the run was made with, whose registry is read (default v4): a key's handler and mode differ between versions. */
  readonly version?: BfclVersion;
}

/** A `--decoder` value that is not a decoder name. */
export function unknownDecoderMessage(name: string): string {
  return `unknown decoder '${name}'; one of: ${DECODER_NAMES.join(", ")}`;
}

/** Choose a model folder's decoder; `null` decoder only for an override that names none (see `unknownDecoderMessage`). */
export function chooseDecoder(input: ChooseDecoderInput): DecoderChoice | null {
  if (input.override !== undefined && input.override !== null) {
    const d = decoderByName(input.override);
    return d === undefined ? null : { decoder: d, source: "flag", reason: `--decoder ${d.name}` };
  }
  const version = input.version ?? "v4";
  // the current release's registry is named plainly; an older one by its version
  const registry = version === "v4" ? "BFCL registry" : `BFCL ${version} registry`;
  const entry = registryEntryOfFolder(input.folder, version);
  const words =
    entry === undefined ? "" : `${registry} key ${entry.key}: ${entry.handler}, ${entry.isFcModel ? "function-calling" : "prompting"} mode`;
  if (entry !== undefined) return { decoder: decoderByName(entry.decoder)!, source: "registry", reason: words };
  const detected = detectDecoder(input.samples());
  const why = `not in BFCL${version === "v4" ? "" : ` ${version}`}'s model registry`;
  return { decoder: detected.decoder, source: "detected", reason: `${why}; ${detected.reason}` };
}
