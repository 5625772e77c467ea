/**
 * The HTTP requests of the chat client and of the endpoint probe, made with `node:http` and `node:https`
 * instead of the global `fetch`, so that every way a server can answer badly ends the request with an error
 * that names it. More in this folder's README.md.
 */
import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";

/** Node's http, https and zlib load at the first request: the commands that only read files never ask for them. */
const nodeRequire = createRequire(import.meta.url);
const nodeHttp = () => nodeRequire("node:http") as typeof import("node:http");
const nodeHttps = () => nodeRequire("node:https") as typeof import("node:https");
const nodeZlib = () => nodeRequire("node:zlib") as typeof import("node:zlib");

/** The most redirects one request follows (fetch's limit is 20; an API endpoint needs one or two). */
export const MAX_REDIRECTS = 10;

/** Why a server's answer cannot be used; `scope: "endpoint"` when no request to it can succeed. */
export class ReplyBroken extends Error {
  constructor(
    message: string,
    readonly scope: "endpoint" | "reply",
    /** `no-tls`: an https URL whose server answered without TLS (the probe then asks it over http). */
    readonly failure: "no-tls" | null = null,
  ) {
    super(message);
    this.name = "ReplyBroken";
  }
}

/** A reply read to its end (or given up past the bound). */
export interface HttpReply {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  /** The decoded body, or how many bytes were read when it passed `maxBytes`. */
  readonly body: { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly read: number };
}

/** What to send. */
export interface HttpRequestInit {
  readonly method?: string;
  readonly headers?: Headers;
  readonly body?: string | Uint8Array | null;
  readonly signal?: AbortSignal | null;
}

/** Sends one request and reads its reply, as `httpRequest` does: node's sockets on the node host, a stand-in in a use case's test. */
export type HttpTransport = (url: string, init: HttpRequestInit, maxBytes: number) => Promise<HttpReply>;

/** A URL as messages show it: no user name or password, every query value replaced (a key may travel there). */
export function shownUrl(url: string | URL): string {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    return String(url);
  }
  u.username = "";
  u.password = "";
  const names = [...u.searchParams.keys()];
  u.hash = "";
  if (names.length === 0) return u.href;
  u.search = "";
  return `${u.href}?${names.map((n) => `${encodeURIComponent(n)}=…`).join("&")}`;
}

/**
 * Send one request and read its reply, following redirects; the body is decoded as its
 * `Content-Encoding` says and read up to `maxBytes` (decoded). Throws `ReplyBroken`, the
 * signal's reason, or the connection's error.
 */
export async function httpRequest(url: string, init: HttpRequestInit, maxBytes: number): Promise<HttpReply> {
  let at = new URL(url);
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body ?? null;
  const headers = new Headers(init.headers);
  if (!headers.has("accept-encoding")) headers.set("accept-encoding", "gzip, deflate, br");
  const visited = [at.href];
  for (;;) {
    const { res, failure } = await sendOnce(at, method, headers, body, init.signal ?? null);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (![301, 302, 303, 307, 308].includes(status) || location === undefined)
      return readReply(res, failure, maxBytes, init.signal ?? null);
    res.destroy();
    const next = redirectTarget(at, location, visited);
    if ((status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
      method = "GET";
      body = null;
      headers.delete("content-type");
    }
    if (next.origin !== at.origin) headers.delete("authorization");
    visited.push(next.href);
    at = next;
  }
}

/** Where a redirect leads, or why it is not followed. */
function redirectTarget(from: URL, location: string, visited: readonly string[]): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ReplyBroken(`the endpoint redirects to ${JSON.stringify(location.slice(0, 200))}, which is not a URL`, "endpoint");
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    throw new ReplyBroken(`the endpoint redirects to a ${next.protocol} URL, which is not followed (only http and https are)`, "endpoint");
  }
  if (visited.includes(next.href)) {
    throw new ReplyBroken(`the endpoint redirects in a loop: ${[...visited, next.href].map(shownUrl).join(" -> ")}`, "endpoint");
  }
  if (visited.length > MAX_REDIRECTS)
    throw new ReplyBroken(`the endpoint redirects more than ${MAX_REDIRECTS} times (last to ${shownUrl(next)})`, "endpoint");
  return next;
}

/** The signal's reason as the error to throw (an `AbortError` when it gave none). */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/**
 * The request's first error, kept: the parser reports an error in the body (bad chunking)
 * on the request, possibly in the same tick as the reply's head, before anyone reads the
 * body; the reply itself then only says "aborted".
 */
interface RequestFailure {
  error: unknown;
  /** Told about the error when it comes later. */
  listener: ((e: unknown) => void) | null;
}

/** One request, up to the reply's head. */
function sendOnce(
  url: URL,
  method: string,
  headers: Headers,
  body: string | Uint8Array | null,
  signal: AbortSignal | null,
): Promise<{ res: IncomingMessage; failure: RequestFailure }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const outgoing: Record<string, string> = {};
    headers.forEach((v, k) => (outgoing[k] = v));
    if (body !== null) outgoing["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
    const request = url.protocol === "https:" ? nodeHttps().request : nodeHttp().request;
    const req = request(url, { method, headers: outgoing });
    const failure: RequestFailure = { error: null, listener: null };
    const onAbort = (): void => {
      req.destroy();
      reject(abortReason(signal as AbortSignal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    req.on("response", (res) => {
      signal?.removeEventListener("abort", onAbort);
      resolve({ res, failure });
    });
    req.on("error", (e) => {
      signal?.removeEventListener("abort", onAbort);
      failure.error ??= namedFailure(e);
      failure.listener?.(failure.error);
      reject(signal?.aborted ? abortReason(signal) : failure.error);
    });
    req.end(body ?? undefined);
  });
}

/**
 * Read the reply's body to its end, giving up past `maxBytes` or when the signal aborts,
 * then decode it as its `Content-Encoding` says (see `decodedBody`).
 */
async function readReply(res: IncomingMessage, failure: RequestFailure, maxBytes: number, signal: AbortSignal | null): Promise<HttpReply> {
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  const raw = await readRaw(res, failure, maxBytes, signal);
  const body = raw.ok ? decodedBody(raw.bytes, res.headers["content-encoding"], maxBytes) : raw;
  return { status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers, body };
}

/** The body's bytes as sent, up to `maxBytes`; a parser error in it (bad chunking, reported on the request) is named. */
function readRaw(res: IncomingMessage, failure: RequestFailure, maxBytes: number, signal: AbortSignal | null): Promise<HttpReply["body"]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const finish = (outcome: { ok: true; value: HttpReply["body"] } | { ok: false; error: unknown }): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      if (!outcome.ok || !outcome.value.ok) res.destroy();
      if (outcome.ok) resolve(outcome.value);
      else reject(outcome.error);
    };
    const onAbort = (): void => finish({ ok: false, error: abortReason(signal as AbortSignal) });
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    res.on("data", (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) finish({ ok: true, value: { ok: false, read: total } });
      else chunks.push(chunk);
    });
    res.on("end", () => finish({ ok: true, value: { ok: true, bytes: new Uint8Array(Buffer.concat(chunks, total)) } }));
    const cut = (): unknown =>
      failure.error ?? Object.assign(new Error("the connection closed in the middle of the reply"), { code: "ECONNRESET" });
    if (failure.error !== null) {
      finish({ ok: false, error: failure.error });
      return;
    }
    failure.listener = (e) => finish({ ok: false, error: e });
    res.on("error", (e) => finish({ ok: false, error: failure.error ?? namedFailure(e) }));
    res.on("aborted", () => finish({ ok: false, error: cut() }));
    res.on("close", () => {
      if (!res.complete) finish({ ok: false, error: cut() });
    });
  });
}

/**
 * The body decoded as its `Content-Encoding` list says (the last coding applied first):
 * gzip, deflate (zlib-wrapped as the standard says, or raw as some servers send it) and
 * br; an unknown coding leaves the body as sent, as fetch does. Decoded output past
 * `maxBytes` is a reply too long; a body that is not what its coding says is `ReplyBroken`.
 */
export function decodedBody(bytes: Uint8Array, header: string | undefined, maxBytes: number): HttpReply["body"] {
  if (bytes.byteLength === 0 || header === undefined) return { ok: true, bytes };
  const codings = header
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity")
    .reverse();
  let out: Uint8Array = bytes;
  const options = { maxOutputLength: Math.max(1, maxBytes) };
  for (const coding of codings) {
    try {
      const zlib = nodeZlib();
      if (coding === "gzip" || coding === "x-gzip") out = zlib.gunzipSync(out, options);
      else if (coding === "br") out = zlib.brotliDecompressSync(out, options);
      else if (coding === "deflate") out = (out[0] & 0x0f) === 8 ? zlib.inflateSync(out, options) : zlib.inflateRawSync(out, options);
      else return { ok: true, bytes: out };
    } catch (e) {
      if ((e as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") return { ok: false, read: maxBytes + 1 };
      const why = e instanceof Error ? e.message : String(e);
      throw new ReplyBroken(
        `the endpoint's reply says Content-Encoding: ${header.slice(0, 100)}, but its body is not ${coding} data (${why})`,
        "reply",
      );
    }
  }
  return { ok: true, bytes: out };
}

/** Certificate errors of a TLS connection (Node's codes from OpenSSL's verification). */
const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

/**
 * A failure of the connection as the error to throw: `ReplyBroken` when the server
 * answered but not usably (a reply that is not HTTP/1.x, malformed chunking, an untrusted
 * certificate, no TLS on an https URL), else the error as it came (a connection failure).
 */
function namedFailure(e: unknown): unknown {
  const code = String((e as { code?: unknown }).code ?? "");
  const reason = String((e as { reason?: unknown }).reason ?? (e instanceof Error ? e.message : e));
  if (code === "HPE_INVALID_CONSTANT" || code === "HPE_INVALID_VERSION") {
    return new ReplyBroken(
      "the endpoint's reply has no HTTP/1.x status line (an HTTP/0.9 reply, or a server that does not speak HTTP/1.x)",
      "endpoint",
    );
  }
  if (code === "HPE_INVALID_CHUNK_SIZE" || code === "HPE_STRICT" || code === "HPE_INVALID_EOF_STATE") {
    return new ReplyBroken(`the endpoint's reply has malformed chunked encoding (${reason})`, "reply");
  }
  if (code.startsWith("HPE_")) return new ReplyBroken(`the endpoint's reply is not valid HTTP (${code}: ${reason})`, "reply");
  if (CERTIFICATE_CODES.test(code)) {
    return new ReplyBroken(
      `the endpoint's TLS certificate is not trusted (${reason}); NODE_EXTRA_CA_CERTS=<its CA file> makes Node trust it`,
      "endpoint",
    );
  }
  if (code === "ERR_SSL_WRONG_VERSION_NUMBER" || code === "EPROTO" || /wrong version number|packet length too long/i.test(reason)) {
    // OpenSSL's own text names a source file and line: only its reason is said
    const why = /wrong version number|packet length too long/i.exec(reason)?.[0].toLowerCase() ?? code;
    return new ReplyBroken(`the endpoint does not answer TLS (${why}): is it an http:// URL?`, "endpoint", "no-tls");
  }
  return e;
}
