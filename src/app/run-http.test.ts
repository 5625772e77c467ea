/**
 * `runCommand` given its network through the context's host: the recorded gpt-oss-120b run
 * replayed by an in-memory HTTP stand-in (no socket: the endpoint's host name does not
 * resolve) on the real v4 data, for a few pairs. The run follows the recording step by
 * step and writes the same files and document as the same run against the replay served
 * on 127.0.0.1.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeHost } from "../io/host.js";
import { memoryHttp } from "../testing/memory-http.js";
import { parseRecording, replayResponder, startReplayServer, type RecordedEntry } from "../testing/replay.js";
import { bfclDataDir, rolloutRunDir } from "../testing/shared.js";
import { runCommand, type RunCommandRequest, type RunDocument } from "./run/index.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-http-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const model = "openai/gpt-oss-120b";
const recordedDir = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
const recording = new Map<string, RecordedEntry>();
for (const c of ["base", "miss_func", "miss_param"])
  for (const [id, e] of parseRecording(readFileSync(join(recordedDir, `BFCL_v4_multi_turn_${c}_result.json`), "utf8")))
    recording.set(id, e);
/** Two pairs of each kind: the base items and their miss_func and miss_param twins. */
const ids = [
  "multi_turn_base_0",
  "multi_turn_base_1",
  "multi_turn_miss_func_0",
  "multi_turn_miss_func_1",
  "multi_turn_miss_param_0",
  "multi_turn_miss_param_1",
];

function request(endpoint: string, out: string): RunCommandRequest {
  return { endpoint, model, out, items: "all", ids, bfclData: bfclDataDir(), concurrency: 2, retries: 0, now: () => 0, cwd: tmp, env: {} };
}

/** The run record's wall-clock times (`startedAt`, `endedAt`, …), which no `now` replaces. */
const isoTime = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g;

/** Every file under `dir` by its relative path, the endpoint's URL and the record's times written alike. */
function filesOf(dir: string, endpoint: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, "utf8").split(endpoint).join("<endpoint>").replace(isoTime, "<time>");
    }
  };
  walk(dir);
  return out;
}

function sameDocument(doc: RunDocument, out: string, endpoint: string): unknown {
  return JSON.parse(JSON.stringify(doc).split(out).join("<out>").split(endpoint).join("<endpoint>").replace(isoTime, "<time>"));
}

describe("run with the host's HTTP stand-in", () => {
  it("replays the recorded steps of six real items with no socket: the files and document of the run over 127.0.0.1", async () => {
    const mismatches: string[] = [];
    const standIn = memoryHttp(replayResponder(recording, { mismatches }), [model]);
    const endpoint = "http://replay.invalid/v1";
    const inMemory = await runCommand({ ...request(endpoint, join(tmp, "stand-in")), host: { ...nodeHost(), http: standIn.http } });
    expect(mismatches).toEqual([]);
    expect(inMemory.problems).toEqual([]);
    expect([inMemory.exitCode, inMemory.selected, inMemory.generated]).toEqual([0, 6, 6]);
    // one model list (the probe), then one chat request per step the run made
    expect(standIn.sent.filter((r) => r.method === "GET").map((r) => r.url)).toEqual([`${endpoint}/models`]);
    const chats = standIn.sent.filter((r) => r.method === "POST");
    expect(chats).toHaveLength(inMemory.requests);
    expect(inMemory.requests).toBe(ids.reduce((n, id) => n + recording.get(id)!.steps.length, 0));
    expect(new Set(chats.map((r) => r.headers.get("x-twinscore-item")))).toEqual(new Set(ids));

    const server = await startReplayServer(recording);
    try {
      const overSocket = await runCommand(request(server.url, join(tmp, "socket")));
      expect(server.stats.mismatches).toEqual([]);
      expect(sameDocument(inMemory, join(tmp, "stand-in"), endpoint)).toEqual(sameDocument(overSocket, join(tmp, "socket"), server.url));
      expect(filesOf(join(tmp, "stand-in"), endpoint)).toEqual(filesOf(join(tmp, "socket"), server.url));
    } finally {
      await server.close();
    }
  }, 60_000);
});
