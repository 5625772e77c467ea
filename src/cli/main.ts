#!/usr/bin/env node
/** The `twinscore` bin: the real process wired to `runCli`. */
import { processIo } from "./io.js";
import { runCli } from "./program.js";

runCli(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`twinscore: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  },
);
