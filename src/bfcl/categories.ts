/**
 * BFCL's multi-turn facts in one place: the categories, the versions, how item ids and
 * file names are built, and the folders BFCL writes. Every other module asks here, so a
 * new category or BFCL version is a change to these lists (plus data), not to a dozen
 * regular expressions.
 */

/** The BFCL data versions twinscore reads; only the file-name prefix differs between them. */
export const bfclVersions = ["v3", "v4"] as const;
/** A BFCL data version (`v3`, `v4`). */
export type BfclVersion = (typeof bfclVersions)[number];

/** The four multi-turn categories BFCL ships, in BFCL's order. */
export const multiTurnCategories = ["base", "miss_func", "miss_param", "long_context"] as const;
/** A multi-turn category (`base`, `miss_func`, `miss_param`, `long_context`). */
export type MultiTurnCategory = (typeof multiTurnCategories)[number];

/** The should-ask categories: a base item with one piece of information removed at one turn. */
export const shouldAskCategories = ["miss_func", "miss_param"] as const;
/** A should-ask category (`miss_func`: a function removed; `miss_param`: a value removed). */
export type ShouldAskCategory = (typeof shouldAskCategories)[number];

/** The categories the decision is scored on: the base twins and the should-ask twins. */
export const scoredResultCategories = ["base", ...shouldAskCategories] as const;
/** A category the decision is scored on (`base`, `miss_func`, `miss_param`). */
export type ScoredResultCategory = (typeof scoredResultCategories)[number];

/** Items per multi-turn category in BFCL v3 and v4: ids `multi_turn_<category>_0` … `_199`. */
export const ITEMS_PER_CATEGORY = 200;

/** What a per-model file holds: `bfcl generate` writes results, `bfcl evaluate` writes scores. */
export type BfclFileKind = "result" | "score";

/** The folder BFCL writes each kind of file into under its project root. */
export const rootFolderOf: Readonly<Record<BfclFileKind, string>> = { result: "result", score: "score" };

/**
 * The test-group folders BFCL v4 puts between a model folder and its files
 * (`result/<model>/multi_turn/…`); v3 writes the files into the model folder itself.
 */
export const groupFolders: readonly string[] = ["multi_turn", "non_live", "live", "agentic", "format_sensitivity"];

const alternation = (xs: readonly string[]) => xs.join("|");
const itemIdRe = new RegExp(`^multi_turn_(${alternation(multiTurnCategories)})_(0|[1-9]\\d*)$`);
const fileNameRe = new RegExp(
  `^BFCL_(${alternation(bfclVersions)})_multi_turn_(${alternation(multiTurnCategories)})_(result|score)\\.json$`,
);

/** Whether a string names one of the categories above. */
export function isMultiTurnCategory(x: string): x is MultiTurnCategory {
  return (multiTurnCategories as readonly string[]).includes(x);
}

/** Whether a category is a should-ask category. */
export function isShouldAskCategory(x: string): x is ShouldAskCategory {
  return (shouldAskCategories as readonly string[]).includes(x);
}

/** Whether a category is one the decision is scored on. */
export function isScoredResultCategory(x: string): x is ScoredResultCategory {
  return (scoredResultCategories as readonly string[]).includes(x);
}

/** `multi_turn_<category>_<index>`: the id BFCL gives an item. */
export function itemId(category: MultiTurnCategory, index: number): string {
  return `multi_turn_${category}_${index}`;
}

/** A parsed item id: its category and index. */
export type ParsedItemId = { readonly category: MultiTurnCategory; readonly index: number };

/**
 * Ids parsed so far: scoring asks for the same few hundred ids several times per model
 * and line, and each regular-expression match allocated (a tenth of what scoring many
 * models allocated). Bounded, so a file of endless distinct ids cannot grow it.
 */
const parsedIds = new Map<string, ParsedItemId | null>();
const PARSED_IDS_MAX = 8192;

/** The category and index of a multi-turn item id as BFCL writes it (no leading zero); null for any other string. */
export function parseItemId(id: string): ParsedItemId | null {
  const known = parsedIds.get(id);
  if (known !== undefined) return known;
  const m = itemIdRe.exec(id);
  const parsed = m ? Object.freeze({ category: m[1] as MultiTurnCategory, index: Number(m[2]) }) : null;
  if (parsedIds.size < PARSED_IDS_MAX) parsedIds.set(id, parsed);
  return parsed;
}

/** `multi_turn_<category>_<index>` → its category; null when the id has another shape. */
export function categoryOfItemId(id: string): MultiTurnCategory | null {
  return parseItemId(id)?.category ?? null;
}

/** `BFCL_<version>_multi_turn_<category>_<kind>.json`: the name BFCL gives a model's file. */
export function bfclFileName(version: BfclVersion, category: MultiTurnCategory, kind: BfclFileKind): string {
  return `BFCL_${version}_multi_turn_${category}_${kind}.json`;
}

/** What a per-model file name holds (version, category, kind); null for any other file. */
export function parseBfclFileName(
  name: string,
): { readonly version: BfclVersion; readonly category: MultiTurnCategory; readonly kind: BfclFileKind } | null {
  const m = fileNameRe.exec(name);
  return m ? { version: m[1] as BfclVersion, category: m[2] as MultiTurnCategory, kind: m[3] as BfclFileKind } : null;
}

/** The data file of a category's questions, relative to a BFCL data folder. */
export function questionsFile(version: BfclVersion, category: MultiTurnCategory): string {
  return `BFCL_${version}_multi_turn_${category}.json`;
}

/** The data file of a category's references, relative to a BFCL data folder. */
export function answersFile(version: BfclVersion, category: MultiTurnCategory): string {
  return `possible_answer/BFCL_${version}_multi_turn_${category}.json`;
}

/**
 * The index BFCL's `sort_key` orders a file's entries by: the integer after the last `_`
 * (`multi_turn_base_12` → 12, so 12 comes after 9), the first part of a
 * `<index>-<doc>-<prompt>` index, anything after `:` ignored. Ids of no such shape sort last.
 */
export function sortIndexOfId(id: string): number {
  const m = /_(\d+)(?:-\d+-\d+)?(?::.*)?$/.exec(id);
  return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
}
