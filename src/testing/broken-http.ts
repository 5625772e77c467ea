/**
 * Endpoints that answer, but badly at the HTTP level, for the client, probe, `run` and
 * `judge` tests; all on 127.0.0.1 and bounded (connections or requests served, and a
 * lifetime): a `Content-Encoding` that lies about a plain body, chunked encoding that is
 * not chunked, a reply with no status line (HTTP/0.9), redirects in a loop or to `file:`
 * and `data:` URLs, and TLS with a self-signed certificate.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { PROBE_ITEM_ID } from "../io/openai-chat.js";
import { sendJson, startChatServer, type TestServer } from "./replay.js";
import { completionWith } from "./stub-servers.js";

/** A self-signed certificate for 127.0.0.1 (EC P-256, valid until 2126), made for these tests with openssl and trusted by nothing. */
export const SELF_SIGNED_CERT = `-----BEGIN CERTIFICATE-----
MIIBjzCCATagAwIBAgIUJJnhtPILtWe1bAjNj/vF5RYAan8wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTIwNjExMjYzNVoYDzIxMjYxMTEy
MTEyNjM1WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQwxgnqOK2SSpVge4/H7AD81Jfn1k7R743fARyKfaVXkqZoIKC+vZv2
xerq3d8EHFLVG9QQ9uoeyo7qQYjzu1NGo2QwYjAdBgNVHQ4EFgQUG4K6diANOhiM
jyyWObvlhWnWw1UwHwYDVR0jBBgwFoAUG4K6diANOhiMjyyWObvlhWnWw1UwDwYD
VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0cAMEQC
ICZyHNPgM94vfP5tUoo2GE0aIQVaSb2TqfJrB3qvhURCAiBnoPG05oXdZT5jUsEw
W3Lej86Y380z78ZW88qCJBbOAw==
-----END CERTIFICATE-----
`;

const SELF_SIGNED_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg+Ckpn6DyHZL1meLm
XoWxgCQ1TFwM5mDtbd+zACDeY4ahRANCAAQwxgnqOK2SSpVge4/H7AD81Jfn1k7R
743fARyKfaVXkqZoIKC+vZv2xerq3d8EHFLVG9QQ9uoeyo7qQYjzu1NG
-----END PRIVATE KEY-----
`;

/** A plain chat completion's JSON text (what the lying servers send unencoded). */
const PLAIN_COMPLETION = JSON.stringify(completionWith("Nothing to do."));

/**
 * Every request — `GET …/models`, the probe's and the run's chat requests — answered 200
 * with `Content-Encoding: <coding>` and a plain JSON body, written in two pieces (the
 * split is what left Node's fetch waiting forever on some replies).
 */
export function startLyingEncodingServer(coding: "gzip" | "deflate" | "br", opts: { maxRequests?: number } = {}): Promise<TestServer> {
  return startChatServer(
    (_body, _req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": coding });
      res.write(PLAIN_COMPLETION.slice(0, 10));
      setTimeout(() => res.end(PLAIN_COMPLETION.slice(10)), 5);
    },
    { probe: "pass", maxRequests: opts.maxRequests ?? 2_000, lifetimeMs: 120_000 },
  );
}

/** A healthy answer to the probe of a run (`GET …/models` or the one-token request), for servers that break only afterwards. */
const PROBE_ANSWER = (body: string): string =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;

/** Whether a request's head is the probe's (the model list, or the item header of the one-token request). */
function isProbeHead(head: string): boolean {
  return /^GET [^ ]*\/models/i.test(head) || new RegExp(`^x-twinscore-item: *${PROBE_ITEM_ID}\\s*$`, "im").test(head);
}

/** The bytes a raw server answers every request with, once it has read the request's head and body. */
export type RawReply = "http09" | "bad-chunks";

/**
 * A TCP server that reads each request and answers with bytes no HTTP/1.x server sends:
 * `http09`, the body alone with no status line; `bad-chunks`, a chunked reply whose chunk
 * sizes are not hexadecimal. At most `maxConnections` connections, then it refuses more.
 * With `probeAnswered`, the probe of a run gets a healthy answer, so only the run's own
 * requests meet the broken replies.
 */
export async function startRawServer(
  reply: RawReply,
  opts: { maxConnections?: number; lifetimeMs?: number; probeAnswered?: boolean } = {},
): Promise<TestServer> {
  const stats = { requests: 0, mismatches: [] as string[], busyMs: 0, probes: 0 };
  const maxConnections = opts.maxConnections ?? 2_000;
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    if (++stats.requests > maxConnections) {
      socket.destroy();
      return;
    }
    let seen = "";
    socket.on("data", (d: Buffer) => {
      seen += d.toString("latin1");
      const end = seen.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(seen.slice(0, end))?.[1] ?? 0);
      if (seen.length < end + 4 + length) return;
      const head = seen.slice(0, end);
      seen = "";
      if (opts.probeAnswered === true && isProbeHead(head)) {
        stats.probes++;
        socket.end(PROBE_ANSWER(/^GET/.test(head) ? '{"object": "list", "data": []}' : PLAIN_COMPLETION));
      } else if (reply === "http09") socket.end(PLAIN_COMPLETION);
      else
        socket.end(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n${PLAIN_COMPLETION}\r\n0\r\n\r\n`,
        );
    });
  });
  return listening(server, "http", stats, opts.lifetimeMs ?? 120_000, () => sockets.forEach((s) => s.destroy()));
}

/** Where a redirecting server sends every request: back and forth between two paths, or to a `file:` or `data:` URL. */
export type RedirectKind = "loop" | "file" | "data";

/**
 * Answers every request (the model list included) with a 307 redirect of the given kind;
 * at most `maxRequests` of them. With `probeAnswered`, the probe of a run is answered well.
 */
export function startRedirectServer(
  kind: RedirectKind,
  opts: { maxRequests?: number; lifetimeMs?: number; probeAnswered?: boolean } = {},
): Promise<TestServer> {
  const stats = { requests: 0, mismatches: [] as string[], busyMs: 0, probes: 0 };
  const target = (path: string): string =>
    kind === "file"
      ? "file:///etc/passwd"
      : kind === "data"
        ? `data:application/json,${encodeURIComponent(PLAIN_COMPLETION)}`
        : path.startsWith("/elsewhere")
          ? path.slice("/elsewhere".length)
          : `/elsewhere${path}`;
  const server = createHttpServer((req, res) => {
    req.resume();
    if (opts.probeAnswered === true && (req.method === "GET" || req.headers["x-twinscore-item"] === PROBE_ITEM_ID)) {
      stats.probes++;
      sendJson(res, 200, req.method === "GET" ? { object: "list", data: [] } : completionWith("OK"));
    } else if (++stats.requests > (opts.maxRequests ?? 2_000))
      sendJson(res, 503, { error: { message: "test server: request limit reached" } });
    else {
      res.writeHead(307, { location: target(req.url ?? "/") });
      res.end();
    }
  });
  return listening(server, "http", stats, opts.lifetimeMs ?? 120_000, () => server.closeAllConnections());
}

/** An https endpoint with `SELF_SIGNED_CERT` that would answer every request well, if the client trusted it. */
export async function startSelfSignedServer(opts: { maxRequests?: number; lifetimeMs?: number } = {}): Promise<TestServer> {
  const stats = { requests: 0, mismatches: [] as string[], busyMs: 0, probes: 0 };
  const server = createHttpsServer({ cert: SELF_SIGNED_CERT, key: SELF_SIGNED_KEY }, (req, res) => {
    req.resume();
    if (++stats.requests > (opts.maxRequests ?? 2_000)) sendJson(res, 503, { error: { message: "test server: request limit reached" } });
    else sendJson(res, 200, req.method === "GET" ? { object: "list", data: [] } : completionWith("Nothing to do."));
  });
  server.on("tlsClientError", () => undefined);
  return listening(server as unknown as Server, "https", stats, opts.lifetimeMs ?? 120_000, () =>
    (server as unknown as Server).closeAllConnections?.(),
  );
}

/** Listen on 127.0.0.1 and wrap the server as a `TestServer` that closes itself after `lifetimeMs`. */
async function listening(
  server: { listen: (port: number, host: string, cb: () => void) => unknown; close: (cb: () => void) => unknown; address: () => unknown },
  scheme: "http" | "https",
  stats: TestServer["stats"],
  lifetimeMs: number,
  dropConnections: () => void,
): Promise<TestServer> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((r) => {
      clearTimeout(lifetime);
      dropConnections();
      server.close(() => r());
    });
    return closed;
  };
  const lifetime = setTimeout(() => void close(), lifetimeMs);
  lifetime.unref();
  return { url: `${scheme}://127.0.0.1:${port}/v1`, server: server as unknown as Server, stats, close };
}
