/**
 * The decoder tables of README.md and src/bfcl/decode/README.md, rendered from the
 * declarations so that the documents cannot drift from the code: tools/gen-decoder-docs.mjs
 * writes them, `declarations.test.ts` checks they are up to date.
 */
import type { Decoder } from "./decoders.js";

/** The line before a generated table. */
export const DECODER_TABLE_BEGIN =
  "<!-- decoder table: generated from src/bfcl/decode/decoders/ by tools/gen-decoder-docs.mjs; do not edit -->";
/** The line after it. */
export const DECODER_TABLE_END = "<!-- end of decoder table -->";

/** Text as one Markdown table cell: nothing in it read as markup, HTML or a cell break. */
function cell(text: string): string {
  return text.replace(/[\\`*|]/g, (c) => `\\${c}`).replace(/</g, "&lt;");
}

/** Literal text as a code span inside a table cell. */
function code(text: string): string {
  return `\`${text.replace(/\|/g, "\\|")}\``;
}

/** README.md's table: each decoder, its steps, the BFCL handlers that use it. */
export function handlersTable(decoders: readonly Decoder[]): string {
  const rows = decoders.map((d) => `| ${code(d.name)} | ${cell(d.summary)} | ${cell(d.handlers.join("; "))} |`);
  return ["| decoder | steps | BFCL handlers |", "|---|---|---|", ...rows].join("\n");
}

/** src/bfcl/decode/README.md's table: everything each decoder declares besides its code. */
export function declarationsTable(decoders: readonly Decoder[]): string {
  const rows = decoders.map((d) => {
    const owners = d.owners
      .map((o) => {
        const notes = [o.mode === undefined ? null : o.mode === "fc" ? "FC" : "prompting", o.revision ?? null].filter((n) => n !== null);
        return code(o.owner) + (notes.length === 0 ? "" : ` (${notes.join(", ")})`);
      })
      .join(", ");
    const tags = d.tags.length === 0 ? "—" : d.tags.map(([open, close]) => `${code(open)} … ${code(close)}`).join(", ");
    const hooks = [
      d.bfclDefaultFor === undefined ? null : `BFCL's default for ${d.bfclDefaultFor}`,
      d.pythonSource === undefined ? null : "Python source",
      d.plain === undefined ? null : "`JSON.parse` path",
    ].filter((h) => h !== null);
    return [
      code(d.name),
      `[${d.name}.ts](decoders/${d.name}.ts)`,
      d.records ? "records" : "text",
      d.nameKeyed ? "yes" : "—",
      tags,
      d.detectionRank === null ? "not detected" : String(d.detectionRank),
      hooks.length === 0 ? "—" : hooks.join(", "),
      owners,
    ].join(" | ");
  });
  return [
    "| decoder | file | steps | name-keyed | tags | detection rank | also | BFCL `decode_execute` owners |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r} |`),
  ].join("\n");
}

/** `doc` with the text between its table markers replaced by `table`; null when the markers are missing. */
export function withDecoderTable(doc: string, table: string): string | null {
  const begin = doc.indexOf(DECODER_TABLE_BEGIN);
  const end = doc.indexOf(DECODER_TABLE_END, begin);
  if (begin < 0 || end < 0) return null;
  return `${doc.slice(0, begin + DECODER_TABLE_BEGIN.length)}\n${table}\n${doc.slice(end)}`;
}
