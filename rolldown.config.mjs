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
import { defineConfig } from "rolldown";

/**
 * Commander requires `node:child_process` when it loads, for executable subcommands,
 * which twinscore has none of; loading it (with `net`, `dgram` and the rest) cost a few
 * milliseconds of every start. Commander gets a stand-in that loads it on first use.
 */
const lazyChildProcess = {
  name: "lazy-child-process",
  resolveId(source, importer) {
    if (source === "node:child_process" && importer !== undefined && importer.includes("/node_modules/commander/")) return "\0lazy-child-process";
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

export default defineConfig({
  input: {
    twinscore: "dist/cli/bin.js",
    cli: "dist/cli/main.js",
    "results-worker": "dist/io/results-worker.js",
    "check-worker": "dist/io/check-worker.js",
  },
  platform: "node",
  logLevel: "warn",
  plugins: [lazyChildProcess, commonJsMarker],
  output: { dir: "dist/bin", format: "cjs", minify: true, entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" },
});
