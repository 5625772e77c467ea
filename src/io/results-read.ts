/**
 * Reading one BFCL result file fast: the file is streamed in small chunks, each line's
 * `id` is read first, and only lines whose id scoring asked for get their `result` slice
 * decoded (`src/bfcl/results.ts`); the rest of a line — mostly `inference_log` — is
 * skipped with a native newline search. Memory is one chunk plus the decoded results.
 */
import { isUtf8 } from "node:buffer";
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { decodeResultBytes, repeatedKeyMessage, scanLineHead, stoppedAfterTurn, type RecordedRollout } from "../bfcl/results.js";
import { firstInvalidUtf8, invalidUtf8Message } from "../bfcl/utf8.js";
import { isKnownItemId } from "../decision/score.js";
import { problem, type Problem } from "../messages/index.js";
import { PyDict } from "../python/containers.js";
import { jsonLoadsFast } from "../python/json.js";
import { openingMessageOf, USER_SIMULATOR_KEY } from "../rollout/user-sim.js";
import { INJECTED_KEY } from "../rollout/inject-check.js";

/**
 * The read size, and the buffer's size until a longer line grows it. Small on purpose:
 * a 64 KB buffer stays in the CPU's cache between reads, so the kernel's copy, the
 * newline search and the line scans all hit cache; with a 4 MB buffer, reading and
 * splitting one model's three files (7 MB) took 20 ms instead of 3.5 ms on the project
 * machine (bench/RESULTS.md). A BFCL line is a few to a few hundred kB.
 */
const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;
const QUOTE_BYTE = 0x22;

/** What was read from one result file. */
export interface ResultFileReading {
  readonly file: string;
  /** Non-blank lines. */
  readonly lines: number;
  /** Distinct ids of well-formed lines (the copy with the most wins when a file exists in several trees). */
  readonly distinctIds: number;
  /** The wanted rollouts found, by id. */
  readonly rollouts: Map<string, RecordedRollout>;
  /** 1-based line of each wanted id, for messages. */
  readonly lineOf: Map<string, number>;
  /** Line-level warnings (file:line) and, if the file cannot be read, one error. */
  readonly problems: Problem[];
  /** False when the file could not be opened or read. */
  readonly readable: boolean;
  /** With `FilePass.census`: every line's id and turn count. */
  readonly census: ResultCensus | null;
  /** With `FilePass.texts`: the `result` text of those ids (the first line of each, when it parses). */
  readonly texts: Map<string, string> | null;
  /** With `FilePass.wholeFile`: the file's bytes (BFCL's checker reads whole files). */
  readonly bytes: Uint8Array | null;
  /** With `FilePass.firstStepTokens`: each line's first step's input token count (`input_token_count[0][0]`), null where there is none. */
  readonly firstStepTokens: Map<string, number | null> | null;
  /** With `FilePass.openings`: the reply the simulated user answered, by id, of each interactive line. */
  readonly openings: Map<string, string> | null;
  /** With `FilePass.injected`: how many lines record an injected prompt block (`run --inject`). */
  readonly injectedLines: number | null;
}

/** Ids of a result file in line order and the number of turns each line recorded (null: an inference error). */
export interface ResultCensus {
  readonly file: string;
  readonly ids: string[];
  readonly turnCount: Map<string, number | null>;
  /** Lines `twinscore run --until-anchor` stopped after their anchor turn, with that turn (not in `turnCount`: short by design, not cut). */
  readonly stopped: Map<string, number>;
}

/** What one pass over a result file collects besides the lines scoring asks for. */
export interface FilePass {
  /** Each id scoring needs, with the turns to keep (anchor + 1); null only counts distinct ids. */
  readonly wanted: ReadonlyMap<string, number> | null;
  /** The manifest's should-ask ids: any other miss id is foreign (null accepts any). */
  readonly knownMissIds?: ReadonlySet<string> | null;
  /** Called with every line whose id can be read (the data check reads the same pass). */
  readonly onLine?: LineVisitor;
  /** Every line's id and turn count (the official companion's cross-check, the truncation count). */
  readonly census?: boolean;
  /** Ids whose whole `result` text to keep (what BFCL's checker and the replays run on). */
  readonly texts?: ReadonlySet<string>;
  /** Keep the file's bytes (read whole instead of streamed). */
  readonly wholeFile?: boolean;
  /** Each line's first step's input token count (the injection check of two arms). */
  readonly firstStepTokens?: boolean;
  /** The model's reply the simulated user answered, of each interactive line (`run --user-sim llm`). */
  readonly openings?: boolean;
  /** Count the lines that record an injected prompt block (`run --inject`: the injection check of two arms). */
  readonly injected?: boolean;
}

/**
 * The longest line read: far above any BFCL line (a long_context line with its whole
 * inference log is a few MB), far below what one buffer can hold. A longer "line" — a
 * corrupt or wrong file — makes the file unreadable, reported in one line.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/** The file holds a line longer than `MAX_LINE_BYTES` (thrown by `forEachLine`, reported by the readers). */
export class LineTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`a line longer than ${Math.round(limit / (1024 * 1024))} MB: not a BFCL result file`);
  }
}

/** One chunk-sized buffer shared by every read (a fresh buffer per file would start out of cache). */
let sharedBuffer: Buffer | null = null;

/**
 * Call `onLine(bytes, start, end, lineNumber)` for every line of `file` (without the newline).
 * The `bytes` view is only valid during the call. Throws on I/O errors and on a line
 * longer than `maxLine` bytes (`LineTooLongError`). Whatever happens, the next file
 * starts with a clean chunk-sized buffer: a buffer grown for one long line is dropped.
 */
export function forEachLine(file: string, onLine: (bytes: Uint8Array, start: number, end: number, line: number) => void, maxLine = MAX_LINE_BYTES): void {
  const fd = openSync(file, "r");
  // taken while in use, so a nested call (none today) would allocate its own
  const chunk = sharedBuffer ?? Buffer.allocUnsafe(CHUNK);
  sharedBuffer = null;
  let buf = chunk;
  try {
    let filled = 0;
    let lineNo = 0;
    for (;;) {
      if (filled === buf.length) {
        // one line longer than the buffer
        if (buf.length >= maxLine) throw new LineTooLongError(maxLine);
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxLine));
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const got = readSync(fd, buf, filled, Math.min(buf.length - filled, CHUNK * 16), null);
      const end = filled + got;
      let start = 0;
      for (;;) {
        const nl = buf.indexOf(NEWLINE, start);
        if (nl < 0 || nl >= end) break;
        lineNo++;
        onLine(buf, start, nl, lineNo);
        start = nl + 1;
      }
      if (got === 0) {
        if (start < end) {
          lineNo++;
          onLine(buf, start, end, lineNo);
        }
        return;
      }
      buf.copy(buf, 0, start, end);
      filled = end - start;
    }
  } finally {
    closeSync(fd);
    sharedBuffer = chunk;
  }
}

/** A read failure as a short reason: the system's error code, or the message. */
export function readFailure(e: unknown): string {
  if (e instanceof LineTooLongError) return e.message;
  return e instanceof Error && "code" in e ? String((e as NodeJS.ErrnoException).code) : e instanceof Error ? e.message : String(e);
}

/**
 * Where `bytes[start, end)` stops being UTF-8, or -1: Node's native check first (a memory
 * scan), the byte found only for a line that fails it.
 */
export function invalidUtf8At(bytes: Uint8Array, start: number, end: number): number {
  return isUtf8(bytes.subarray(start, end)) ? -1 : firstInvalidUtf8(bytes, start, end);
}

function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

/**
 * Called with every line whose id can be read (in file order, before any other check):
 * lets the data check read the same pass. The bytes are valid during the call only.
 */
export type LineVisitor = (id: string, bytes: Uint8Array, start: number, end: number) => void;

/**
 * Read `file`, a result file of `category`. `wanted` maps each id scoring needs to the
 * number of turns to keep (anchor + 1); pass null to only count distinct ids. Lines that
 * are malformed, carry an id that is not an item of the category the manifest knows
 * (`knownMissIds`; base ids up to BFCL's 200), repeat an id, or hold a result of the
 * wrong shape, or whose bytes are not UTF-8 (Python's strict codec refuses them, where a
 * lenient decoder would read replacement characters), become warnings with file:line and
 * are otherwise skipped; a line giving `id` or `result` twice is read by the last one, as
 * `json.loads` reads it, and warned about; a wanted id
 * whose result is an inference-error string is kept (a side with no decision) and reported.
 */
export function readResultFile(file: string, category: string, pass: FilePass): ResultFileReading {
  const { wanted, onLine } = pass;
  const knownMissIds = pass.knownMissIds ?? null;
  const rollouts = new Map<string, RecordedRollout>();
  const lineOf = new Map<string, number>();
  const problems: Problem[] = [];
  const ids = new Set<string>();
  const census: ResultCensus | null = pass.census ? { file, ids: [], turnCount: new Map(), stopped: new Map() } : null;
  const texts = pass.texts ? new Map<string, string>() : null;
  const tokens = pass.firstStepTokens ? new Map<string, number | null>() : null;
  const openings = pass.openings ? new Map<string, string>() : null;
  let injectedLines = pass.injected ? 0 : null;
  let whole: Uint8Array | null = null;
  let lines = 0;
  try {
    const visit = (bytes: Uint8Array, start: number, end: number, line: number): void => {
      if (isBlank(bytes, start, end)) return;
      lines++;
      if (census !== null) countLine(census, bytes, start, end, { file, line });
      if (texts !== null) keepText(texts, pass.texts!, bytes, start, end);
      if (tokens !== null) countFirstStepTokens(tokens, bytes, start, end);
      if (openings !== null) keepOpening(openings, bytes, start, end);
      if (injectedLines !== null && recordsInjection(bytes, start, end)) injectedLines++;
      // bytes that are not UTF-8 are not read as replacement characters: BFCL's reader stops on them
      const badByte = invalidUtf8At(bytes, start, end);
      if (badByte >= 0) {
        problems.push(problem("utf8-invalid", `${invalidUtf8Message(bytes, start, badByte)}; the line is skipped`, { file, line, severity: "warning" }));
        return;
      }
      // One scan of the line's top-level keys gives its id and where `result` is (the last
      // of each, as json.loads reads a repeated key); a line malformed after its id still
      // gives the id, and is reported only if scoring wants it.
      let head = scanLineHead(bytes, start, end, true);
      if ("error" in head) {
        problems.push(problem("json-malformed", head.error, { file, line, severity: "warning" }));
        return;
      }
      onLine?.(head.id, bytes, start, end);
      if (!isKnownItemId(head.id, category, knownMissIds)) {
        problems.push(
          problem("id-unknown", `id ${JSON.stringify(head.id)} is not a multi_turn_${category} item the manifest knows; line skipped`, {
            file,
            line,
            severity: "warning",
          }),
        );
        return;
      }
      if (ids.has(head.id)) {
        problems.push(problem("id-duplicate", `id ${head.id} appears again; the first line is used`, { file, line, severity: "warning" }));
        return;
      }
      ids.add(head.id);
      if (head.repeated.length > 0) problems.push(problem("key-repeated", repeatedKeyMessage(head), { file, line, severity: "warning" }));
      if (wanted === null) return;
      // every inference-error line is said, whichever pairs this command reads: a run reads the same in every command
      if (head.resultStart >= 0 && bytes[head.resultStart] === QUOTE_BYTE) {
        let message: unknown = null;
        try {
          message = JSON.parse(utf8Text.decode(bytes.subarray(head.resultStart, head.resultEnd)));
        } catch {
          // not a JSON string: the decoder reports it where the line is read
        }
        if (typeof message === "string") {
          const msg = message.length > 100 ? message.slice(0, 100) + "…" : message;
          problems.push(problem("inference-error", `${head.id}: result is an inference error, no decision: ${JSON.stringify(msg)}`, { file, line, severity: "warning" }));
        }
      }
      const keep = wanted.get(head.id);
      if (keep === undefined) return;
      if (head.resultStart < 0) {
        const malformed = scanLineHead(bytes, start, end, false);
        problems.push(problem("json-malformed", "error" in malformed ? malformed.error : "line has no `result`", { file, line, severity: "warning" }));
        return;
      }
      const decoded = decodeResultBytes(bytes, head, keep, { file, line });
      if ("code" in decoded) {
        problems.push({ ...decoded, severity: "warning" });
        return;
      }
      rollouts.set(head.id, decoded);
      lineOf.set(head.id, line);
    };
    if (pass.wholeFile) {
      whole = readFileBytes(file);
      forEachLineOf(whole, visit);
    } else forEachLine(file, visit);
  } catch (e) {
    const why = readFailure(e);
    const failed = { file, lines, distinctIds: 0, rollouts: new Map(), lineOf: new Map(), census: null, texts: null, bytes: null, firstStepTokens: null, openings: null, injectedLines: null };
    return { ...failed, problems: [problem("file-unreadable", `cannot read result file (${why})`, { file })], readable: false };
  }
  return { file, lines, distinctIds: ids.size, rollouts, lineOf, problems, readable: true, census, texts, bytes: whole, firstStepTokens: tokens, openings, injectedLines };
}

const utf8Text = new TextDecoder("utf-8");

/** The census of one line: its id (first line of an id wins), its turn count, or the turn `run --until-anchor` stopped after. */
function countLine(census: ResultCensus, bytes: Uint8Array, start: number, end: number, where: { file: string; line: number }): void {
  const head = scanLineHead(bytes, start, end, false);
  if ("error" in head) return; // the scorer reports malformed lines
  if (census.turnCount.has(head.id) || census.stopped.has(head.id)) return;
  census.ids.push(head.id);
  const after = stoppedAfterTurn(utf8Text.decode(bytes.subarray(Math.max(start, end - 64), end)));
  if (after !== null) {
    census.stopped.set(head.id, after);
    return;
  }
  const decoded = decodeResultBytes(bytes, head, 0, where);
  census.turnCount.set(head.id, "code" in decoded || decoded.kind !== "turns" ? null : decoded.turnCount);
}

/** Keep the `result` text of a wanted id's first line, when the line is UTF-8 and the text parses (else the scorer reports it). */
function keepText(texts: Map<string, string>, wanted: ReadonlySet<string>, bytes: Uint8Array, start: number, end: number): void {
  if (invalidUtf8At(bytes, start, end) >= 0) return;
  const head = scanLineHead(bytes, start, end, true);
  if ("error" in head || !wanted.has(head.id) || texts.has(head.id) || head.resultStart < 0) return;
  const text = utf8Text.decode(bytes.subarray(head.resultStart, head.resultEnd));
  try {
    JSON.parse(text);
  } catch {
    return;
  }
  texts.set(head.id, text);
}

const TOKENS_KEY = Buffer.from('"input_token_count"');
const FIRST_COUNT = /^\s*:\s*\[\s*\[\s*(\d+)/;

/** The first step's input token count of a line's first occurrence of its id (null for a line without one: an error line). */
function countFirstStepTokens(tokens: Map<string, number | null>, bytes: Uint8Array, start: number, end: number): void {
  const head = scanLineHead(bytes, start, end, true);
  if ("error" in head || tokens.has(head.id)) return;
  const at = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).indexOf(TOKENS_KEY);
  const m = at < 0 ? null : FIRST_COUNT.exec(utf8Text.decode(bytes.subarray(start + at + TOKENS_KEY.length, Math.min(end, start + at + TOKENS_KEY.length + 40))));
  tokens.set(head.id, m === null ? null : Number(m[1]));
}

const INJECTION_KEY = Buffer.from(`"${INJECTED_KEY}"`);

/** Whether a line carries the key `run --inject` writes (as a key: not the same text inside a string, where its quotes are escaped). */
function recordsInjection(bytes: Uint8Array, start: number, end: number): boolean {
  const line = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);
  for (let at = line.indexOf(INJECTION_KEY); at >= 0; at = line.indexOf(INJECTION_KEY, at + 1)) {
    if (at > 0 && line[at - 1] !== 0x5c) return true;
  }
  return false;
}

const SIMULATOR_KEY = Buffer.from(`"${USER_SIMULATOR_KEY}"`);

/** The reply the simulated user answered, of an interactive line (parsed only when the line carries the simulator's key). */
function keepOpening(openings: Map<string, string>, bytes: Uint8Array, start: number, end: number): void {
  if (Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).indexOf(SIMULATOR_KEY) < 0) return;
  let line;
  try {
    line = jsonLoadsFast(utf8Text.decode(bytes.subarray(start, end)));
  } catch {
    return;
  }
  const id = line instanceof PyDict ? line.get("id") : undefined;
  const message = openingMessageOf(line);
  if (typeof id === "string" && message !== null && !openings.has(id)) openings.set(id, message);
}

/** The largest result file read whole: far above any BFCL result file, far below what a buffer can hold. */
export const MAX_WHOLE_FILE_BYTES = 1024 * 1024 * 1024;

/** A file's bytes, read whole (BFCL's checker needs every line at once). Throws on I/O errors and past `MAX_WHOLE_FILE_BYTES`. */
export function readFileBytes(file: string): Uint8Array {
  const size = statSync(file).size;
  if (size > MAX_WHOLE_FILE_BYTES) throw new Error(`file of ${Math.round(size / (1024 * 1024))} MB: more than the ${MAX_WHOLE_FILE_BYTES / (1024 * 1024)} MB a BFCL result file can be`);
  return readFileSync(file);
}

/** Call `onLine(bytes, start, end, lineNumber)` for every line of bytes already read (without the newline). */
export function forEachLineOf(bytes: Uint8Array, onLine: (bytes: Uint8Array, start: number, end: number, line: number) => void, maxLine = MAX_LINE_BYTES): void {
  let start = 0;
  let lineNo = 0;
  while (start < bytes.length) {
    let nl = bytes.indexOf(NEWLINE, start);
    if (nl < 0) nl = bytes.length;
    if (nl - start > maxLine) throw new LineTooLongError(maxLine);
    lineNo++;
    onLine(bytes, start, nl, lineNo);
    start = nl + 1;
  }
}

/**
 * The first lines of a file, read in chunks until `enough(lines)` says so or the file
 * ends: what decoder detection samples, without reading the rest. The bytes end at a
 * line's end (or the file's). Throws on I/O errors and on a line longer than `MAX_LINE_BYTES`.
 */
export function readFileHead(file: string, enough: (lines: Uint8Array) => boolean): Uint8Array {
  const fd = openSync(file, "r");
  try {
    let buf = Buffer.allocUnsafe(CHUNK * 4);
    let filled = 0;
    for (;;) {
      if (filled === buf.length) {
        if (buf.length >= MAX_LINE_BYTES) throw new LineTooLongError(MAX_LINE_BYTES);
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, MAX_LINE_BYTES));
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const got = readSync(fd, buf, filled, buf.length - filled, null);
      filled += got;
      if (got === 0) return buf.subarray(0, filled);
      const lastNewline = buf.lastIndexOf(NEWLINE, filled - 1);
      if (lastNewline >= 0 && enough(buf.subarray(0, lastNewline + 1))) return buf.subarray(0, lastNewline + 1);
    }
  } finally {
    closeSync(fd);
  }
}
