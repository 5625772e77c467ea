// A replay server for trying `twinscore run` without a model: it serves a recorded BFCL
// run (a model folder holding multi_turn/BFCL_v4_multi_turn_*_result.json) on
// 127.0.0.1 as an OpenAI-compatible chat-completions endpoint, keyed by the
// x-twinscore-item header, checking every tool output it is sent against the recording.
// A tool output that differs is reported when the server stops (--strict answers it with
// HTTP 409 instead, as the tests do). It stops by itself after --minutes (default 30) or
// on Ctrl-C.
// Usage: npm run build:testing && node bench/run-replay-server.mjs <model folder> [--port N] [--delay-ms N] [--minutes N] [--strict]
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseRecording, startReplayServer } from "../dist-testing/testing/replay.js";

const args = process.argv.slice(2);
const folder = args.find((a) => !a.startsWith("--"));
const flag = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
if (!folder) {
  process.stderr.write("usage: node bench/run-replay-server.mjs <model folder> [--port N] [--delay-ms N] [--minutes N]\n");
  process.exit(2);
}
const dir = join(folder, "multi_turn");
const recording = new Map();
for (const f of readdirSync(dir).filter((f) => /^BFCL_v4_multi_turn_.*_result\.json$/.test(f))) {
  for (const [id, e] of parseRecording(readFileSync(join(dir, f), "utf8"))) recording.set(id, e);
}
const srv = await startReplayServer(recording, { delayMs: flag("--delay-ms", 0), lifetimeMs: flag("--minutes", 30) * 60_000, port: flag("--port", 0), tolerate: !args.includes("--strict") });
process.stdout.write(`replaying ${recording.size} entries at ${srv.url}\n`);
process.on("SIGTERM", () => void srv.close());
srv.server.on("close", () => {
  for (const m of srv.stats.mismatches) process.stderr.write(`${m}\n`);
  process.exit(0);
});
process.on("SIGINT", () => void srv.close());
