/**
 * The BFCL releases twinscore knows, with what tells them apart on disk. Adding a
 * version is a row here plus its data (a committed pair manifest built from it); the
 * file-name prefix (`BFCL_v3_…`, `BFCL_v4_…`) is the version id itself.
 */
import type { BfclVersion } from "./categories.js";

/** What twinscore records about one BFCL release. */
export interface BfclVersionInfo {
  readonly version: BfclVersion;
  /** How people name the release. */
  readonly release: string;
  /** The Gorilla commit whose data and checker define it. */
  readonly gorillaCommit: string;
  /** The package's pair manifest built from its data, under `data/`. */
  readonly manifestFile: string;
}

/** Every known version, keyed by id (a Record, so a new version cannot be half-added). */
export const bfclVersionInfo: Readonly<Record<BfclVersion, BfclVersionInfo>> = {
  v3: { version: "v3", release: "BFCL v3 final", gorillaCommit: "cd9429cc", manifestFile: "manifest-v3.json" },
  v4: { version: "v4", release: "BFCL v4 (bfcl-eval 2026.3.23)", gorillaCommit: "6ea57973", manifestFile: "manifest.json" },
};

/** The versions, oldest first (the order tables and messages list them in). */
export { bfclVersions } from "./categories.js";
