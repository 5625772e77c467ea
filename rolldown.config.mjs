// The `twinscore` bin as a few files: the CLI and its worker entries bundled from the
// compiled dist/ (tsc output, which stays the library), each command's modules in one
// chunk loaded when that command runs. Node resolves and compiles one file per chunk
// instead of about 130 modules, which was a third of `score`'s start-up on one model.
// Minified: V8 scans less text at start (`score --help` about 50 ms less CPU on the
// project machine); nothing prints function names, and the tests compare the bin's
// output with the compiled entry's.
import { defineConfig } from "rolldown";

export default defineConfig({
  input: {
    twinscore: "dist/cli/main.js",
    "results-worker": "dist/io/results-worker.js",
    "check-worker": "dist/io/check-worker.js",
  },
  platform: "node",
  logLevel: "warn",
  output: { dir: "dist/bin", format: "esm", minify: true, entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" },
});
