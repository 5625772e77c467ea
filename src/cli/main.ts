#!/usr/bin/env node
/** The `twinscore` bin: the real process wired to `runCli`. */
import { processIo } from "./io.js";
import { runCli } from "./program.js";

// a reader that stops early (`twinscore score … | head`) ends the output quietly, not with a stack trace;
// an output that cannot be written (`>/dev/full`) is one line on stderr and exit 2
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
    if (stream === process.stdout) {
      try {
        process.stderr.write(`error: cannot write the standard output: ${outputFailure(e)} [write-failed]\n`);
      } catch {
        /* stderr cannot be written either: the exit code says it */
      }
    }
    process.exit(2);
  });
}

/** Why an output stream failed, in words: the full device and the quota by name, else the system's code and message. */
function outputFailure(e: NodeJS.ErrnoException): string {
  if (e.code === "ENOSPC") return "no space left on the device (ENOSPC)";
  if (e.code === "EDQUOT") return "the disk quota is exhausted (EDQUOT)";
  return e.code !== undefined ? `${e.code}: ${e.message.replace(/^[A-Z]+: /, "")}` : e.message;
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
