/**
 * `twinscore run` over real HTTP (the openai-package client against 127.0.0.1 servers), on a small BFCL data
 * folder cut from the real one: the replay of a recorded run, argument errors, and the faults a long run meets,
 * each resumed to the file an uninterrupted run writes. More in this folder's README.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCommand, runModel, type RunRequest } from "../../app/run/index.js";
import { loadManifest } from "../../io/manifest.js";
import { jsonDumps, jsonLoadsFast } from "../../python/json.js";
import type { PyDict } from "../../python/containers.js";
import { compareIds } from "../../rollout/lines.js";
import { MODE_KEY } from "../../bfcl/line-keys.js";
import { bfclDataDir, rolloutRunDir } from "../../testing/shared.js";
import {
  parseRecording,
  replayResponder,
  sendJson,
  startChatServer,
  startReplayServer,
  type RecordedEntry,
  type TestServer,
} from "../../testing/replay.js";
import { startEchoServer, startGarbageServer, startHangingServer } from "../../testing/stub-servers.js";
import { counted } from "../../messages/index.js";
import { memoryIo } from "../io.js";
import { runCli } from "../program.js";
import { serverPool, subsetBfclData } from "../../testing/run-fixtures.js";
import { cliArgs } from "../../testing/cli-args.js";

const PER_CATEGORY = 8;
const categories = ["base", "miss_func", "miss_param"] as const;
const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();

/** A BFCL data folder with the first entries of each category (docs complete). */
const subsetData = subsetBfclData(join(tmp, "bfcl-data"), categories, PER_CATEGORY);

const recordedDir = join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn");
const recordedText = new Map(categories.map((c) => [c, readFileSync(join(recordedDir, `BFCL_v4_multi_turn_${c}_result.json`), "utf8")]));
const recording = new Map<string, RecordedEntry>();
for (const t of recordedText.values()) for (const [id, e] of parseRecording(t)) recording.set(id, e);
const subsetIds = new Set(categories.flatMap((c) => Array.from({ length: PER_CATEGORY }, (_, i) => `multi_turn_${c}_${i}`)));
/** The subset's ids whose recorded line is an inference error (the replay serves the recorded HTTP error again). */
const recordedErrorIds = [...subsetIds].filter((id) => recording.get(id)?.error != null).sort();

const manifest = (() => {
  const m = loadManifest();
  if (!m.ok) throw new Error("the committed manifest does not load");
  return m.value;
})();

function request(url: string, out: string, extra: Partial<RunRequest> = {}): RunRequest {
  return {
    endpoint: url,
    model: "openai/gpt-oss-120b",
    outDir: out,
    items: "all",
    mode: "fc",
    temperature: 0.001,
    concurrency: 4,
    timeoutMs: 10_000,
    retries: 2,
    backoffMs: 1,
    apiKey: null,
    bfclDataDir: subsetData,
    manifest,
    untilAnchor: false,
    retryErrors: false,
    inject: null,
    now: () => 0,
    ...extra,
  };
}

/** The files of an uninterrupted run against the replay, made once and shared by the fault tests. */
let referenceRun: Promise<string> | null = null;
function referenceText(): Promise<string> {
  referenceRun ??= (async () => {
    const out = join(tmp, "reference");
    const plain = await startReplayServer(recording);
    try {
      const doc = await runModel(request(plain.url, out));
      if (!doc.ok) throw new Error("the reference run failed");
    } finally {
      await plain.close();
    }
    return allFiles(out);
  })();
  return referenceRun;
}

function resultFile(out: string, category: string): string {
  return join(out, "openai_gpt-oss-120b", "multi_turn", `BFCL_v4_multi_turn_${category}_result.json`);
}

function allFiles(out: string): string {
  return categories.map((c) => readFileSync(resultFile(out, c), "utf8")).join("");
}

/** A result line parsed, without the keys that differ between two runs of the same rollout (latency, traceback) and the mode key twinscore adds to BFCL's line. */
function stableLine(line: string): PyDict {
  const v = jsonLoadsFast(line) as PyDict;
  v.delete("latency");
  v.delete("traceback");
  if (v.has(MODE_KEY) && v.get(MODE_KEY) !== "fc") throw new Error(`an FC run's line records mode ${String(v.get(MODE_KEY))}`);
  v.delete(MODE_KEY);
  return v;
}

/** Each line of a file's text as canonical text, without latency and traceback (runs on the wall clock compare equal). */
function canonical(text: string): string[] {
  return text
    .trimEnd()
    .split("\n")
    .map((l) => jsonDumps(stableLine(l)));
}

/** A replay server that closes itself once it has served `requests` requests: an endpoint dying mid-run. */
async function replayDyingAfter(requests: number): Promise<TestServer> {
  let served = 0;
  const victim: TestServer = await serve(
    startReplayServer(recording, {
      onRequest: () => {
        if (++served === requests) void victim.close();
      },
    }),
  );
  return victim;
}

/** The recorded line of an id, without latency and traceback, as canonical text. */
function recordedCanonical(id: string): string {
  for (const text of recordedText.values()) {
    for (const l of text.split("\n")) {
      if (l.startsWith(`{"id": "${id}"`)) return jsonDumps(stableLine(l));
    }
  }
  throw new Error(`no recorded line for ${id}`);
}

describe("twinscore run over HTTP", () => {
  it("replays a recorded run through the CLI: the item header on every request, the key only in Authorization, the recorded lines", async () => {
    const KEY = "sk-run-test-123456";
    const headers: { item: string; auth: string }[] = [];
    const srv = await serve(
      startReplayServer(recording, {
        onRequest: (h) => headers.push({ item: String(h["x-twinscore-item"]), auth: String(h.authorization) }),
      }),
    );
    const out = join(tmp, "cli");
    const io = memoryIo({ TS_KEY: KEY }, tmp);
    const code = await runCli(
      cliArgs("run", {
        endpoint: srv.url,
        model: "openai/gpt-oss-120b",
        out,
        items: "all",
        "bfcl-data": subsetData,
        "key-env": "TS_KEY",
        concurrency: 4,
        retries: 0,
      }),
      io,
    );
    const errText = io.err.join("");
    expect(srv.stats.mismatches).toEqual([]);
    expect(headers.length).toBeGreaterThan(100);
    expect(headers.every((h) => subsetIds.has(h.item) && h.auth === `Bearer ${KEY}`)).toBe(true);
    expect(new Set(headers.map((h) => h.item)).size).toBe(subsetIds.size);
    for (const c of categories) {
      for (const l of readFileSync(resultFile(out, c), "utf8").trimEnd().split("\n")) {
        const v = stableLine(l);
        const id = v.get("id") as string;
        expect(jsonDumps(v), id).toBe(recordedCanonical(id));
      }
    }
    expect(recordedErrorIds.length).toBeGreaterThan(0);
    expect(code).toBe(1); // done, with the recorded error lines
    expect(errText).toContain(`${recordedErrorIds[0]}: error line: Error code: 500`);
    expect(io.out.join("")).toContain("miss_param");
    expect(errText).toContain("24 items, 24 generated");
    expect(errText + io.out.join("") + allFiles(out)).not.toContain(KEY);
    // a second run finds everything in place, and counts and names the error lines it kept (exit 1: they are still error lines)
    const again = memoryIo({ TS_KEY: KEY }, tmp);
    expect(
      await runCli(
        cliArgs("run", {
          endpoint: srv.url,
          model: "openai/gpt-oss-120b",
          out,
          items: "all",
          "bfcl-data": subsetData,
          "key-env": "TS_KEY",
        }),
        again,
      ),
    ).toBe(1);
    const inFile = allFiles(out)
      .split("\n")
      .filter((l) => l.includes('"result": "Error during inference')).length;
    expect(inFile).toBe(recordedErrorIds.length);
    const againErr = again.err.join("");
    expect(againErr).toContain(
      `0 generated, 24 already in the output, ${counted(inFile, "error line")} (0 new, ${inFile} kept from an earlier run: --retry-errors generates them again)`,
    );
    expect(againErr).toContain(`warning: ${recordedErrorIds[0]}: error line kept from an earlier run: Error code: 500`);
    expect(
      againErr
        .split("\n")
        .filter((l) => /^run: 24\/24 items, /.test(l))
        .at(-1),
    ).toMatch(new RegExp(`, ${counted(inFile, "error line")}, `));
  }, 120_000);

  it("the request BFCL's handler sends (model, temperature, store: false, tools) with --temperature, and --model-dir names the folder", async () => {
    const bodies: Record<string, unknown>[] = [];
    const srv = await serve(startReplayServer(recording, { onRequest: (_h, body) => bodies.push(body) }));
    const out = join(tmp, "request-shape");
    const io = memoryIo({}, tmp);
    const args = cliArgs("run", {
      endpoint: srv.url,
      model: "openai/gpt-oss-120b",
      out,
      items: "all",
      "bfcl-data": subsetData,
      retries: 0,
    });
    expect(await runCli([...args, "--temperature", "0.7", "--model-dir", "my-folder", "--timeout", "30"], io)).toBe(1);
    expect(bodies.length).toBeGreaterThan(100);
    for (const b of bodies) {
      expect(Object.keys(b).sort()).toEqual(["messages", "model", "store", "temperature", "tools"]);
      expect([b.model, b.temperature, b.store]).toEqual(["openai/gpt-oss-120b", 0.7, false]);
    }
    expect(readdirSync(out)).toEqual(["my-folder"]);
    expect(readdirSync(join(out, "my-folder", "multi_turn")).sort()).toEqual(categories.map((c) => `BFCL_v4_multi_turn_${c}_result.json`));
    // the default: BFCL's temperature, and the folder BFCL names after the model (/ → _)
    bodies.length = 0;
    const plain = join(tmp, "request-default");
    expect(
      await runCli(
        cliArgs("run", { endpoint: srv.url, model: "openai/gpt-oss-120b", out: plain, items: "all", "bfcl-data": subsetData, retries: 0 }),
        memoryIo({}, tmp),
      ),
    ).toBe(1);
    expect(bodies.every((b) => b.temperature === 0.001)).toBe(true);
    expect(readdirSync(plain)).toEqual(["openai_gpt-oss-120b"]);
  }, 120_000);

  it("--exclude-state-log: the recorded lines without their state snapshots, as bfcl generate --exclude-state-log writes them; --help says what a line holds", async () => {
    const srv = await serve(startReplayServer(recording));
    const out = join(tmp, "no-state");
    const io = memoryIo({}, tmp);
    const code = await runCli(
      cliArgs("run", {
        endpoint: srv.url,
        model: "openai/gpt-oss-120b",
        out,
        items: "all",
        "bfcl-data": subsetData,
        "exclude-state-log": true,
        retries: 0,
      }),
      io,
    );
    expect(code).toBe(1); // the recorded error lines
    expect(srv.stats.mismatches).toEqual([]);
    let snapshotsDropped = 0;
    for (const c of categories) {
      for (const l of readFileSync(resultFile(out, c), "utf8").trimEnd().split("\n")) {
        const v = stableLine(l);
        const id = v.get("id") as string;
        const recorded = jsonLoadsFast(recordedCanonical(id)) as PyDict;
        const log = recorded.get("inference_log");
        if (Array.isArray(log)) {
          // a state snapshot is a list; a turn record is a dict
          const turns = log.filter((x) => !Array.isArray(x));
          snapshotsDropped += log.length - turns.length;
          recorded.set("inference_log", turns);
          expect(Array.isArray(v.get("inference_log")) && (v.get("inference_log") as unknown[]).some(Array.isArray), id).toBe(false);
        }
        expect(jsonDumps(v), id).toBe(jsonDumps(recorded));
      }
    }
    expect(snapshotsDropped).toBeGreaterThan(24);
    const options = memoryIo({}, tmp);
    await runCli(["run", "--help"], options);
    expect(options.out.join("")).toContain("--exclude-state-log");
    const help = memoryIo({}, tmp);
    await runCli(["help", "generation"], help);
    const text = help.out.join("").replace(/\s+/g, " ");
    expect(text).toContain("The lines are those of a default `bfcl generate` run");
    expect(text).toContain("--include-input-log (the Python repr of each request's message objects) is not reproduced");
    expect(text).toContain("long_context is not generated");
  }, 120_000);

  it("progress on stderr: items done and total, requests, error lines, tokens, ETA; the summary's totals at the end", async () => {
    const srv = await serve(startReplayServer(recording, { delayMs: 40 }));
    const io = memoryIo({}, tmp);
    expect(
      await runCli(
        cliArgs("run", {
          endpoint: srv.url,
          model: "openai/gpt-oss-120b",
          out: join(tmp, "progress"),
          items: "all",
          "bfcl-data": subsetData,
          retries: 0,
        }),
        io,
      ),
    ).toBe(1);
    const lines = io.err.join("").split("\n");
    const progress = lines.filter((l) => /^run: \d+\/24 items, /.test(l));
    expect(progress[0]).toBe("run: 0/24 items, 0 requests, 0 error lines, tokens 0 in / 0 out");
    expect(progress.some((l) => /^run: \d+\/24 items, \d+ requests, \d+ error lines?, tokens \d+ in \/ \d+ out, ETA \d+s$/.test(l))).toBe(
      true,
    );
    const last = /^run: 24\/24 items, (\d+) requests, (\d+) error lines?, tokens (\d+) in \/ (\d+) out$/.exec(progress.at(-1) ?? "");
    expect(last).not.toBeNull();
    const [, requests, errors, tokensIn, tokensOut] = last ?? [];
    expect(Number(errors)).toBe(recordedErrorIds.length);
    expect(lines).toContain(
      `note: openai/gpt-oss-120b (fc): 24 items, 24 generated, 0 already in the output, ${counted(Number(errors), "error line")}; ${requests} requests, tokens ${tokensIn} in / ${tokensOut} out [run-summary]`,
    );
  }, 120_000);

  it("--user-sim scripted against the replay of the recorded run: the same bytes as a plain run", async () => {
    const reference = await referenceText();
    const srv = await serve(startReplayServer(recording));
    const out = join(tmp, "user-sim-scripted");
    const doc = await runCommand({
      endpoint: srv.url,
      model: "openai/gpt-oss-120b",
      out,
      items: "all",
      bfclData: subsetData,
      concurrency: 4,
      retries: 0,
      now: () => 0,
      cwd: tmp,
      env: {},
      userSim: "scripted",
    });
    expect(doc.exitCode).toBe(1); // the recorded error lines
    expect(doc.userSimulator).toBeNull();
    expect(srv.stats.mismatches).toEqual([]);
    expect(allFiles(out)).toBe(reference);
  }, 120_000);

  it("refuses bad arguments in one line, exit 2, before sending anything", async () => {
    const cases: string[][] = [
      ["--inject", "x", "--inject-file", "y"],
      ["--key-env", "NOT_SET_ANYWHERE"],
      ["--concurrency", "0"],
      ["--items", "some"],
    ];
    for (const extra of cases) {
      const io = memoryIo({}, tmp);
      const code = await runCli(
        ["run", "--endpoint", "http://127.0.0.1:9/v1", "--model", "m", "--out", join(tmp, "never"), "--bfcl-data", subsetData, ...extra],
        io,
      );
      expect(code, extra.join(" ")).toBe(2);
      expect(io.err.join("").trim().split("\n").length, io.err.join("")).toBeLessThanOrEqual(2);
      expect(io.err.join("")).not.toMatch(/at .*\.js:\d+/);
    }
  });

  it("a server that echoes the key (in replies, in a 401 body) never gets it into a result file or a message", async () => {
    const KEY = "sk-echo-run-987654";
    for (const status of [200, 401]) {
      const echo = await serve(startEchoServer(status));
      const out = join(tmp, `echo-${status}`);
      const io = memoryIo({ TS_KEY: KEY }, tmp);
      const code = await runCli(
        cliArgs("run", {
          endpoint: echo.url,
          model: "m",
          out,
          items: "all",
          "bfcl-data": subsetData,
          "key-env": "TS_KEY",
          retries: 0,
          verbose: true,
        }),
        io,
      );
      const everything = io.err.join("") + io.out.join("");
      const files = categories
        .map((c) => readFileSync(join(out, "m", "multi_turn", `BFCL_v4_multi_turn_${c}_result.json`), "utf8"))
        .join("");
      expect(code).toBe(status === 200 ? 0 : 1);
      expect(files + everything).not.toContain(KEY);
      // a 401's echo lands in the error lines, redacted; a 200's only in the content FC drops (the history keeps it, redacted)
      if (status === 401) expect(files).toContain("Bearer [redacted]");
    }
  }, 120_000);

  it("garbage replies and a hanging server give error lines (exit 1), never a crash or a hang", async () => {
    const garbage = await serve(startGarbageServer());
    const g = await runModel(request(garbage.url, join(tmp, "garbage"), { retries: 0 }));
    expect(g.ok).toBe(true);
    if (!g.ok) return;
    expect(g.value.errors.length).toBe(24);
    expect(g.value.errors[0].message).toContain("not JSON");
    const first = jsonLoadsFast(readFileSync(resultFile(join(tmp, "garbage"), "base"), "utf8").split("\n")[0]) as PyDict;
    expect([...first.keys()]).toEqual(["id", "result", "traceback", MODE_KEY]);
    expect(String(first.get("result"))).toMatch(/^Error during inference: /);

    const hang = await serve(startHangingServer());
    const t0 = Date.now();
    const h = await runModel(request(hang.url, join(tmp, "hang"), { timeoutMs: 150, retries: 1, concurrency: 24 }));
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(h.ok && h.value.errors.every((e) => e.message === "Request timed out.")).toBe(true);
    expect(h.ok && h.value.errors.length).toBe(24);
  }, 120_000);

  it("429 then success: retried, and the file is the uninterrupted run's", async () => {
    const reference = await referenceText();

    const respond = replayResponder(recording);
    const seen = new Set<string>();
    let refused = 0;
    const flaky = await serve(
      startChatServer((body, req, res) => {
        const key = `${String(req.headers["x-twinscore-item"])}:${(body.messages as unknown[]).length}`;
        if (!seen.has(key)) {
          seen.add(key);
          refused++;
          sendJson(res, 429, { error: { message: "rate limited" } }, { "retry-after": "0" });
          return;
        }
        const a = respond(body, String(req.headers["x-twinscore-item"]));
        sendJson(res, a.status, a.body);
      }),
    );
    const out = join(tmp, "flaky");
    const doc = await runModel(request(flaky.url, out));
    expect(doc.ok && doc.value.errors.map((e) => e.id)).toEqual(recordedErrorIds);
    expect(refused).toBeGreaterThan(100);
    expect(allFiles(out)).toBe(reference);
  }, 120_000);

  it("a server killed mid-run: error lines, then --retry-errors on a new server gives the uninterrupted file; a torn last line is repaired", async () => {
    const reference = await referenceText();

    const victim = await replayDyingAfter(120);
    const out = join(tmp, "killed");
    // --max-consecutive-errors 0: every item runs to its error line, as BFCL's loop does
    const first = await runModel(request(victim.url, out, { retries: 1, maxConsecutiveErrors: 0 }));
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.value.halted).toBeNull();
    expect(first.value.errors.length).toBeGreaterThan(0);
    expect(first.value.errors.filter((e) => !recordedErrorIds.includes(e.id)).every((e) => e.message === "Connection error.")).toBe(true);
    expect(first.value.errors.some((e) => e.message === "Connection error.")).toBe(true);
    expect(allFiles(out)).not.toBe(reference);

    const revived = await serve(startReplayServer(recording));
    const second = await runModel(request(revived.url, out, { retryErrors: true }));
    expect(second.ok && second.value.errors.map((e) => e.id)).toEqual(recordedErrorIds);
    expect(second.ok && second.value.generated).toBe(first.value.errors.length);
    expect(allFiles(out)).toBe(reference);

    // a run killed while writing leaves a torn last line: the next run cuts it and regenerates that entry
    const torn = join(tmp, "torn");
    mkdirSync(join(torn, "openai_gpt-oss-120b", "multi_turn"), { recursive: true });
    const base = readFileSync(resultFile(join(tmp, "reference"), "base"), "utf8");
    const lines = base.split("\n");
    const keep = lines.slice(0, 3).join("\n") + "\n" + lines[3].slice(0, 200);
    writeFileSync(resultFile(torn, "base"), keep);
    const resumed = await runModel(request(revived.url, torn));
    expect(resumed.ok && resumed.value.resumed).toBe(3);
    expect(allFiles(torn)).toBe(reference);
  }, 120_000);
});

describe("an endpoint that dies mid-run", () => {
  it("requests that cannot connect, 5 in a row (the default --max-consecutive-errors): one line, exit 2, the files whole and in BFCL's order; a rerun with --retry-errors completes them", async () => {
    const reference = await referenceText();
    const victim = await replayDyingAfter(60);
    const out = join(tmp, "died");
    const args = cliArgs("run", {
      endpoint: victim.url,
      model: "openai/gpt-oss-120b",
      out,
      items: "all",
      "bfcl-data": subsetData,
      retries: 1,
    });
    const io = memoryIo({}, tmp);
    const t0 = Date.now();
    expect(await runCli(args, io)).toBe(2);
    expect(Date.now() - t0).toBeLessThan(30_000);
    const lines = io.err
      .join("")
      .split("\n")
      .filter((l) => l !== "" && !/^run: \d+\/24 items/.test(l) && !l.startsWith("note: plan: "));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^error: 5 requests in a row could not connect to ${victim.url.replace(/[.]/g, "\\.")} \\(--max-consecutive-errors 5\\): the run stopped after \\d+ of 24 items; \\d+ not generated\\. The lines written are kept, whole and in BFCL's order; rerun the same command to go on \\(add --retry-errors to generate the \\d+ connection-error lines again\\) \\[endpoint-down\\]$`,
      ),
    );
    expect(io.out.join("")).toBe("");
    let written = 0;
    for (const c of categories) {
      let text = "";
      try {
        text = readFileSync(resultFile(out, c), "utf8");
      } catch {
        continue;
      }
      expect(text.endsWith("\n")).toBe(true);
      const got = text
        .trimEnd()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: string }).id);
      expect(got).toEqual([...got].sort(compareIds));
      written += got.length;
    }
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(24);

    const revived = await serve(startReplayServer(recording));
    const again = memoryIo({}, tmp);
    expect(await runCli([...args.map((a) => (a === victim.url ? revived.url : a)), "--retry-errors"], again)).toBe(1); // the recorded error lines
    expect(canonical(allFiles(out))).toEqual(canonical(reference));
  }, 120_000);
});

describe("the run process killed mid-run", () => {
  it("SIGKILL mid-run: a rerun keeps the lines already written, generates the rest, and ends with the uninterrupted run's lines", async () => {
    const { spawn } = await import("node:child_process");
    const { projectRoot } = await import("../../testing/shared.js");
    const reference = await referenceText();
    let child: ReturnType<typeof spawn> | null = null;
    let served = 0;
    const srv = await serve(
      startReplayServer(recording, {
        onRequest: () => {
          if (++served === 150) child?.kill("SIGKILL");
        },
      }),
    );
    const out = join(tmp, "process-killed");
    const args = cliArgs("run", {
      endpoint: srv.url,
      model: "openai/gpt-oss-120b",
      out,
      items: "all",
      "bfcl-data": subsetData,
      concurrency: 4,
      retries: 0,
    });
    child = spawn(process.execPath, [join(projectRoot, "dist", "cli", "main.js"), ...args], { stdio: "ignore" });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child?.on("exit", (_code, sig) => resolve(sig)));
    expect(signal).toBe("SIGKILL");
    const kept = categories.flatMap((c) => {
      try {
        return readFileSync(resultFile(out, c), "utf8")
          .split("\n")
          .filter((l) => l.startsWith("{") && l.endsWith("}"));
      } catch {
        return [];
      }
    });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(24);

    const io = memoryIo({}, tmp);
    const code = await runCli(args, io);
    expect(code).toBe(1); // the recorded error lines
    expect(io.err.join("")).toContain(`24 items, ${24 - kept.length} generated, ${kept.length} already in the output`);
    expect(srv.stats.mismatches).toEqual([]);
    // the latencies are the wall clock's here; everything else is the uninterrupted run's, in BFCL's order
    expect(canonical(allFiles(out))).toEqual(canonical(reference));
  }, 120_000);
});

describe("--retry-errors stopped by a signal", () => {
  it("SIGTERM and SIGINT mid-retry: no id twice on disk, the regenerated lines kept, no lock left; a rerun completes the files", async () => {
    const { spawn } = await import("node:child_process");
    const { existsSync } = await import("node:fs");
    const { projectRoot } = await import("../../testing/shared.js");
    const reference = await referenceText();
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const out = join(tmp, `retry-${signal}`);
      const victim = await replayDyingAfter(60);
      const first = await runModel(request(victim.url, out, { retries: 0, maxConsecutiveErrors: 0 }));
      if (!first.ok) throw new Error("the first run failed");
      const errorLines = () =>
        categories.flatMap((c) =>
          readFileSync(resultFile(out, c), "utf8")
            .split("\n")
            .filter((l) => l.includes('"result": "Error during inference')),
        );
      const before = errorLines().length;
      expect(before).toBeGreaterThan(recordedErrorIds.length + 2);

      let child: ReturnType<typeof spawn> | null = null;
      let served = 0;
      const srv = await serve(
        startReplayServer(recording, {
          onRequest: () => {
            if (++served === 40) child?.kill(signal);
          },
        }),
      );
      const args = cliArgs("run", {
        endpoint: srv.url,
        model: "openai/gpt-oss-120b",
        out,
        items: "all",
        "bfcl-data": subsetData,
        concurrency: 2,
        retries: 0,
        "retry-errors": true,
      });
      child = spawn(process.execPath, [join(projectRoot, "dist", "cli", "main.js"), ...args], { stdio: "ignore" });
      const ended = await new Promise<NodeJS.Signals | null>((resolve) => child?.on("exit", (_code, sig) => resolve(sig)));
      expect(ended).toBe(signal);
      for (const c of categories) {
        const got = readFileSync(resultFile(out, c), "utf8")
          .trimEnd()
          .split("\n")
          .map((l) => (JSON.parse(l) as { id: string }).id);
        expect(new Set(got).size).toBe(got.length);
        expect(got).toEqual([...got].sort(compareIds));
      }
      // some error lines were regenerated and replaced, not kept beside their rerun
      const after = errorLines().length;
      expect(after).toBeLessThan(before);
      expect(after).toBeGreaterThanOrEqual(recordedErrorIds.length);
      expect(existsSync(join(out, "openai_gpt-oss-120b", ".twinscore-run.lock"))).toBe(false);

      const io = memoryIo({}, tmp);
      expect(await runCli(args, io)).toBe(1); // the recorded error lines
      expect(canonical(allFiles(out))).toEqual(canonical(reference));
    }
  }, 180_000);
});

describe("the built bin", () => {
  it("`twinscore run --help` teaches the command and its exit codes, and `help generation` the rest (what `npx twinscore …` prints after npm ci)", async () => {
    const { spawnSync } = await import("node:child_process");
    const { projectRoot } = await import("../../testing/shared.js");
    const run = spawnSync(process.execPath, [join(projectRoot, "dist", "cli", "main.js"), "run", "--help"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Usage: twinscore run [options]");
    expect(run.stdout).toContain("--until-anchor");
    expect(run.stdout).toMatch(/\nExit: 0 .*; 1 .*; 2 /);
    expect(run.stdout).toMatch(/\n\nMore: twinscore help generation, history, interactive, exit-codes\n$/);
    const topic = spawnSync(process.execPath, [join(projectRoot, "dist", "cli", "main.js"), "help", "generation"], { encoding: "utf8" });
    expect(topic.status).toBe(0);
    expect(topic.stdout).toContain("x-twinscore-item");
  });
});
