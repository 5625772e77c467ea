/**
 * The judge's adapters: the HTTP client that sends one judge request (the project's one client,
 * `openai-chat.ts`, with its backoff, `Retry-After` cap and deadline), and the files a judge run keeps — the
 * labels file appended to line by line, and the response cache, one file per request key. More in this
 * folder's README.md.
 */
import { join } from "node:path";
import { createChatClient, redactKey, type RetryInfo } from "./openai-chat.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";
import type { HttpTransport } from "./http-transport.js";

/** How the judge's requests are sent. */
export interface JudgePostOptions {
  /** Base URL such as `http://127.0.0.1:8000/v1`, or the full `/chat/completions` URL. */
  readonly endpoint: string;
  /** The key (null: none, for a local server). */
  readonly apiKey: string | null;
  readonly timeoutMs: number;
  /** Attempts after the first, on 429, 5xx, timeouts and network errors. */
  readonly retries: number;
  /** First backoff step; doubles each retry, with jitter (a `Retry-After` header is honoured up to `retryAfterCapMs`). */
  readonly backoffMs: number;
  /** Longest `Retry-After` wait honoured (default 60 s); longer ones are cut to it and reported through `onRetry`. */
  readonly retryAfterCapMs?: number;
  readonly onRetry?: (info: RetryInfo) => void;
  /** Injected for tests (the backoff waits). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** How requests are sent (default: node's sockets). */
  readonly transport?: HttpTransport;
}

/** Send one request body (cached under `key`); the reply's text, or why there is none (redacted). */
export type JudgePost = (
  body: Record<string, unknown>,
  key: string,
) => Promise<{ ok: true; content: string } | { ok: false; message: string }>;

/** The longest raw reply kept in a labels line or a cache file (a huge reply is cut, with a note of its length). */
export const MAX_STORED_REPLY_CHARS = 16_384;

/** A reply as stored: redacted and capped. */
export function storedReply(content: string, key: string | null): string {
  const clean = redactKey(content, key);
  return clean.length <= MAX_STORED_REPLY_CHARS
    ? clean
    : `${clean.slice(0, MAX_STORED_REPLY_CHARS)}… [cut: the reply had ${clean.length} characters]`;
}

/** The chat-completions URL for an endpoint given either as a base or as the full path. */
export function completionsUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, "");
  return trimmed.endsWith("/chat/completions") ? trimmed : `${trimmed}/chat/completions`;
}

/** The client for a run, with failures worded for the judge's report (always redacted). */
export function judgePoster(opts: JudgePostOptions): JudgePost {
  const key = opts.apiKey;
  const client = createChatClient({
    endpoint: opts.endpoint,
    apiKey: key,
    timeoutMs: opts.timeoutMs,
    retries: opts.retries,
    backoffMs: opts.backoffMs,
    retryAfterCapMs: opts.retryAfterCapMs,
    onRetry: opts.onRetry,
    sleep: opts.sleep,
    transport: opts.transport,
  });
  return async (body, requestKey) => {
    const out = await client(body, requestKey);
    if (!out.ok) {
      const why =
        out.kind === "timeout"
          ? `timed out after ${opts.timeoutMs} ms`
          : out.kind === "network"
            ? `network error: ${out.error}`
            : out.kind === "http"
              ? `HTTP ${out.status}: ${out.error}`
              : out.error;
      return { ok: false, message: redactKey(why, key).slice(0, 500) };
    }
    const choices = out.completion.choices;
    const content = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content : undefined;
    if (typeof content !== "string") return { ok: false, message: "the endpoint's reply has no choices[0].message.content" };
    return { ok: true, content };
  };
}

/** Every JSON value of a JSON Lines file (none when it does not exist); a line that does not parse — torn by an interruption — is left out. */
export function readJsonLines(file: string, fs: FileSystem = nodeFileSystem): unknown[] {
  if (!fs.exists(file)) return [];
  const out: unknown[] = [];
  for (const line of fs.readText(file).split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // A line cut by an interruption: its turn is simply judged again.
    }
  }
  return out;
}

/** End a torn last line (an interrupted write) so the next line appended starts clean. */
export function endTornLine(file: string, fs: FileSystem = nodeFileSystem): void {
  if (!fs.exists(file)) return;
  const text = fs.readText(file);
  if (text.length > 0 && !text.endsWith("\n")) fs.appendFile(file, "\n");
}

/** Append one value as one whole line: an interruption loses at most the line being written. */
export function appendJsonLine(file: string, value: unknown, fs: FileSystem = nodeFileSystem): void {
  fs.appendFile(file, JSON.stringify(value) + "\n");
}

/** Write a cache entry atomically (a temporary file renamed over it). */
export function writeCacheEntry(dir: string, key: string, entry: unknown, fs: FileSystem = nodeFileSystem): void {
  fs.makeFolder(dir);
  const tmp = join(dir, `.${key}.${process.pid}.tmp`);
  fs.writeFile(tmp, JSON.stringify(entry));
  fs.rename(tmp, join(dir, `${key}.json`));
}

/** A cache entry as stored, or null (no entry, or one that cannot be read as JSON). */
export function readCacheEntry(dir: string, key: string, fs: FileSystem = nodeFileSystem): unknown {
  const file = join(dir, `${key}.json`);
  if (!fs.exists(file)) return null;
  try {
    return JSON.parse(fs.readText(file)) as unknown;
  } catch {
    return null;
  }
}
