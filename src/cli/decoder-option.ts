/**
 * What `--decoder` means, shared by every command that reads steps: the help topic that
 * lists every decoder, and the one stderr note per model whose decoder was detected
 * rather than known.
 */
import { decoders, type DecoderChoiceSummary } from "../bfcl/decode/index.js";
import { note, type Note } from "../messages/index.js";

/** The width of the decoder-name column of `help decoders`: the longest name and two spaces. */
const NAME_WIDTH = Math.max(...decoders.map((d) => d.name.length)) + 2;

/** `help decoders`: how a model's decoder is chosen, and every decoder with the BFCL handlers that use it. */
export const decoderHelp =
  "Each model folder's steps are decoded as its BFCL handler's decode_execute does. --decoder NAME forces\n" +
  "one for every model; else a folder twinscore run made gets the decoder of the mode its run.json (or its\n" +
  "lines' twinscore_mode) records; else a folder named after a BFCL registry key (with / → _) gets its\n" +
  "handler's decoder, in the registry of the run's BFCL version (v3 and v4 each have theirs; a v3 key\n" +
  "whose handler decoded differently in v3 gets a decoder of v3's code: the -v3 ones, databricks); else the\n" +
  "decoder is detected from the steps, and a note on stderr says which:\n" +
  "  note: openai_gpt-oss-20b: decoder fc (not in BFCL's model registry; 200 of 200 sampled record steps …) [decoder-detected]\n" +
  "(--format json: `decoder` per model, with its name, source — flag, run, registry, detected — and reason).\n" +
  "A file whose tool-call steps fail to decode more than 5 % of the time gets one warning line and exit 1:\n" +
  "the sign of a wrong decoder.\n\nDecoders:\n" +
  decoders.map((d) => `  ${d.name.padEnd(NAME_WIDTH)}${d.summary}\n${" ".repeat(NAME_WIDTH + 2)}(${d.handlers.join("; ")})\n`).join("");

/** One note per model (first occurrence) whose decoder was detected from its steps. */
export function detectedDecoderNotes(
  models: readonly { readonly model: string; readonly decoder: DecoderChoiceSummary | null | undefined }[],
): Note[] {
  const seen = new Set<string>();
  const out: Note[] = [];
  for (const m of models) {
    if (!m.decoder || m.decoder.source !== "detected" || seen.has(m.model)) continue;
    seen.add(m.model);
    out.push(note("decoder-detected", `${m.model}: decoder ${m.decoder.name} (${m.decoder.reason})`));
  }
  return out;
}
