/**
 * BFCL's score files (`BFCL_v4_<category>_score.json`): a header line
 * `{"accuracy", "correct_count", "total_count"}` and one line per failed entry, written with BFCL's
 * `make_json_serializable` (values `json.dumps` cannot take — sets, files, directories, mpf — become their
 * `str`) and `json.dumps(..., ensure_ascii=False)`. More in this folder's README.md.
 */
import { PyDict, PyTuple } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { jsonFloat, jsonQuoteUnicode } from "../python/json.js";
import { JSON_DECODE_MAX_DEPTH, JSON_ENCODE_MAX_DEPTH, recursionError } from "../python/limits.js";
import { skipValue } from "../bfcl/json-bytes.js";
import { floatRepr, intRepr, pyStr } from "../python/repr.js";
import type { PyValue } from "../python/value.js";
import type { FailedVerdict } from "./checker.js";

/** json.dumps key coercion: str as is; int, float, bool, None to their JSON text. */
function keyText(k: PyValue): string {
  if (typeof k === "string") return k;
  if (k === null) return "null";
  if (typeof k === "boolean") return k ? "true" : "false";
  if (typeof k === "bigint") return intRepr(k);
  if (typeof k === "number") return Number.isFinite(k) ? floatRepr(k) : jsonFloat(k);
  throw new PyException("TypeError", `keys must be str, int, float, bool or None, not ${k instanceof PyTuple ? "tuple" : "object"}`);
}

/** One list/dict deeper in a dump: past CPython's C recursion limit `json.dumps` raises RecursionError. */
function dumpLevel(depth: number): number {
  if (depth >= JSON_ENCODE_MAX_DEPTH) throw recursionError(" while encoding a JSON object");
  return depth + 1;
}

/** Plain `json.dumps(v, ensure_ascii=False)`; throws PyException where Python would. `depth` counts the lists and dicts around `v`. */
function strictDump(v: PyValue, depth = 0): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return intRepr(v);
    case "number":
      return jsonFloat(v);
    case "string":
      return jsonQuoteUnicode(v);
  }
  if (Array.isArray(v)) return dumpItems(v, dumpLevel(depth), strictDump);
  if (v instanceof PyTuple) return dumpItems(v.items, dumpLevel(depth), strictDump);
  if (v instanceof PyDict) return dumpEntries(v, dumpLevel(depth), strictDump);
  throw new PyException("TypeError", "not JSON serializable");
}

/** `[a, b]` of items dumped one level deeper (joined, not concatenated: the score file encodes flat strings faster). */
function dumpItems(items: readonly PyValue[], depth: number, dump: (v: PyValue, depth: number) => string): string {
  if (items.length === 0) return "[]";
  const parts = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) parts[i] = dump(items[i], depth);
  return `[${parts.join(", ")}]`;
}

/** `{"k": v}` of a dict's entries dumped one level deeper, keys coerced as json.dumps does. */
function dumpEntries(d: PyDict, depth: number, dump: (v: PyValue, depth: number) => string): string {
  if (d.size === 0) return "{}";
  const parts: string[] = [];
  d.forEach((x, k) => {
    parts.push(`${jsonQuoteUnicode(keyText(k))}: ${dump(x, depth)}`);
  });
  return `{${parts.join(", ")}}`;
}

/**
 * A `json.dumps(make_json_serializable(v), ensure_ascii=False)` writer. Where Python raises
 * RecursionError (a `str(value)` or a list/dict nested past json.dumps' limit), `tooDeep`
 * gives the text written in that value's place; without it the error is thrown, as in Python.
 */
function scoreValueDumper(tooDeep: ((e: PyException) => string) | null): (v: PyValue, depth?: number) => string {
  const orTooDeep = (e: unknown): string => {
    if (tooDeep === null || !(e instanceof PyException) || e.pyType !== "RecursionError") throw e;
    return tooDeep(e);
  };
  const dump = (v: PyValue, depth = 0): string => {
    if (Array.isArray(v) || v instanceof PyDict) {
      let inner: number;
      try {
        inner = dumpLevel(depth);
      } catch (e) {
        return orTooDeep(e);
      }
      return Array.isArray(v) ? dumpItems(v, inner, dump) : dumpEntries(v, inner, dump);
    }
    if (v !== null && typeof v === "object") {
      if (v instanceof PyTuple) {
        try {
          return strictDump(v, depth);
        } catch (e) {
          if (!(e instanceof PyException)) throw e;
        }
      }
      let text: string;
      try {
        text = pyStr(v);
      } catch (e) {
        return orTooDeep(e);
      }
      return jsonQuoteUnicode(text);
    }
    return strictDump(v, depth);
  };
  return dump;
}

/**
 * `json.dumps(make_json_serializable(v), ensure_ascii=False)`: dicts and lists recurse;
 * any other value is kept when `json.dumps` accepts it and replaced by `str(value)`
 * otherwise. `depth` counts the lists and dicts around `v`. Throws PyException where Python raises.
 */
export const dumpScoreValue: (v: PyValue, depth?: number) => string = scoreValueDumper(null);

/**
 * `dumpScoreValue` that never stops at Python's recursion limits: a value whose `str()` or
 * dump raises RecursionError is written as that error's text (`"RecursionError: …"`), and
 * `tooDeep` is the first such text (null when nothing was too deep). BFCL's writer would
 * raise there and stop the whole score file; this lets one such entry be reported while
 * every other line is written.
 */
export function dumpScoreValueBounded(v: PyValue): { readonly text: string; readonly tooDeep: string | null } {
  let tooDeep: string | null = null;
  const text = scoreValueDumper((e) => {
    const said = `${e.pyType}: ${e.pyMessage}`;
    tooDeep ??= said;
    return jsonQuoteUnicode(said);
  })(v);
  return { text, tooDeep };
}

/** What a failed entry's score line is built from. */
export interface FailedEntryInput {
  readonly id: string;
  /** Result directory name. */
  readonly modelName: string;
  /** `multi_turn_<category>` (from the result file name). */
  readonly testCategory: string;
  readonly verdict: FailedVerdict;
  /** `verdict.error` already rendered (the caller keeps that text for comparison too). */
  readonly error?: RenderedJson;
  /** The evaluation-time question entry without `function`. */
  readonly prompt: PyValue | RenderedJson;
  /** The result line's `result` value (or its text already re-dumped, or its bytes already in dumped form). */
  readonly result: PyValue | RenderedJson | VerbatimJson;
  readonly groundTruth: readonly (readonly string[])[];
  /** The result line's `inference_log` (or its re-dumped text), or `""` when absent; undefined: the line has no such field. */
  readonly inferenceLog: PyValue | RenderedJson | VerbatimJson | undefined;
}

/**
 * One failed-entry line, in BFCL's field order (no trailing newline), as text pieces and
 * byte ranges of the result file copied as they are (`VerbatimJson`).
 */
export function failedEntryChunks(e: FailedEntryInput): (string | Uint8Array)[] {
  const gt = e.groundTruth.map((t) => [...t]);
  const fields: [string, PyValue | RenderedJson | VerbatimJson][] = [
    ["id", e.id],
    ["model_name", e.modelName],
    ["test_category", e.testCategory],
    ["valid", false],
    ["error", e.error ?? e.verdict.error],
    ["prompt", e.prompt],
  ];
  if (e.verdict.runnerLevel) fields.push(["model_result", e.result]);
  else fields.push(["model_result_raw", e.result], ["model_result_decoded", e.verdict.decoded ?? []]);
  fields.push(["possible_answer", gt]);
  if (e.inferenceLog !== undefined) fields.push(["inference_log", e.inferenceLog]);
  const chunks: (string | Uint8Array)[] = [];
  let text = "{";
  fields.forEach(([k, v], i) => {
    text += `${i === 0 ? "" : ", "}${jsonQuoteUnicode(k)}: `;
    if (v instanceof VerbatimJson) {
      chunks.push(text, v.bytes);
      text = "";
    } else text += v instanceof RenderedJson ? v.text : dumpScoreValue(v);
  });
  chunks.push(`${text}}`);
  return chunks;
}

/** The header line: accuracy as Python's float division, counts as ints. */
export function scoreHeaderLine(correct: number, total: number): string {
  const accuracy = total === 0 ? 0 : correct / total;
  return dumpScoreValue(
    new PyDict([
      ["accuracy", accuracy],
      ["correct_count", BigInt(correct)],
      ["total_count", BigInt(total)],
    ]),
  );
}

const UTF8_OUT = new TextEncoder();

/** How a BFCL release writes a score file. */
export interface ScoreFileStyle {
  /** `json.dumps(line)` with its default `ensure_ascii=True` (else `ensure_ascii=False`). */
  readonly ascii: boolean;
  /** A newline after the last line too. */
  readonly finalNewline: boolean;
}

/** Bytes kept free in front of the first failed line for the header, whose counts are known only at the end. */
const HEADER_ROOM = 256;

/**
 * A score file built line by line as UTF-8 bytes: each failed line is encoded (text
 * pieces) or copied (verbatim byte ranges of the result file) as soon as its entry is
 * checked, so nothing of it is held across entries; the header goes in front at the end.
 */
export class ScoreFileBuilder {
  private out: Uint8Array;
  private at = HEADER_ROOM;

  constructor(
    /** Expected size in bytes (the result file's size is a good guess); the buffer grows past it. */
    expected: number,
    /** A buffer of at least `bytes` to write into (a caller's reused one: fresh memory is slow to touch); the score file is then a view of it. */
    private readonly scratch?: (bytes: number) => Uint8Array,
    /** How the release writes its score files (v4: `ensure_ascii=False`, a newline after every line). */
    private readonly style: ScoreFileStyle = { ascii: false, finalNewline: true },
  ) {
    const want = HEADER_ROOM + expected + 1024;
    this.out = scratch ? scratch(want) : new Uint8Array(want);
  }

  private grow(need: number): void {
    const want = Math.max(Math.ceil(this.out.length * 1.5), this.at + need);
    const bigger = this.scratch ? this.scratch(want) : new Uint8Array(want);
    bigger.set(this.out.subarray(0, this.at));
    this.out = bigger;
  }

  private put(text: string): void {
    let rest = text;
    for (;;) {
      const r = UTF8_OUT.encodeInto(rest, this.out.subarray(this.at));
      this.at += r.written;
      if (r.read === rest.length) return;
      rest = rest.slice(r.read);
      this.grow(rest.length * 3);
    }
  }

  /** Append one failed line (from `failedEntryChunks`) and its newline. */
  addLine(chunks: readonly (string | Uint8Array)[]): void {
    const lineStart = this.at;
    for (const c of chunks) {
      if (typeof c === "string") this.put(c);
      else {
        if (this.at + c.length > this.out.length) this.grow(c.length);
        this.out.set(c, this.at);
        this.at += c.length;
      }
    }
    if (this.style.ascii) this.escapeToAscii(lineStart);
    if (this.at + 1 > this.out.length) this.grow(1);
    this.out[this.at++] = 0x0a;
  }

  /**
   * `ensure_ascii=True` of the line from `start`: the line is in `ensure_ascii=False` form,
   * which differs only in writing DEL and every non-ASCII character raw (both occur only
   * inside strings), so each becomes its `\uXXXX` escape (UTF-16 units, lower-case hex).
   */
  private escapeToAscii(start: number): void {
    let first = -1;
    for (let i = start; i < this.at; i++) {
      if (this.out[i] >= 0x7f) {
        first = i;
        break;
      }
    }
    if (first < 0) return;
    const rest = new TextDecoder("utf-8").decode(this.out.subarray(first, this.at));
    let escaped = "";
    for (let i = 0; i < rest.length; i++) {
      const c = rest.charCodeAt(i);
      escaped += c < 0x7f ? rest[i] : "\\u" + c.toString(16).padStart(4, "0");
    }
    this.at = first;
    this.put(escaped);
  }

  /** The whole file: the header line (accuracy, counts) and the lines added. */
  finish(correct: number, total: number): Uint8Array {
    // a release that writes no newline after the last line (the header, when nothing failed)
    if (!this.style.finalNewline && this.at > HEADER_ROOM) this.at--;
    const header = UTF8_OUT.encode(`${scoreHeaderLine(correct, total)}${this.style.finalNewline || this.at > HEADER_ROOM ? "\n" : ""}`);
    if (header.length > HEADER_ROOM) {
      const whole = new Uint8Array(header.length + this.at - HEADER_ROOM);
      whole.set(header);
      whole.set(this.out.subarray(HEADER_ROOM, this.at), header.length);
      return whole;
    }
    const start = HEADER_ROOM - header.length;
    this.out.set(header, start);
    return this.out.subarray(start, this.at);
  }
}

/** Our verdict on one entry (or one of its score lines), reduced for comparison. */
export interface OurVerdict {
  readonly id: string;
  readonly valid: boolean;
  readonly errorType?: string;
  readonly errorMessage?: string;
  /** Our serialised `error` object (only when full-object comparison is wanted). */
  readonly errorJson?: string;
}

/** Thrown inside the transcoder when the text needs the faithful path (duplicate keys, bad JSON). */
class NotCanonical {}

/**
 * `json.dumps(json.loads(text), ensure_ascii=False)` computed on the text, for the verbatim parts of a score
 * line that cannot be copied as bytes: one pass, no Python values built. Returns each top-level key's re-dumped
 * value, or null when the text is not a JSON object or repeats a key. More in this folder's README.md.
 */
export function redumpTopLevel(text: string): Map<string, string> | null {
  try {
    return new Redumper(text).topLevel();
  } catch (e) {
    if (e instanceof NotCanonical || e instanceof SyntaxError) return null;
    throw e;
  }
}

const REDUMP_NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

/** One pass over a JSON text, `i` the position reached; each step re-dumps what it reads. */
class Redumper {
  private i = 0;
  private readonly n: number;

  constructor(private readonly text: string) {
    this.n = text.length;
  }

  /** The top-level object's keys and re-dumped values; null when it is not an object or repeats a key. */
  topLevel(): Map<string, string> | null {
    const text = this.text;
    this.ws();
    if (text.charCodeAt(this.i) !== 0x7b) return null;
    this.i++;
    const out = new Map<string, string>();
    this.ws();
    if (text.charCodeAt(this.i) === 0x7d) return out;
    for (;;) {
      this.ws();
      if (text.charCodeAt(this.i) !== 0x22) return null;
      const k = JSON.parse(this.str()) as string;
      if (out.has(k)) return null;
      this.ws();
      if (text.charCodeAt(this.i) !== 0x3a) return null;
      this.i++;
      out.set(k, this.value(1));
      this.ws();
      const d = text.charCodeAt(this.i++);
      if (d === 0x7d) break;
      if (d !== 0x2c) return null;
    }
    return out;
  }

  private ws(): void {
    const text = this.text;
    while (this.i < this.n) {
      const c = text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else break;
    }
  }

  /** A string token: copied when it has no escape, else decoded and quoted again as Python would. */
  private str(): string {
    const text = this.text;
    const start = this.i;
    this.i++;
    let plain = true;
    while (this.i < this.n) {
      const c = text.charCodeAt(this.i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        plain = false;
        this.i += 2;
        continue;
      }
      if (c < 0x20) throw new NotCanonical();
      this.i++;
    }
    if (this.i >= this.n) throw new NotCanonical();
    this.i++;
    const token = text.slice(start, this.i);
    return plain ? token : jsonQuoteUnicode(JSON.parse(token) as string);
  }

  /**
   * `depth` counts the objects and arrays open around the value (the line's own included):
   * past json.loads' limit the text is left to it, which raises Python's RecursionError.
   */
  private value(depth: number): string {
    this.ws();
    const c = this.text.charCodeAt(this.i);
    if (c === 0x22) return this.str();
    if ((c === 0x7b || c === 0x5b) && depth >= JSON_DECODE_MAX_DEPTH) throw new NotCanonical();
    if (c === 0x7b) return this.object(depth);
    if (c === 0x5b) return this.array(depth);
    return this.scalar();
  }

  private object(depth: number): string {
    const text = this.text;
    this.i++;
    this.ws();
    if (text.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return "{}";
    }
    const parts: string[] = [];
    const seen = new Set<string>();
    for (;;) {
      this.ws();
      if (text.charCodeAt(this.i) !== 0x22) throw new NotCanonical();
      const k = this.str();
      if (seen.has(k)) throw new NotCanonical();
      seen.add(k);
      this.ws();
      if (text.charCodeAt(this.i) !== 0x3a) throw new NotCanonical();
      this.i++;
      parts.push(`${k}: ${this.value(depth + 1)}`);
      this.ws();
      const d = text.charCodeAt(this.i++);
      if (d === 0x7d) break;
      if (d !== 0x2c) throw new NotCanonical();
    }
    return `{${parts.join(", ")}}`;
  }

  private array(depth: number): string {
    const text = this.text;
    this.i++;
    this.ws();
    if (text.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return "[]";
    }
    const parts: string[] = [];
    for (;;) {
      parts.push(this.value(depth + 1));
      this.ws();
      const d = text.charCodeAt(this.i++);
      if (d === 0x5d) break;
      if (d !== 0x2c) throw new NotCanonical();
    }
    return `[${parts.join(", ")}]`;
  }

  /** A literal as written, or a number as Python prints what it loaded (ints as digits, floats by repr). */
  private scalar(): string {
    const text = this.text;
    for (const lit of ["true", "false", "null", "NaN", "Infinity", "-Infinity"]) {
      if (text.startsWith(lit, this.i)) {
        this.i += lit.length;
        return lit;
      }
    }
    REDUMP_NUMBER.lastIndex = this.i;
    const m = REDUMP_NUMBER.exec(text);
    if (!m || m[0].length === 0) throw new NotCanonical();
    this.i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) return m[0] === "-0" ? "0" : m[0];
    return jsonFloat(Number(m[0]));
  }
}

/** Length of a valid UTF-8 sequence for a character ≥ U+0080 at `i` (no overlong form, no surrogate, ≤ U+10FFFF), or 0. */
function utf8SequenceLength(bytes: Uint8Array, i: number, end: number): number {
  const b0 = bytes[i];
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < end && bytes[i + k] >= lo && bytes[i + k] <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

const PLAIN = 0;
/** 0 for a byte that stands for itself inside a canonical string (printable ASCII but `"` and `\\`). */
const STRING_BYTE = (() => {
  const t = new Uint8Array(256).fill(1);
  for (let b = 0x20; b < 0x80; b++) if (b !== 0x22 && b !== 0x5c) t[b] = PLAIN;
  return t;
})();

/** Index past the ASCII digits from `k`. */
function digitsEnd(bytes: Uint8Array, k: number, end: number): number {
  while (k < end && bytes[k] >= 0x30 && bytes[k] <= 0x39) k++;
  return k;
}

/** Whether two byte ranges hold the same bytes. */
function sameBytes(bytes: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let k = 0; k < aEnd - a; k++) if (bytes[a + k] !== bytes[b + k]) return false;
  return true;
}

/**
 * The end of a string already in `json.dumps(..., ensure_ascii=False)` form starting at
 * the quote `bytes[i]`, or -1: only valid UTF-8, no raw control character, and only the
 * escapes json.dumps writes itself (`\\u` — which it writes only for control characters — and
 * `\\/` are declined: re-dumping may change them).
 */
function canonicalStringEnd(bytes: Uint8Array, i: number, end: number): number {
  i++;
  while (i < end) {
    // the long stretches of plain ASCII in one tight loop
    while (i < end && STRING_BYTE[bytes[i]] === PLAIN) i++;
    if (i >= end) return -1;
    const b = bytes[i];
    if (b === 0x22) return i + 1;
    if (b === 0x5c) {
      const e = bytes[i + 1];
      if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) i += 2;
      else return -1;
    } else if (b < 0x80)
      return -1; // a raw control character
    else {
      const n = utf8SequenceLength(bytes, i, end);
      if (n === 0) return -1;
      i += n;
    }
  }
  return -1;
}

/**
 * The end of a value already in `json.dumps(..., ensure_ascii=False)` form starting at
 * `bytes[i]`, or -1: strings as `canonicalStringEnd`
 * takes them; separators exactly `", "` and `": "`; numbers as Python prints them; no
 * object repeats a key (escapes left are one per character, so equal keys have equal bytes).
 */
function canonicalBytesEnd(bytes: Uint8Array, i: number, end: number, depth: number): number {
  if (depth > 500 || i >= end) return -1;
  const c = bytes[i];
  if (c === 0x22) return canonicalStringEnd(bytes, i, end);
  if (c === 0x7b || c === 0x5b) {
    const isObject = c === 0x7b;
    const close = isObject ? 0x7d : 0x5d;
    if (bytes[i + 1] === close) return i + 2;
    i++;
    let keys: number[] | null = null; // start, end of each key after the first
    let firstKey = -1;
    let firstKeyEnd = -1;
    for (;;) {
      if (isObject) {
        if (bytes[i] !== 0x22) return -1;
        const keyEnd = canonicalStringEnd(bytes, i, end);
        if (keyEnd < 0) return -1;
        if (firstKey < 0) {
          firstKey = i;
          firstKeyEnd = keyEnd;
        } else {
          if (sameBytes(bytes, firstKey, firstKeyEnd, i, keyEnd)) return -1;
          if (keys === null) keys = [];
          for (let k = 0; k < keys.length; k += 2) if (sameBytes(bytes, keys[k], keys[k + 1], i, keyEnd)) return -1;
          keys.push(i, keyEnd);
        }
        if (bytes[keyEnd] !== 0x3a || bytes[keyEnd + 1] !== 0x20) return -1;
        i = keyEnd + 2;
      }
      i = bytes[i] === 0x22 ? canonicalStringEnd(bytes, i, end) : canonicalBytesEnd(bytes, i, end, depth + 1);
      if (i < 0) return -1;
      const d = bytes[i];
      if (d === close) return i + 1;
      if (d !== 0x2c || bytes[i + 1] !== 0x20) return -1;
      i += 2;
    }
  }
  switch (c) {
    case 0x74: // true
      return bytes[i + 1] === 0x72 && bytes[i + 2] === 0x75 && bytes[i + 3] === 0x65 ? i + 4 : -1;
    case 0x66: // false
      return bytes[i + 1] === 0x61 && bytes[i + 2] === 0x6c && bytes[i + 3] === 0x73 && bytes[i + 4] === 0x65 ? i + 5 : -1;
    case 0x6e: // null
      return bytes[i + 1] === 0x75 && bytes[i + 2] === 0x6c && bytes[i + 3] === 0x6c ? i + 4 : -1;
    case 0x4e: // NaN
    case 0x49: // Infinity
      return literalEnd(bytes, i, c === 0x4e ? "NaN" : "Infinity");
  }
  if (c === 0x2d && bytes[i + 1] === 0x49) return literalEnd(bytes, i, "-Infinity");
  return canonicalNumberEnd(bytes, i, end);
}

/** Index past `word` at `i`, or -1. */
function literalEnd(bytes: Uint8Array, i: number, word: string): number {
  for (let k = 0; k < word.length; k++) if (bytes[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}

/**
 * Whether a fixed-notation float token (digits `[j, intEnd)`, `.`, digits `(intEnd, k)`) is what `repr` prints
 * for its value, decided without printing (null when undecided): a token of at most 15 significant digits has
 * exactly those digits in its `repr`, since 15 digits always survive a round trip. More in this folder's
 * README.md.
 */
function fixedFloatCanonical(bytes: Uint8Array, j: number, intEnd: number, k: number): boolean | null {
  const fracLen = k - intEnd - 1;
  if (bytes[k - 1] === 0x30 && fracLen > 1) return false; // `1.50`: repr has no trailing zero
  const intLen = intEnd - j;
  if (intLen > 15) return null;
  let significant: number;
  if (intLen === 1 && bytes[j] === 0x30) {
    let zeros = 0;
    while (zeros < fracLen && bytes[intEnd + 1 + zeros] === 0x30) zeros++;
    if (zeros === fracLen) return true; // `0.0`
    if (zeros >= 4) return false; // below 1e-4: repr uses an exponent
    significant = fracLen - zeros;
  } else significant = intLen + (fracLen === 1 && bytes[intEnd + 1] === 0x30 ? 0 : fracLen);
  return significant <= 15 ? true : null;
}

/** The end of a number as Python prints it (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)?`, floats by repr), or -1. */
function canonicalNumberEnd(bytes: Uint8Array, i: number, end: number): number {
  const c = bytes[i];
  let j = i;
  if (c === 0x2d) j++;
  const intEnd = digitsEnd(bytes, j, end);
  if (intEnd === j || (bytes[j] === 0x30 && intEnd > j + 1)) return -1;
  let k = intEnd;
  let isFloat = false;
  if (bytes[k] === 0x2e) {
    const fracEnd = digitsEnd(bytes, k + 1, end);
    if (fracEnd === k + 1) return -1;
    k = fracEnd;
    isFloat = true;
    if (bytes[k] !== 0x65 && bytes[k] !== 0x45) {
      const fixed = fixedFloatCanonical(bytes, j, intEnd, k);
      if (fixed !== null) return fixed ? k : -1;
    }
  }
  if (bytes[k] === 0x65 || bytes[k] === 0x45) {
    let e = k + 1;
    if (bytes[e] === 0x2b || bytes[e] === 0x2d) e++;
    const expEnd = digitsEnd(bytes, e, end);
    if (expEnd === e) return -1;
    k = expEnd;
    isFloat = true;
  }
  if (!isFloat) return (k - i === 2 && c === 0x2d && bytes[i + 1] === 0x30) || k - i > 4300 ? -1 : k;
  if (k - i > 40) return -1; // longer than any float repr: not canonical
  let token = "";
  for (let t = i; t < k; t++) token += String.fromCharCode(bytes[t]);
  return jsonFloat(Number(token)) === token ? k : -1;
}

/** Where one top-level value of a result line lies, and whether its bytes are already what the score file needs. */
export interface LineValueRange {
  readonly start: number;
  readonly end: number;
  /** True when the bytes are in `json.dumps(..., ensure_ascii=False)` form and can be copied; else re-dump the value's text. */
  readonly verbatim: boolean;
}

/**
 * The top-level values of a result line `bytes[start, end)` by key, as byte ranges scanned without decoding the
 * line, each marked verbatim when it can be copied as it is. Null when the line is not a plain JSON object; the
 * caller then takes the text path (`redumpTopLevel`). More in this folder's README.md.
 */
export function scoreLineRanges(bytes: Uint8Array, start: number, end: number): Map<string, LineValueRange> | null {
  const ws = (k: number): number => {
    while (k < end) {
      const b = bytes[k];
      if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) k++;
      else break;
    }
    return k;
  };
  let i = ws(start);
  if (bytes[i] !== 0x7b) return null;
  const out = new Map<string, LineValueRange>();
  i = ws(i + 1);
  if (bytes[i] === 0x7d) return ws(i + 1) === end ? out : null;
  for (;;) {
    if (bytes[i] !== 0x22) return null;
    let key = "";
    let k = i + 1;
    for (; k < end && bytes[k] !== 0x22; k++) {
      const b = bytes[k];
      if (b === 0x5c || b < 0x20 || b >= 0x80) return null; // an escaped or non-ASCII key: the text path decodes it
      key += String.fromCharCode(b);
    }
    if (k >= end || out.has(key)) return null;
    i = ws(k + 1);
    if (bytes[i] !== 0x3a) return null;
    i = ws(i + 1);
    const canonical = canonicalBytesEnd(bytes, i, end, 0);
    const valueEnd = canonical >= 0 ? canonical : skipValue(bytes, i, end);
    if (valueEnd <= i) return null;
    out.set(key, { start: i, end: valueEnd, verbatim: canonical >= 0 });
    i = ws(valueEnd);
    const d = bytes[i];
    if (d === 0x7d) return ws(i + 1) === end ? out : null;
    if (d !== 0x2c) return null;
    i = ws(i + 1);
  }
}

/**
 * `json.dumps(json.loads(text), ensure_ascii=False)` of one JSON value's text, or null when
 * it is not valid JSON or repeats a key (the caller then uses `json.loads` on the line).
 */
export function redumpValue(text: string): string | null {
  return redumpTopLevel(`{"v": ${text}}`)?.get("v") ?? null;
}

const UTF8_IN = new TextDecoder("utf-8");

/**
 * A result line's top-level values as score-file parts: byte ranges where they are already in
 * `json.dumps(..., ensure_ascii=False)` form, else re-dumped from the text. Null when the line is not a JSON
 * object, repeats a key or holds a value that is not JSON (the caller then uses `json.loads`). More in this
 * folder's README.md.
 */
export function scoreLineParts(bytes: Uint8Array, start: number, end: number): Map<string, RenderedJson | VerbatimJson> | null {
  const ranges = scoreLineRanges(bytes, start, end);
  if (ranges !== null) {
    const out = new Map<string, RenderedJson | VerbatimJson>();
    for (const [key, r] of ranges) {
      if (r.verbatim) {
        out.set(key, new VerbatimJson(bytes.subarray(r.start, r.end)));
        continue;
      }
      const text = redumpValue(UTF8_IN.decode(bytes.subarray(r.start, r.end)));
      if (text === null) return null;
      out.set(key, new RenderedJson(text));
    }
    return out;
  }
  // rare lines (escaped or non-ASCII top-level keys, text after the object): every value re-dumped
  const values = redumpTopLevel(UTF8_IN.decode(bytes.subarray(start, end)));
  if (values === null) return null;
  const out = new Map<string, RenderedJson | VerbatimJson>();
  for (const [key, text] of values) out.set(key, new RenderedJson(text));
  return out;
}

/** A value already rendered as score-file JSON text (spliced in verbatim by `failedEntryChunks`). */
export class RenderedJson {
  constructor(readonly text: string) {}
}

/** A value's UTF-8 bytes from the result file, already in the form the score file needs. */
export class VerbatimJson {
  constructor(readonly bytes: Uint8Array) {}
}
