/**
 * The host a use case reaches files through: `nodeHost` is the real one; a test gives one over an in-memory
 * file system (src/testing/memory-host.ts), so each use case can be run on bytes held in memory and shown to
 * read nothing else. More in this folder's README.md.
 */
import { join } from "node:path";
import type { BfclData, BfclVersion, MultiTurnCategory } from "../bfcl/data.js";
import type { BfclFileKind, ScoredResultCategory } from "../bfcl/categories.js";
import type { Problem, Result } from "../messages/index.js";
import type { DataRevisions } from "../pairs/revisions.js";
import type { Manifest } from "../pairs/types.js";
import { findBfclEvalDataDir, missingDataFolder, readBfclDataDir, resolveBfclDataDir, type BfclDataLocation } from "./bfcl-data.js";
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
import { readRunRecord, runRecordAbove } from "./run-record.js";
import { readScoreFileText } from "./scores.js";
import { committedManifestSource, type ManifestSource } from "./rollout-data.js";
import type { RunRecord } from "../rollout/run-record.js";
import { makeDemoDir, removeDemoDir, writeDemoRun } from "./results-demo.js";
import { scoreFoldersBeside, walkBfclTree, type TreeWalk } from "./tree.js";

/** File access, as the use cases ask for it; each method does what the io/ function of its name does. */
export interface Host {
  /** The folder the package's own `data/` (manifests, certification, expected numbers) is in. */
  readonly packageRoot: string;
  /** The file system under the methods, for an adapter a use case hands it to. */
  readonly files: FileSystem;

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

  resolveBfclDataDir(opts: { flag?: string; env: Record<string, string | undefined>; cwd: string }): BfclDataLocation | null;
  missingDataFolder(dir: string): Problem | null;
  readBfclDataDir(dir: string, categories: readonly MultiTurnCategory[], onRead?: (file: string) => void): Result<BfclData>;

  forEachLine(file: string, onLine: (bytes: Uint8Array, start: number, end: number, line: number) => void, maxLine?: number): void;
  readFileHead(file: string, enough: (lines: Uint8Array) => boolean): Uint8Array;
  readFileBytes(file: string): Uint8Array;

  walkBfclTree(dirs: readonly string[], cwd: string, kind: BfclFileKind): TreeWalk;
  scoreFoldersBeside(walk: TreeWalk): string[];

  makeDemoDir(keep: string | null): Result<string>;
  writeDemoRun(dir: string, policy: string, files: Readonly<Record<ScoredResultCategory, string>>): Result<string>;
  removeDemoDir(dir: string): void;
}

/**
 * The host over a file system, with the package's `data/` under `root`; `findBfclEval`
 * answers where a Python `bfcl_eval` installation keeps its data (null: none).
 */
export function hostOn(fs: FileSystem, root: string, findBfclEval: (python: string) => string | null): Host {
  return {
    packageRoot: root,
    files: fs,
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

    resolveBfclDataDir: (opts) => resolveBfclDataDir({ ...opts, findPython: () => findBfclEval(opts.env.TWINSCORE_PYTHON || "python3") }),
    missingDataFolder: (dir) => missingDataFolder(dir, fs),
    readBfclDataDir: (dir, categories, onRead) => readBfclDataDir(dir, categories, onRead, fs),

    forEachLine: (file, onLine, maxLine) => forEachLine(file, onLine, maxLine, fs),
    readFileHead: (file, enough) => readFileHead(file, enough, fs),
    readFileBytes: (file) => readFileBytes(file, fs),

    walkBfclTree: (dirs, cwd, kind) => walkBfclTree(dirs, cwd, kind, (dir) => fs.listEntries(dir), fs),
    scoreFoldersBeside: (walk) => scoreFoldersBeside(walk, fs),

    makeDemoDir: (keep) => makeDemoDir(keep, fs),
    writeDemoRun: (dir, policy, files) => writeDemoRun(dir, policy, files, fs),
    removeDemoDir: (dir) => removeDemoDir(dir, fs),
  };
}

let nodeHostMade: Host | undefined;

/** The real host: node's file system, the installed package's data, `python3` asked for `bfcl_eval`. */
export function nodeHost(): Host {
  return (nodeHostMade ??= hostOn(nodeFileSystem, packageRoot(), findBfclEvalDataDir));
}
