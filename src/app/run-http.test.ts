/**
 * `runCommand` with its files and network from the host: real v4 items run in memory against an
 * HTTP stand-in replaying the recorded gpt-oss-120b run, compared with the same run on disk
 * against the replay served on 127.0.0.1. More in this folder's README.md.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryHttp } from "../testing/memory-http.js";
import { memoryHost, memoryRoot, memoryShared, MemoryFileSystem } from "../testing/memory-host.js";
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

function request(endpoint: string, out: string, bfclData: string, cwd: string): RunCommandRequest {
  return { endpoint, model, out, items: "all", ids, bfclData, concurrency: 2, retries: 0, now: () => 0, cwd, env: {} };
}

/** The run record's wall-clock times (`startedAt`, `endedAt`, …), which no `now` replaces. */
const isoTime = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g;

/** The text of a run's file, the endpoint's URL and the record's times written alike. */
function normalised(text: string, endpoint: string): string {
  return text.split(endpoint).join("<endpoint>").replace(isoTime, "<time>");
}

/** Every file under `dir` on disk by its relative path, normalised. */
function filesOf(dir: string, endpoint: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = normalised(readFileSync(p, "utf8"), endpoint);
    }
  };
  walk(dir);
  return out;
}

/** Every file under `dir` of an in-memory file system by its relative path, normalised. */
function memoryFilesOf(files: MemoryFileSystem, dir: string, endpoint: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, bytes] of [...files.files].sort(([a], [b]) => (a < b ? -1 : 1)))
    if (path.startsWith(`${dir}/`)) out[relative(dir, path)] = normalised(Buffer.from(bytes).toString("utf8"), endpoint);
  return out;
}

function sameDocument(doc: RunDocument, out: string, endpoint: string): unknown {
  return JSON.parse(JSON.stringify(doc).split(out).join("<out>").split(endpoint).join("<endpoint>").replace(isoTime, "<time>"));
}

describe("run on the in-memory host with its HTTP stand-in", () => {
  it("replays the recorded steps of six real items with no file or socket of its own: the files and document of the run on disk over 127.0.0.1", async () => {
    const mismatches: string[] = [];
    const standIn = memoryHttp(replayResponder(recording, { mismatches }), [model]);
    const endpoint = "http://replay.invalid/v1";
    const files = new MemoryFileSystem().mount(bfclDataDir(), join(memoryShared, "bfcl-v4"));
    const memory = memoryHost(files).host;
    const memoryOut = join(memoryRoot, "work", "out");
    files.makeFolder(join(memoryRoot, "work"));
    const inMemory = await runCommand({
      ...request(endpoint, "out", join(memoryShared, "bfcl-v4"), join(memoryRoot, "work")),
      host: { ...memory, http: standIn.http },
    });
    expect(existsSync(memoryRoot)).toBe(false);
    expect(mismatches).toEqual([]);
    expect(inMemory.problems).toEqual([]);
    expect([inMemory.exitCode, inMemory.selected, inMemory.generated]).toEqual([0, 6, 6]);
    // one model list (the probe), then one chat request per step the run made
    expect(standIn.sent.filter((r) => r.method === "GET").map((r) => r.url)).toEqual([`${endpoint}/models`]);
    const chats = standIn.sent.filter((r) => r.method === "POST");
    expect(chats).toHaveLength(inMemory.requests);
    expect(inMemory.requests).toBe(ids.reduce((n, id) => n + recording.get(id)!.steps.length, 0));
    expect(new Set(chats.map((r) => r.headers.get("x-twinscore-item")))).toEqual(new Set(ids));

    // what the run read: the data's docs and questions, the package's manifest, all in memory
    expect(files.reads.filter((p) => p.startsWith(join(memoryShared, "bfcl-v4")))).not.toHaveLength(0);
    expect(files.reads).toContain(memory.committedManifestPath("v4"));
    const written = memoryFilesOf(files, memoryOut, endpoint);
    expect(Object.keys(written).sort()).toEqual([
      "openai_gpt-oss-120b/multi_turn/BFCL_v4_multi_turn_base_result.json",
      "openai_gpt-oss-120b/multi_turn/BFCL_v4_multi_turn_miss_func_result.json",
      "openai_gpt-oss-120b/multi_turn/BFCL_v4_multi_turn_miss_param_result.json",
      "openai_gpt-oss-120b/run.json",
    ]);

    // a second run over the same in-memory folder: a kill's torn tail cut off, every line resumed, nothing sent, the lines as they were
    const baseFile = join(memoryOut, "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_result.json");
    const baseBytes = files.files.get(baseFile)!;
    files.appendFile(baseFile, '{"id": "multi_turn_base_2", "result": [[');
    const before = standIn.sent.length;
    const again = await runCommand({
      ...request(endpoint, "out", join(memoryShared, "bfcl-v4"), join(memoryRoot, "work")),
      host: { ...memory, http: standIn.http },
    });
    expect([again.exitCode, again.generated, again.resumed, standIn.sent.length - before]).toEqual([0, 0, 6, 0]);
    expect(Buffer.from(files.files.get(baseFile)!).equals(Buffer.from(baseBytes))).toBe(true);
    expect(memoryFilesOf(files, memoryOut, endpoint)).toEqual(written);

    const server = await startReplayServer(recording);
    try {
      const overSocket = await runCommand(request(server.url, join(tmp, "socket"), bfclDataDir(), tmp));
      expect(server.stats.mismatches).toEqual([]);
      expect(sameDocument(inMemory, memoryOut, endpoint)).toEqual(sameDocument(overSocket, join(tmp, "socket"), server.url));
      expect(written).toEqual(filesOf(join(tmp, "socket"), server.url));
    } finally {
      await server.close();
    }
  }, 60_000);
});
