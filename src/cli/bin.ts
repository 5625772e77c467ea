#!/usr/bin/env node
/**
 * The `twinscore` bin's entry: loads the bundled CLI (`cli.js` and the chunks it asks for, all in this folder)
 * with V8's code cache. More in this folder's README.md.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

/**
 * V8 flags for the bin, set before any chunk loads so the build's caches are made under them: the young generation
 * held at its first size, and TurboFan waiting for four times the bytecode before it optimizes (on Node 20's V8 only,
 * where it was measured). More in this folder's README.md.
 */
function tuneV8(): void {
  const v8Major = Number(process.versions.v8.split(".")[0]);
  if (v8Major < 11 || v8Major > 13 || process.env.TWINSCORE_V8_DEFAULTS === "1") return;
  const flags = v8Major === 11 ? `--semi-space-growth-factor=1 --interrupt-budget=${4 * 132 * 1024}` : "--semi-space-growth-factor=1";
  (createRequire(import.meta.url)("node:v8") as typeof import("node:v8")).setFlagsFromString(flags);
}

tuneV8();
const here = dirname(fileURLToPath(import.meta.url));
const nodeRequire = createRequire(join(here, "cli.js"));

/** How a chunk was compiled: from its cache, or not (refused by V8, or no cache file). */
type CacheUse = "accepted" | "rejected" | "missing";

/** The chunks loaded, by path: their exports, the compiled script to take a cache from, and whether its cache was used. */
const chunks = new Map<string, { exports: unknown; readonly script: Script; readonly cacheFile: string; readonly cache: CacheUse }>();

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
  const cache: CacheUse = cachedData === undefined ? "missing" : script.cachedDataRejected === true ? "rejected" : "accepted";
  const chunk = { exports: module.exports, script, cacheFile, cache };
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

/** One stderr line per chunk loaded: `code cache: <file> accepted|rejected|missing`. */
function reportCaches(): void {
  for (const [file, { cache }] of chunks) process.stderr.write(`code cache: ${file.slice(here.length + 1)} ${cache}\n`);
}

if (process.env.TWINSCORE_CODE_CACHE === "write") process.on("exit", writeCaches);
if (process.env.TWINSCORE_CODE_CACHE === "report") process.on("exit", reportCaches);
try {
  loadChunk(join(here, "cli.js"));
} catch (e) {
  // a chunk missing or unreadable: a broken installation, said in one line, in the form of every message
  // (`severity: message [code]`, written out here: this entry imports nothing of the CLI)
  process.stderr.write(
    `error: twinscore cannot start (${e instanceof Error ? e.message : String(e)}); reinstall the package or run npm run build [cannot-start]\n`,
  );
  process.exitCode = 2;
}
