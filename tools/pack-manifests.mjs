// A step of `npm run build`, after tsc: the packed form of each committed manifest
// (data/manifest.json, data/manifest-v3.json) in dist/data/, under the same file name,
// which the package's loader reads instead when it matches (src/io/manifest.ts,
// renderPackedManifest in src/pairs/manifest-json.ts says what packing changes and why).
// Each file is written through a temporary file and a rename.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bfclVersionInfo } from "../dist/bfcl/versions.js";
import { parseManifest, renderPackedManifest } from "../dist/pairs/manifest-json.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
mkdirSync(join(root, "dist", "data"), { recursive: true });
for (const { manifestFile } of Object.values(bfclVersionInfo)) {
  const source = join(root, "data", manifestFile);
  const bytes = readFileSync(source);
  const parsed = parseManifest(bytes.toString("utf8"), source);
  if (!parsed.ok) {
    process.stderr.write(`pack-manifests: ${source}: ${parsed.problems.map((p) => p.message).join("; ")}\n`);
    process.exit(1);
  }
  const target = join(root, "dist", "data", manifestFile);
  writeFileSync(`${target}.tmp`, renderPackedManifest(parsed.value, bytes.length));
  renameSync(`${target}.tmp`, target);
}
