/**
 * Reading BFCL result lines without parsing what scoring never reads.
 * A multi-turn result line is mostly `inference_log` (state snapshots, tool outputs);
 * scoring needs only `id` and `result`, which BFCL writes first. So a line is scanned at
 * the byte level — keys, strings (with escapes) and bracket depth — until both are found,
 * and only the `result` slice is decoded and `JSON.parse`d. Pure: works on `Uint8Array`.
 */
import { problem, type Problem } from "../messages/index.js";
import { jsonNestsDeeperThan } from "../python/json.js";
import { JSON_DECODE_MAX_DEPTH } from "../python/limits.js";
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, skipSpace, skipString, skipValue } from "./json-bytes.js";

export { scoredResultCategories, type ScoredResultCategory } from "./categories.js";

/**
 * What a result line's `result` holds: the turns (each a list of steps) — only the first
 * few scoring asked for, so `turns.length` is min(turnCount, turns asked for) and a
 * rollout that ended before the anchor shows as `turnCount <= anchorTurn` — or BFCL's
 * inference-error string.
 */
export type RecordedRollout =
  | { readonly kind: "turns"; readonly turns: readonly (readonly unknown[])[]; readonly turnCount: number }
  | { readonly kind: "inference-error"; readonly message: string };

/** Where the `id` and `result` values of a line are (absolute byte offsets, end exclusive). */
export interface LineHead {
  readonly id: string;
  readonly resultStart: number;
  readonly resultEnd: number;
  /**
   * `id` and `result` when the line has that key more than once. Python's `json.loads`
   * (BFCL's reader) keeps the last value of a repeated key, and so do these offsets; the
   * readers warn about such a line.
   */
  readonly repeated: readonly ("id" | "result")[];
}

/** A line that is not an object with a string `id` (and, unless only the id was asked for, a `result`). */
export interface LineHeadError {
  readonly error: string;
}

const utf8 = new TextDecoder("utf-8");

/** Whether the key `bytes[start, keyEnd)` (quotes included, no escape inside) is `key`. */
function keyIs(bytes: Uint8Array, start: number, keyEnd: number, key: string): boolean {
  if (keyEnd - start - 2 !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (bytes[start + 1 + k] !== key.charCodeAt(k)) return false;
  return true;
}

/** The top-level key `bytes[start, keyEnd)` (quotes included) when it is `id` or `result`, escapes decoded as json.loads decodes them. */
function headKey(bytes: Uint8Array, start: number, keyEnd: number): "id" | "result" | null {
  for (let k = start + 1; k < keyEnd - 1; k++) {
    if (bytes[k] !== BACKSLASH) continue;
    // an escaped key (`"res\u0075lt"`) is the same key to json.loads
    let key: unknown;
    try {
      key = JSON.parse(utf8.decode(bytes.subarray(start, keyEnd)));
    } catch {
      return null;
    }
    return key === "id" || key === "result" ? key : null;
  }
  return keyIs(bytes, start, keyEnd, "id") ? "id" : keyIs(bytes, start, keyEnd, "result") ? "result" : null;
}

/**
 * Find `id` (decoded) and the extent of `result` in the line `bytes[start, end)`, as
 * Python's `json.loads` reads the line: a key given twice counts by its last value (and is
 * listed in `repeated`). Every top-level value is skipped at the byte level — strings by a
 * native search for their closing quote — and only the `id` is decoded. With `idOnly`, a
 * line without `result`, or malformed after its first `id`, still gives that id (its
 * `resultStart`/`resultEnd` are then -1): a reader that only counts ids reads them the way
 * it always has. Returns an error sentence for a line that is not such an object.
 */
export function scanLineHead(bytes: Uint8Array, start: number, end: number, idOnly = false): LineHead | LineHeadError {
  let i = skipSpace(bytes, start, end);
  if (bytes[i] !== OPEN_BRACE) return { error: "line is not a JSON object" };
  i++;
  let idStart = -1;
  let idEnd = -1;
  let firstId: string | null = null;
  let resultStart = -1;
  let resultEnd = -1;
  const repeated: ("id" | "result")[] = [];
  const readId = (from: number, to: number): string | LineHeadError => {
    if (bytes[from] !== QUOTE) return { error: "`id` is not a string" };
    try {
      return JSON.parse(utf8.decode(bytes.subarray(from, to))) as string;
    } catch {
      return { error: "`id` is not a valid JSON string" };
    }
  };
  const fail = (error: string): LineHead | LineHeadError => (idOnly && firstId !== null ? { id: firstId, resultStart: -1, resultEnd: -1, repeated } : { error });
  for (;;) {
    i = skipSpace(bytes, i, end);
    if (i >= end) return fail("line ends inside the object (truncated JSON)");
    if (bytes[i] === CLOSE_BRACE) break;
    if (bytes[i] !== QUOTE) return fail(`malformed JSON at byte ${i - start + 1}: expected a key`);
    const keyStart = i;
    const keyEnd = skipString(bytes, i, end);
    if (keyEnd < 0) return fail("line ends inside a key (truncated JSON)");
    i = skipSpace(bytes, keyEnd, end);
    if (bytes[i] !== COLON) return fail(`malformed JSON at byte ${i - start + 1}: expected ':'`);
    i = skipSpace(bytes, i + 1, end);
    if (i >= end) return fail("line ends before a value (truncated JSON)");
    const valueStart = i;
    const valueEnd = skipValue(bytes, i, end);
    if (valueEnd < 0 || valueEnd === valueStart) return fail("a value does not close (truncated or malformed JSON)");
    const key = headKey(bytes, keyStart, keyEnd);
    if (key === "id") {
      if (idStart >= 0 && !repeated.includes("id")) repeated.push("id");
      idStart = valueStart;
      idEnd = valueEnd;
      if (firstId === null) {
        const first = readId(valueStart, valueEnd);
        if (typeof first !== "string") return first;
        firstId = first;
      }
    } else if (key === "result") {
      if (resultStart >= 0 && !repeated.includes("result")) repeated.push("result");
      resultStart = valueStart;
      resultEnd = valueEnd;
    }
    i = skipSpace(bytes, valueEnd, end);
    if (bytes[i] === COMMA) i++;
    else if (bytes[i] !== CLOSE_BRACE) return fail(`malformed JSON at byte ${i - start + 1}: expected ',' or '}'`);
  }
  if (idStart < 0) return { error: "line has no `id`" };
  const id = repeated.includes("id") ? readId(idStart, idEnd) : (firstId as string);
  if (typeof id !== "string") return id;
  if (resultStart < 0) return idOnly ? { id, resultStart: -1, resultEnd: -1, repeated } : { error: "line has no `result`" };
  return { id, resultStart, resultEnd, repeated };
}

/** The warning sentence for a line whose `id` or `result` is given twice (read, as BFCL reads it, by its last value). */
export function repeatedKeyMessage(head: LineHead): string {
  const keys = head.repeated.map((k) => `\`${k}\``).join(" and ");
  return `${head.id}: the line gives ${keys} more than once; read as BFCL's json.loads reads it, by the last one`;
}

/** How a line that `twinscore run --until-anchor` stopped ends: its last top-level key. */
const STOPPED_TAIL = /, "twinscore_stopped_after_turn": (\d+)\}\s*$/;

/**
 * The turn after which `twinscore run --until-anchor` stopped a line, read off the line's
 * last bytes (its last top-level key), or null for a whole rollout. Such a line holds the
 * decision only: no check can say what the model would have done after that turn.
 */
export function stoppedAfterTurn(lineTail: string): number | null {
  const m = STOPPED_TAIL.exec(lineTail);
  return m ? Number(m[1]) : null;
}

/**
 * Decode a `result` value: a list of turns (kept up to `keepTurns`, the anchor and the
 * turns before it), or BFCL's inference-error string. Anything else is a problem.
 */
export function decodeResult(text: string, keepTurns: number, where: { file: string; line: number }): RecordedRollout | Problem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return problem("json-malformed", `\`result\` is not valid JSON (${e instanceof Error ? e.message : String(e)})`, where);
  }
  // JSON.parse reads any depth; Python's json.loads of the line (one level more) stops at its recursion limit
  if (text.length > 2 * (JSON_DECODE_MAX_DEPTH - 1) && jsonNestsDeeperThan(value, JSON_DECODE_MAX_DEPTH - 1)) {
    return problem("json-malformed", "`result` nests deeper than Python's json.loads reads (RecursionError)", where);
  }
  if (typeof value === "string") return { kind: "inference-error", message: value };
  if (!Array.isArray(value)) return problem("result-shape", "`result` is neither a list of turns nor an error string", where);
  for (let t = 0; t < value.length && t < keepTurns; t++) {
    if (!Array.isArray(value[t])) return problem("result-shape", `turn ${t} of \`result\` is not a list of steps`, where);
  }
  return { kind: "turns", turns: value.length > keepTurns ? value.slice(0, keepTurns) : value, turnCount: value.length };
}

/**
 * Count the turns of a `result` list at the byte level and find where to cut it after
 * its first `keepTurns` turns: `cut` is the offset just past the last kept turn, or -1
 * when nothing needs cutting; `count` is null when the value is not a well-formed list.
 */
export function scanTurns(bytes: Uint8Array, start: number, end: number, keepTurns: number): { cut: number; count: number | null } {
  let i = skipSpace(bytes, start, end);
  if (bytes[i] !== OPEN_BRACKET) return { cut: -1, count: null };
  i = skipSpace(bytes, i + 1, end);
  if (bytes[i] === CLOSE_BRACKET) return { cut: -1, count: 0 };
  let cut = -1;
  for (let count = 0; ; ) {
    const next = skipValue(bytes, i, end);
    if (next < 0 || next === i) return { cut: -1, count: null };
    count++;
    i = skipSpace(bytes, next, end);
    if (bytes[i] === CLOSE_BRACKET) return { cut, count };
    if (bytes[i] !== COMMA) return { cut: -1, count: null };
    if (count === keepTurns) cut = next;
    i = skipSpace(bytes, i + 1, end);
  }
}

/**
 * Decode the bytes of the `result` slice found by `scanLineHead`, parsing only the first
 * `keepTurns` turns (the rest of the list is cut off at the byte level, never parsed).
 */
export function decodeResultBytes(
  bytes: Uint8Array,
  head: LineHead,
  keepTurns: number,
  where: { file: string; line: number },
): RecordedRollout | Problem {
  const { cut, count } = scanTurns(bytes, head.resultStart, head.resultEnd, keepTurns);
  if (keepTurns <= 0 && count !== null) return { kind: "turns", turns: [], turnCount: count }; // only the count was asked for
  const text = cut < 0 ? utf8.decode(bytes.subarray(head.resultStart, head.resultEnd)) : utf8.decode(bytes.subarray(head.resultStart, cut)) + "]";
  const decoded = decodeResult(text, keepTurns, where);
  return "kind" in decoded && decoded.kind === "turns" && count !== null ? { ...decoded, turnCount: count } : decoded;
}

/**
 * Decode one whole result line (a line of a `BFCL_v4_multi_turn_<category>_result.json`):
 * its `id` and what its `result` holds — every turn, or BFCL's inference-error string.
 * For library callers that read lines themselves; the scorer reads bytes with
 * `scanLineHead` and `decodeResultBytes` and decodes only the turns it needs.
 *
 * @example
 * const line = '{"id": "multi_turn_base_0", "result": [[[{"ls": "{}"}], "Done."]]}';
 * const decoded = decodeResultLine(line);
 * if (!("code" in decoded)) console.log(decoded.id, decoded.rollout.kind); // multi_turn_base_0 turns
 */
export function decodeResultLine(line: string, where: { file: string; line: number } = { file: "<line>", line: 1 }): { readonly id: string; readonly rollout: RecordedRollout } | Problem {
  const bytes = new TextEncoder().encode(line);
  const head = scanLineHead(bytes, 0, bytes.length);
  if ("error" in head) return problem("json-malformed", head.error, where);
  const rollout = decodeResultBytes(bytes, head, Number.POSITIVE_INFINITY, where);
  return "code" in rollout ? rollout : { id: head.id, rollout };
}
