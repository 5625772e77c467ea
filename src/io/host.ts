/**
 * The host a use case reaches files and the network through: `nodeHost` is the real one; a test gives one
 * over an in-memory file system (src/testing/memory-host.ts) and an HTTP stand-in, so each use case can be run
 * on bytes held in memory and shown to read nothing else. More in this folder's README.md.
 */
import { join } from "node:path";
import type { BfclData, BfclVersion, MultiTurnCategory } from "../bfcl/data.js";
import type { BfclFileKind, ScoredResultCategory } from "../bfcl/categories.js";
import type { Problem, Result } from "../messages/index.js";
import type { DataRevisions } from "../pairs/revisions.js";
import type { Manifest } from "../pairs/types.js";
import {
  findBfclEvalDataDir,
  findBfclEvalPackageDir,
  listDataFolder,
  missingDataFolder,
  readBfclDataDir,
  readCategoryTexts,
  resolveBfclDataDir,
  type BfclDataLocation,
  type CategoryTexts,
} from "./bfcl-data.js";
import { findLongContextModule, readLongContextText } from "./long-context.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";
import { folderExists, makeFolder, notRegularFile, overwritesInput, readTextIfFile } from "./files.js";
import {
  committedCertificationPath,
  committedManifestPath,
  committedRevisionsPath,
  loadCommittedManifest,
  loadCommittedRevisions,
  loadManifest,
  packageRoot,
  writeManifest,
} from "./manifest.js";
import { forEachLine, readFileBytes, readFileHead } from "./results-read.js";
import { readRunRecord, runRecordAbove, writeRunRecord } from "./run-record.js";
import {
  acquireRunLock,
  appendLine,
  findBfclPromptsFile,
  makeOutputFolder,
  openResultFile,
  removeInterruptedRewrites,
  rewriteSorted,
  scanResultFile,
  type LockHolder,
  type ResultFileIndex,
  type ResultFileOps,
  type RewrittenFile,
  type RunLock,
} from "./run-output.js";
import { readScoreFileText } from "./scores.js";
import { committedManifestSource, dataFolderVersion, type ManifestSource } from "./rollout-data.js";
import type { RunRecord } from "../rollout/run-record.js";
import { makeDemoDir, removeDemoDir, writeDemoRun } from "./results-demo.js";
import { appendJsonLine, endTornLine, readCacheEntry, readJsonLines, writeCacheEntry } from "./judge-client.js";
import { httpRequest, type HttpTransport } from "./http-transport.js";
import { scoreFoldersBeside, walkBfclTree, type TreeWalk } from "./tree.js";

/** File and network access, as the use cases ask for it; each method does what the io/ function of its name does. */
export interface Host {
  /** The folder the package's own `data/` (manifests, certification, expected numbers) is in. */
  readonly packageRoot: string;
  /** The file system under the methods, for an adapter a use case hands it to. */
  readonly files: FileSystem;
  /** How HTTP requests are sent (the run's and the judge's endpoints): node's sockets, or a test's stand-in. */
  readonly http: HttpTransport;

  readTextIfFile(path: string): string | null;
  notRegularFile(path: string, flag: string): Problem | null;
  folderExists(file: string): Result<void>;
  makeFolder(dir: string): Result<void> | null;
  writeFileAtomic(path: string, text: string | Uint8Array): Result<void>;
  overwritesInput(target: string, inputs: Iterable<string>, flag: string): Result<void> | null;

  committedManifestPath(version?: BfclVersion): string;
  committedCertificationPath(name: "bad-keys.tsv" | "rulings.tsv" | "certified-content.tsv"): string;
  committedRevisionsPath(version: BfclVersion): string;
  committedDataPath(...parts: string[]): string;
  loadManifest(path?: string): Result<Manifest>;
  loadCommittedManifest(version?: BfclVersion): Result<Manifest>;
  loadCommittedRevisions(version: BfclVersion): Result<DataRevisions> | null;
  writeManifest(path: string, manifest: Manifest): Result<void>;
  /** The package's manifests, each read once when first asked for. */
  committedManifestSource(): ManifestSource;
  readRunRecord(modelFolder: string): { record: RunRecord | null; problem: Problem | null };
  runRecordAbove(resultFile: string): RunRecord | null;
  readScoreFileText(path: string): { text: string } | { reason: string } | null;
  writeRunRecord(modelFolder: string, record: RunRecord): Problem | null;

  /** The result files of `run` (`io/run-output.ts`); `ops` replaces the write (a test's full disk). */
  scanResultFile(path: string): ResultFileIndex;
  openResultFile(path: string): Result<ResultFileIndex>;
  appendLine(path: string, text: string, ops?: ResultFileOps): Result<void>;
  rewriteSorted(path: string, compare: (a: string, b: string) => number, ops?: ResultFileOps): Result<RewrittenFile>;
  removeInterruptedRewrites(folder: string): Result<string[]>;
  makeOutputFolder(dir: string): Result<void>;
  acquireRunLock(folder: string): Result<{ lock: RunLock; staleFrom: LockHolder | null }>;
  /** BFCL's prompt module in the `bfcl_eval` installation the given Python finds, or null. */
  findBfclPromptsFile(python: string): string | null;

  /** `--bfcl-data`, else `BFCL_DATA_DIR`, else (unless `installed` is false) the data of the `bfcl_eval` Python finds. */
  resolveBfclDataDir(opts: {
    flag?: string;
    env: Record<string, string | undefined>;
    cwd: string;
    installed?: boolean;
  }): BfclDataLocation | null;
  missingDataFolder(dir: string): Problem | null;
  readBfclDataDir(dir: string, categories: readonly MultiTurnCategory[], onRead?: (file: string) => void): Result<BfclData>;
  readCategoryTexts(dataDir: string, version: BfclVersion, category: MultiTurnCategory): Result<CategoryTexts>;
  listDataFolder(dataDir: string): Result<string[]>;
  dataFolderVersion(dir: string): BfclVersion | null;
  findLongContextModule(opts: {
    flag?: string;
    env: Record<string, string | undefined>;
    cwd: string;
    dataDir?: string | null;
  }): string | null;
  readLongContextText(path: string): Result<string>;

  forEachLine(file: string, onLine: (bytes: Uint8Array, start: number, end: number, line: number) => void, maxLine?: number): void;
  readFileHead(file: string, enough: (lines: Uint8Array) => boolean): Uint8Array;
  readFileBytes(file: string): Uint8Array;

  walkBfclTree(dirs: readonly string[], cwd: string, kind: BfclFileKind): TreeWalk;
  scoreFoldersBeside(walk: TreeWalk): string[];

  makeDemoDir(keep: string | null): Result<string>;
  writeDemoRun(dir: string, policy: string, files: Readonly<Record<ScoredResultCategory, string>>): Result<string>;
  removeDemoDir(dir: string): void;

  readJsonLines(file: string): unknown[];
  endTornLine(file: string): void;
  appendJsonLine(file: string, value: unknown): void;
  readCacheEntry(dir: string, key: string): unknown;
  writeCacheEntry(dir: string, key: string, entry: unknown): void;
}

/** Where the `bfcl_eval` that Python finds keeps its data, asked only when an installation may be used. */
function installedData(
  opts: { env: Record<string, string | undefined>; installed?: boolean },
  findBfclEval: (python: string) => string | null,
): () => string | null {
  return () => (opts.installed === false ? null : findBfclEval(opts.env.TWINSCORE_PYTHON || "python3"));
}

/**
 * The host over a file system, with the package's `data/` under `root`; `findBfclEval`
 * answers where a Python `bfcl_eval` installation keeps its data, `findBfclEvalPackage`
 * where the package itself is (null: none); `http` sends HTTP requests (default: node's sockets).
 */
export function hostOn(
  fs: FileSystem,
  root: string,
  findBfclEval: (python: string) => string | null,
  findBfclEvalPackage: (python: string) => string | null = () => null,
  http: HttpTransport = httpRequest,
): Host {
  return {
    packageRoot: root,
    files: fs,
    http,
    readTextIfFile: (path) => readTextIfFile(path, fs),
    notRegularFile: (path, flag) => notRegularFile(path, flag, fs),
    folderExists: (file) => folderExists(file, fs),
    makeFolder: (dir) => makeFolder(dir, fs),
    writeFileAtomic: (path, text) => fs.writeFileAtomic(path, text),
    overwritesInput: (target, inputs, flag) => overwritesInput(target, inputs, flag, fs),

    committedManifestPath: (version) => committedManifestPath(version, root),
    committedCertificationPath: (name) => committedCertificationPath(name, root),
    committedRevisionsPath: (version) => committedRevisionsPath(version, root),
    committedDataPath: (...parts) => join(root, "data", ...parts),
    loadManifest: (path) => loadManifest(path ?? committedManifestPath("v4", root), fs),
    loadCommittedManifest: (version) => loadCommittedManifest(version, fs, root),
    loadCommittedRevisions: (version) => loadCommittedRevisions(version, fs, root),
    writeManifest: (path, manifest) => writeManifest(path, manifest, fs),
    committedManifestSource: () => committedManifestSource((version) => loadCommittedManifest(version, fs, root)),
    readRunRecord: (modelFolder) => readRunRecord(modelFolder, fs),
    runRecordAbove: (resultFile) => runRecordAbove(resultFile, fs),
    readScoreFileText: (path) => readScoreFileText(path, undefined, fs),
    writeRunRecord: (modelFolder, record) => writeRunRecord(modelFolder, record, fs),

    ...runOutputOn(fs, findBfclEvalPackage),

    resolveBfclDataDir: (opts) => resolveBfclDataDir({ ...opts, findPython: installedData(opts, findBfclEval) }),
    missingDataFolder: (dir) => missingDataFolder(dir, fs),
    readBfclDataDir: (dir, categories, onRead) => readBfclDataDir(dir, categories, onRead, fs),
    readCategoryTexts: (dataDir, version, category) => readCategoryTexts(dataDir, version, category, fs),
    listDataFolder: (dataDir) => listDataFolder(dataDir, fs),
    dataFolderVersion: (dir) => dataFolderVersion(dir, fs),
    findLongContextModule: (opts) => findLongContextModule({ ...opts, findPackage: findBfclEvalPackage, fs }),
    readLongContextText: (path) => readLongContextText(path, fs),

    forEachLine: (file, onLine, maxLine) => forEachLine(file, onLine, maxLine, fs),
    readFileHead: (file, enough) => readFileHead(file, enough, fs),
    readFileBytes: (file) => readFileBytes(file, fs),

    walkBfclTree: (dirs, cwd, kind) => walkBfclTree(dirs, cwd, kind, (dir) => fs.listEntries(dir), fs),
    scoreFoldersBeside: (walk) => scoreFoldersBeside(walk, fs),

    makeDemoDir: (keep) => makeDemoDir(keep, fs),
    writeDemoRun: (dir, policy, files) => writeDemoRun(dir, policy, files, fs),
    removeDemoDir: (dir) => removeDemoDir(dir, fs),

    ...judgeFilesOn(fs),
  };
}

/** The host's part that `run` writes its output folder through. */
type RunOutputHost = Pick<
  Host,
  | "scanResultFile"
  | "openResultFile"
  | "appendLine"
  | "rewriteSorted"
  | "removeInterruptedRewrites"
  | "makeOutputFolder"
  | "acquireRunLock"
  | "findBfclPromptsFile"
>;

/** `run`'s output folder over a file system: result files, their lock, and BFCL's prompts file. */
function runOutputOn(fs: FileSystem, findBfclEvalPackage: (python: string) => string | null): RunOutputHost {
  return {
    scanResultFile: (path) => scanResultFile(path, fs),
    openResultFile: (path) => openResultFile(path, fs),
    appendLine: (path, text, ops) => appendLine(path, text, ops, fs),
    rewriteSorted: (path, compare, ops) => rewriteSorted(path, compare, ops, fs),
    removeInterruptedRewrites: (folder) => removeInterruptedRewrites(folder, fs),
    makeOutputFolder: (dir) => makeOutputFolder(dir, fs),
    acquireRunLock: (folder) => acquireRunLock(folder, fs),
    findBfclPromptsFile: (python) => findBfclPromptsFile(python, findBfclEvalPackage, fs),
  };
}

/** The judge's labels file and reply cache over a file system. */
function judgeFilesOn(
  fs: FileSystem,
): Pick<Host, "readJsonLines" | "endTornLine" | "appendJsonLine" | "readCacheEntry" | "writeCacheEntry"> {
  return {
    readJsonLines: (file) => readJsonLines(file, fs),
    endTornLine: (file) => endTornLine(file, fs),
    appendJsonLine: (file, value) => appendJsonLine(file, value, fs),
    readCacheEntry: (dir, key) => readCacheEntry(dir, key, fs),
    writeCacheEntry: (dir, key, entry) => writeCacheEntry(dir, key, entry, fs),
  };
}

let nodeHostMade: Host | undefined;

/** The real host: node's file system, the installed package's data, `python3` asked for `bfcl_eval`. */
export function nodeHost(): Host {
  return (nodeHostMade ??= hostOn(nodeFileSystem, packageRoot(), findBfclEvalDataDir, findBfclEvalPackageDir));
}
