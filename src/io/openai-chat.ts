/**
 * The project's one HTTP client for chat-completions endpoints (OpenAI, vLLM, SGLang, Ollama, llama.cpp
 * server, hosted ones), built on the official `openai` package. More in this folder's README.md.
 */
import { createRequire } from "node:module";
import { jsonLoads, jsonNestsDeeperThan } from "../python/json.js";
import { JSON_DECODE_MAX_DEPTH } from "../python/limits.js";
import { pyStr } from "../python/repr.js";
import { cleanPlainValue, redactorOf, REDACTED, type Redactor } from "./secrets.js";
import { httpRequest, ReplyBroken, shownUrl, type HttpReply, type HttpTransport } from "./http-transport.js";

/** The OpenAI SDK, loaded at the first request: every command that only reads files would otherwise load it at start. */
let openAiSdk: typeof import("openai") | undefined;
const sdk = (): typeof import("openai") => (openAiSdk ??= createRequire(import.meta.url)("openai") as typeof import("openai"));

/** The default bound on one reply's body: far above any real chat completion (BFCL's longest recorded replies are a few kB). */
export const DEFAULT_MAX_REPLY_BYTES = 8 * 1024 * 1024;

/** The largest `maxReplyBytes` allowed: the body must still fit in one JavaScript string, decoded and re-encoded. */
export const MAX_REPLY_BYTES_LIMIT = 256 * 1024 * 1024;

/** The longest delay Node's timers hold (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The item header of the probe requests (`probeEndpoint`), which belong to no entry. */
export const PROBE_ITEM_ID = "twinscore-probe";

/** How a client talks to one endpoint. */
export interface ChatClientOptions {
  /** Base URL such as `http://127.0.0.1:8000/v1`; a full `…/chat/completions` URL is accepted too. */
  readonly endpoint: string;
  /** The key (read by the caller from the environment variable the user named); null or empty for none. */
  readonly apiKey: string | null;
  /** Deadline of one attempt, body included. */
  readonly timeoutMs: number;
  /** Attempts after the first, for retryable failures. */
  readonly retries: number;
  /** First backoff wait; doubles per retry up to `maxBackoffMs`, with jitter. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Longest wait a `Retry-After` header may ask for; longer ones are cut to this (and reported). */
  readonly retryAfterCapMs?: number;
  /** Told about every retry (the CLI prints it under --verbose; the cap notice always). */
  readonly onRetry?: (info: RetryInfo) => void;
  /** The most bytes of one reply body read (default `DEFAULT_MAX_REPLY_BYTES`); a longer reply is a failure, not retried. */
  readonly maxReplyBytes?: number;
  /** Other keys of the process to redact from replies and messages besides `apiKey` (another endpoint's key). */
  readonly otherKeys?: readonly (string | null)[];
  /** Injected for tests. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  /** How requests are sent (default: node's sockets, `httpRequest`; a use case passes its host's). */
  readonly transport?: HttpTransport;
}

/** One retry about to happen. */
export interface RetryInfo {
  readonly itemId: string;
  readonly attempt: number;
  readonly waitMs: number;
  /** The failure being retried (redacted). */
  readonly reason: string;
  /** Set when the server asked for a longer wait than the cap: the wait it asked for, in ms. */
  readonly retryAfterCappedFromMs: number | null;
}

/** The outcome of one request, after retries. */
export type ChatCallOutcome =
  | { readonly ok: true; readonly completion: Record<string, unknown>; readonly attempts: number }
  | {
      readonly ok: false;
      /** BFCL's wording of the final failure (`Error code: 429 - {…}`, `Request timed out.`, …), redacted. */
      readonly error: string;
      /** `reply`: this reply could not be used; `unusable`: no reply of this endpoint can be (TLS, not HTTP/1.x, redirects); neither is retried. */
      readonly kind: "http" | "timeout" | "network" | "reply" | "unusable";
      readonly status: number | null;
      readonly attempts: number;
      /** A network failure's system code when there is one (`ECONNREFUSED`, `ENOTFOUND`, …), for messages; BFCL's wording stays `error`. */
      readonly cause?: string;
    };

export { REDACTED };

/** Replace every spelling of the key's value, JSON escapes included (no-op without a key); see `secrets.ts`. */
export function redactKey(text: string, key: string | null): string {
  return key ? redactorOf([key]).text(text) : text;
}

/**
 * Why `text` cannot be an endpoint's base URL, or null when it can: an http(s) URL with a
 * host and no user name or password in it. Without a scheme, the message suggests the URL
 * built from what was given (`127.0.0.1:8000` → `http://127.0.0.1:8000/v1`).
 */
export function endpointUrlProblem(text: string, flag: string): string | null {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (url !== null && (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "") {
    if (url.username !== "" || url.password !== "")
      return `${flag}: the URL holds a user name or password, which is not sent; give the key through an environment variable (--key-env / --user-key-env)`;
    return null;
  }
  const guess = schemeGuess(text);
  return `${flag} ${JSON.stringify(text)} is not an http(s) URL: ${guess !== null ? `did you mean ${guess}?` : "give the endpoint's base URL, e.g. http://127.0.0.1:8000/v1"}`;
}

/** `host:port[/path]` with the scheme left out, as an http URL (path `/v1` when none was given); null when it does not look like that. */
function schemeGuess(text: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim())) return null;
  let url: URL;
  try {
    url = new URL(`http://${text.trim()}`);
  } catch {
    return null;
  }
  const host = url.hostname;
  const hostLike = host === "localhost" || host.includes(".") || host.startsWith("[") || url.port !== "";
  if (!hostLike) return null;
  const path = url.pathname === "/" ? "/v1" : url.pathname.replace(/\/+$/, "");
  return `http://${url.host}${path}${url.search}`;
}

/** The base URL the SDK wants (it appends `/chat/completions` itself), without the query string (see `endpointQuery`). */
export function baseUrlOf(endpoint: string): string {
  const q = endpoint.indexOf("?");
  const trimmed = (q < 0 ? endpoint : endpoint.slice(0, q)).replace(/\/+$/, "");
  return trimmed.endsWith("/chat/completions") ? trimmed.slice(0, -"/chat/completions".length) : trimmed;
}

/** The endpoint's query parameters (`…/v1?api-key=…`), sent with every request; empty when it has none. */
export function endpointQuery(endpoint: string): Record<string, string> {
  const q = endpoint.indexOf("?");
  return q < 0 ? {} : Object.fromEntries(new URLSearchParams(endpoint.slice(q + 1)));
}

/** Query parameter names that carry credentials (`key`, `api-key`, `access_token`, `sig`, …). */
const SECRET_PARAMETER = /key|token|secret|sig|auth|pass|cred/i;

/** The values of the endpoint's query parameters that look like credentials: redacted as keys are. */
export function endpointSecrets(endpoint: string): string[] {
  return Object.entries(endpointQuery(endpoint))
    .filter(([name, value]) => SECRET_PARAMETER.test(name) && value !== "")
    .map(([, value]) => value);
}

/** `base` + `/path`, with the endpoint's query string kept. */
function endpointPath(endpoint: string, path: string): string {
  const query = new URLSearchParams(endpointQuery(endpoint)).toString();
  return `${baseUrlOf(endpoint)}${path}${query === "" ? "" : `?${query}`}`;
}

export { shownUrl };

/** The wait a `Retry-After` (seconds or HTTP date) or `retry-after-ms` header asks for, or null. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const ra = headers.get("retry-after");
  if (ra === null || ra.trim() === "") return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Number(ra) * 1000;
  const date = Date.parse(ra);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The Python client's `str(e)` of an HTTP error: `Error code: N - <parsed body>`, or the raw text. */
export function pythonHttpErrorText(status: number, bodyText: string): string {
  const text = bodyText.trim();
  const parsed = jsonLoads(text);
  if (parsed.ok) return `Error code: ${status} - ${pyStr(parsed.value)}`;
  return text === "" ? `Error code: ${status}` : text;
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/** What the capturing fetch saw of the last attempt. */
interface Capture {
  status: number | null;
  /** The body as received (decoded as UTF-8), keys redacted: for error texts and snippets. */
  body: string | null;
  headers: Headers | undefined;
  /** Set when the reply was not handed on: too long, nested too deep, or broken (the reason). */
  refused: string | null;
  /** Whether the refusal concerns this reply or every reply of the endpoint (`ReplyBroken.scope`). */
  scope: "reply" | "endpoint";
}

/** The message of a reply over the bound. */
function tooLongText(maxBytes: number): string {
  return `the endpoint's reply is longer than ${maxBytes} bytes (--max-reply-bytes); it was not read further`;
}

/** The message of a reply nested deeper than `json.loads` reads. */
const TOO_DEEP_TEXT = `the endpoint's reply nests arrays or objects more than ${JSON_DECODE_MAX_DEPTH} levels deep, where Python's json.loads raises RecursionError; it was not read`;

/** Thrown by the capturing fetch for a refused body (the SDK wraps it; `Capture.refused` says why). */
class ReplyRefused extends Error {}

/** The request's URL, whatever form the SDK passes it in. */
function urlOf(input: string | URL | Request): string {
  return typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
}

/**
 * A fetch for the SDK that sends the request through `http-transport.ts` and hands the SDK a fresh response
 * with every key redacted from the decoded JSON, so the SDK only ever parses redacted text. A broken reply is
 * recorded in the capture, then thrown. More in this folder's README.md.
 */
function capturingFetch(redactor: Redactor, maxBytes: number, capture: Capture, transport: HttpTransport): typeof fetch {
  return async (input, init) => {
    let res: HttpReply;
    try {
      res = await transport(
        urlOf(input),
        {
          method: init?.method,
          headers: new Headers(init?.headers),
          body: typeof init?.body === "string" ? init.body : null,
          signal: init?.signal,
        },
        maxBytes,
      );
    } catch (e) {
      if (e instanceof ReplyBroken) {
        capture.refused = redactor.text(e.message);
        capture.scope = e.scope;
      }
      throw e;
    }
    capture.status = res.status;
    capture.headers = res.headers;
    if (!res.body.ok) {
      capture.refused = tooLongText(maxBytes);
      throw new ReplyRefused(capture.refused);
    }
    const raw = new TextDecoder().decode(res.body.bytes);
    capture.body = redactor.text(raw);
    let text = capture.body;
    let parsed: unknown = undefined;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined) {
      if (jsonNestsDeeperThan(parsed, JSON_DECODE_MAX_DEPTH)) {
        capture.refused = TOO_DEEP_TEXT;
        throw new ReplyRefused(capture.refused);
      }
      text = JSON.stringify(cleanPlainValue(parsed, redactor));
    }
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    const noBody = res.status === 204 || res.status === 304 || (res.status >= 100 && res.status < 200);
    return new Response(noBody ? null : text, { status: res.status, statusText: res.statusText, headers });
  };
}

/**
 * A function that posts one chat-completions body for an item and returns the
 * completion (as the server sent it, key redacted) or the final failure.
 */
export function createChatClient(opts: ChatClientOptions): (body: Record<string, unknown>, itemId: string) => Promise<ChatCallOutcome> {
  const settings = clientSettings(opts);
  return async (body, itemId) => {
    for (let n = 0; ; n++) {
      const out = await attempt(settings, body, itemId);
      if (out.ok || !out.retryable || n >= opts.retries) {
        if (out.ok) return { ...out, attempts: n + 1 };
        return {
          ok: false,
          kind: out.kind,
          status: out.status,
          error: out.error,
          attempts: n + 1,
          ...(out.cause !== undefined ? { cause: out.cause } : {}),
        };
      }
      const { wait, capped } = retryWait(settings, n, out.retryAfter);
      opts.onRetry?.({ itemId, attempt: n + 1, waitMs: wait, reason: out.error, retryAfterCappedFromMs: capped });
      await settings.sleep(wait);
    }
  };
}

/** The client's options with every default filled in, and the redactor of every secret it knows. */
function clientSettings(opts: ChatClientOptions) {
  const key = opts.apiKey && opts.apiKey !== "" ? opts.apiKey : null;
  return {
    key,
    redactor: redactorOf([key, ...endpointSecrets(opts.endpoint), ...(opts.otherKeys ?? [])]),
    maxBytes: opts.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
    timeoutMs: Math.min(opts.timeoutMs, MAX_TIMER_MS),
    defaultQuery: endpointQuery(opts.endpoint),
    sleep: opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))),
    random: opts.random ?? Math.random,
    transport: opts.transport ?? httpRequest,
    backoff: opts.backoffMs ?? 500,
    maxBackoff: opts.maxBackoffMs ?? 30_000,
    retryAfterCap: opts.retryAfterCapMs ?? 60_000,
    baseURL: baseUrlOf(opts.endpoint),
  };
}

type ClientSettings = ReturnType<typeof clientSettings>;
type AttemptOutcome = ChatCallOutcome & { retryAfter?: number | null; retryable?: boolean };

/** The wait before retry `n + 1`: exponential backoff with "equal jitter" (half the step fixed, half random), or the server's Retry-After up to the cap. */
function retryWait(settings: ClientSettings, n: number, retryAfter: number | null | undefined): { wait: number; capped: number | null } {
  const step = Math.min(settings.maxBackoff, settings.backoff * 2 ** n);
  let wait = step / 2 + settings.random() * (step / 2);
  let capped: number | null = null;
  if (retryAfter !== undefined && retryAfter !== null) {
    if (retryAfter > settings.retryAfterCap) {
      capped = retryAfter;
      wait = settings.retryAfterCap;
    } else wait = Math.max(wait, retryAfter);
  }
  return { wait, capped };
}

/** One request, under our own timer, with the reply captured so a failure can say what came back. */
async function attempt(settings: ClientSettings, body: Record<string, unknown>, itemId: string): Promise<AttemptOutcome> {
  const { key, redactor, timeoutMs } = settings;
  const capture: Capture = { status: null, body: null, headers: undefined, refused: null, scope: "reply" };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const client = new (sdk().OpenAI)({
    apiKey: key ?? "no-key",
    baseURL: settings.baseURL,
    defaultQuery: settings.defaultQuery,
    organization: null,
    project: null,
    maxRetries: 0,
    // the SDK's own timer only backs ours up; both stay within what Node's timers hold
    timeout: Math.min(timeoutMs + 1_000, MAX_TIMER_MS),
    logLevel: "off",
    fetch: capturingFetch(redactor, settings.maxBytes, capture, settings.transport),
    // without a key no Authorization header is sent at all (local servers)
    defaultHeaders: key ? {} : { Authorization: null },
  });
  try {
    const completion = (await client.chat.completions.create(body as never, {
      headers: { "x-twinscore-item": itemId },
      signal: controller.signal,
    })) as unknown;
    if (completion === null || typeof completion !== "object" || Array.isArray(completion)) {
      const snippet = redactor.text(String(capture.body ?? completion).slice(0, 200));
      return {
        ok: false,
        kind: "reply",
        status: capture.status,
        attempts: 1,
        error: `the endpoint's reply is not a chat completion: ${JSON.stringify(snippet)}`,
      };
    }
    return { ok: true, completion: completion as Record<string, unknown>, attempts: 1 };
  } catch (e) {
    return failedAttempt(e, capture, timedOut, redactor);
  } finally {
    clearTimeout(timer);
  }
}

/** What a thrown request means: a refused reply, a timeout, an HTTP status, a reply that is not JSON, or no connection. */
function failedAttempt(e: unknown, capture: Capture, timedOut: boolean, redactor: ClientSettings["redactor"]): AttemptOutcome {
  if (capture.refused !== null && !timedOut)
    return {
      ok: false,
      kind: capture.scope === "endpoint" ? "unusable" : "reply",
      status: capture.status,
      attempts: 1,
      error: capture.refused,
    };
  const { APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk();
  if (timedOut || e instanceof APIConnectionTimeoutError)
    return { ok: false, kind: "timeout", status: null, attempts: 1, error: "Request timed out.", retryable: true };
  if (e instanceof APIError && e.status !== undefined && !(e instanceof APIUserAbortError)) {
    const status = e.status;
    const text = capture.body !== null ? pythonHttpErrorText(status, capture.body) : `Error code: ${status}`;
    return {
      ok: false,
      kind: "http",
      status,
      attempts: 1,
      error: redactor.text(text),
      retryable: isRetryableStatus(status),
      retryAfter: retryAfterMs(capture.headers),
    };
  }
  if (e instanceof SyntaxError) {
    const snippet = redactor.text((capture.body ?? "").slice(0, 200));
    return {
      ok: false,
      kind: "reply",
      status: capture.status,
      attempts: 1,
      error: `the endpoint's reply is not JSON: ${JSON.stringify(snippet)}`,
    };
  }
  if (e instanceof APIError)
    return { ok: false, kind: "network", status: null, attempts: 1, error: "Connection error.", retryable: true, cause: systemCode(e) };
  throw e;
}

/** The system error code (`ECONNREFUSED`, …) somewhere down an error's causes, if any. */
function systemCode(e: unknown): string | undefined {
  let at: unknown = e;
  for (let depth = 0; depth < 5 && at !== null && typeof at === "object"; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z_]+$/.test(code)) return code;
    if (typeof code === "string" && code.startsWith("UND_ERR")) return code;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

/** How an endpoint answered the probe: usable (with a note when it was not a clean answer), or why not. */
export type ProbeOutcome =
  | { readonly ok: true; readonly how: "listed" | "answered"; readonly note: string | null }
  | {
      readonly ok: false;
      readonly kind: "network" | "timeout" | "key" | "model" | "path" | "plain-http" | "unusable";
      readonly message: string;
    };

/** What a probe needs: the endpoint, the model name, the key, and the bounds of the run's client. */
export interface ProbeOptions {
  readonly endpoint: string;
  readonly model: string;
  readonly apiKey: string | null;
  readonly otherKeys?: readonly (string | null)[];
  /** The run's deadline per request; the model list gets at most 30 s of it. */
  readonly timeoutMs: number;
  readonly maxReplyBytes?: number;
  /** How requests are sent (default: node's sockets, `httpRequest`; a use case passes its host's). */
  readonly transport?: HttpTransport;
}

/** The endpoint's base URL as messages show it (no query values), without the lone `/` of an empty path. */
function shownBase(endpoint: string): string {
  return shownUrl(baseUrlOf(endpoint)).replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?]+)\/(?=\?|$)/i, "$1");
}

/** The model ids of an OpenAI-style model list (`{"data": [{"id": …}]}`), or null when the text is not one. */
function listedModels(text: string): string[] | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const data = v !== null && typeof v === "object" ? (v as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return null;
  return data
    .map((m) => (m !== null && typeof m === "object" ? (m as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === "string");
}

/** The refusal of an endpoint where nothing answers: the system code when there is one. */
function nothingAnswers(base: string, code: string | undefined): ProbeOutcome {
  return {
    ok: false,
    kind: "network",
    message: `nothing answers at ${base}${code !== undefined ? ` (${code})` : ""}: is the server running, and is --endpoint its address?`,
  };
}

/**
 * What `GET <base>/models` says: the models listed (null when the reply is no list: no
 * such route, another status, a broken body), or the probe's refusal when the endpoint
 * cannot be used (nothing answers, the key is refused, the list took too long, or the
 * server answers in a way no request can get past: TLS, not HTTP/1.x, redirects).
 */
async function modelList(
  opts: ProbeOptions,
  key: string | null,
  redactor: Redactor,
): Promise<{ listed: string[] | null } | { refusal: ProbeOutcome }> {
  const base = shownBase(opts.endpoint);
  const listMs = Math.min(opts.timeoutMs, 30_000, MAX_TIMER_MS);
  const headers = new Headers({ accept: "application/json", "x-twinscore-item": PROBE_ITEM_ID });
  if (key) headers.set("authorization", `Bearer ${key}`);
  try {
    const res = await (opts.transport ?? httpRequest)(
      endpointPath(opts.endpoint, "/models"),
      { headers, signal: AbortSignal.timeout(listMs) },
      opts.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
    );
    const text = res.body.ok ? redactor.text(new TextDecoder().decode(res.body.bytes)) : "";
    if (res.status === 401 || res.status === 403)
      return {
        refusal: {
          ok: false,
          kind: "key",
          message: `the endpoint refused the key: GET ${base}/models answered ${pythonHttpErrorText(res.status, text).slice(0, 300)}`,
        },
      };
    return { listed: res.status >= 200 && res.status < 300 ? listedModels(text) : null };
  } catch (e) {
    if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) {
      return {
        refusal: {
          ok: false,
          kind: "timeout",
          message: `the endpoint did not answer GET ${base}/models within ${Math.round(listMs / 1000)} s`,
        },
      };
    }
    // a broken body says nothing yet about the chat route: the one-token request asks it
    if (e instanceof ReplyBroken && e.scope === "reply") return { listed: null };
    if (
      e instanceof ReplyBroken &&
      e.failure === "no-tls" &&
      (await answersPlainHttp(opts.endpoint, headers, listMs, opts.transport ?? httpRequest))
    ) {
      const plain = shownBase(opts.endpoint.replace(/^https:/i, "http:"));
      return { refusal: { ok: false, kind: "plain-http", message: `${base} answers in plain HTTP, not TLS: use --endpoint ${plain}` } };
    }
    if (e instanceof ReplyBroken)
      return { refusal: { ok: false, kind: "unusable", message: `${base} answers, but cannot be used: ${redactor.text(e.message)}` } };
    return { refusal: nothingAnswers(base, systemCode(e)) };
  }
}

/** Whether `GET <base>/models` over plain http gets an HTTP reply (any status): the server of an https URL that did not answer TLS. */
async function answersPlainHttp(endpoint: string, headers: Headers, timeoutMs: number, transport: HttpTransport): Promise<boolean> {
  try {
    await transport(
      endpointPath(endpoint.replace(/^https:/i, "http:"), "/models"),
      { headers, signal: AbortSignal.timeout(Math.min(timeoutMs, 10_000)) },
      64 * 1024,
    );
    return true;
  } catch (e) {
    return e instanceof ReplyBroken && e.scope === "reply";
  }
}

/**
 * Whether the API answers one level down, under `/v1`, when the endpoint's path does not
 * end in a version (`http://host:8000` for vLLM's `http://host:8000/v1`): `GET <base>/v1/models`
 * gets a 2xx reply.
 */
async function servedUnderV1(endpoint: string, key: string | null, timeoutMs: number, transport: HttpTransport): Promise<boolean> {
  let path: string;
  try {
    path = new URL(baseUrlOf(endpoint)).pathname;
  } catch {
    return false;
  }
  if (/\/v\d+$/i.test(path.replace(/\/+$/, ""))) return false;
  const headers = new Headers({ accept: "application/json", "x-twinscore-item": PROBE_ITEM_ID });
  if (key) headers.set("authorization", `Bearer ${key}`);
  const q = endpoint.indexOf("?");
  const below = `${baseUrlOf(endpoint)}/v1${q < 0 ? "" : endpoint.slice(q)}`;
  try {
    const res = await transport(
      endpointPath(below, "/models"),
      { headers, signal: AbortSignal.timeout(Math.min(timeoutMs, 10_000)) },
      1024 * 1024,
    );
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}

/**
 * One cheap check that an endpoint answers and serves the model, before a run spends anything:
 * `GET <base>/models`, else one chat request of one token. Each refusal is named (nothing answers, a server no
 * request gets past, a refused key, an API under `/v1`, an unknown model); any other answer passes, perhaps
 * with a note. More in this folder's README.md.
 */
export async function probeEndpoint(opts: ProbeOptions): Promise<ProbeOutcome> {
  const key = opts.apiKey && opts.apiKey !== "" ? opts.apiKey : null;
  const redactor = redactorOf([key, ...endpointSecrets(opts.endpoint), ...(opts.otherKeys ?? [])]);
  const base = shownBase(opts.endpoint);
  const maxBytes = opts.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const list = await modelList(opts, key, redactor);
  if ("refusal" in list) return list.refusal;
  const listed = list.listed;
  if (listed !== null && listed.includes(opts.model)) return { ok: true, how: "listed", note: null };
  const chat = createChatClient({
    endpoint: opts.endpoint,
    apiKey: key,
    otherKeys: opts.otherKeys,
    timeoutMs: opts.timeoutMs,
    retries: 0,
    maxReplyBytes: maxBytes,
    transport: opts.transport,
  });
  const out = await chat(
    { model: opts.model, messages: [{ role: "user", content: "Reply with OK." }], max_tokens: 1, temperature: 0, store: false },
    PROBE_ITEM_ID,
  );
  if (out.ok) return { ok: true, how: "answered", note: null };
  const served =
    listed !== null && listed.length > 0
      ? `; GET ${base}/models lists ${listed
          .slice(0, 10)
          .map((m) => JSON.stringify(m.slice(0, 100)))
          .join(", ")}${listed.length > 10 ? `, … (${listed.length})` : ""}`
      : "";
  if (out.kind === "network") return nothingAnswers(base, out.cause);
  if (out.kind === "unusable") return { ok: false, kind: "unusable", message: `${base} answers, but cannot be used: ${out.error}` };
  if (out.kind === "timeout")
    return {
      ok: false,
      kind: "timeout",
      message: `the endpoint did not answer a one-token request for model ${JSON.stringify(opts.model)} within ${Math.round(opts.timeoutMs / 1000)} s (--timeout)`,
    };
  if (out.status === 401 || out.status === 403)
    return { ok: false, kind: "key", message: `the endpoint refused the key: ${out.error.slice(0, 300)}` };
  if (out.status === 404 && (await servedUnderV1(opts.endpoint, key, opts.timeoutMs, opts.transport ?? httpRequest))) {
    return {
      ok: false,
      kind: "path",
      message: `${base}/chat/completions answers 404, but ${base}/v1/models answers: the API is served under /v1; use --endpoint ${base}/v1`,
    };
  }
  if (out.status === 404) {
    return {
      ok: false,
      kind: "model",
      message: `the endpoint answers 404 to a request for model ${JSON.stringify(opts.model)} at ${base}/chat/completions: ${out.error.slice(0, 300)}${served} (check --model, and that --endpoint is the API's base URL, e.g. …/v1)`,
    };
  }
  return {
    ok: true,
    how: "answered",
    note: `the one-token probe request for model ${JSON.stringify(opts.model)} got: ${out.error.slice(0, 300)}`,
  };
}
