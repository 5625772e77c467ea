/**
 * An in-memory host for the use cases' own tests: the bytes of real folders (the BFCL
 * data and rollouts in ../shared, the package's data/) copied once into memory under
 * paths that do not exist on disk (`/memory/...`), so a use case that reached a file any
 * other way than through its host would find nothing there. Writes land in memory too.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { err, ok, problem } from "../messages/index.js";
import type { FileStat, FileSystem, FolderEntry } from "../io/file-system.js";
import { hostOn, type Host } from "../io/host.js";
import type { HttpTransport } from "../io/http-transport.js";
import { projectRoot, sharedPath } from "./shared.js";

/** The root every in-memory path is under; no such folder exists on disk. */
export const memoryRoot = "/memory";

/** Where the package's data/ folder is in memory (the host's package root holds it). */
export const memoryPackageRoot = join(memoryRoot, "package");

function failure(code: string, op: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${op} '${path}'`), { code });
}

function statOf(kind: "file" | "folder", size: number): FileStat {
  return {
    size,
    mtimeMs: 0,
    isFile: () => kind === "file",
    isDirectory: () => kind === "folder",
    isFIFO: () => false,
    isSocket: () => false,
    isCharacterDevice: () => false,
    isBlockDevice: () => false,
  };
}

/** A file system held in a map: files by absolute path, and the folders they are in. */
export class MemoryFileSystem implements FileSystem {
  readonly files = new Map<string, Uint8Array>();
  private readonly folders = new Map<string, Set<string>>([["/", new Set()]]);
  private temps = 0;
  /** Open files: the path, the position reached, and (one opened for reading) its bytes then. */
  private readonly open = new Map<number, { path: string; at: number; bytes: Uint8Array | null }>();
  private nextFd = 3;
  /** Every path read, in order (a test can say which files a use case opened). */
  readonly reads: string[] = [];

  /** Copy the files under a real folder (or one real file) into memory at `at`. */
  mount(real: string, at: string): this {
    const s = statSync(real);
    if (s.isFile()) this.put(at, readFileSync(real));
    else for (const name of readdirSync(real)) this.mount(join(real, name), join(at, name));
    if (s.isDirectory()) this.makeFolder(at);
    return this;
  }

  /** Put a file's bytes (or text) at `path`, making its folders. */
  put(path: string, data: string | Uint8Array): this {
    const abs = resolve(path);
    this.makeFolder(dirname(abs));
    this.folders.get(dirname(abs))!.add(abs.slice(dirname(abs).length).replace(/^\//, ""));
    this.files.set(abs, typeof data === "string" ? Buffer.from(data, "utf8") : data);
    return this;
  }

  exists(path: string): boolean {
    const abs = resolve(path);
    return this.files.has(abs) || this.folders.has(abs);
  }
  stat(path: string): FileStat {
    const s = this.statIfAny(path);
    if (s === undefined) throw failure("ENOENT", "stat", path);
    return s;
  }
  statIfAny(path: string): FileStat | undefined {
    const abs = resolve(path);
    const file = this.files.get(abs);
    if (file !== undefined) return statOf("file", file.length);
    return this.folders.has(abs) ? statOf("folder", 0) : undefined;
  }
  list(dir: string): string[] {
    const names = this.folders.get(resolve(dir));
    if (names === undefined) throw failure(this.files.has(resolve(dir)) ? "ENOTDIR" : "ENOENT", "scandir", dir);
    return [...names];
  }
  listEntries(dir: string): FolderEntry[] {
    return this.list(dir).map((name) => {
      const isFolder = this.folders.has(join(resolve(dir), name));
      return { name, isFile: () => !isFolder, isDirectory: () => isFolder, isSymbolicLink: () => false };
    });
  }
  readBytes(path: string): Uint8Array {
    const abs = resolve(path);
    const file = this.files.get(abs);
    if (file === undefined) throw failure(this.folders.has(abs) ? "EISDIR" : "ENOENT", "open", path);
    this.reads.push(abs);
    return file;
  }
  openRead(path: string): number {
    const fd = this.nextFd++;
    this.open.set(fd, { path: resolve(path), at: 0, bytes: this.readBytes(path) });
    return fd;
  }
  readInto(fd: number, buf: Uint8Array, offset: number, length: number, position?: number): number {
    const file = this.openFile(fd);
    const bytes = file.bytes ?? this.files.get(file.path) ?? new Uint8Array(0);
    const from = position ?? file.at;
    const part = bytes.subarray(from, from + length);
    buf.set(part, offset);
    if (position === undefined) file.at += part.length;
    return part.length;
  }
  openWrite(path: string, mode: "a" | "w"): number {
    const abs = resolve(path);
    if (mode === "w" || !this.files.has(abs)) this.writeFile(abs, new Uint8Array(0));
    const fd = this.nextFd++;
    this.open.set(fd, { path: abs, at: 0, bytes: null });
    return fd;
  }
  writeFrom(fd: number, bytes: Uint8Array, offset: number, length: number): number {
    const file = this.openFile(fd);
    if (file.bytes !== null) throw failure("EBADF", "write", String(fd));
    this.appendFile(file.path, bytes.slice(offset, offset + length));
    return length;
  }
  sizeOf(fd: number): number {
    const file = this.openFile(fd);
    return (file.bytes ?? this.files.get(file.path) ?? new Uint8Array(0)).length;
  }
  truncateOpen(fd: number, length: number): void {
    this.truncate(this.openFile(fd).path, length);
  }
  close(fd: number): void {
    this.open.delete(fd);
  }
  truncate(path: string, length: number): void {
    const bytes = this.files.get(resolve(path));
    if (bytes === undefined) throw failure("ENOENT", "open", path);
    this.files.set(resolve(path), bytes.slice(0, length));
  }
  isSymbolicLink(path: string): boolean {
    if (!this.exists(path)) throw failure("ENOENT", "lstat", path);
    return false;
  }
  link(existing: string, name: string): void {
    const bytes = this.files.get(resolve(existing));
    if (bytes === undefined) throw failure("ENOENT", "link", existing);
    if (this.exists(name)) throw failure("EEXIST", "link", name);
    this.writeFile(name, bytes);
  }
  removeFile(path: string): void {
    if (!this.files.has(resolve(path))) throw failure(this.folders.has(resolve(path)) ? "EISDIR" : "ENOENT", "unlink", path);
    this.remove(path);
  }
  private openFile(fd: number): { path: string; at: number; bytes: Uint8Array | null } {
    const file = this.open.get(fd);
    if (file === undefined) throw failure("EBADF", "read", String(fd));
    return file;
  }
  readText(path: string): string {
    const bytes = this.readBytes(path);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  }
  realPath(path: string): string {
    if (!this.exists(path)) throw failure("ENOENT", "realpath", path);
    return resolve(path);
  }
  readLink(path: string): string {
    throw failure("EINVAL", "readlink", path);
  }
  writeFile(path: string, data: string | Uint8Array): void {
    const abs = resolve(path);
    if (!this.folders.has(dirname(abs))) throw failure("ENOENT", "open", path);
    if (this.folders.has(abs)) throw failure("EISDIR", "open", path);
    this.put(abs, data);
  }
  appendFile(path: string, data: string | Uint8Array): void {
    const before = this.files.get(resolve(path));
    const more = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    this.writeFile(path, before === undefined ? more : Buffer.concat([before, more]));
  }
  rename(from: string, to: string): void {
    const bytes = this.files.get(resolve(from));
    if (bytes === undefined) throw failure("ENOENT", "rename", from);
    this.writeFile(to, bytes);
    this.remove(from);
  }
  writeFileAtomic(path: string, data: string | Uint8Array) {
    const abs = resolve(path);
    if (this.folders.has(abs)) return err(problem("write-failed", "cannot write: it is a folder", { file: path }));
    if (!this.folders.has(dirname(abs))) return err(problem("file-missing", "output folder does not exist", { file: dirname(abs) }));
    this.put(abs, data);
    return ok(undefined);
  }
  makeFolder(dir: string): void {
    const abs = resolve(dir);
    if (this.folders.has(abs)) return;
    if (this.files.has(abs)) throw failure("EEXIST", "mkdir", dir);
    this.makeFolder(dirname(abs));
    this.folders.get(dirname(abs))!.add(abs.slice(dirname(abs).length).replace(/^\//, ""));
    this.folders.set(abs, new Set());
  }
  makeTempFolder(prefix: string): string {
    const dir = join(memoryRoot, "tmp", `${prefix}${++this.temps}`);
    this.makeFolder(dir);
    return dir;
  }
  remove(path: string): void {
    const abs = resolve(path);
    for (const p of [...this.files.keys()]) if (p === abs || p.startsWith(abs + "/")) this.files.delete(p);
    for (const p of [...this.folders.keys()]) if (p === abs || p.startsWith(abs + "/")) this.folders.delete(p);
    this.folders.get(dirname(abs))?.delete(abs.slice(dirname(abs).length).replace(/^\//, ""));
  }
}

/** The in-memory host's network: none; a test that sends requests gives the host an HTTP stand-in (memory-http.ts). */
const noNetwork: HttpTransport = (url) =>
  Promise.reject(new Error(`the in-memory host has no network (a request to ${url}): give it an HTTP stand-in`));

/** An in-memory host and the file system under it. */
export interface MemoryHost {
  readonly host: Host;
  readonly files: MemoryFileSystem;
}

/**
 * A host over `files` with the package's data/ copied to `/memory/package/data`; no
 * `bfcl_eval` installation is found unless `bfclEval` names its data folder.
 */
export function memoryHost(files = new MemoryFileSystem(), bfclEval: string | null = null): MemoryHost {
  if (!files.exists(join(memoryPackageRoot, "data"))) files.mount(join(projectRoot, "data"), join(memoryPackageRoot, "data"));
  return {
    host: hostOn(
      files,
      memoryPackageRoot,
      () => bfclEval,
      () => null,
      noNetwork,
    ),
    files,
  };
}

/** Where ../shared is in the shared in-memory host. */
export const memoryShared = join(memoryRoot, "shared");

let sharedFiles: MemoryFileSystem | undefined;

/**
 * One in-memory copy of the real data the use cases' tests read — ../shared's BFCL data
 * (v4, v3), certification and gpt-oss rollouts — under `/memory/shared`, read from disk
 * once per test file. Each call gives a fresh host over a copy of it, so one test's
 * writes are not seen by the next.
 */
export function sharedMemoryHost(): MemoryHost {
  if (sharedFiles === undefined) {
    sharedFiles = new MemoryFileSystem();
    for (const part of ["bfcl-v4", "bfcl-v3", "certification", join("rollouts", "gpt-oss")])
      sharedFiles.mount(sharedPath(...part.split("/")), join(memoryShared, part));
    memoryHost(sharedFiles);
  }
  const copy = new MemoryFileSystem();
  for (const [path, bytes] of sharedFiles.files) copy.put(path, bytes);
  return memoryHost(copy);
}
