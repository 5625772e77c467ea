/**
 * Misbehaving chat-completions servers for client tests, all on 127.0.0.1 and bounded
 * (request cap, lifetime): one that echoes the request headers back (in a 200 reply and
 * in a 401 body), one that fails N times before answering, one that drips its body
 * slower than any timeout, one that never answers, one that sends garbage.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, sendJson, startChatServer, type TestServer } from "./replay.js";

type Msg = Record<string, unknown>;

/** A minimal chat completion whose message has `content` and no calls. */
export function completionWith(content: string, model: unknown = "stub"): Msg {
  return {
    id: "stub",
    object: "chat.completion",
    created: 0,
    model,
    choices: [{ index: 0, message: { role: "assistant", content, tool_calls: [] }, finish_reason: "stop" }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  };
}

/** Echoes the request's headers: in a 401 error body when `status` is 401, else inside a 200 reply's content. */
export function startEchoServer(status = 200): Promise<TestServer> {
  return startChatServer((_body, req, res) => {
    const headers = JSON.stringify(req.headers);
    if (status !== 200)
      sendJson(res, status, { error: { message: `unauthorized; you sent ${headers}`, type: "auth", param: null, code: status } });
    else sendJson(res, 200, completionWith(`{"label": "refuses", "echo": ${JSON.stringify(headers)}}`));
  });
}

/**
 * Fails each item's first `failures` requests with `status` (and `headers`, e.g. a
 * Retry-After), then hands the request to `then`.
 */
export function startFlakyServer(
  failures: number,
  status: number,
  headers: Record<string, string>,
  then: (body: Msg, req: IncomingMessage, res: ServerResponse) => void,
): Promise<TestServer> {
  const seen = new Map<string, number>();
  return startChatServer((body, req, res) => {
    const key = String(req.headers["x-twinscore-item"] ?? "") + "\u0000" + JSON.stringify(body.messages ?? null).length;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    if (n < failures)
      sendJson(res, status, { error: { message: `try again later (${n + 1})`, type: "rate_limit", param: null, code: status } }, headers);
    else then(body, req, res);
  });
}

/** Sends the status line and headers at once, then one byte of the body every `everyMs`, for `bytes` bytes. */
export function startDripServer(everyMs: number, bytes: number): Promise<TestServer> {
  return startChatServer((_body, _req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const text = JSON.stringify(completionWith("x".repeat(bytes)));
    let i = 0;
    const timer = setInterval(() => {
      if (res.destroyed || i >= text.length || i >= bytes) {
        clearInterval(timer);
        if (!res.destroyed) res.end(text.slice(i));
        return;
      }
      res.write(text[i++]);
    }, everyMs);
    res.on("close", () => clearInterval(timer));
  });
}

/** Accepts requests and never answers (the client's timeout must end them); the lifetime bounds it. */
export function startHangingServer(): Promise<TestServer> {
  return startChatServer(() => undefined, { lifetimeMs: 60_000 });
}

/** Answers 200 with a body that is not JSON (or, with `json`, JSON that is not a completion). */
export function startGarbageServer(json = false): Promise<TestServer> {
  return startChatServer((_body, _req, res) => {
    if (json) sendJson(res, 200, { hello: "world" });
    else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("<html>502 Bad Gateway</html>");
    }
  });
}

/**
 * Serves the API under `/v1` only, as vLLM and most OpenAI-compatible servers do: `GET
 * /v1/models` lists `model`, `POST /v1/chat/completions` answers "OK", and every other
 * path gets FastAPI's 404 (`{"detail": "Not Found"}`). Its `url` is the server's root, without
 * `/v1`: the base URL a user gives when they leave the path out. Bounded in requests and time.
 */
export async function startV1OnlyServer(model: string, opts: { maxRequests?: number; lifetimeMs?: number } = {}): Promise<TestServer> {
  const stats = { requests: 0, mismatches: [] as string[], busyMs: 0, probes: 0 };
  const maxRequests = opts.maxRequests ?? 50;
  const server = createServer((req, res) => {
    stats.requests++;
    readBody(req)
      .then(() => {
        const path = (req.url ?? "").split("?")[0];
        if (stats.requests > maxRequests) sendJson(res, 503, { detail: "test server: request limit reached" });
        else if (req.method === "GET" && path === "/v1/models")
          sendJson(res, 200, { object: "list", data: [{ id: model, object: "model", owned_by: "test" }] });
        else if (req.method === "POST" && path === "/v1/chat/completions") sendJson(res, 200, completionWith("OK", model));
        else sendJson(res, 404, { detail: "Not Found" });
      })
      .catch(() => sendJson(res, 400, { detail: "test server: unreadable body" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((r) => {
      clearTimeout(lifetime);
      server.closeAllConnections();
      server.close(() => r());
    });
    return closed;
  };
  const lifetime = setTimeout(() => void close(), opts.lifetimeMs ?? 60_000);
  lifetime.unref();
  return { url: `http://127.0.0.1:${port}`, server, stats, close };
}
