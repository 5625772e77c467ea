// The `twinscore` bin as a few files: the CLI (`cli.js`) and its worker entries bundled
// from the compiled dist/ (tsc output, which stays the library), each command's modules
// in one chunk loaded when that command runs. Node resolves and compiles one file per
// chunk instead of about 130 modules, which was a third of `score`'s start-up on one model.
//
// CommonJS, not ES modules: the entry (`twinscore.js`, from src/cli/bin.ts) loads the
// chunks itself with V8's code cache (see there), which Node 20 offers for scripts only,
// and Node's ES module loader alone cost about 20 ms of every start. A `package.json`
// in dist/bin says so to Node for the files it loads itself (the entry, the workers).
//
// Minified: V8 scans less text at start (`score --help` about 50 ms less CPU on the
// project machine); nothing prints function names, and the tests compare the bin's
// output with the compiled entry's.
//
// The second build is the library for CommonJS callers (`require("twinscore")`, the
// `require` condition of package.json's `exports`): the same two entries as the ES
// modules in dist/, bundled into dist/cjs/ with the worker scripts beside them, as the
// code expects (`new URL("./check-worker.js", import.meta.url)`). Not minified, so a
// caller's stack traces name the functions; the package's dependencies stay external
// (each has a CommonJS entry), so a caller gets one copy of each.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { defineConfig } from "rolldown";

/**
 * Commander requires `node:child_process` when it loads, for executable subcommands,
 * which twinscore has none of; loading it (with `net`, `dgram` and the rest) cost a few
 * milliseconds of every start. Commander gets a stand-in that loads it on first use.
 */
const lazyChildProcess = {
  name: "lazy-child-process",
  resolveId(source, importer) {
    if (source === "node:child_process" && importer !== undefined && importer.includes("/node_modules/commander/"))
      return "\0lazy-child-process";
    return null;
  },
  load(id) {
    if (id !== "\0lazy-child-process") return null;
    return 'module.exports = new Proxy({}, { get: (_, key) => require("node:child_process")[key] });';
  },
};

/** Tell Node that the `.js` files of dist/bin are CommonJS (the package itself is `"type": "module"`). */
const commonJsMarker = {
  name: "commonjs-marker",
  generateBundle() {
    this.emitFile({ type: "asset", fileName: "package.json", source: '{ "type": "commonjs" }\n' });
  },
};

/**
 * The type declarations of dist/ again under dist/cjs/, where the `package.json` marker
 * makes TypeScript read them as CommonJS: a `require` of the package then type-checks
 * in a CommonJS project, which declarations of ES modules do not allow.
 */
const commonJsDeclarations = {
  name: "commonjs-declarations",
  generateBundle() {
    const walk = (dir) =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return name === "bin" || name === "cjs" ? [] : walk(path);
        return name.endsWith(".d.ts") ? [path] : [];
      });
    for (const file of walk("dist")) {
      this.emitFile({ type: "asset", fileName: relative("dist", file).split(sep).join("/"), source: readFileSync(file, "utf8") });
    }
  },
};

const dependencies = Object.keys(JSON.parse(readFileSync("package.json", "utf8")).dependencies);

export default defineConfig([
  {
    input: {
      twinscore: "dist/cli/bin.js",
      cli: "dist/cli/main.js",
      "check-worker": "dist/cli/check-worker.js",
    },
    platform: "node",
    logLevel: "warn",
    // the PNG rasterizer is a native addon: loaded from node_modules when `report --figures` asks for it
    external: (id) => id === "@resvg/resvg-js" || id.startsWith("@resvg/"),
    plugins: [lazyChildProcess, commonJsMarker],
    output: { dir: "dist/bin", format: "cjs", minify: true, entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" },
  },
  {
    input: {
      index: "dist/index.js",
      core: "dist/core.js",
      "check-worker": "dist/cli/check-worker.js",
    },
    platform: "node",
    logLevel: "warn",
    external: (id) => dependencies.some((d) => id === d || id.startsWith(`${d}/`)),
    plugins: [commonJsMarker, commonJsDeclarations],
    output: { dir: "dist/cjs", format: "cjs", entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" },
  },
]);
