// A replay server for trying `twinscore run` without a model: it serves a recorded BFCL
// run (a model folder holding multi_turn/BFCL_v4_multi_turn_*_result.json) on
// 127.0.0.1 as an OpenAI-compatible chat-completions endpoint, keyed by the
// x-twinscore-item header, checking every tool output it is sent against the recording.
// A tool output that differs is reported when the server stops (--strict answers it with
// HTTP 409 instead, as the tests do). Bounded: it stops by itself after --minutes
// (default 30) and refuses requests past --max-requests (default 20000, about three
// `--items all` runs of one model); Ctrl-C (SIGINT) or SIGTERM stops it sooner.
// Usage: npm run replay -- <model folder> [--port N] [--delay-ms N] [--minutes N] [--max-requests N] [--strict]
//   (npm run replay compiles src/testing into dist-testing/ first; or: npm run build:testing && node bench/run-replay-server.mjs …)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const usage = "usage: npm run replay -- <model folder> [--port N] [--delay-ms N] [--minutes N] [--max-requests N] [--strict]\n";
const args = process.argv.slice(2);
const valued = new Set(["--port", "--delay-ms", "--minutes", "--max-requests"]);
let folder = null;
for (let i = 0; i < args.length; i++) {
  if (valued.has(args[i])) i++;
  else if (args[i] === "--strict") continue;
  else if (args[i].startsWith("--")) {
    process.stderr.write(`replay: unknown option ${args[i]}\n${usage}`);
    process.exit(2);
  } else folder = args[i];
}
const flag = (name, dflt, min) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = Number(args[i + 1]);
  if (!Number.isFinite(v) || v < min) {
    process.stderr.write(`replay: ${name} needs a number >= ${min}, got ${args[i + 1] ?? "nothing"}\n`);
    process.exit(2);
  }
  return v;
};
if (!folder) {
  process.stderr.write(usage);
  process.exit(2);
}
const dir = join(folder, "multi_turn");
const files = existsSync(dir) ? readdirSync(dir).filter((f) => /^BFCL_v4_multi_turn_.*_result\.json$/.test(f)) : [];
if (files.length === 0) {
  process.stderr.write(`${dir}: error: no BFCL_v4_multi_turn_*_result.json here; give a model folder of a recorded run [no-recording]\n`);
  process.exit(2);
}
const built = new URL("../dist-testing/testing/replay.js", import.meta.url);
if (!existsSync(built)) {
  process.stderr.write("replay: dist-testing/ is missing: run `npm run build:testing` (npm run replay does it)\n");
  process.exit(2);
}
const { parseRecording, startReplayServer } = await import(built.href);

const port = flag("--port", 0, 0);
const minutes = flag("--minutes", 30, 0.01);
const maxRequests = flag("--max-requests", 20_000, 1);
const recording = new Map();
for (const f of files) {
  for (const [id, e] of parseRecording(readFileSync(join(dir, f), "utf8"))) recording.set(id, e);
}
const srv = await startReplayServer(recording, {
  delayMs: flag("--delay-ms", 0, 0),
  lifetimeMs: minutes * 60_000,
  maxRequests,
  port,
  tolerate: !args.includes("--strict"),
});
process.stdout.write(
  `replaying ${recording.size} entries at ${srv.url} (stops after ${minutes} min or ${maxRequests} requests; Ctrl-C stops it now)\n`,
);
process.on("SIGTERM", () => void srv.close());
process.on("SIGINT", () => void srv.close());
srv.server.on("close", () => {
  for (const m of srv.stats.mismatches) process.stderr.write(`${m}\n`);
  process.stdout.write(
    `replay stopped: ${srv.stats.requests} requests served, ${srv.stats.mismatches.length} differences from the recording\n`,
  );
  process.exit(0);
});
