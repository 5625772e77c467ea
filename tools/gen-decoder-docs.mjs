// Rewrite the decoder tables of README.md and src/bfcl/decode/README.md from the decoder
// declarations (src/bfcl/decode/decoders/), between their markers. Reads the built package
// (dist/): run `npm run build` first. src/bfcl/decode/declarations.test.ts fails
// while a table is out of date.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const built = (...p) => join(root, "dist", "bfcl", "decode", ...p);
if (!existsSync(built("decoder-docs.js"))) {
  process.stderr.write(`gen-decoder-docs: ${built("decoder-docs.js")} is missing; run npm run build first\n`);
  process.exit(2);
}
const { decoders } = await import(pathToFileURL(built("decoders.js")).href);
const { declarationsTable, handlersTable, withDecoderTable } = await import(pathToFileURL(built("decoder-docs.js")).href);

for (const [file, table] of [
  ["README.md", handlersTable(decoders)],
  [join("src", "bfcl", "decode", "README.md"), declarationsTable(decoders)],
]) {
  const path = join(root, file);
  const doc = readFileSync(path, "utf8");
  const out = withDecoderTable(doc, table);
  if (out === null) {
    process.stderr.write(`gen-decoder-docs: ${file} has no decoder table markers\n`);
    process.exit(2);
  }
  if (out !== doc) writeFileSync(path, out);
  process.stdout.write(`${file}: ${out === doc ? "up to date" : "rewritten"}\n`);
}
