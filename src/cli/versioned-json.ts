/**
 * Every `--format json` document as printed: the command's document under three keys that
 * say what made it — `schemaVersion` (the layout of the shipped JSON Schema,
 * `data/schemas/<command>.schema.json`), the twinscore version, and the sha256 of the pair
 * manifest(s) it was scored on — so a document can be checked and compared later.
 */
import { TWINSCORE_VERSION } from "../messages/version.js";
import { manifestSha256 } from "../pairs/digest.js";
import { loadCommittedManifest, loadManifest } from "../io/manifest.js";
import { resolvePath } from "../io/paths.js";
import { renderJson } from "../report/printout.js";

/** The layout version of the JSON documents (the shipped schemas' `schemaVersion`). */
export const JSON_SCHEMA_VERSION = 1;

/**
 * The manifests' digests: the one `--manifest` forced, else the package's manifest of each
 * BFCL version (`v4`, `v3`) the readers put result files on; `run` records its own.
 */
export function manifestDigests(forced?: { readonly path: string; readonly cwd: string }): Record<string, string> {
  if (forced !== undefined) {
    const m = loadManifest(resolvePath(forced.cwd, forced.path));
    return m.ok ? { forced: manifestSha256(m.value) } : {};
  }
  const out: Record<string, string> = {};
  for (const v of ["v4", "v3"] as const) {
    const m = loadCommittedManifest(v);
    if (m.ok) out[v] = manifestSha256(m.value);
  }
  return out;
}

/** A document with its version keys first, as JSON text. */
export function renderVersionedJson(doc: object, manifests: Record<string, string>): string {
  return renderJson({ schemaVersion: JSON_SCHEMA_VERSION, twinscoreVersion: TWINSCORE_VERSION, manifestSha256: manifests, ...doc });
}

/** The manifests of a command's document: `--manifest` when given (a command without the flag passes none). */
export function manifestsOf(opts: object, cwd: string): Record<string, string> {
  const forced = (opts as { manifest?: unknown }).manifest;
  return manifestDigests(typeof forced === "string" ? { path: forced, cwd } : undefined);
}
