/**
 * The file side of checking rollouts against their data: the package's manifests of every
 * BFCL version to compare them with, and the version a data folder holds. The recorded
 * turns are read by `app/recorded-turns.ts`; the comparison is `src/pairs/rollout-data.ts`.
 */
import type { BfclVersion } from "../bfcl/categories.js";
import { detectVersion } from "../bfcl/data.js";
import { bfclVersionInfo } from "../bfcl/versions.js";
import type { Manifest } from "../pairs/types.js";
import type { Result } from "../messages/index.js";
import { loadCommittedManifest } from "./manifest.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";

/** Manifests by BFCL version, read when first asked for (each is most of a megabyte of JSON to validate). */
export interface ManifestSource {
  /** The manifest of a version, or null when there is none. */
  get(version: BfclVersion): Manifest | null;
  /** Every version's manifest there is, in version order. */
  all(): Map<BfclVersion, Manifest>;
}

/** The package's manifests (`data/manifest*.json`), each read once when first needed; a missing or invalid file counts as none. */
export function committedManifestSource(load: (version: BfclVersion) => Result<Manifest> = loadCommittedManifest): ManifestSource {
  const cache = new Map<BfclVersion, Manifest | null>();
  const get = (version: BfclVersion): Manifest | null => {
    if (!cache.has(version)) {
      const loaded = load(version);
      cache.set(version, loaded.ok ? loaded.value : null);
    }
    return cache.get(version)!;
  };
  const all = () => {
    const out = new Map<BfclVersion, Manifest>();
    for (const { version } of Object.values(bfclVersionInfo)) {
      const m = get(version);
      if (m !== null) out.set(version, m);
    }
    return out;
  };
  return { get, all };
}

/** Every manifest the package ships, by version. */
export function committedManifests(): Map<BfclVersion, Manifest> {
  return committedManifestSource().all();
}

/** The BFCL version of a data folder, from its file names; null when it is not one. */
export function dataFolderVersion(dir: string, fs: FileSystem = nodeFileSystem): BfclVersion | null {
  try {
    const found = detectVersion(dir, fs.list(dir));
    return found.ok ? found.value : null;
  } catch {
    return null;
  }
}
