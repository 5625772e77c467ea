// The last step of `npm run build`: run the bundled bin the way a user's first commands
// do, with TWINSCORE_CODE_CACHE=write, so each chunk it loads gets its V8 code cache
// (`dist/bin/<chunk>.js.cache`, see src/cli/bin.ts) holding the bytecode of every
// function those runs compiled. The demo writes BFCL-format runs of four policies, and
// `score` then reads them as it reads a real run (tree walk, result lines, the data
// check, decoding, the table). A second round starts from the first round's caches, so
// each cache holds what both compiled. Nothing here touches ../shared: the build stays
// self-contained. A failed run fails the build (its output is printed).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "dist", "bin", "twinscore.js");
const runs = mkdtempSync(join(tmpdir(), "twinscore-warm-"));
const env = { ...process.env, TWINSCORE_CODE_CACHE: "write" };
delete env.TWINSCORE_V8_DEFAULTS;

function run(args, okCodes = [0]) {
  const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: "utf8" });
  if (!okCodes.includes(r.status)) {
    process.stderr.write(`warm-code-cache: twinscore ${args.join(" ")} exited ${r.status}\n${r.stdout}${r.stderr}`);
    process.exit(1);
  }
}

try {
  const keep = join(runs, "demo");
  for (let round = 0; round < 2; round++) {
    rmSync(keep, { recursive: true, force: true });
    run(["demo", "--keep", keep, "--bootstrap", "0"]);
    // exit 1: the demo's synthetic runs may carry warnings a real run would not
    run(["score", "--results", keep, "--bootstrap", "0"], [0, 1]);
    run(["score", "--help"]);
  }
} finally {
  rmSync(runs, { recursive: true, force: true });
}
