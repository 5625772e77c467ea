/**
 * The paper's hand-made rulings, read from their two small TSV files: the bad-key list
 * (Appendix C) and the certification exceptions (Appendix E). No program can derive
 * them; the builder only checks that they agree with the data. A third file records the
 * content of the items they were made on, so that they carry over only to equal items.
 */
import { parseItemId } from "../bfcl/categories.js";
import { err, ok, problem, type Result } from "../messages/index.js";
import { contentFields, digestLength, type ItemContent } from "./digest.js";

/** A text with the name it is reported under. */
export interface NamedText {
  readonly file: string;
  readonly text: string;
}

/** One bad key: an item whose reference answer is defective. */
export interface BadKey {
  readonly id: string;
  /** A objective error, B disputed, C found in the annotation pass. */
  readonly family: string;
  readonly line: number;
}

/** One certification exception (pairs not listed are `valid`). */
export interface Ruling {
  readonly missId: string;
  readonly anchorTurn: number;
  /** miss_func: the removed functions; empty for miss_param. */
  readonly withheld: readonly string[];
  readonly verdict: "construction" | "compound";
  readonly independent: readonly string[];
  readonly gated: readonly string[];
  readonly line: number;
}

function tsvRows(input: NamedText, header: readonly string[]): Result<{ cells: string[]; line: number }[]> {
  const lines = input.text.split("\n").map((l) => l.replace(/\r$/, ""));
  if (lines[0] !== header.join("\t")) {
    return err(problem("tsv-header", `expected the header ${header.join(" ")}`, { file: input.file, line: 1 }));
  }
  const rows: { cells: string[]; line: number }[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    const cells = lines[i].split("\t");
    if (cells.length !== header.length) {
      return err(
        problem("tsv-columns", `expected ${header.length} tab-separated columns, found ${cells.length}`, { file: input.file, line: i + 1 }),
      );
    }
    rows.push({ cells, line: i + 1 });
  }
  return ok(rows);
}

/** A multi-turn item id (`bfcl/categories.ts` knows the categories). */
const idRe = { test: (id: string) => parseItemId(id) !== null };

/** Parse `bad-keys.tsv` (`id`, `family`). */
export function parseBadKeys(input: NamedText): Result<BadKey[]> {
  const rows = tsvRows(input, ["id", "family"]);
  if (!rows.ok) return rows;
  const out: BadKey[] = [];
  for (const { cells, line } of rows.value) {
    if (!idRe.test(cells[0])) return err(problem("bad-key-id", `not a multi-turn item id: ${cells[0]}`, { file: input.file, line }));
    out.push({ id: cells[0], family: cells[1], line });
  }
  return ok(out);
}

const list = (cell: string, sep: string) => (cell === "" ? [] : cell.split(sep).map((s) => s.trim()));

/** Parse `rulings.tsv` (`miss_id`, `anchor_turn`, `withheld` `;`-separated, `verdict`, `independent`/`gated` `,`-separated). */
export function parseRulings(input: NamedText): Result<Ruling[]> {
  const rows = tsvRows(input, ["miss_id", "anchor_turn", "withheld", "verdict", "independent", "gated"]);
  if (!rows.ok) return rows;
  const out: Ruling[] = [];
  const seen = new Set<string>();
  for (const { cells, line } of rows.value) {
    const [missId, turn, withheld, verdict, independent, gated] = cells;
    const where = { file: input.file, line };
    if (!/^multi_turn_miss_(func|param)_\d+$/.test(missId)) return err(problem("ruling-id", `not a should-ask item id: ${missId}`, where));
    if (seen.has(missId)) return err(problem("ruling-duplicate", `second ruling for ${missId}`, where));
    seen.add(missId);
    if (!/^\d+$/.test(turn)) return err(problem("ruling-turn", `anchor_turn is not a turn index: ${turn}`, where));
    if (verdict !== "construction" && verdict !== "compound") {
      return err(problem("ruling-verdict", `verdict must be construction or compound, found ${verdict}`, where));
    }
    out.push({
      missId,
      anchorTurn: Number(turn),
      withheld: list(withheld, ";"),
      verdict,
      independent: list(independent, ","),
      gated: list(gated, ","),
      line,
    });
  }
  return ok(out);
}

/** The header of `certified-content.tsv`: the item id, then one digest per compared field. */
export const certifiedContentHeader: readonly string[] = ["id", ...contentFields];

/**
 * Parse `certified-content.tsv`: for each item the hand rulings were made on, the digest
 * of each compared field. A ruling carries over to another data set only where the item
 * there has these digests.
 */
export function parseCertifiedContent(input: NamedText): Result<Map<string, ItemContent>> {
  const rows = tsvRows(input, certifiedContentHeader);
  if (!rows.ok) return rows;
  const out = new Map<string, ItemContent>();
  const digestRe = new RegExp(`^[0-9a-f]{${digestLength}}$`);
  for (const { cells, line } of rows.value) {
    const where = { file: input.file, line };
    const [id, ...digests] = cells;
    if (!idRe.test(id)) return err(problem("content-id", `not a multi-turn item id: ${id}`, where));
    if (out.has(id)) return err(problem("content-duplicate", `second row for ${id}`, where));
    const bad = digests.findIndex((d) => !digestRe.test(d));
    if (bad >= 0)
      return err(problem("content-digest", `${contentFields[bad]} is not a ${digestLength}-digit hex digest: ${digests[bad]}`, where));
    out.set(id, Object.fromEntries(contentFields.map((f, i) => [f, digests[i]])) as ItemContent);
  }
  return ok(out);
}

/** Render `certified-content.tsv` from item contents, in the order given. */
export function renderCertifiedContent(items: readonly { readonly id: string; readonly content: ItemContent }[]): string {
  const lines = [
    certifiedContentHeader.join("\t"),
    ...items.map(({ id, content }) => [id, ...contentFields.map((f) => content[f])].join("\t")),
  ];
  return lines.join("\n") + "\n";
}
