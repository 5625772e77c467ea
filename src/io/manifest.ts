/**
 * The committed manifest on disk: loading it (scoring needs nothing else from BFCL) and
 * writing a rebuilt one atomically, so an interrupted write never leaves half a file.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { err, ok, problem, type Result } from "../messages/index.js";
import { notRegularFile } from "./files.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";
import type { BfclVersion } from "../bfcl/data.js";
import { bfclVersionInfo } from "../bfcl/versions.js";
import { parseManifest, parsePackedManifest, renderManifest } from "../pairs/manifest-json.js";
import { parseDataRevisions, type DataRevisions } from "../pairs/revisions.js";
import type { Manifest } from "../pairs/types.js";

export { parseManifest, renderManifest };
// the file helpers moved to files.ts; these names stay for the modules that import them from here
export { byteLength, folderExists, makeFolder, readTextIfFile, writeFileAtomic } from "./files.js";

/**
 * The package root, found by walking up to the folder with package.json and data/ (so it
 * works from `src/io/`, `dist/io/` and the bin's `dist/bin/`, whose own package.json only
 * marks its files as CommonJS).
 */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "data"))) return dir;
    dir = dirname(dir);
  }
  return resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
}

/** The package root once found: it does not move while the process runs, and loading a committed manifest asks for it twice. */
let packageRootFound: string | undefined;
export const packageRoot = (): string => (packageRootFound ??= findPackageRoot());

/** Path of the committed manifest of a BFCL version inside the package (default v4; works from `src/` and from `dist/`). */
export function committedManifestPath(version: BfclVersion = "v4", root: string = packageRoot()): string {
  return join(root, "data", bfclVersionInfo[version].manifestFile);
}

/** Path of a committed certification file (`bad-keys.tsv`, `rulings.tsv`, `certified-content.tsv`). */
export function committedCertificationPath(
  name: "bad-keys.tsv" | "rulings.tsv" | "certified-content.tsv",
  root: string = packageRoot(),
): string {
  return join(root, "data", "certification", name);
}

/** Path of any file shipped in the package's `data/` folder (the judge prompt, expected numbers). */
export function committedDataPath(...parts: string[]): string {
  return join(packageRoot(), "data", ...parts);
}

/** Read and validate a manifest file (default: the committed one). */
export function loadManifest(path = committedManifestPath(), fs: FileSystem = nodeFileSystem): Result<Manifest> {
  if (!fs.exists(path)) return err(problem("file-missing", "manifest not found", { file: path }));
  const special = notRegularFile(path, "the manifest", fs);
  if (special !== null) return err(special);
  return parseManifest(fs.readText(path), path);
}

/** Where the build writes the packed form of a committed manifest (tools/pack-manifests.mjs): `dist/data/<its file name>`. */
export function packedManifestPath(version: BfclVersion = "v4", root: string = packageRoot()): string {
  return join(root, "dist", "data", bfclVersionInfo[version].manifestFile);
}

/**
 * The manifest in `packedPath` if it was packed from `sourcePath` as that file is now (not older, and of the
 * recorded byte length), else null: a packed file is a build product, and the committed file is always there to
 * fall back to. More in this folder's README.md.
 */
export function readPackedManifest(packedPath: string, sourcePath: string, fs: FileSystem = nodeFileSystem): Manifest | null {
  let text: string;
  let source: { size: number; mtimeMs: number };
  try {
    if (fs.stat(packedPath).mtimeMs < (source = fs.stat(sourcePath)).mtimeMs) return null;
    const bytes = fs.readBytes(packedPath);
    text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"); // ASCII by construction
  } catch {
    return null;
  }
  const packed = parsePackedManifest(text, packedPath);
  return packed.ok && packed.value.sourceBytes === source.size ? packed.value.manifest : null;
}

/**
 * The package's own manifest of a BFCL version, read without the schema check (a test
 * validates both committed files and rebuilds them byte for byte): from its packed form
 * when the build left one that matches it, which reads in a fraction of the time.
 */
export function loadCommittedManifest(
  version: BfclVersion = "v4",
  fs: FileSystem = nodeFileSystem,
  root: string = packageRoot(),
): Result<Manifest> {
  const path = committedManifestPath(version, root);
  const packed = readPackedManifest(packedManifestPath(version, root), path, fs);
  if (packed !== null) return ok(packed);
  if (!fs.exists(path)) return err(problem("file-missing", "manifest not found", { file: path }));
  return parseManifest(fs.readText(path), path, { validate: false });
}

/** Path of the committed record of a version's data commits since its release (tools/gen-data-revisions.py). */
export function committedRevisionsPath(version: BfclVersion, root: string = packageRoot()): string {
  return join(root, "data", `revisions-${version}.json`);
}

/** The package's revision record of a BFCL version; null when the package has none. */
export function loadCommittedRevisions(
  version: BfclVersion,
  fs: FileSystem = nodeFileSystem,
  root: string = packageRoot(),
): Result<DataRevisions> | null {
  const path = committedRevisionsPath(version, root);
  if (!fs.exists(path)) return null;
  return parseDataRevisions(fs.readText(path), path);
}

/** Write a manifest atomically in its one rendering. */
export function writeManifest(path: string, manifest: Manifest, fs: FileSystem = nodeFileSystem): Result<void> {
  return fs.writeFileAtomic(path, renderManifest(manifest));
}
