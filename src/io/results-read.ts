/**
 * Reading BFCL result files fast, line by line: a file is streamed in small chunks and
 * each line handed over as a byte range (found with a native newline search), so a
 * reader can skip what it does not need — mostly `inference_log` — without decoding it.
 * What a line means to scoring is the reader's (`app/result-lines.ts`).
 */
import { isUtf8 } from "node:buffer";
import { firstInvalidUtf8 } from "../bfcl/utf8.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";

/**
 * The read size, and the buffer's size until a longer line grows it. Small on purpose: a 64 KB buffer stays in the
 * CPU's cache between reads, which made reading one model's files several times faster than 4 MB did. More in this
 * folder's README.md.
 */
const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

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
export function forEachLine(
  file: string,
  onLine: (bytes: Uint8Array, start: number, end: number, line: number) => void,
  maxLine = MAX_LINE_BYTES,
  fs: FileSystem = nodeFileSystem,
): void {
  const fd = fs.openRead(file);
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
      const got = fs.readInto(fd, buf, filled, Math.min(buf.length - filled, CHUNK * 16));
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
    fs.close(fd);
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

/** The largest result file read whole: far above any BFCL result file, far below what a buffer can hold. */
export const MAX_WHOLE_FILE_BYTES = 1024 * 1024 * 1024;

/** A file's bytes, read whole (BFCL's checker needs every line at once). Throws on I/O errors and past `MAX_WHOLE_FILE_BYTES`. */
export function readFileBytes(file: string, fs: FileSystem = nodeFileSystem): Uint8Array {
  const size = fs.stat(file).size;
  if (size > MAX_WHOLE_FILE_BYTES)
    throw new Error(
      `file of ${Math.round(size / (1024 * 1024))} MB: more than the ${MAX_WHOLE_FILE_BYTES / (1024 * 1024)} MB a BFCL result file can be`,
    );
  return fs.readBytes(file);
}

/** Call `onLine(bytes, start, end, lineNumber)` for every line of bytes already read (without the newline). */
export function forEachLineOf(
  bytes: Uint8Array,
  onLine: (bytes: Uint8Array, start: number, end: number, line: number) => void,
  maxLine = MAX_LINE_BYTES,
): void {
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
export function readFileHead(file: string, enough: (lines: Uint8Array) => boolean, fs: FileSystem = nodeFileSystem): Uint8Array {
  const fd = fs.openRead(file);
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
      const got = fs.readInto(fd, buf, filled, buf.length - filled);
      filled += got;
      if (got === 0) return buf.subarray(0, filled);
      const lastNewline = buf.lastIndexOf(NEWLINE, filled - 1);
      if (lastNewline >= 0 && enough(buf.subarray(0, lastNewline + 1))) return buf.subarray(0, lastNewline + 1);
    }
  } finally {
    fs.close(fd);
  }
}

/**
 * The longest stretch searched byte by byte: below it a loop is faster than making the
 * view a native search needs (the mode at a line's end is looked for on every line).
 */
const SHORT_SEARCH = 256;

/** Whether `pattern` is at `bytes[at]`. */
function patternAt(bytes: Uint8Array, pattern: Uint8Array, at: number): boolean {
  for (let k = 0; k < pattern.length; k++) if (bytes[at + k] !== pattern[k]) return false;
  return true;
}

/** Where the last `pattern` within `bytes[from, to)` starts (-1: nowhere), by a native search of the bytes past a short stretch. */
export function lastIndexOfBytes(bytes: Uint8Array, pattern: Uint8Array, from: number, to: number): number {
  if (to - from <= SHORT_SEARCH) {
    for (let at = to - pattern.length; at >= from; at--) if (patternAt(bytes, pattern, at)) return at;
    return -1;
  }
  const at = Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).lastIndexOf(pattern);
  return at < 0 ? -1 : from + at;
}

/** Where the first `pattern` within `bytes[from, to)` starts (-1: nowhere), by a native search of the bytes past a short stretch. */
export function indexOfBytes(bytes: Uint8Array, pattern: Uint8Array, from: number, to: number): number {
  if (to - from <= SHORT_SEARCH) {
    for (let at = from; at + pattern.length <= to; at++) if (patternAt(bytes, pattern, at)) return at;
    return -1;
  }
  const at = Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).indexOf(pattern);
  return at < 0 ? -1 : from + at;
}

const compareBytes = Buffer.prototype.compare;

/** Whether `a[aFrom, aFrom + length)` and `b[bFrom, bFrom + length)` hold the same bytes, by a native comparison. */
export function sameBytes(a: Uint8Array, aFrom: number, b: Uint8Array, bFrom: number, length: number): boolean {
  // `compare` with offsets makes no view of either side: the data check asks this of every line
  return length <= 0 || compareBytes.call(a, b, bFrom, bFrom + length, aFrom, aFrom + length) === 0;
}
