/**
 * What a result line's `inference_log` says about the data a rollout was generated on. More in this folder's
 * README.md.
 */
import type { ChatMessage } from "./data.js";
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  skipSpace,
  skipString,
  skipValue,
} from "./json-bytes.js";
import { skipValueIn, type SimdRegion } from "./skip-nested-simd.js";

/** The messages BFCL sent at the start of each turn it ran, in turn order. */
export type TurnQueries = readonly (readonly ChatMessage[])[];

/**
 * The text of a logged message's content: a string, or a list of content blocks each
 * holding a `text` string — the form handlers that send blocks log (Claude's
 * `{"type": "text", "text": …}`, Nova's `{"text": …}`), their texts joined by a line
 * break. Null for anything else (tool results, images, no content).
 */
function contentText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content) || content.length === 0) return null;
  const texts: string[] = [];
  for (const block of content) {
    const text = block !== null && typeof block === "object" ? (block as { text?: unknown }).text : undefined;
    if (typeof text !== "string") return null;
    texts.push(text);
  }
  return texts.join("\n");
}

/** Keep the messages that have a text role and text content (BFCL's own entries, never tool calls). */
function messagesOf(value: unknown): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (!Array.isArray(value)) return out;
  for (const m of value) {
    if (m === null || typeof m !== "object" || typeof (m as { role?: unknown }).role !== "string") continue;
    const content = contentText((m as { content?: unknown }).content);
    if (content !== null) out.push({ role: (m as { role: string }).role, content });
  }
  return out;
}

/**
 * The turn queries of a parsed `inference_log` value: one entry per turn record, at
 * most `maxTurns`; null when the value is not a log (missing, or not a list).
 */
export function turnQueriesOf(inferenceLog: unknown, maxTurns = Number.POSITIVE_INFINITY): TurnQueries | null {
  if (!Array.isArray(inferenceLog)) return null;
  const turns: ChatMessage[][] = [];
  for (const entry of inferenceLog) {
    if (turns.length >= maxTurns) break;
    if (entry !== null && typeof entry === "object" && !Array.isArray(entry) && "begin_of_turn_query" in entry) {
      turns.push(messagesOf((entry as { begin_of_turn_query: unknown }).begin_of_turn_query));
    }
  }
  return turns;
}

/**
 * The turns BFCL sent for a test entry, read from a score file's `prompt`, so that an inference error, which has no
 * log, can still be told from the data it was run on. Null when the prompt holds no question list. More in this
 * folder's README.md.
 */
export function promptTurnQueries(prompt: unknown): TurnQueries | null {
  if (prompt === null || typeof prompt !== "object" || Array.isArray(prompt)) return null;
  const { question, missed_function: missed } = prompt as { question?: unknown; missed_function?: unknown };
  if (!Array.isArray(question) || question.length === 0 || !question.every(Array.isArray)) return null;
  const held = missed !== null && typeof missed === "object" && !Array.isArray(missed) ? new Set(Object.keys(missed)) : new Set<string>();
  return question.map((turn: unknown[], t) => (held.has(String(t)) ? [] : messagesOf(turn)));
}

const utf8 = new TextDecoder("utf-8");

/** Decode the JSON key (a string) at `[start, stop)`. */
function keyText(bytes: Uint8Array, start: number, stop: number): string | null {
  try {
    return JSON.parse(utf8.decode(bytes.subarray(start, stop))) as string;
  } catch {
    return null;
  }
}

/**
 * Whether the JSON string at `[start, stop)` (quotes included) is `key`, an ASCII name:
 * compared byte by byte, decoded only when it holds an escape (decoding every key of
 * every line cost more than the rest of the scan).
 */
function keyIs(bytes: Uint8Array, start: number, stop: number, key: string): boolean {
  for (let k = start + 1; k < stop - 1; k++) if (bytes[k] === BACKSLASH) return keyText(bytes, start, stop) === key;
  if (stop - start - 2 !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (bytes[start + 1 + k] !== key.charCodeAt(k)) return false;
  return true;
}

/**
 * Where the value of `key` in the object at `i` starts, or -1 (not an object, no such
 * key, malformed before it). The values of the keys before it are skipped; the value
 * itself is not, so a caller that reads only its beginning never walks the rest of it
 * (the `inference_log` is nine tenths of a result line).
 */
function findKeyValue(bytes: Uint8Array, i: number, end: number, key: string): number {
  i = skipSpace(bytes, i, end);
  if (bytes[i] !== OPEN_BRACE) return -1;
  i++;
  for (;;) {
    i = skipSpace(bytes, i, end);
    if (i >= end || bytes[i] === CLOSE_BRACE || bytes[i] !== QUOTE) return -1;
    const keyEnd = skipValue(bytes, i, end);
    if (keyEnd < 0) return -1;
    const found = keyIs(bytes, i, keyEnd, key);
    i = skipSpace(bytes, keyEnd, end);
    if (bytes[i] !== COLON) return -1;
    i = skipSpace(bytes, i + 1, end);
    if (i >= end) return -1;
    if (found) return i;
    const valueEnd = skipValue(bytes, i, end);
    if (valueEnd < 0 || valueEnd === i) return -1;
    i = skipSpace(bytes, valueEnd, end);
    if (bytes[i] === COMMA) i++;
  }
}

/** The extent of the value of `key` in the object at `i`, or null (not an object, no such key, malformed). */
function findKey(bytes: Uint8Array, i: number, end: number, key: string): { start: number; end: number } | null {
  const start = findKeyValue(bytes, i, end, key);
  if (start < 0) return null;
  const valueEnd = skipValue(bytes, start, end);
  return valueEnd < 0 || valueEnd === start ? null : { start, end: valueEnd };
}

/**
 * The turn queries of a result line given as bytes `[start, end)`, at most `maxTurns`: only each
 * `begin_of_turn_query` is parsed, so the state snapshots that make up most of a line are never decoded. Null when
 * the line has no `inference_log` list that can be read up to the last turn asked for. More in this folder's
 * README.md.
 */
export function scanTurnQueries(bytes: Uint8Array, start: number, end: number, maxTurns = Number.POSITIVE_INFINITY): TurnQueries | null {
  const logStart = findKeyValue(bytes, start, end, "inference_log");
  if (logStart < 0 || bytes[logStart] !== OPEN_BRACKET) return null;
  const turns: ChatMessage[][] = [];
  let i = skipSpace(bytes, logStart + 1, end);
  while (i < end && bytes[i] !== CLOSE_BRACKET && turns.length < maxTurns) {
    const next = skipValue(bytes, i, end);
    if (next < 0 || next === i) return null;
    if (bytes[i] === OPEN_BRACE) {
      const query = findKey(bytes, i, next, "begin_of_turn_query");
      if (query !== null) {
        let value: unknown;
        try {
          value = JSON.parse(utf8.decode(bytes.subarray(query.start, query.end)));
        } catch {
          value = null;
        }
        turns.push(messagesOf(value));
      }
    }
    i = skipSpace(bytes, next, end);
    if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1, end);
  }
  return turns;
}

/**
 * Where an `inference_log` list ends and where each turn record's `begin_of_turn_query` is in it (`queries`: start
 * and end offsets, pair by pair), found in the head scan's one walk of a line so that the log is not walked again for
 * its queries. More in this folder's README.md.
 */
export interface LogExtents {
  readonly end: number;
  readonly queries: readonly number[];
}

/**
 * The extents of the log list opening at `logStart` (see `LogExtents`), or null; `region`:
 * the line's SIMD copy the head scan made (null: the line is walked in JavaScript).
 */
export function walkLog(bytes: Uint8Array, logStart: number, end: number, region: SimdRegion | null): LogExtents | null {
  const queries: number[] = [];
  let i = skipSpace(bytes, logStart + 1, end);
  for (;;) {
    if (i >= end) return null;
    const b = bytes[i];
    if (b === CLOSE_BRACKET) return { end: i + 1, queries };
    const next =
      b === OPEN_BRACE
        ? walkRecord(bytes, i, end, queries, region)
        : b === OPEN_BRACKET || b === QUOTE
          ? skipValueIn(region, bytes, i, end)
          : -1;
    if (next < 0) return null;
    i = skipSpace(bytes, next, end);
    if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1, end);
  }
}

/** Whether a bare value (number, literal) holds a byte the bracket match would count. */
function holdsStructure(bytes: Uint8Array, start: number, stop: number): boolean {
  for (let k = start; k < stop; k++) {
    const b = bytes[k];
    if (b === QUOTE || b === OPEN_BRACKET || b === CLOSE_BRACKET || b === OPEN_BRACE) return true;
  }
  return false;
}

/** Index past the well-formed object at `i` (a log entry), its first `begin_of_turn_query` extent pushed onto `queries`; -1 when it is not plain. */
function walkRecord(bytes: Uint8Array, i: number, end: number, queries: number[], region: SimdRegion | null): number {
  let j = skipSpace(bytes, i + 1, end);
  if (bytes[j] === CLOSE_BRACE) return j + 1;
  let found = false;
  for (;;) {
    if (bytes[j] !== QUOTE) return -1;
    const keyEnd = skipString(bytes, j, end);
    if (keyEnd < 0) return -1;
    const isQuery = !found && keyIs(bytes, j, keyEnd, "begin_of_turn_query");
    j = skipSpace(bytes, keyEnd, end);
    if (bytes[j] !== COLON) return -1;
    j = skipSpace(bytes, j + 1, end);
    if (j >= end) return -1;
    const valueStart = j;
    const valueEnd = skipValueIn(region, bytes, j, end);
    if (valueEnd < 0 || valueEnd === valueStart) return -1;
    const v = bytes[valueStart];
    if (v !== QUOTE && v !== OPEN_BRACKET && v !== OPEN_BRACE && holdsStructure(bytes, valueStart, valueEnd)) return -1;
    if (isQuery) {
      queries.push(valueStart, valueEnd);
      found = true;
    }
    j = skipSpace(bytes, valueEnd, end);
    if (bytes[j] === CLOSE_BRACE) return j + 1;
    if (bytes[j] !== COMMA) return -1;
    j = skipSpace(bytes, j + 1, end);
  }
}

/**
 * The turn queries of a line whose log the head scan walked: parsed from the extents it
 * found (at most `maxTurns`), null when the line has no log list, or read by
 * `scanTurnQueries` where the head scan could not say (`known` undefined).
 */
export function turnQueriesAt(
  bytes: Uint8Array,
  start: number,
  end: number,
  known: { readonly logStart: number; readonly logQueries: readonly number[] | null } | undefined,
  maxTurns = Number.POSITIVE_INFINITY,
): TurnQueries | null {
  if (known === undefined || (known.logQueries === null && known.logStart !== -1)) return scanTurnQueries(bytes, start, end, maxTurns);
  if (known.logQueries === null) return null; // the whole line was walked and has no `inference_log`
  const turns: ChatMessage[][] = [];
  for (let q = 0; q < known.logQueries.length && turns.length < maxTurns; q += 2) {
    let value: unknown;
    try {
      value = JSON.parse(utf8.decode(bytes.subarray(known.logQueries[q], known.logQueries[q + 1])));
    } catch {
      value = null;
    }
    turns.push(messagesOf(value));
  }
  return turns;
}
