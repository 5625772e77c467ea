/**
 * Reading and writing the files commands name. An interrupted write never leaves half a file (a temporary file,
 * then a rename), except where a rename would do harm (a device, a FIFO, a socket, a symbolic link); a command
 * never writes over one of its own input files. More in this folder's README.md.
 */
import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readlinkSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { err, ok, problem, type Problem, type Result } from "../messages/index.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";

/** A regular file's UTF-8 text, or null when there is none at `path` (missing, a folder, a FIFO …). */
export function readTextIfFile(path: string, fs: FileSystem = nodeFileSystem): string | null {
  return fs.exists(path) && fs.stat(path).isFile() ? fs.readText(path) : null;
}

/**
 * A problem when something other than a regular file is at `path` (links followed): a
 * FIFO with no writer would hang the read, `/dev/zero` would fill the memory. Null when
 * `path` is a regular file or nothing is there yet. `flag` names the option in the message.
 */
export function notRegularFile(path: string, flag: string, fs: FileSystem = nodeFileSystem): Problem | null {
  let stat;
  try {
    stat = fs.statIfAny(path);
  } catch (e) {
    return problem("file-unreadable", `${flag}: cannot read it (${reason(e)})`, { file: path });
  }
  if (stat === undefined || stat.isFile()) return null;
  const what = stat.isDirectory()
    ? "a folder"
    : stat.isFIFO()
      ? "a FIFO"
      : stat.isSocket()
        ? "a socket"
        : stat.isCharacterDevice() || stat.isBlockDevice()
          ? "a device"
          : "a special file";
  return problem("not-regular-file", `${flag} names ${what}, not a regular file`, { file: path });
}

/** The size of a text in bytes once written as UTF-8. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Check, before any work, that the folder an output file goes into exists. */
export function folderExists(file: string, fs: FileSystem = nodeFileSystem): Result<void> {
  const dir = dirname(file);
  return fs.exists(dir) && fs.stat(dir).isDirectory()
    ? ok(undefined)
    : err(problem("file-missing", "output folder does not exist", { file: dir }));
}

function reason(e: unknown): string {
  return e instanceof Error && "code" in e ? String((e as NodeJS.ErrnoException).code) : e instanceof Error ? e.message : String(e);
}

/** Make a folder (and its parents) for output; null when it exists or was made, else a failed result naming it. */
export function makeFolder(dir: string, fs: FileSystem = nodeFileSystem): Result<void> | null {
  try {
    fs.makeFolder(dir);
    return null;
  } catch (e) {
    return err(problem("write-failed", `cannot make the output folder (${reason(e)})`, { file: dir }));
  }
}

/** The real path of a file (links followed), or the path itself when it does not exist yet. */
export function realPathOf(path: string, fs: FileSystem = nodeFileSystem): string {
  try {
    return fs.realPath(path);
  } catch {
    return path;
  }
}

/**
 * A problem when writing `target` would replace one of `inputs` (compared after links are
 * followed), else null. Commands check this before they write.
 */
export function overwritesInput(
  target: string,
  inputs: Iterable<string>,
  flag: string,
  fs: FileSystem = nodeFileSystem,
): Result<void> | null {
  const real = realPathOf(target, fs);
  for (const input of inputs) {
    if (realPathOf(input, fs) === real)
      return err(problem("output-is-input", `${flag} names a file this command reads; refusing to write over it`, { file: target }));
  }
  return null;
}

/** The links the kernel follows before it gives up (Linux's limit; the shell says ELOOP past it). */
const MAX_LINK_HOPS = 40;

/**
 * The file a write to `path` lands on, as the shell's `>` finds it: every symbolic link is
 * followed, also one whose target does not exist yet (a relative target is read from the
 * link's own folder), so the target is created and the link stays. Null for a link loop.
 */
function linkTarget(path: string): string | null {
  let at = path;
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops++) {
    let link: string;
    try {
      if (!lstatSync(at).isSymbolicLink()) return at;
      link = readlinkSync(at);
    } catch {
      return at; // nothing there yet: the file to create
    }
    at = resolve(realPathOf(dirname(at)), link);
  }
  return null;
}

/**
 * Write text (or bytes) to `path`: a regular file (or a new one) atomically, through a
 * temporary file in the same folder and a rename; a link's target in its place; a device,
 * FIFO or socket by writing to it directly.
 */
export function writeFileAtomic(path: string, text: string | Uint8Array): Result<void> {
  const target = linkTarget(path);
  if (target === null) return err(problem("write-failed", "cannot write (ELOOP: too many levels of symbolic links)", { file: path }));
  let special = false;
  try {
    const s = statSync(target);
    if (s.isDirectory()) return err(problem("write-failed", "cannot write: it is a folder", { file: path }));
    special = !s.isFile();
  } catch {
    /* does not exist yet */
  }
  if (special) {
    let fd: number | null = null;
    try {
      fd = openSync(target, "w");
      const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
      return ok(undefined);
    } catch (e) {
      return err(problem("write-failed", `cannot write (${reason(e)})`, { file: path }));
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
  const dir = dirname(target);
  if (!existsSync(dir)) return err(problem("file-missing", "output folder does not exist", { file: dir }));
  const tmp = join(dir, `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, target);
    return ok(undefined);
  } catch (e) {
    try {
      if (existsSync(tmp)) unlinkSync(tmp);
    } catch {
      /* the temporary file is already gone */
    }
    return err(problem("write-failed", `cannot write: ${e instanceof Error ? e.message : String(e)}`, { file: path }));
  }
}
