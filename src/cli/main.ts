#!/usr/bin/env node
/** The `twinscore` bin: the real process wired to `runCli`. */
import { processIo } from "./io.js";
import { runCli } from "./program.js";

// a reader that stops early (`twinscore score … | head`) ends the output quietly, not with a stack trace
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
}

runCli(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  async (e: unknown) => {
    process.exitCode = 2;
    const message = `internal error: ${e instanceof Error ? e.message : String(e)}`;
    const { problem, renderProblemLine } = await import("../messages/index.js");
    process.stderr.write(renderProblemLine(problem("internal", message)) + "\n");
  },
);
