/**
 * The few file-system calls io/'s adapters make, as one object: node's, or an in-memory
 * one a test gives (src/testing/memory-host.ts). The adapters keep their logic (links
 * followed, writes atomic, problems worded) and only reach files through this, so a use
 * case given an in-memory host runs the same adapter code on bytes held in memory.
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Result } from "../messages/index.js";
import { writeFileAtomic } from "./files.js";

/** What a stat says of a path (links followed), as node's Stats says it. */
export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/** One entry of a folder listing, as node's Dirent says it. */
export interface FolderEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The file-system calls the adapters make; each throws as node's does (an Error with a `code`: ENOENT, EACCES, …). */
export interface FileSystem {
  exists(path: string): boolean;
  stat(path: string): FileStat;
  /** What a stat says, or undefined when nothing is there (node's `throwIfNoEntry: false`). */
  statIfAny(path: string): FileStat | undefined;
  /** The names in a folder. */
  list(dir: string): string[];
  /** The entries of a folder, with their kinds. */
  listEntries(dir: string): FolderEntry[];
  readBytes(path: string): Uint8Array;
  /** Open a file for reading in chunks: its descriptor. */
  openRead(path: string): number;
  /**
   * Read up to `length` bytes into `buf` from `offset`: at the descriptor's position, or at byte `position` of the
   * file (the position then stays); how many were read (0 at the end).
   */
  readInto(fd: number, buf: Uint8Array, offset: number, length: number, position?: number): number;
  /** Open a file for writing, made when missing: `a` appends, `w` empties it first. Its descriptor. */
  openWrite(path: string, mode: "a" | "w"): number;
  /** Write up to `length` bytes of `bytes` from `offset` at the descriptor; how many were written. */
  writeFrom(fd: number, bytes: Uint8Array, offset: number, length: number): number;
  /** The size of an open file. */
  sizeOf(fd: number): number;
  /** Cut an open file back to `length` bytes. */
  truncateOpen(fd: number, length: number): void;
  close(fd: number): void;
  /** Cut a file back to `length` bytes. */
  truncate(path: string, length: number): void;
  /** Whether the path itself is a symbolic link (not followed). */
  isSymbolicLink(path: string): boolean;
  /** Give the file at `existing` a second name; throws EEXIST when `name` is taken (the lock relies on it). */
  link(existing: string, name: string): void;
  /** Remove one file (throws ENOENT when it is gone). */
  removeFile(path: string): void;
  readText(path: string): string;
  realPath(path: string): string;
  readLink(path: string): string;
  /** Write a file in place. */
  writeFile(path: string, data: string | Uint8Array): void;
  /** Add to the end of a file (made when missing). */
  appendFile(path: string, data: string | Uint8Array): void;
  /** Move a file over another (node's rename: atomic on one file system). */
  rename(from: string, to: string): void;
  /** Write a file so an interrupted write never leaves half of it (see `io/files.ts`). */
  writeFileAtomic(path: string, data: string | Uint8Array): Result<void>;
  /** Make a folder and its parents. */
  makeFolder(dir: string): void;
  /** Make a fresh temporary folder whose name starts with `prefix`; its path. */
  makeTempFolder(prefix: string): string;
  /** Remove a folder and everything in it (nothing when it is gone). */
  remove(path: string): void;
}

/** Node's file system. */
export const nodeFileSystem: FileSystem = {
  exists: (path) => existsSync(path),
  stat: (path) => statSync(path),
  statIfAny: (path) => statSync(path, { throwIfNoEntry: false }),
  list: (dir) => readdirSync(dir),
  listEntries: (dir) => readdirSync(dir, { withFileTypes: true }),
  readBytes: (path) => readFileSync(path),
  openRead: (path) => openSync(path, "r"),
  readInto: (fd, buf, offset, length, position) => readSync(fd, buf, offset, length, position ?? null),
  openWrite: (path, mode) => openSync(path, mode),
  writeFrom: (fd, bytes, offset, length) => writeSync(fd, bytes, offset, length),
  sizeOf: (fd) => fstatSync(fd).size,
  truncateOpen: (fd, length) => ftruncateSync(fd, length),
  close: (fd) => closeSync(fd),
  truncate: (path, length) => truncateSync(path, length),
  isSymbolicLink: (path) => lstatSync(path).isSymbolicLink(),
  link: (existing, name) => linkSync(existing, name),
  removeFile: (path) => unlinkSync(path),
  readText: (path) => readFileSync(path, "utf8"),
  realPath: (path) => realpathSync(path),
  readLink: (path) => readlinkSync(path),
  writeFile: (path, data) => writeFileSync(path, data),
  appendFile: (path, data) => appendFileSync(path, data),
  rename: (from, to) => renameSync(from, to),
  writeFileAtomic: (path, data) => writeFileAtomic(path, data),
  makeFolder: (dir) => void mkdirSync(dir, { recursive: true }),
  makeTempFolder: (prefix) => mkdtempSync(join(tmpdir(), prefix)),
  remove: (path) => rmSync(path, { recursive: true, force: true }),
};
