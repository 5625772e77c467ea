/**
 * Reading one BFCL result file fast: the file is streamed in small chunks, each line's
 * `id` is read first, and only lines whose id scoring asked for get their `result` slice
 * decoded (`src/bfcl/results.ts`); the rest of a line — mostly `inference_log` — is
 * skipped with a native newline search. Memory is one chunk plus the decoded results.
 */
import { isUtf8 } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";
import { decodeResultBytes, repeatedKeyMessage, scanLineHead, stoppedAfterTurn, type RecordedRollout } from "../bfcl/results.js";
import { firstInvalidUtf8, invalidUtf8Message } from "../bfcl/utf8.js";
import { isKnownItemId } from "../decision/score.js";
import { problem, type Problem } from "../messages/index.js";

/**
 * The read size, and the buffer's size until a longer line grows it. Small on purpose:
 * a 64 KB buffer stays in the CPU's cache between reads, so the kernel's copy, the
 * newline search and the line scans all hit cache; with a 4 MB buffer, reading and
 * splitting one model's three files (7 MB) took 20 ms instead of 3.5 ms on the project
 * machine (bench/RESULTS.md). A BFCL line is a few to a few hundred kB.
 */
const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

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
export function readResultFile(
  file: string,
  category: string,
  wanted: ReadonlyMap<string, number> | null,
  knownMissIds: ReadonlySet<string> | null = null,
  onLine?: LineVisitor,
): ResultFileReading {
  const rollouts = new Map<string, RecordedRollout>();
  const lineOf = new Map<string, number>();
  const problems: Problem[] = [];
  const ids = new Set<string>();
  let lines = 0;
  try {
    forEachLine(file, (bytes, start, end, line) => {
      if (isBlank(bytes, start, end)) return;
      lines++;
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
      if (decoded.kind === "inference-error") {
        const msg = decoded.message.length > 100 ? decoded.message.slice(0, 100) + "…" : decoded.message;
        problems.push(
          problem("inference-error", `${head.id}: result is an inference error, no decision: ${JSON.stringify(msg)}`, {
            file,
            line,
            severity: "warning",
          }),
        );
      }
      rollouts.set(head.id, decoded);
      lineOf.set(head.id, line);
    });
  } catch (e) {
    const why = readFailure(e);
    return { file, lines, distinctIds: 0, rollouts: new Map(), lineOf: new Map(), problems: [problem("file-unreadable", `cannot read result file (${why})`, { file })], readable: false };
  }
  return { file, lines, distinctIds: ids.size, rollouts, lineOf, problems, readable: true };
}

/**
 * The `result` text of each wanted id in a result file (the first line of a repeated id,
 * as scoring reads it), streamed with `forEachLine`: what BFCL's checker is run on, where
 * the whole `result` is needed (the scorer keeps only the turns it reads). Lines that are
 * malformed, not UTF-8, or whose `result` is not JSON are left out: the scorer reports them, and an
 * id without a line cannot be completed. With `stopped`, the ids of lines that
 * `run --until-anchor` stopped are put there with the turn they stopped after. Throws on
 * I/O errors, as `forEachLine` does.
 */
export function readResultTexts(file: string, wanted: ReadonlySet<string>, stopped?: Map<string, number>): Map<string, string> {
  const out = new Map<string, string>();
  const utf8 = new TextDecoder("utf-8");
  forEachLine(file, (bytes, start, end) => {
    if (invalidUtf8At(bytes, start, end) >= 0) return;
    const head = scanLineHead(bytes, start, end, true);
    if ("error" in head || !wanted.has(head.id) || out.has(head.id) || head.resultStart < 0) return;
    const after = stopped === undefined ? null : stoppedAfterTurn(utf8.decode(bytes.subarray(Math.max(start, end - 64), end)));
    if (after !== null) stopped?.set(head.id, after);
    const text = utf8.decode(bytes.subarray(head.resultStart, head.resultEnd));
    try {
      JSON.parse(text);
    } catch {
      return;
    }
    out.set(head.id, text);
  });
  return out;
}
