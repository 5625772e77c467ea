import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parsePromptFile } from "../judge/prompt.js";
import type { HeldBackTurn } from "../judge/types.js";
import { projectRoot } from "../testing/shared.js";
import { MAX_STORED_REPLY_CHARS } from "../io/judge-client.js";
import { readLabelsFile, runJudge, type JudgeRunOptions } from "./judge-run.js";
import { nodeHost } from "../io/host.js";
import { startDripServer, startEchoServer } from "../testing/stub-servers.js";
import { startBackslashServer } from "../testing/hostile-servers.js";

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

const prompt = (
  parsePromptFile(readFileSync(join(projectRoot, "data", "judge-prompt.md"), "utf8")) as {
    ok: true;
    prompt: { system: string; user: string };
  }
).prompt;

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
    host: nodeHost(),
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
    const recs = readLabelsFile(join(dir, "labels.jsonl"), nodeHost());
    expect(recs.map((r) => r.label).sort()).toEqual(["asks_other", "asks_other", "asks_other", "refuses", "refuses", "refuses"]);
    expect(progress.at(-1)).toBe(6);
    expect(seenAuth.every((a) => a === "Bearer sk-secret-test-key")).toBe(true);
    const written =
      readFileSync(join(dir, "labels.jsonl"), "utf8") +
      readdirSync(join(dir, "cache"))
        .map((f) => readFileSync(join(dir, "cache", f), "utf8"))
        .join("");
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
    expect(readLabelsFile(join(dir, "labels.jsonl"), nodeHost())).toHaveLength(4);
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
    expect(readLabelsFile(join(dir, "labels.jsonl"), nodeHost())).toHaveLength(0);
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
    const ids = readLabelsFile(file, nodeHost())
      .map((r) => r.missId)
      .sort();
    expect(ids).toEqual(all.map((t) => t.missId).sort());
    expect(new Set(ids).size).toBe(5);
  });

  it("never leaves a torn line in front of a new label", async () => {
    const url = await startStub((body, _req, res) => reply(res, labelFor(body)));
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    const file = join(dir, "labels.jsonl");
    writeFileSync(file, '{"model":"m","missId":"x"');
    await runJudge(turns(1), options(url, dir));
    expect(readLabelsFile(file, nodeHost())).toHaveLength(1);
  });
});

describe("runJudge: backoff, key redaction, what is cached", () => {
  it("backs off exponentially with jitter without Retry-After, and cuts Retry-After: 3600 to the cap (reported)", async () => {
    const hits = new Map<string, number>();
    const url = await startStub((body, _req, res) => {
      const k = body.messages[1].content;
      const n = (hits.get(k) ?? 0) + 1;
      hits.set(k, n);
      if (n <= 3) return reply(res, "slow down", 429);
      reply(res, labelFor(body));
    });
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    const waits: number[] = [];
    const report = await runJudge(turns(1), options(url, dir, { backoffMs: 1000, sleep: async (ms) => void waits.push(ms) }));
    expect(report).toMatchObject({ labelled: 1, failures: [] });
    expect(waits).toHaveLength(3);
    // each wait lies in [step/2, step] of a doubling step: 1 s, 2 s, 4 s
    waits.forEach((w, i) => {
      expect(w).toBeGreaterThanOrEqual(500 * 2 ** i);
      expect(w).toBeLessThanOrEqual(1000 * 2 ** i);
    });
    await new Promise<void>((r) => server!.close(() => r()));
    server = null;
    let first = true;
    const url2 = await startStub((body, _req, res) => {
      if (first) {
        first = false;
        res.writeHead(429, { "content-type": "application/json", "retry-after": "3600" });
        res.end(JSON.stringify({ error: { message: "come back in an hour" } }));
        return;
      }
      reply(res, labelFor(body));
    });
    const waits2: number[] = [];
    const capped: (number | null)[] = [];
    const r2 = await runJudge(
      turns(1),
      options(url2, mkdtempSync(join(tmpdir(), "judge-")), {
        retryAfterCapMs: 2_000,
        sleep: async (ms) => void waits2.push(ms),
        onRetry: (i) => capped.push(i.retryAfterCappedFromMs),
      }),
    );
    expect(r2.labelled).toBe(1);
    expect(waits2).toEqual([2_000]);
    expect(capped).toEqual([3_600_000]);
  });

  it("never shows or stores the key, even when the server echoes it (401 body, 200 reply)", async () => {
    const key = "sk-secret-test-key";
    const echo401 = await startEchoServer(401);
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    try {
      const r = await runJudge(turns(2), options(echo401.url, dir));
      expect(r.failures).toHaveLength(2);
      for (const f of r.failures) {
        expect(f.message).not.toContain(key);
        expect(f.message).toContain("[redacted]");
      }
    } finally {
      await echo401.close();
    }
    const echo200 = await startEchoServer(200);
    try {
      const r = await runJudge(turns(2), options(echo200.url, dir));
      expect(r.labelled).toBe(2);
      const stored =
        readFileSync(join(dir, "labels.jsonl"), "utf8") +
        readdirSync(join(dir, "cache"))
          .map((f) => readFileSync(join(dir, "cache", f), "utf8"))
          .join("");
      expect(stored).toContain("[redacted]");
      expect(stored).not.toContain(key);
    } finally {
      await echo200.close();
    }
  });

  it("caches only replies that gave a label: a rerun against a good endpoint asks again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    const bad = await startStub((_body, _req, res) => reply(res, "no label here"));
    const first = await runJudge(turns(5), options(bad, dir));
    expect(first).toMatchObject({ labelled: 0, requested: 5 });
    expect(first.failures).toHaveLength(5);
    await new Promise<void>((r) => server!.close(() => r()));
    server = null;
    const good = await startStub((body, _req, res) => reply(res, labelFor(body)));
    const second = await runJudge(turns(5), options(good, dir));
    expect(second).toMatchObject({ labelled: 5, requested: 5, fromCache: 0, failures: [] });
  });

  it("a reply dripping past the timeout is a timeout, retried; a 2 MB reply (within the client's 8 MiB bound) is stored cut", async () => {
    const drip = await startDripServer(40, 300);
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    try {
      const r = await runJudge(turns(1), options(drip.url, dir, { timeoutMs: 250, retries: 1, backoffMs: 1 }));
      expect(r.failures[0].message).toMatch(/timed out after 250 ms/);
      expect(drip.stats.requests).toBe(2);
    } finally {
      await drip.close();
    }
    const big = await startStub((_body, _req, res) => reply(res, `{"label": "refuses"} ${"padding ".repeat(250_000)}`));
    const r = await runJudge(turns(1), options(big, dir, { labelsFile: join(dir, "big.jsonl") }));
    expect(r.labelled).toBe(1);
    const stored = readFileSync(join(dir, "big.jsonl"), "utf8");
    expect(stored.length).toBeLessThan(MAX_STORED_REPLY_CHARS + 1_000);
    expect(stored).toContain("[cut: the reply had");
    expect(readLabelsFile(join(dir, "big.jsonl"), nodeHost())[0].label).toBe("refuses");
  });
});

describe("a judge whose replies are 150,000 backslashes, with a key set", () => {
  it("each reply costs time linear in its size: the run ends within its deadline and a few seconds, every turn a failure named", async () => {
    const srv = await startBackslashServer(150_000, "stub-judge");
    try {
      const dir = mkdtempSync(join(tmpdir(), "judge-backslashes-"));
      const t0 = Date.now();
      const report = await runJudge(turns(8), options(srv.url, dir, { timeoutMs: 5_000, retries: 0, cacheDir: null }));
      // with a redaction quadratic in the run of backslashes, each reply took over a minute;
      // the slack is for a loaded 2-core machine
      expect(Date.now() - t0).toBeLessThan(5_000 + 15_000);
      expect(report.requested).toBe(8);
      expect(report.failures).toHaveLength(8);
      for (const f of report.failures) expect(f.message).toMatch(/^malformed judge reply: no label in reply "\\+"$/);
    } finally {
      await srv.close();
    }
  }, 60_000);
});
