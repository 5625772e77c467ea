/**
 * `--decoder`, shared by `score` and `check`: the help text that lists every decoder, and
 * the one stderr line per model whose decoder was detected rather than known.
 */
import { decoders, type DecoderChoiceSummary } from "../bfcl/decode/index.js";

/** `--help` text: how a model's decoder is chosen, and every decoder with the BFCL handlers that use it. */
export const decoderHelp =
  "\nDecoders: each model folder's steps are decoded as its BFCL handler's decode_execute does. --decoder NAME\n" +
  "forces one; else a folder named after a BFCL registry key (with / → _) gets its handler's decoder; else the\n" +
  "decoder is detected from the steps, and a line on stderr says which (JSON output: `decoder` per model).\n" +
  decoders.map((d) => `  ${d.name.padEnd(17)}${d.summary}\n${" ".repeat(19)}(${d.handlers.join("; ")})\n`).join("");

/** One line per model (first occurrence) whose decoder was detected from its steps. */
export function detectedDecoderLines(models: readonly { readonly model: string; readonly decoder: DecoderChoiceSummary | null | undefined }[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of models) {
    if (!m.decoder || m.decoder.source !== "detected" || seen.has(m.model)) continue;
    seen.add(m.model);
    out.push(`${m.model}: decoder ${m.decoder.name} (${m.decoder.reason})`);
  }
  return out;
}
