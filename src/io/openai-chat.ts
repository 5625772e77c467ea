/**
 * The project's one HTTP client for chat-completions endpoints (OpenAI, vLLM, SGLang,
 * Ollama, llama.cpp server, hosted ones), built on the official `openai` package. Used
 * by `run` and `judge`. What it adds around the SDK:
 *
 * - retries with exponential backoff and jitter on 429, 5xx, timeouts and network errors
 *   (the SDK's own retries are off, so the count and the waits are ours), honouring
 *   `Retry-After` / `retry-after-ms` up to a cap, and saying when it capped one;
 * - one deadline per attempt that covers the whole body: a reply that drips slowly past
 *   the timeout is a timeout (retried), never a truncated "not JSON";
 * - the key's value is redacted from everything the server sends back before anyone
 *   sees it (replies, error bodies), and from every message this module produces; it is
 *   only ever put in the Authorization header;
 * - failures worded as BFCL's Python client words them (`Error code: 500 - {…}`,
 *   `Request timed out.`, `Connection error.`), so error lines match BFCL's;
 * - an item header (`x-twinscore-item`) on every request, for test endpoints.
 */
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { jsonLoads } from "../python/json.js";
import { pyStr } from "../python/repr.js";

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
  /** Injected for tests. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
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
      readonly kind: "http" | "timeout" | "network" | "reply";
      readonly status: number | null;
      readonly attempts: number;
    };

const REDACTED = "[redacted]";

/** Replace every occurrence of the key's value (no-op without a key). */
export function redactKey(text: string, key: string | null): string {
  if (!key) return text;
  return text.split(key).join(REDACTED);
}

/** The base URL the SDK wants (it appends `/chat/completions` itself). */
export function baseUrlOf(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, "");
  return trimmed.endsWith("/chat/completions") ? trimmed.slice(0, -"/chat/completions".length) : trimmed;
}

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
  body: string | null;
  headers: Headers | undefined;
}

/**
 * A fetch that reads the whole body under the attempt's signal, redacts the key from
 * it and hands the SDK a fresh response with that text (so the SDK parses redacted
 * text, and a body that drips past the deadline aborts the attempt).
 */
function capturingFetch(key: string | null, capture: Capture): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const text = redactKey(await res.text(), key);
    capture.status = res.status;
    capture.body = text;
    capture.headers = res.headers;
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    return new Response(res.status === 204 ? null : text, { status: res.status, statusText: res.statusText, headers });
  };
}

/**
 * A function that posts one chat-completions body for an item and returns the
 * completion (as the server sent it, key redacted) or the final failure.
 */
export function createChatClient(opts: ChatClientOptions): (body: Record<string, unknown>, itemId: string) => Promise<ChatCallOutcome> {
  const key = opts.apiKey && opts.apiKey !== "" ? opts.apiKey : null;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = opts.random ?? Math.random;
  const backoff = opts.backoffMs ?? 500;
  const maxBackoff = opts.maxBackoffMs ?? 30_000;
  const retryAfterCap = opts.retryAfterCapMs ?? 60_000;
  const baseURL = baseUrlOf(opts.endpoint);

  const attempt = async (body: Record<string, unknown>, itemId: string): Promise<ChatCallOutcome & { retryAfter?: number | null; retryable?: boolean }> => {
    const capture: Capture = { status: null, body: null, headers: undefined };
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, opts.timeoutMs);
    const client = new OpenAI({
      apiKey: key ?? "no-key",
      baseURL,
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: opts.timeoutMs + 1_000,
      logLevel: "off",
      fetch: capturingFetch(key, capture),
      // without a key no Authorization header is sent at all (local servers)
      defaultHeaders: key ? {} : { Authorization: null },
    });
    try {
      const completion = (await client.chat.completions.create(body as never, {
        headers: { "x-twinscore-item": itemId },
        signal: controller.signal,
      })) as unknown;
      if (completion === null || typeof completion !== "object" || Array.isArray(completion)) {
        const snippet = redactKey(String(capture.body ?? completion).slice(0, 200), key);
        return { ok: false, kind: "reply", status: capture.status, attempts: 1, error: `the endpoint's reply is not a chat completion: ${JSON.stringify(snippet)}` };
      }
      return { ok: true, completion: completion as Record<string, unknown>, attempts: 1 };
    } catch (e) {
      if (timedOut || e instanceof APIConnectionTimeoutError) return { ok: false, kind: "timeout", status: null, attempts: 1, error: "Request timed out.", retryable: true };
      if (e instanceof APIError && e.status !== undefined && !(e instanceof APIUserAbortError)) {
        const status = e.status;
        const text = capture.body !== null ? pythonHttpErrorText(status, capture.body) : `Error code: ${status}`;
        return {
          ok: false,
          kind: "http",
          status,
          attempts: 1,
          error: redactKey(text, key),
          retryable: isRetryableStatus(status),
          retryAfter: retryAfterMs(capture.headers),
        };
      }
      if (e instanceof SyntaxError) {
        const snippet = (capture.body ?? "").slice(0, 200);
        return { ok: false, kind: "reply", status: capture.status, attempts: 1, error: `the endpoint's reply is not JSON: ${JSON.stringify(snippet)}` };
      }
      if (e instanceof APIError) return { ok: false, kind: "network", status: null, attempts: 1, error: "Connection error.", retryable: true };
      throw e;
    } finally {
      clearTimeout(timer);
    }
  };

  return async (body, itemId) => {
    for (let n = 0; ; n++) {
      const out = await attempt(body, itemId);
      if (out.ok || !out.retryable || n >= opts.retries) {
        return out.ok ? { ...out, attempts: n + 1 } : { ok: false, kind: out.kind, status: out.status, error: out.error, attempts: n + 1 };
      }
      // exponential backoff with "equal jitter": half the step fixed, half random
      const step = Math.min(maxBackoff, backoff * 2 ** n);
      let wait = step / 2 + random() * (step / 2);
      let capped: number | null = null;
      if (out.retryAfter !== undefined && out.retryAfter !== null) {
        if (out.retryAfter > retryAfterCap) {
          capped = out.retryAfter;
          wait = retryAfterCap;
        } else wait = Math.max(wait, out.retryAfter);
      }
      opts.onRetry?.({ itemId, attempt: n + 1, waitMs: wait, reason: out.error, retryAfterCappedFromMs: capped });
      await sleep(wait);
    }
  };
}
