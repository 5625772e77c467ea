/**
 * Result files as BFCL lays them out and orders them: one file per category
 * (`BFCL_v4_multi_turn_<category>_result.json`), lines sorted by BFCL's `sort_key`
 * (category, then the integer index), each line `json.dumps` of the entry. Also the
 * resume rules: ids already present are skipped (error lines too, unless asked to retry
 * them), and a torn last line left by a kill is cut off.
 */
import { bfclFileName, sortIndexOfId, type MultiTurnCategory } from "../bfcl/categories.js";
import { jsonDumps } from "../python/json.js";
import type { PyDict } from "../python/containers.js";
import { makeJsonSerializable } from "./serialize.js";

/** The result file name of a category, as BFCL names it. */
export function resultFileName(category: MultiTurnCategory): string {
  return bfclFileName("v4", category, "result");
}

/** The result folder name of a model: the name with `/` → `_`, as BFCL names result folders. */
export function modelDirName(model: string): string {
  return model.replace(/\//g, "_");
}

/** BFCL's `sort_key` for multi-turn ids: category, then the integer index (`_12` after `_9`). */
export function compareIds(a: string, b: string): number {
  const prefix = (id: string): string => {
    const base = id.split(":")[0];
    return base.slice(0, base.lastIndexOf("_"));
  };
  const [ca, cb] = [prefix(a), prefix(b)];
  if (ca !== cb) return ca < cb ? -1 : 1;
  const [ia, ib] = [sortIndexOfId(a), sortIndexOfId(b)];
  if (ia !== ib) return ia - ib;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One line of a result file: `json.dumps(make_json_serializable(entry))` and a newline. */
export function renderLine(line: PyDict): string {
  return `${jsonDumps(makeJsonSerializable(line))}\n`;
}

/** What a result file already holds, for resume. */
export interface ExistingLines {
  /** Complete lines by id, in file order. */
  readonly lines: Map<string, { readonly text: string; readonly isError: boolean }>;
  /** Byte length of the intact part (everything up to the last newline that ends a parseable line). */
  readonly intactLength: number;
  /** True when a torn tail (a line cut by a kill) follows the intact part. */
  readonly torn: boolean;
  /** Lines that are not JSON objects with a string id (1-based numbers). */
  readonly malformed: number[];
}

/**
 * Read a result file's text for resume. A last line without its newline is torn (the
 * writer appends whole lines, so only a kill leaves one) and is dropped; a complete line
 * that does not parse is reported, not dropped.
 */
export function readExistingLines(text: string): ExistingLines {
  const lines = new Map<string, { text: string; isError: boolean }>();
  const malformed: number[] = [];
  const lastNewline = text.lastIndexOf("\n");
  const intactLength = lastNewline + 1;
  const body = text.slice(0, intactLength);
  let lineNo = 0;
  for (const l of body.split("\n")) {
    lineNo++;
    if (l.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(l);
    } catch {
      malformed.push(lineNo);
      continue;
    }
    const id = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>).id : undefined;
    if (typeof id !== "string") {
      malformed.push(lineNo);
      continue;
    }
    lines.set(id, { text: `${l}\n`, isError: !Array.isArray((parsed as Record<string, unknown>).result) });
  }
  return { lines, intactLength, torn: intactLength < text.length, malformed };
}

/** The final file text: every line sorted by `sort_key`. */
export function sortedFileText(lines: Iterable<{ readonly id: string; readonly text: string }>): string {
  return [...lines]
    .sort((a, b) => compareIds(a.id, b.id))
    .map((l) => l.text)
    .join("");
}
