import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parsePromptFile } from "../judge/prompt.js";
import type { HeldBackTurn } from "../judge/types.js";
import { projectRoot } from "../testing/shared.js";
import { readLabelsFile, runJudge, type JudgeRunOptions } from "./judge-client.js";

type Handler = (body: { messages: { content: string }[] }, req: IncomingMessage, res: ServerResponse) => void;

let server: Server | null = null;
const seenAuth: string[] = [];

async function startStub(handler: Handler): Promise<string> {
  server = createServer((req, res) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      seenAuth.push(String(req.headers.authorization ?? ""));
      handler(JSON.parse(data), req, res);
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const addr = server.address();
  if (!addr || typeof addr === "string") throw new Error("no port");
  return `http://127.0.0.1:${addr.port}/v1`;
}

afterEach(async () => {
  if (server) await new Promise<void>((r) => server!.close(() => r()));
  server = null;
  seenAuth.length = 0;
});

function reply(res: ServerResponse, content: string, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content } }] }));
}

const prompt = (parsePromptFile(readFileSync(join(projectRoot, "data", "judge-prompt.md"), "utf8")) as { ok: true; prompt: { system: string; user: string } }).prompt;

function turns(n: number): HeldBackTurn[] {
  return Array.from({ length: n }, (_, i) => ({
    model: "m",
    missId: `multi_turn_miss_param_${i}`,
    baseId: `multi_turn_base_${i}`,
    category: "miss_param" as const,
    anchorTurn: 0,
    request: `request ${i}`,
    baseRequest: `complete request ${i}`,
    removedFunctions: [],
    lookups: [],
    reply: i % 2 ? "Which file do you mean?" : "I cannot do that.",
  }));
}

function options(endpoint: string, dir: string, extra: Partial<JudgeRunOptions> = {}): JudgeRunOptions {
  return {
    endpoint,
    judgeModel: "stub-judge",
    apiKey: "sk-secret-test-key",
    prompt,
    labelsFile: join(dir, "labels.jsonl"),
    cacheDir: join(dir, "cache"),
    concurrency: 3,
    timeoutMs: 2000,
    retries: 3,
    backoffMs: 5,
    ...extra,
  };
}

const labelFor = (body: { messages: { content: string }[] }) =>
  body.messages[1].content.includes("Which file") ? '{"label": "asks_other"}' : '{"label": "refuses"}';

describe("runJudge against a stub server on 127.0.0.1", () => {
  it("labels every turn, appends JSONL, and sends the key only in the header", async () => {
    const url = await startStub((body, _req, res) => reply(res, labelFor(body)));
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    const progress: number[] = [];
    const report = await runJudge(turns(6), options(url, dir, { onProgress: (d) => progress.push(d) }));
    expect(report).toMatchObject({ labelled: 6, requested: 6, fromCache: 0, resumed: 0, failures: [] });
    const recs = readLabelsFile(join(dir, "labels.jsonl"));
    expect(recs.map((r) => r.label).sort()).toEqual(["asks_other", "asks_other", "asks_other", "refuses", "refuses", "refuses"]);
    expect(progress.at(-1)).toBe(6);
    expect(seenAuth.every((a) => a === "Bearer sk-secret-test-key")).toBe(true);
    const written = readFileSync(join(dir, "labels.jsonl"), "utf8") + readdirSync(join(dir, "cache")).map((f) => readFileSync(join(dir, "cache", f), "utf8")).join("");
    expect(written).not.toContain("sk-secret-test-key");
  });

  it("a rerun costs nothing: everything is resumed from the labels file", async () => {
    let calls = 0;
    const url = await startStub((body, _req, res) => {
      calls++;
      reply(res, labelFor(body));
    });
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    await runJudge(turns(4), options(url, dir));
    const second = await runJudge(turns(4), options(url, dir));
    expect(calls).toBe(4);
    expect(second).toMatchObject({ labelled: 0, resumed: 4, requested: 0 });
    expect(readLabelsFile(join(dir, "labels.jsonl"))).toHaveLength(4);
  });

  it("a fresh labels file with a warm cache makes no request", async () => {
    let calls = 0;
    const url = await startStub((body, _req, res) => {
      calls++;
      reply(res, labelFor(body));
    });
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    await runJudge(turns(3), options(url, dir));
    const again = await runJudge(turns(3), options(url, dir, { labelsFile: join(dir, "other.jsonl") }));
    expect(calls).toBe(3);
    expect(again).toMatchObject({ labelled: 3, fromCache: 3, requested: 0 });
  });

  it("retries 429 and 5xx with backoff, then succeeds", async () => {
    const hits = new Map<string, number>();
    const url = await startStub((body, _req, res) => {
      const k = body.messages[1].content;
      const n = (hits.get(k) ?? 0) + 1;
      hits.set(k, n);
      if (n === 1) return reply(res, "slow down", 429);
      if (n === 2) return reply(res, "oops", 503);
      reply(res, labelFor(body));
    });
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    const report = await runJudge(turns(2), options(url, dir));
    expect(report).toMatchObject({ labelled: 2, failures: [] });
    expect([...hits.values()]).toEqual([3, 3]);
  });

  it("reports malformed replies and does not invent a label", async () => {
    const url = await startStub((_body, _req, res) => reply(res, "The assistant seems helpful."));
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    const report = await runJudge(turns(2), options(url, dir));
    expect(report.labelled).toBe(0);
    expect(report.failures).toHaveLength(2);
    expect(report.failures[0].message).toMatch(/malformed judge reply/);
    expect(readLabelsFile(join(dir, "labels.jsonl"))).toHaveLength(0);
  });

  it("gives up after the retries when the server never answers in time", async () => {
    const url = await startStub(() => {
      /* never answers */
    });
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    const report = await runJudge(turns(1), options(url, dir, { timeoutMs: 100, retries: 1 }));
    expect(report.labelled).toBe(0);
    expect(report.failures[0].message).toMatch(/timed out after 100 ms/);
  });

  it("resumes after an interruption with no duplicate and no lost label", async () => {
    const url = await startStub((body, _req, res) => reply(res, labelFor(body)));
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    const all = turns(5);
    // First run is interrupted after two labels, the last write torn in half.
    await runJudge(all.slice(0, 2), options(url, dir));
    const file = join(dir, "labels.jsonl");
    appendFileSync(file, '{"model":"m","missId":"multi_turn_miss_param_2","requestK');
    const report = await runJudge(all, options(url, dir, { cacheDir: null }));
    expect(report).toMatchObject({ resumed: 2, labelled: 3 });
    const ids = readLabelsFile(file).map((r) => r.missId).sort();
    expect(ids).toEqual(all.map((t) => t.missId).sort());
    expect(new Set(ids).size).toBe(5);
  });

  it("never leaves a torn line in front of a new label", async () => {
    const url = await startStub((body, _req, res) => reply(res, labelFor(body)));
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    const file = join(dir, "labels.jsonl");
    writeFileSync(file, '{"model":"m","missId":"x"');
    await runJudge(turns(1), options(url, dir));
    expect(readLabelsFile(file)).toHaveLength(1);
  });
});
