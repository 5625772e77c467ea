// Print, as JSON, the decoder of each BFCL `decode_execute` owner at a BFCL revision (the
// argument: v4, the default, or v3) as the decoder files in src/bfcl/decode/decoders/
// declare it: `{"OSSHandler": "prompting", "ClaudeHandler": ["fc", "prompting"], …}` (a
// pair for an owner whose method reads is_fc_model: FC mode, prompting mode). tools/gen-model-registry.py maps the registry's handlers with it. Reads
// the built package (dist/): run `npm run build` after changing a decoder.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const built = join(root, "dist", "bfcl", "decode", "decoders.js");
if (!existsSync(built)) {
  process.stderr.write(`decoder-owners: ${built} is missing; run npm run build first\n`);
  process.exit(2);
}
const revision = process.argv[2] ?? "v4";
if (revision !== "v4" && revision !== "v3") {
  process.stderr.write(`decoder-owners: unknown BFCL revision '${revision}'; one of: v4, v3\n`);
  process.exit(2);
}
const { decodeOwnerTable } = await import(pathToFileURL(built).href);
process.stdout.write(JSON.stringify(decodeOwnerTable(revision), null, 1) + "\n");
