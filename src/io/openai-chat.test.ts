import { describe, expect, it } from "vitest";
import {
  completionWith,
  startDripServer,
  startEchoServer,
  startFlakyServer,
  startGarbageServer,
  startHangingServer,
} from "../testing/stub-servers.js";
import {
  closedPort,
  keySpellings,
  startDeepServer,
  startEndlessServer,
  startHugeUsageServer,
  startKeyEchoModel,
  startModelListServer,
  type ReceivedBodies,
} from "../testing/hostile-servers.js";
import { sendJson, startChatServer } from "../testing/replay.js";
import { JSON_DECODE_MAX_DEPTH } from "../python/limits.js";
import { startLyingEncodingServer, startRawServer, startRedirectServer, startSelfSignedServer } from "../testing/broken-http.js";
import { createChatClient, probeEndpoint, pythonHttpErrorText, redactKey, retryAfterMs, shownUrl, type RetryInfo } from "./openai-chat.js";
import { serverPool } from "../testing/run-fixtures.js";

const KEY = "sk-test-9f8e7d6c5b4a";
const { serve } = serverPool();
const body = { model: "m", messages: [{ role: "user", content: "hi" }], temperature: 0.001, store: false };

describe("the chat client (openai package)", () => {
  it("backs off exponentially with jitter when there is no Retry-After, and succeeds after 429s", async () => {
    const srv = await serve(startFlakyServer(3, 429, {}, (_b, _r, res) => sendJson(res, 200, completionWith("ok"))));
    const waits: number[] = [];
    const randoms = [0, 0.5, 1];
    const client = createChatClient({
      endpoint: srv.url,
      apiKey: null,
      timeoutMs: 2000,
      retries: 5,
      backoffMs: 100,
      sleep: async (ms) => void waits.push(ms),
      random: () => randoms[waits.length] ?? 0,
    });
    const out = await client(body, "item_1");
    expect(out.ok).toBe(true);
    expect(out.attempts).toBe(4);
    // step doubles (100, 200, 400); each wait is half the step plus a random share of the other half
    expect(waits).toEqual([50, 150, 400]);
  });

  it("honours Retry-After, and cuts a long one to the cap and says so", async () => {
    const srv = await serve(startFlakyServer(1, 429, { "retry-after": "3600" }, (_b, _r, res) => sendJson(res, 200, completionWith("ok"))));
    const infos: RetryInfo[] = [];
    const waits: number[] = [];
    const client = createChatClient({
      endpoint: srv.url,
      apiKey: null,
      timeoutMs: 2000,
      retries: 2,
      backoffMs: 10,
      retryAfterCapMs: 5_000,
      onRetry: (i) => infos.push(i),
      sleep: async (ms) => void waits.push(ms),
    });
    expect((await client(body, "x")).ok).toBe(true);
    expect(waits).toEqual([5_000]);
    expect(infos[0].retryAfterCappedFromMs).toBe(3_600_000);
    const short = await serve(startFlakyServer(1, 503, { "retry-after": "2" }, (_b, _r, res) => sendJson(res, 200, completionWith("ok"))));
    const w2: number[] = [];
    const c2 = createChatClient({
      endpoint: short.url,
      apiKey: null,
      timeoutMs: 2000,
      retries: 2,
      backoffMs: 10,
      sleep: async (ms) => void w2.push(ms),
    });
    expect((await c2(body, "x")).ok).toBe(true);
    expect(w2).toEqual([2000]);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": new Date(Date.now() + 10_000).toUTCString() }))).toBeGreaterThan(8_000);
  });

  it("words a final HTTP failure as BFCL's Python client does, and does not retry a 400", async () => {
    const srv = await serve(startFlakyServer(99, 400, {}, () => undefined));
    const waits: number[] = [];
    const client = createChatClient({
      endpoint: `${srv.url}/chat/completions`,
      apiKey: null,
      timeoutMs: 2000,
      retries: 3,
      sleep: async (ms) => void waits.push(ms),
    });
    const out = await client(body, "x");
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error).toBe(
      "Error code: 400 - {'error': {'message': 'try again later (1)', 'type': 'rate_limit', 'param': None, 'code': 400}}",
    );
    expect(waits).toEqual([]);
    expect(pythonHttpErrorText(502, "Bad Gateway")).toBe("Bad Gateway");
    expect(pythonHttpErrorText(502, "")).toBe("Error code: 502");
  });

  it("a body that drips past the deadline is a timeout (retried), not a reply that is not JSON", async () => {
    const srv = await serve(startDripServer(50, 400));
    const waits: number[] = [];
    const client = createChatClient({
      endpoint: srv.url,
      apiKey: null,
      timeoutMs: 300,
      retries: 1,
      backoffMs: 1,
      sleep: async (ms) => void waits.push(ms),
    });
    const out = await client(body, "x");
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.kind).toBe("timeout");
    expect(out.error).toBe("Request timed out.");
    expect(out.attempts).toBe(2);
  });

  it("a server that never answers times out; garbage is reported, not retried", async () => {
    const hang = await serve(startHangingServer());
    const client = createChatClient({ endpoint: hang.url, apiKey: null, timeoutMs: 200, retries: 0 });
    const t0 = Date.now();
    const out = await client(body, "x");
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(out.ok === false && out.kind).toBe("timeout");
    const garbage = await serve(startGarbageServer());
    const g = await createChatClient({ endpoint: garbage.url, apiKey: null, timeoutMs: 2000, retries: 3 })(body, "x");
    expect(g.ok === false && g.kind).toBe("reply");
    expect(g.ok === false && g.error).toContain("not JSON");
    expect(g.attempts).toBe(1);
    const notCompletion = await serve(startGarbageServer(true));
    const n = await createChatClient({ endpoint: notCompletion.url, apiKey: null, timeoutMs: 2000, retries: 0 })(body, "x");
    expect(n.ok).toBe(true); // JSON without choices: the caller (run, judge) reports what is missing
  });

  it("sends the key only in the Authorization header and redacts every echo of it", async () => {
    const seen: string[] = [];
    const ok200 = await serve(startEchoServer(200));
    const good = await createChatClient({ endpoint: ok200.url, apiKey: KEY, timeoutMs: 2000, retries: 0 })(body, "multi_turn_base_7");
    expect(good.ok).toBe(true);
    const text = JSON.stringify(good.ok ? good.completion : null);
    expect(text).not.toContain(KEY);
    expect(text).toContain("[redacted]");
    expect(text).toContain("multi_turn_base_7"); // the item header went out
    seen.push(text);
    const unauthorized = await serve(startEchoServer(401));
    const bad = await createChatClient({ endpoint: unauthorized.url, apiKey: KEY, timeoutMs: 2000, retries: 2 })(body, "x");
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error).not.toContain(KEY);
    expect(bad.error).toContain("Bearer [redacted]");
    expect(bad.attempts).toBe(1);
    expect(redactKey(`a${KEY}b${KEY}`, KEY)).toBe("a[redacted]b[redacted]");
    // without a key no Authorization header is sent
    const none = await createChatClient({ endpoint: ok200.url, apiKey: null, timeoutMs: 2000, retries: 0 })(body, "x");
    expect(JSON.stringify(none.ok ? none.completion : null)).not.toContain("authorization");
  });

  it("a refused connection is a network error, retried", async () => {
    const srv = await serve(startHangingServer());
    const url = srv.url;
    await srv.close();
    const waits: number[] = [];
    const out = await createChatClient({
      endpoint: url,
      apiKey: null,
      timeoutMs: 2000,
      retries: 2,
      backoffMs: 1,
      sleep: async (ms) => void waits.push(ms),
    })(body, "x");
    expect(out.ok === false && out.kind).toBe("network");
    expect(out.ok === false && out.error).toBe("Connection error.");
    expect(waits.length).toBe(2);
  });
});

describe("the chat client against a hostile endpoint", () => {
  it("reads a reply that never ends only up to maxReplyBytes: a reply failure, not retried, at once", async () => {
    const endless = await serve(startEndlessServer());
    const t0 = Date.now();
    const out = await createChatClient({ endpoint: endless.url, apiKey: null, timeoutMs: 20_000, retries: 3, maxReplyBytes: 256 * 1024 })(
      body,
      "x",
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(out.ok === false && out.kind).toBe("reply");
    expect(out.ok === false && out.error).toBe(
      "the endpoint's reply is longer than 262144 bytes (--max-reply-bytes); it was not read further",
    );
    expect(out.attempts).toBe(1);
  });

  it("refuses a reply nested deeper than Python's json.loads reads, and reads one just within it", async () => {
    for (const [depth, where] of [
      [3000, "content"],
      [3000, "arguments"],
      [JSON_DECODE_MAX_DEPTH - 8, "arguments"],
    ] as const) {
      const srv = await serve(startDeepServer(new Map([["x", { where, depth }]])));
      const out = await createChatClient({ endpoint: srv.url, apiKey: null, timeoutMs: 5_000, retries: 2 })(body, "x");
      if (depth > JSON_DECODE_MAX_DEPTH) {
        expect(out.ok === false && out.kind, `${where} ${depth}`).toBe("reply");
        expect(out.ok === false && out.error).toContain(`more than ${JSON_DECODE_MAX_DEPTH} levels deep`);
        expect(out.attempts).toBe(1);
      } else expect(out.ok, `${where} ${depth}`).toBe(true);
    }
  });

  it("redacts the key after JSON decoding, in every spelling, from replies and error bodies; numbers JSON cannot hold come back null", async () => {
    const received: ReceivedBodies = { bodies: [] };
    const srv = await serve(startKeyEchoModel(received, { errorEvery: 2 }));
    const client = createChatClient({ endpoint: srv.url, apiKey: SLASH_KEY, timeoutMs: 5_000, retries: 0 });
    const texts: string[] = [];
    for (let i = 0; i < 2 * keySpellings.length; i++) {
      const out = await client(body, `item_${i}`);
      texts.push(out.ok ? String((out.completion.choices as { message: { content: string } }[])[0].message.content) : out.error);
    }
    expect(texts.filter((t) => t.startsWith("Error code: 500"))).toHaveLength(keySpellings.length);
    for (const t of texts) {
      expect(t).toContain("[redacted]");
      expect(
        stringsOf(t).some((s) => s.includes(SLASH_KEY)),
        t,
      ).toBe(false);
    }
    const huge = await serve(startHugeUsageServer());
    const h = await createChatClient({ endpoint: huge.url, apiKey: null, timeoutMs: 5_000, retries: 0 })(body, "x");
    expect(h.ok && h.completion.usage).toEqual({ prompt_tokens: null, completion_tokens: null, total_tokens: null });
  });

  it("a deadline beyond Node's timer limit is held at the limit: no overflow warning, no instant timeout", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const srv = await serve(startFlakyServer(0, 200, {}, (_b, _r, res) => sendJson(res, 200, completionWith("ok"))));
      const out = await createChatClient({ endpoint: srv.url, apiKey: null, timeoutMs: 2_147_483_000, retries: 0 })(body, "x");
      expect(out.ok).toBe(true);
      await new Promise((r) => setTimeout(r, 20));
      expect(warnings).not.toContain("TimeoutOverflowWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("the probe before a run", () => {
  const probe = (endpoint: string, model: string, apiKey: string | null = null) =>
    probeEndpoint({ endpoint, model, apiKey, timeoutMs: 5_000 });

  it("nothing listening: refused at once, naming the address", async () => {
    const port = await closedPort();
    const t0 = Date.now();
    const out = await probe(`http://127.0.0.1:${port}/v1`, "m");
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(out).toEqual({
      ok: false,
      kind: "network",
      message: `nothing answers at http://127.0.0.1:${port}/v1 (ECONNREFUSED): is the server running, and is --endpoint its address?`,
    });
  });

  it("a vLLM-like server: a listed model passes on the model list alone; another is refused with what is served", async () => {
    const srv = await serve(startModelListServer(["Qwen/Qwen3-8B"]));
    expect(await probe(srv.url, "Qwen/Qwen3-8B")).toEqual({ ok: true, how: "listed", note: null });
    expect(srv.stats.requests).toBe(0); // no chat request was needed
    const wrong = await probe(srv.url, "qwen3-8b");
    expect(wrong.ok).toBe(false);
    if (wrong.ok) return;
    expect(wrong.kind).toBe("model");
    expect(wrong.message).toContain('the endpoint answers 404 to a request for model "qwen3-8b"');
    expect(wrong.message).toContain("The model `qwen3-8b` does not exist.");
    expect(wrong.message).toContain(`GET ${srv.url}/models lists "Qwen/Qwen3-8B"`);
  });

  it("a server without a model list that answers any name (llama.cpp): one one-token chat request; a refused key is named", async () => {
    const seen: Record<string, unknown>[] = [];
    const srv = await serve(startChatServer((b, _r, res) => (seen.push(b), sendJson(res, 200, completionWith("O"))), { probe: "pass" }));
    expect(await probe(srv.url, "anything")).toEqual({ ok: true, how: "answered", note: null });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ model: "anything", max_tokens: 1 });
    const locked = await serve(
      startChatServer((_b, req, res) => sendJson(res, 401, { error: { message: `bad key ${String(req.headers.authorization)}` } }), {
        probe: "pass",
      }),
    );
    const refused = await probe(locked.url, "m", KEY);
    expect(refused.ok === false && refused.kind).toBe("key");
    expect(JSON.stringify(refused)).not.toContain(KEY);
  });
});

const SLASH_KEY = "sk-proj/k3y-Echo_55";

/** Every string a text holds: itself, and the strings of any JSON it parses as (recursively). */
function stringsOf(text: string): string[] {
  const out = [text];
  try {
    const walk = (v: unknown): void => {
      if (typeof v === "string") out.push(...stringsOf(v));
      else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) (out.push(k), walk(x));
    };
    walk(JSON.parse(text));
  } catch {
    // not JSON: the text itself is all
  }
  return out;
}

describe("servers that answer, but badly: each failure named, none left hanging", () => {
  const kinds = [
    ...(["gzip", "deflate", "br"] as const).map((coding) => ({
      what: `Content-Encoding: ${coding} over a plain body`,
      start: () => startLyingEncodingServer(coding),
      kind: "reply",
      says: new RegExp(`Content-Encoding: ${coding}, but its body is not ${coding} data`),
    })),
    {
      what: "chunked encoding with sizes that are not hexadecimal",
      start: () => startRawServer("bad-chunks"),
      kind: "reply",
      says: /malformed chunked encoding/,
    },
    {
      what: "a reply with no status line (HTTP/0.9)",
      start: () => startRawServer("http09"),
      kind: "unusable",
      says: /no HTTP\/1\.x status line \(an HTTP\/0\.9 reply/,
    },
    {
      what: "redirects in a loop",
      start: () => startRedirectServer("loop"),
      kind: "unusable",
      says: /redirects in a loop: http:\/\/127\.0\.0\.1:\d+\/v1\/(\S+) -> http:\/\/127\.0\.0\.1:\d+\/elsewhere\/v1\/\1 -> http:\/\/127\.0\.0\.1:\d+\/v1\/\1$/,
    },
    {
      what: "a redirect to a file: URL",
      start: () => startRedirectServer("file"),
      kind: "unusable",
      says: /redirects to a file: URL, which is not followed/,
    },
    {
      what: "a redirect to a data: URL",
      start: () => startRedirectServer("data"),
      kind: "unusable",
      says: /redirects to a data: URL, which is not followed/,
    },
    {
      what: "a self-signed TLS certificate",
      start: () => startSelfSignedServer(),
      kind: "unusable",
      says: /TLS certificate is not trusted \(self[- ]signed certificate\)/,
    },
  ] as const;

  for (const k of kinds) {
    it(`${k.what}: the client names it at once (not retried, not a connection error); the probe names it too`, async () => {
      const srv = await serve(k.start());
      const waits: number[] = [];
      const t0 = Date.now();
      // five requests at once: one reply left waiting would hold the test to the 10 s deadline
      const client = createChatClient({
        endpoint: srv.url,
        apiKey: KEY,
        timeoutMs: 10_000,
        retries: 3,
        sleep: async (ms) => void waits.push(ms),
      });
      const outs = await Promise.all(Array.from({ length: 5 }, (_, i) => client(body, `item_${i}`)));
      expect(Date.now() - t0).toBeLessThan(5_000);
      for (const out of outs) {
        expect(out.ok).toBe(false);
        if (out.ok) return;
        expect(out.kind).toBe(k.kind);
        expect(out.error).toMatch(k.says);
        expect(out.attempts).toBe(1);
      }
      expect(waits).toEqual([]);
      const probed = await probeEndpoint({ endpoint: srv.url, model: "m", apiKey: KEY, timeoutMs: 10_000 });
      if (k.kind === "unusable") {
        expect(probed.ok).toBe(false);
        if (probed.ok) return;
        expect(probed.kind).toBe("unusable");
        expect(probed.message).toMatch(k.says);
        expect(probed.message).not.toMatch(/nothing answers/);
      } else {
        // the endpoint is there: a run goes on, and each item's error line names the cause
        expect(probed.ok).toBe(true);
        if (!probed.ok) return;
        expect(probed.note).toMatch(k.says);
      }
      expect(Date.now() - t0).toBeLessThan(8_000);
    });
  }

  it("a key in the endpoint's query string is sent with each request and never shown: messages carry the URL without it, echoes are redacted", async () => {
    const seen: string[] = [];
    const srv = await serve(
      startChatServer(
        (_b, req, res) => {
          seen.push(req.url ?? "");
          sendJson(res, 404, { error: { message: `no such route: ${req.url}` } });
        },
        { probe: "pass" },
      ),
    );
    const secret = "qs-secret-0123456789abcdef";
    const endpoint = `${srv.url}?api-key=${secret}&api-version=2024-06-01`;
    const out = await createChatClient({ endpoint, apiKey: null, timeoutMs: 2_000, retries: 0 })(body, "x");
    expect(seen[0]).toBe(`/v1/chat/completions?api-key=${secret}&api-version=2024-06-01`);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error).toContain("no such route: /v1/chat/completions?api-key=[redacted]&api-version=2024-06-01");
    const probed = await probeEndpoint({ endpoint, model: "m", apiKey: null, timeoutMs: 2_000 });
    expect(probed.ok).toBe(false);
    if (probed.ok) return;
    expect(probed.message).toContain(`at ${srv.url}/chat/completions`);
    expect(probed.message).not.toContain(secret);
    const closed = await probeEndpoint({
      endpoint: `http://127.0.0.1:${await closedPort()}/v1?key=${secret}`,
      model: "m",
      apiKey: null,
      timeoutMs: 2_000,
    });
    expect(closed.ok ? "" : closed.message).toMatch(/^nothing answers at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/);
    expect(shownUrl(`https://u:p@h.example/v1?key=${secret}&x=1`)).toBe("https://h.example/v1?key=…&x=…");
  });
});
