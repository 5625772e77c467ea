/**
 * Ctrl-C in `twinscore run`: the built bin as a child process against a replay of a real
 * recorded run on 127.0.0.1, interrupted by SIGINT mid-run and before anything is
 * generated. The process ends by the signal (a shell shows 130), after one line that says
 * what is on disk and gives the command that goes on; the files are whole, no lock or
 * temporary file is left, and that command finishes the run.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareIds } from "../../rollout/lines.js";
import { parseRecording, startChatServer, startReplayServer, type RecordedEntry } from "../../testing/replay.js";
import { serverPool, subsetBfclData } from "../../testing/run-fixtures.js";
import { projectRoot, rolloutRunDir } from "../../testing/shared.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { cliArgs } from "../../testing/cli-args.js";

const PER_CATEGORY = 8;
const categories = ["base", "miss_func", "miss_param"] as const;
const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-interrupt-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();
const subsetData = subsetBfclData(join(tmp, "bfcl-data"), categories, PER_CATEGORY);

const recordedDir = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
const recording = new Map<string, RecordedEntry>();
for (const c of categories)
  for (const [id, e] of parseRecording(readFileSync(join(recordedDir, `BFCL_v4_multi_turn_${c}_result.json`), "utf8")))
    recording.set(id, e);

/** The bin run as a child: its stderr, and how it ended. */
interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

function startBin(args: readonly string[]): { child: ReturnType<typeof spawn>; ended: Promise<Ended> } {
  const child = spawn(process.execPath, [join(projectRoot, "dist", "cli", "main.js"), ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
  const ended = new Promise<Ended>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })));
  return { child, ended };
}

function resultLines(folder: string, category: string): string[] {
  const file = join(folder, `BFCL_v4_multi_turn_${category}_result.json`);
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l !== "")
    : [];
}

/** Only the lines of the message format (the progress lines are not messages). */
function messageLines(stderr: string): string[] {
  return stderr.split("\n").filter((l) => /^(error|warning|note): /.test(l));
}

describe("Ctrl-C in run", () => {
  it("SIGINT mid-run: one line with the lines on disk and the command that goes on; whole files, no lock or temporary file; that command finishes", async () => {
    let served = 0;
    let child: ReturnType<typeof spawn> | null = null;
    const srv = await serve(startReplayServer(recording, { onRequest: () => void (++served === 40 && child?.kill("SIGINT")) }));
    const out = join(tmp, "mid-run");
    const args = cliArgs("run", {
      endpoint: srv.url,
      model: "openai/gpt-oss-120b",
      out,
      items: "all",
      "bfcl-data": subsetData,
      concurrency: 2,
      retries: 0,
    });
    const started = startBin(args);
    child = started.child;
    const ended = await started.ended;
    expect(ended.signal).toBe("SIGINT");
    expect(ended.code).toBeNull();

    const folder = join(out, "openai_gpt-oss-120b", "multi_turn");
    const last = messageLines(ended.stderr).at(-1) ?? "";
    const said =
      /^error: SIGINT stopped the run: (\d+) of 24 lines are in (\S+), whole \((\d+) written by this run(?:; \d+ error lines? among them)?\); the same command goes on from there: (.*) \[run-interrupted\]$/.exec(
        last,
      );
    expect(said, ended.stderr).not.toBeNull();
    const [, onDisk, where, written, command] = said as RegExpExecArray;
    expect(where).toBe(folder);
    expect(command).toBe(["twinscore", ...args].join(" "));
    expect(Number(written)).toBe(Number(onDisk)); // a fresh folder: every line on disk is this run's

    // what the line says is on disk, whole and in BFCL's order, each id once; nothing else left behind
    let lines = 0;
    for (const c of categories) {
      const ids = resultLines(folder, c).map((l) => (JSON.parse(l) as { id: string }).id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort(compareIds));
      lines += ids.length;
    }
    expect(lines).toBe(Number(onDisk));
    expect(lines).toBeGreaterThan(0);
    expect(lines).toBeLessThan(24);
    expect(readdirSync(join(out, "openai_gpt-oss-120b")).filter((f) => f.includes("lock"))).toEqual([]);
    expect(readdirSync(folder).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    // the same command goes on from there
    const io = memoryIo({}, tmp);
    expect(await runCli(args, io)).toBe(1); // the recorded run's own error lines
    expect(io.err.join("")).toContain(`24 items, ${24 - lines} generated, ${lines} already in the output`);
  }, 120_000);

  it("SIGINT while the endpoint is being checked: the line says nothing was written, no folder is made, the process still ends by the signal", async () => {
    let child: ReturnType<typeof spawn> | null = null;
    // the probe's one-token request never gets its answer: the run is still checking the endpoint
    const srv = await serve(startChatServer(() => void child?.kill("SIGINT"), { probe: "pass", maxRequests: 5, lifetimeMs: 60_000 }));
    const out = join(tmp, "at-probe");
    const args = cliArgs("run", { endpoint: srv.url, model: "openai/gpt-oss-120b", out, limit: 2, "bfcl-data": subsetData, timeout: 30 });
    const started = startBin(args);
    child = started.child;
    const ended = await started.ended;
    expect(ended.signal).toBe("SIGINT");
    expect(messageLines(ended.stderr)).toEqual([
      `error: SIGINT stopped the run before it generated anything; nothing was written; the same command starts it again: ${["twinscore", ...args].join(" ")} [run-interrupted]`,
    ]);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
