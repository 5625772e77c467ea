#!/usr/bin/env node
/**
 * The `twinscore` bin's entry: loads the bundled CLI (`cli.js` and the chunks it asks
 * for, all in this folder) with V8's code cache. Compiling the bundle's JavaScript was
 * about a third of the start-up of `score` on one model; with the cache, V8 reads the
 * bytecode the build's warm-up run left next to each chunk (`<chunk>.cache`) instead.
 *
 * The cache is a build product: `npm run build` runs the bin once with
 * `TWINSCORE_CODE_CACHE=write`, and only then are cache files written (each through a
 * temporary file and a rename). A cache that does not fit this Node (another V8
 * version or flags) is refused by V8 and the chunk is compiled as usual; a missing one
 * is the same. Built-in and package modules go to Node's own `require`.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

const here = dirname(fileURLToPath(import.meta.url));
const nodeRequire = createRequire(join(here, "cli.js"));
/** The chunks loaded, by path: their exports, and the compiled script to take a cache from. */
const chunks = new Map<string, { exports: unknown; readonly script: Script; readonly cacheFile: string }>();

/** Load a chunk of this folder once, as Node would load a CommonJS file, compiled with its cache when V8 accepts it. */
function loadChunk(file: string): unknown {
  const loaded = chunks.get(file);
  if (loaded !== undefined) return loaded.exports;
  const cacheFile = `${file}.cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const source = readFileSync(file, "utf8");
  // a shebang line is not JavaScript inside the wrapper: keep it as a comment (same length, same lines)
  const body = source.startsWith("#!") ? `//${source.slice(2)}` : source;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${body}\n})`, { filename: file, cachedData });
  const module = { exports: {} as unknown };
  const chunk = { exports: module.exports, script, cacheFile };
  chunks.set(file, chunk);
  const chunkRequire = (id: string): unknown => (id.startsWith("./") ? loadChunk(join(here, id)) : nodeRequire(id));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, chunkRequire, module, file, here);
  chunk.exports = module.exports;
  return module.exports;
}

/** Write each loaded chunk's cache: the bytecode of every function compiled so far (build time only). */
function writeCaches(): void {
  for (const { script, cacheFile } of chunks.values()) {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
  }
}

if (process.env.TWINSCORE_CODE_CACHE === "write") process.on("exit", writeCaches);
loadChunk(join(here, "cli.js"));
