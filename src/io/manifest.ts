/**
 * The committed manifest on disk: loading it (scoring needs nothing else from BFCL) and
 * writing a rebuilt one atomically, so an interrupted write never leaves half a file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { err, ok, problem, type Result } from "../messages/index.js";
import type { BfclVersion } from "../bfcl/data.js";
import { bfclVersionInfo } from "../bfcl/versions.js";
import { parseManifest, renderManifest } from "../pairs/manifest-json.js";
import type { Manifest } from "../pairs/types.js";

export { parseManifest, renderManifest };

/** The package root, found by walking up to package.json (so it works from `src/io/` and from `dist/io/`). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, "package.json"))) return dir;
    dir = dirname(dir);
  }
  return resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
}

/** Path of the committed manifest of a BFCL version inside the package (default v4; works from `src/` and from `dist/`). */
export function committedManifestPath(version: BfclVersion = "v4"): string {
  return join(packageRoot(), "data", bfclVersionInfo[version].manifestFile);
}

/** Path of a committed certification file (`bad-keys.tsv`, `rulings.tsv`, `certified-content.tsv`). */
export function committedCertificationPath(name: "bad-keys.tsv" | "rulings.tsv" | "certified-content.tsv"): string {
  return join(packageRoot(), "data", "certification", name);
}

/** Path of any file shipped in the package's `data/` folder (the judge prompt, expected numbers). */
export function committedDataPath(...parts: string[]): string {
  return join(packageRoot(), "data", ...parts);
}

/** Read and validate a manifest file (default: the committed one). */
export function loadManifest(path = committedManifestPath()): Result<Manifest> {
  if (!existsSync(path)) return err(problem("file-missing", "manifest not found", { file: path }));
  return parseManifest(readFileSync(path, "utf8"), path);
}

/** A regular file's UTF-8 text, or null when there is none at `path` (missing, or a folder). */
export function readTextIfFile(path: string): string | null {
  return existsSync(path) && statSync(path).isFile() ? readFileSync(path, "utf8") : null;
}

/** The size of a text in bytes once written as UTF-8. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Check, before any work, that the folder an output file goes into exists. */
export function folderExists(file: string): Result<void> {
  const dir = dirname(file);
  return existsSync(dir) && statSync(dir).isDirectory() ? ok(undefined) : err(problem("file-missing", "output folder does not exist", { file: dir }));
}

/** Make a folder (and its parents) for output; null when it exists or was made, else a failed result naming it. */
export function makeFolder(dir: string): Result<void> | null {
  try {
    mkdirSync(dir, { recursive: true });
    return null;
  } catch (e) {
    const why = e instanceof Error && "code" in e ? String((e as NodeJS.ErrnoException).code) : e instanceof Error ? e.message : String(e);
    return err(problem("write-failed", `cannot make the output folder (${why})`, { file: dir }));
  }
}

/** Write text (or bytes) to `path` through a temporary file in the same folder and a rename. */
export function writeFileAtomic(path: string, text: string | Uint8Array): Result<void> {
  const dir = dirname(path);
  if (!existsSync(dir)) return err(problem("file-missing", "output folder does not exist", { file: dir }));
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
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

/** Write a manifest atomically in its one rendering. */
export function writeManifest(path: string, manifest: Manifest): Result<void> {
  return writeFileAtomic(path, renderManifest(manifest));
}
