// Write certified-content.tsv: the content digests of the items the hand rulings were made on.
// Run after `npm run build`:
//   node tools/certified-content.mjs ../shared/bfcl-v4 > data/certification/certified-content.tsv
// src/io/manifest.test.ts regenerates the committed file the same way and requires it byte-identical.
import { readBfclDataDir } from "../dist/io/bfcl-data.js";
import { itemContents, renderCertifiedContent } from "../dist/pairs/index.js";

const dir = process.argv[2];
if (!dir) {
  process.stderr.write("usage: node tools/certified-content.mjs BFCL_DATA_DIR > certified-content.tsv\n");
  process.exit(2);
}
const data = readBfclDataDir(dir, ["base", "miss_func", "miss_param"]);
if (!data.ok) {
  for (const p of data.problems) process.stderr.write(`${p.file ?? dir}: error: ${p.message} [${p.code}]\n`);
  process.exit(2);
}
process.stdout.write(renderCertifiedContent(itemContents(data.value)));
