/**
 * The file side of `twinscore run`: the result files it appends to, resumes from and rewrites in BFCL's order,
 * the lock that keeps a second run out of the same folder, and the places it reads BFCL's own texts from (the
 * data folder, the installation's prompt module). More in this folder's README.md.
 */
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { err, ok, problem, type Problem, type Result } from "../messages/index.js";
import { lineKeyOf, readResultLine, sniffResultLine, type LineReading } from "../rollout/lines.js";
import { findBfclEvalPackageDir } from "./bfcl-data.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";
import { readTextIfFile, writeFileAtomic } from "./manifest.js";

export { readTextIfFile, writeFileAtomic };

/** The one write call the result files go through; tests inject a failing one (a full disk) here. */
export interface ResultFileOps {
  writeSync(fd: number, bytes: Uint8Array, offset: number, length: number): number;
}

/** The write of a file system (default: the real one's). */
export function fileOpsOf(fs: FileSystem = nodeFileSystem): ResultFileOps {
  return { writeSync: (fd, bytes, offset, length) => fs.writeFrom(fd, bytes, offset, length) };
}

/** The real file system's write. */
export const realFileOps: ResultFileOps = fileOpsOf(nodeFileSystem);

const CHUNK = 1024 * 1024;

/**
 * Lines longer than this are not parsed whole: their id is read from their head, where
 * BFCL's writer puts it (they are copied byte for byte anyway). A real line is well under
 * a megabyte; the bound keeps a resume's memory small whatever a file holds.
 */
const PARSE_LIMIT = 16 * 1024 * 1024;

/** How much of a long line's head is kept to read its id, and of its end to read the keys twinscore adds last. */
const HEAD_BYTES = 4096;
const TAIL_BYTES = 4096;

/** One complete line of a result file, as the index holds it. */
export interface IndexedLine {
  /** 1-based line number. */
  readonly lineNo: number;
  /** Byte offset of the line's first byte, and its length in bytes, the newline included. */
  readonly offset: number;
  readonly length: number;
  readonly reading: LineReading;
}

/** What a result file holds, without its text. */
export interface ResultFileIndex {
  /** Every complete line that is not blank, in file order. */
  readonly lines: readonly IndexedLine[];
  /**
   * The last line of each id (a line appended later, a rerun of an error line, wins); a
   * `--history reference` line is keyed by its id and anchor (`lineKey`), since a base item
   * has one line per anchor.
   */
  readonly byKey: ReadonlyMap<string, IndexedLine>;
  /** Bytes up to the end of the last complete line. */
  readonly intactBytes: number;
  /** True when a torn tail (a line without its newline, left by a kill) follows. */
  readonly torn: boolean;
}

function describeError(e: unknown): string {
  const code = e instanceof Error && "code" in e ? String((e as NodeJS.ErrnoException).code) : null;
  if (code === "ENOSPC") return "no space left on the device (ENOSPC)";
  if (code === "EDQUOT") return "the disk quota is exhausted (EDQUOT)";
  if (code !== null) return `${code}${e instanceof Error ? `: ${e.message.replace(/^[A-Z]+: /, "")}` : ""}`;
  return e instanceof Error ? e.message : String(e);
}

function emptyIndex(): ResultFileIndex {
  return { lines: [], byKey: new Map(), intactBytes: 0, torn: false };
}

/** Read a file's lines into an index, 1 MiB at a time. A missing file is empty. */
export function scanResultFile(path: string, fs: FileSystem = nodeFileSystem): ResultFileIndex {
  if (!fs.exists(path)) return emptyIndex();
  const fd = fs.openRead(path);
  try {
    const index = new LineIndexer();
    const buf = Buffer.allocUnsafe(CHUNK);
    let pos = 0;
    for (;;) {
      const n = fs.readInto(fd, buf, 0, CHUNK, pos);
      if (n === 0) break;
      let from = 0;
      for (;;) {
        const nl = buf.indexOf(0x0a, from);
        const end = nl < 0 || nl >= n ? n : nl;
        index.add(buf.subarray(from, end));
        if (end === n) break;
        index.endLine(pos + nl + 1);
        from = nl + 1;
      }
      pos += n;
    }
    return index.done();
  } finally {
    fs.close(fd);
  }
}

/**
 * The lines of a file as its chunks arrive: the line being read is kept in pieces while it
 * may still be parsed whole, else only its head and its last bytes.
 */
class LineIndexer {
  private readonly lines: IndexedLine[] = [];
  private readonly byKey = new Map<string, IndexedLine>();
  private pieces: Buffer[] = [];
  private lineBytes = 0;
  private head: Buffer | null = null;
  private tail: Buffer = Buffer.alloc(0);
  private lineStart = 0;
  private lineNo = 0;

  /** A piece of the line being read (no newline in it). */
  add(part: Buffer): void {
    if (part.length === 0) return;
    if (this.head === null && this.lineBytes + part.length > PARSE_LIMIT) {
      // from here on only the head is kept: the pieces it spans are the first ones
      const first: Buffer[] = [];
      let kept = 0;
      for (const p of [...this.pieces, part]) {
        if (kept >= HEAD_BYTES) break;
        first.push(p.subarray(0, HEAD_BYTES - kept));
        kept += Math.min(p.length, HEAD_BYTES - kept);
      }
      this.head = Buffer.from(Buffer.concat(first, kept));
      this.pieces = [];
    } else if (this.head === null) this.pieces.push(Buffer.from(part));
    if (this.head !== null) this.tail = Buffer.from(Buffer.concat([this.tail, part]).subarray(-TAIL_BYTES));
    this.lineBytes += part.length;
  }

  /** The newline of the line being read; the next line starts at byte `next`. */
  endLine(next: number): void {
    this.finishLine();
    this.lineStart = next;
    this.pieces = [];
    this.lineBytes = 0;
    this.head = null;
    this.tail = Buffer.alloc(0);
  }

  private finishLine(): void {
    this.lineNo++;
    let reading: LineReading;
    if (this.head === null) {
      const text = (this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces, this.lineBytes)).toString("utf8");
      // a blank line carries nothing (and BFCL's json.loads of it raises): it is not kept
      if (text.trim() === "") return;
      reading = readResultLine(text);
    } else reading = sniffResultLine(this.head.toString("utf8"), this.tail.toString("utf8"));
    const line: IndexedLine = { lineNo: this.lineNo, offset: this.lineStart, length: this.lineBytes + 1, reading };
    this.lines.push(line);
    if (reading.kind === "result") this.byKey.set(lineKeyOf(reading), line);
  }

  /** The index; bytes after the last newline are a torn line, not indexed. */
  done(): ResultFileIndex {
    return { lines: this.lines, byKey: this.byKey, intactBytes: this.lineStart, torn: this.lineBytes > 0 };
  }
}

/**
 * Open a result file for resume: what it holds, with a torn last line cut off (the file
 * then ends with a newline or is empty). Creates nothing.
 */
export function openResultFile(path: string, fs: FileSystem = nodeFileSystem): Result<ResultFileIndex> {
  try {
    if (!fs.exists(path)) return ok(emptyIndex());
    if (!fs.stat(path).isFile()) return err(problem("not-a-file", "the result path exists and is not a regular file", { file: path }));
    const index = scanResultFile(path, fs);
    if (index.torn) fs.truncate(path, index.intactBytes);
    return ok({ ...index, torn: false });
  } catch (e) {
    return err(problem("write-failed", `cannot read for resume: ${describeError(e)}`, { file: path }));
  }
}

/**
 * Append one whole line, or nothing: when a write fails part-way (a full disk), the file
 * is cut back to its length before the line, so it never ends in a torn line.
 */
export function appendLine(path: string, text: string, ops?: ResultFileOps, fs: FileSystem = nodeFileSystem): Result<void> {
  const bytes = Buffer.from(text, "utf8");
  const write = ops ?? fileOpsOf(fs);
  let fd: number;
  try {
    fd = fs.openWrite(path, "a");
  } catch (e) {
    return err(problem("write-failed", `cannot open for appending: ${describeError(e)}`, { file: path }));
  }
  try {
    const before = fs.sizeOf(fd);
    try {
      for (let at = 0; at < bytes.length;) at += write.writeSync(fd, bytes, at, bytes.length - at);
      return ok(undefined);
    } catch (e) {
      let restored = true;
      try {
        fs.truncateOpen(fd, before);
      } catch {
        restored = false;
      }
      return err(
        problem(
          "write-failed",
          `cannot append a result line: ${describeError(e)}; ${restored ? "the file holds every line written before it, whole" : "the file could not be cut back: the next run cuts its torn last line"}`,
          { file: path },
        ),
      );
    }
  } finally {
    fs.close(fd);
  }
}

/** Make a folder for output (and its parents). */
export function makeOutputFolder(dir: string, fs: FileSystem = nodeFileSystem): Result<void> {
  try {
    fs.makeFolder(dir);
    return ok(undefined);
  } catch (e) {
    return err(problem("write-failed", `cannot make the output folder: ${describeError(e)}`, { file: dir }));
  }
}

/** Whether anything is at `path` (resume knows whether a run left a folder). */
export function pathExists(path: string, fs: FileSystem = nodeFileSystem): boolean {
  return fs.exists(path);
}

/** What a result file holds after the final rewrite. */
export interface RewrittenFile {
  readonly lines: number;
  /** Error lines among them. */
  readonly errors: number;
}

/**
 * Rewrite a result file in BFCL's order from what is on disk now: the last line of each id (and anchor),
 * sorted, then the lines with no id, byte for byte. Written through a temporary file that replaces it, so on
 * failure the file is as it was. More in this folder's README.md.
 */
export function rewriteSorted(
  path: string,
  compare: (a: string, b: string) => number,
  ops?: ResultFileOps,
  fs: FileSystem = nodeFileSystem,
): Result<RewrittenFile> {
  let target = path;
  try {
    if (fs.exists(path) && fs.isSymbolicLink(path)) target = fs.realPath(path);
  } catch {
    target = path;
  }
  let index: ResultFileIndex;
  try {
    index = scanResultFile(target, fs);
  } catch (e) {
    return err(problem("write-failed", `cannot read for the final rewrite: ${describeError(e)}`, { file: path }));
  }
  const order = sortedLines(index, compare);
  const errors = order.filter((l) => l.reading.kind === "result" && l.reading.isError).length;
  const summary = { lines: order.length, errors };
  const kept = order.reduce((n, l) => n + l.length, 0);
  const unchanged =
    !index.torn && kept === index.intactBytes && order.length === index.lines.length && order.every((l, i) => l === index.lines[i]);
  if (unchanged) return ok(summary);
  const copied = copyLines(target, order, ops ?? fileOpsOf(fs), fs);
  if (copied !== null)
    return err(
      problem(
        "write-failed",
        `cannot rewrite in BFCL's order: ${describeError(copied.error)}; the file is as it was (whole, not sorted: the next run sorts it)`,
        { file: path },
      ),
    );
  return ok(summary);
}

/** The last line of each key, by id as BFCL sorts, then a reference-history base item's lines by anchor, then a line's trials in order; then the lines without an id. */
function sortedLines(index: ResultFileIndex, compare: (a: string, b: string) => number): IndexedLine[] {
  const anchorOf = (l: IndexedLine) => (l.reading.kind === "result" ? (l.reading.anchorTurn ?? -1) : -1);
  const idOf = (l: IndexedLine) => (l.reading.kind === "result" ? l.reading.id : "");
  const trialOf = (l: IndexedLine) => (l.reading.kind === "result" ? (l.reading.trial ?? -1) : -1);
  const winners = [...index.byKey.values()].sort(
    (a, b) => compare(idOf(a), idOf(b)) || anchorOf(a) - anchorOf(b) || trialOf(a) - trialOf(b),
  );
  const others = index.lines.filter((l) => l.reading.kind === "other");
  return [...winners, ...others];
}

/** Copies `order`'s bytes into a temporary file that then replaces `target`; the error met, else null (the temporary file removed). */
function copyLines(target: string, order: readonly IndexedLine[], ops: ResultFileOps, fs: FileSystem): { error: unknown } | null {
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  let src: number | null = null;
  let out: number | null = null;
  try {
    src = fs.openRead(target);
    out = fs.openWrite(tmp, "w");
    const buf = Buffer.allocUnsafe(CHUNK);
    for (const l of order) {
      for (let done = 0; done < l.length;) {
        const n = fs.readInto(src, buf, 0, Math.min(CHUNK, l.length - done), l.offset + done);
        if (n === 0) throw new Error("the file got shorter while it was rewritten");
        for (let at = 0; at < n;) at += ops.writeSync(out, buf, at, n - at);
        done += n;
      }
    }
    fs.close(out);
    out = null;
    fs.rename(tmp, target);
    return null;
  } catch (e) {
    if (out !== null) fs.close(out);
    try {
      if (fs.exists(tmp)) fs.removeFile(tmp);
    } catch {
      /* the temporary file is already gone */
    }
    return { error: e };
  } finally {
    if (src !== null) fs.close(src);
  }
}

/** The temporary file of a final rewrite (`.<result file>.<pid>.<ms>.tmp`). */
const REWRITE_TEMPORARY = /^\.(BFCL_.+_result\.json)\.\d+\.\d+\.tmp$/;

/**
 * Remove what a final rewrite killed part-way (kill -9) left in a result folder: its
 * temporary file, as large as the result file. Called with the folder's lock held, so no
 * rewrite of a live run is touched. Returns the files removed.
 */
export function removeInterruptedRewrites(folder: string, fs: FileSystem = nodeFileSystem): Result<string[]> {
  const removed: string[] = [];
  try {
    if (!fs.exists(folder)) return ok(removed);
    for (const name of fs.list(folder)) {
      if (!REWRITE_TEMPORARY.test(name)) continue;
      const path = join(folder, name);
      if (fs.isSymbolicLink(path) || !fs.stat(path).isFile()) continue;
      fs.removeFile(path);
      removed.push(path);
    }
    return ok(removed);
  } catch (e) {
    return err(problem("write-failed", `cannot remove what an interrupted rewrite left: ${describeError(e)}`, { file: folder }));
  }
}

/** Who holds a run's lock. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** ISO time the holder started. */
  readonly started: string;
}

/** A held lock; `release` removes it (once; also on SIGINT/SIGTERM/SIGHUP). */
export interface RunLock {
  readonly file: string;
  release(): void;
  /**
   * Work to finish when a signal ends the run, before the lock goes: the final rewrite, so
   * that an interrupted `--retry-errors` leaves no id twice. It runs synchronously in the
   * signal's handler, between two of the run's own synchronous steps, so no line is half
   * appended then.
   */
  onInterrupt(finish: () => void): void;
}

/** The lock file of a result folder. */
export const LOCK_FILE_NAME = ".twinscore-run.lock";

function readHolder(file: string, fs: FileSystem): { text: string; holder: LockHolder | null } | null {
  let text: string;
  try {
    text = fs.readText(file);
  } catch {
    return null;
  }
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (typeof v.pid === "number" && typeof v.host === "string" && typeof v.started === "string")
      return { text, holder: { pid: v.pid, host: v.host, started: v.started } };
  } catch {
    /* not a lock this project wrote */
  }
  return { text, holder: null };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Take the lock of a result folder (made if missing): a file naming this process, created
 * with a hard link so it appears whole or not at all. Held by a live process (or one on
 * another host, which cannot be checked): refused, naming its pid, host and start time.
 * Left by a process of this host that is gone: taken over, and `staleFrom` names it.
 */
export function acquireRunLock(folder: string, fs: FileSystem = nodeFileSystem): Result<{ lock: RunLock; staleFrom: LockHolder | null }> {
  const made = makeOutputFolder(folder, fs);
  if (!made.ok) return made;
  const file = join(folder, LOCK_FILE_NAME);
  const me: LockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const text = `${JSON.stringify(me)}\n`;
  const taken = takeLockFile(folder, file, me, text, fs);
  if (!taken.ok) return taken;
  return ok({ lock: heldLock(file, text, fs), staleFrom: taken.value });
}

/**
 * Links a whole lock file into place; one left by a gone process of this host is taken
 * over (and returned), one of a live or unknown holder refuses.
 */
function takeLockFile(folder: string, file: string, me: LockHolder, text: string, fs: FileSystem): Result<LockHolder | null> {
  const tmp = join(folder, `${LOCK_FILE_NAME}.${process.pid}.${Date.now()}.tmp`);
  let staleFrom: LockHolder | null = null;
  try {
    fs.writeFile(tmp, text);
    for (let attempt = 0; ; attempt++) {
      try {
        fs.link(tmp, file);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw e;
      }
      const found = readHolder(file, fs);
      if (found === null) continue; // it went away in between: try again
      const h = found.holder;
      if (h === null)
        return err(
          problem(
            "output-locked",
            "a lock file is in the way and does not say which run holds it; if no twinscore run is writing this folder, remove it",
            { file },
          ),
        );
      if (h.host !== me.host || processAlive(h.pid)) {
        return err(
          problem(
            "output-locked",
            `another twinscore run is writing this folder: pid ${h.pid} on ${h.host}, started ${h.started}; wait for it to end, or, if that run is gone, remove the lock file`,
            { file },
          ),
        );
      }
      // left by a process of this host that is gone: take it over, unless it changed meanwhile
      const again = readHolder(file, fs);
      if (again !== null && again.text === found.text) fs.removeFile(file);
      staleFrom = h;
    }
  } catch (e) {
    return err(problem("write-failed", `cannot take the lock of the result folder: ${describeError(e)}`, { file }));
  } finally {
    try {
      fs.removeFile(tmp);
    } catch {
      /* already gone */
    }
  }
  return ok(staleFrom);
}

/** The lock once taken: released once (only while it is still ours), and on a signal after the finishing work. */
function heldLock(file: string, text: string, fs: FileSystem): RunLock {
  let released = false;
  const finishers: (() => void)[] = [];
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const onSignal = (signal: NodeJS.Signals): void => {
    for (const finish of finishers) {
      try {
        finish();
      } catch {
        /* the signal ends the run whatever the finishing work met: the next run completes it */
      }
    }
    release();
    process.kill(process.pid, signal);
  };
  const release = (): void => {
    if (released) return;
    released = true;
    for (const s of signals) process.removeListener(s, onSignal);
    const found = readHolder(file, fs);
    if (found !== null && found.text === text) {
      try {
        fs.removeFile(file);
      } catch {
        /* already gone */
      }
    }
  };
  for (const s of signals) process.once(s, onSignal);
  return { file, release, onInterrupt: (finish) => void finishers.push(finish) };
}

/** The lock problem as a warning, when a stale lock was taken over. */
export function staleLockWarning(file: string, h: LockHolder): Problem {
  return problem("stale-lock", `took over the lock left by pid ${h.pid} (started ${h.started}), which is no longer running`, {
    file,
    severity: "warning",
  });
}

/** BFCL's prompt module in the user's installation (`bfcl_eval/constants/default_prompts.py`), or null. */
export function findBfclPromptsFile(
  python = "python3",
  findPackage: (python: string) => string | null = findBfclEvalPackageDir,
  fs: FileSystem = nodeFileSystem,
): string | null {
  const pkg = findPackage(python);
  const file = pkg === null ? null : join(pkg, "constants", "default_prompts.py");
  return file !== null && fs.exists(file) ? file : null;
}
