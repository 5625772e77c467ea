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
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, skipSpace, skipString, skipValue } from "./json-bytes.js";

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
}

const utf8 = new TextDecoder("utf-8");

function keyIs(bytes: Uint8Array, start: number, endQuote: number, key: string): boolean {
  if (endQuote - start - 1 !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (bytes[start + 1 + k] !== key.charCodeAt(k)) return false;
  return true;
}

/**
 * Find `id` (decoded) and the extent of `result` in the line `bytes[start, end)`. Keys
 * before them are skipped value by value; scanning stops as soon as both are found, so
 * the `inference_log` that follows is never looked at. With `idOnly`, stops after `id`
 * (resultStart/End are then -1). Returns an error sentence for a line that is not such an object.
 */
export function scanLineHead(bytes: Uint8Array, start: number, end: number, idOnly = false): LineHead | { error: string } {
  let i = skipSpace(bytes, start, end);
  if (bytes[i] !== OPEN_BRACE) return { error: "line is not a JSON object" };
  i++;
  let id: string | null = null;
  let resultStart = -1;
  let resultEnd = -1;
  for (;;) {
    i = skipSpace(bytes, i, end);
    if (i >= end) return { error: "line ends inside the object (truncated JSON)" };
    if (bytes[i] === CLOSE_BRACE) break;
    if (bytes[i] !== QUOTE) return { error: `malformed JSON at byte ${i - start + 1}: expected a key` };
    const keyStart = i;
    const keyEnd = skipString(bytes, i, end);
    if (keyEnd < 0) return { error: "line ends inside a key (truncated JSON)" };
    i = skipSpace(bytes, keyEnd, end);
    if (bytes[i] !== COLON) return { error: `malformed JSON at byte ${i - start + 1}: expected ':'` };
    i = skipSpace(bytes, i + 1, end);
    if (i >= end) return { error: "line ends before a value (truncated JSON)" };
    const valueStart = i;
    const valueEnd = skipValue(bytes, i, end);
    if (valueEnd < 0 || valueEnd === valueStart) return { error: "a value does not close (truncated or malformed JSON)" };
    if (keyIs(bytes, keyStart, keyEnd - 1, "id")) {
      if (bytes[valueStart] !== QUOTE) return { error: "`id` is not a string" };
      try {
        id = JSON.parse(utf8.decode(bytes.subarray(valueStart, valueEnd))) as string;
      } catch {
        return { error: "`id` is not a valid JSON string" };
      }
      if (idOnly) return { id, resultStart: -1, resultEnd: -1 };
    } else if (keyIs(bytes, keyStart, keyEnd - 1, "result")) {
      resultStart = valueStart;
      resultEnd = valueEnd;
    }
    if (id !== null && resultStart >= 0) return { id, resultStart, resultEnd };
    i = skipSpace(bytes, valueEnd, end);
    if (bytes[i] === COMMA) i++;
    else if (bytes[i] !== CLOSE_BRACE) return { error: `malformed JSON at byte ${i - start + 1}: expected ',' or '}'` };
  }
  if (id === null) return { error: "line has no `id`" };
  return { error: "line has no `result`" };
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
