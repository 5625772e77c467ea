/**
 * Sends held-back turns to an OpenAI-compatible `/chat/completions` endpoint and
 * appends labels to a JSONL file as they arrive. Built for long, interruptible runs:
 * a concurrency limit; the project's one client (`openai-chat.ts`, on the `openai`
 * package) with exponential backoff and jitter on 429, 5xx, timeouts and network errors
 * and a capped `Retry-After`; a deadline covering the whole reply; a response cache keyed
 * by the request that keeps only replies that parsed into a label (a rerun costs
 * nothing, and a bad reply is asked again); resume from the labels file with no
 * duplicate and no lost label. The key is only ever put in the Authorization header;
 * every echo of its value in a reply or an error is redacted before it is shown or
 * stored, and the stored raw reply is capped.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseJudgeReply } from "../judge/labels.js";
import { buildJudgeRequest, type JudgePrompt, type JudgeRequest } from "../judge/prompt.js";
import { judgeLabels, type HeldBackTurn, type JudgeLabel, type JudgeRecord } from "../judge/types.js";
import { createChatClient, redactKey, type RetryInfo } from "./openai-chat.js";

/** Settings of one judge run. */
export interface JudgeRunOptions {
  /** Base URL such as `http://127.0.0.1:8000/v1`, or the full `/chat/completions` URL. */
  readonly endpoint: string;
  readonly judgeModel: string;
  /** The key, read by the caller from an environment variable; may be empty for local servers. */
  readonly apiKey: string;
  readonly prompt: JudgePrompt;
  /** JSONL file labels are appended to; existing lines are resumed from. */
  readonly labelsFile: string;
  /** Folder of cached responses (one file per request key); null disables the cache. */
  readonly cacheDir: string | null;
  readonly concurrency: number;
  readonly timeoutMs: number;
  /** Attempts after the first, on 429, 5xx, timeouts and network errors. */
  readonly retries: number;
  /** First backoff step; doubles each retry, with jitter (a `Retry-After` header is honoured up to `retryAfterCapMs`). */
  readonly backoffMs: number;
  /** Longest `Retry-After` wait honoured (default 60 s); longer ones are cut to it and reported through `onRetry`. */
  readonly retryAfterCapMs?: number;
  readonly onProgress?: (done: number, total: number) => void;
  readonly onRetry?: (info: RetryInfo) => void;
  /** Injected for tests (the backoff waits). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** What happened to each turn of the run. */
export interface JudgeRunReport {
  readonly labelled: number;
  readonly resumed: number;
  readonly fromCache: number;
  readonly requested: number;
  /** Turns whose reply could not be read or whose request kept failing: `missId: why`. */
  readonly failures: readonly { readonly model: string; readonly missId: string; readonly message: string }[];
}

/** The longest raw reply kept in a labels line or a cache file (a huge reply is cut, with a note of its length). */
export const MAX_STORED_REPLY_CHARS = 16_384;

/** A reply as stored: redacted and capped. */
export function storedReply(content: string, key: string | null): string {
  const clean = redactKey(content, key);
  return clean.length <= MAX_STORED_REPLY_CHARS ? clean : `${clean.slice(0, MAX_STORED_REPLY_CHARS)}… [cut: the reply had ${clean.length} characters]`;
}

/** The chat-completions URL for an endpoint given either as a base or as the full path. */
export function completionsUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, "");
  return trimmed.endsWith("/chat/completions") ? trimmed : `${trimmed}/chat/completions`;
}

/** Read the labels already in the file; a torn last line (interrupted write) is ignored. */
export function readLabelsFile(file: string): JudgeRecord[] {
  if (!existsSync(file)) return [];
  const out: JudgeRecord[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as JudgeRecord;
      if (r && typeof r.missId === "string" && typeof r.requestKey === "string" && typeof r.label === "string") out.push(r);
    } catch {
      // A line cut by an interruption: its turn is simply judged again.
    }
  }
  return out;
}

type Post = (req: JudgeRequest) => Promise<{ ok: true; content: string } | { ok: false; message: string }>;

/** The client for a run, with failures worded for the judge's report (always redacted). */
function poster(opts: JudgeRunOptions): Post {
  const key = opts.apiKey === "" ? null : opts.apiKey;
  const client = createChatClient({
    endpoint: opts.endpoint,
    apiKey: key,
    timeoutMs: opts.timeoutMs,
    retries: opts.retries,
    backoffMs: opts.backoffMs,
    retryAfterCapMs: opts.retryAfterCapMs,
    onRetry: opts.onRetry,
    sleep: opts.sleep,
  });
  return async (req) => {
    const out = await client(req.body as unknown as Record<string, unknown>, req.key);
    if (!out.ok) {
      const why =
        out.kind === "timeout" ? `timed out after ${opts.timeoutMs} ms` : out.kind === "network" ? `network error: ${out.error}` : out.kind === "http" ? `HTTP ${out.status}: ${out.error}` : out.error;
      return { ok: false, message: redactKey(why, key).slice(0, 500) };
    }
    const choices = out.completion.choices;
    const content = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content : undefined;
    if (typeof content !== "string") return { ok: false, message: "the endpoint's reply has no choices[0].message.content" };
    return { ok: true, content };
  };
}

/** Cache a reply that parsed into a label (only those: a bad reply is asked again next time). */
function writeCache(dir: string, key: string, label: JudgeLabel, raw: string): void {
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${key}.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify({ label, raw }));
  renameSync(tmp, join(dir, `${key}.json`));
}

/** A cached label, or null (no entry, unreadable, or an older entry whose reply has no label). */
function readCache(dir: string | null, key: string): { label: JudgeLabel; raw: string } | null {
  if (!dir) return null;
  const file = join(dir, `${key}.json`);
  if (!existsSync(file)) return null;
  try {
    const c = JSON.parse(readFileSync(file, "utf8")) as { label?: unknown; raw?: unknown; content?: unknown };
    if (typeof c.label === "string" && (judgeLabels as readonly string[]).includes(c.label) && typeof c.raw === "string") return { label: c.label as JudgeLabel, raw: c.raw };
    if (typeof c.content === "string") {
      const parsed = parseJudgeReply(c.content);
      return parsed.ok ? { label: parsed.label, raw: c.content } : null;
    }
    return null;
  } catch {
    return null;
  }
}

/** Judge every turn not yet labelled, `concurrency` at a time, appending each label as it arrives. */
export async function runJudge(turns: readonly HeldBackTurn[], opts: JudgeRunOptions): Promise<JudgeRunReport> {
  const existing = new Set(readLabelsFile(opts.labelsFile).map((r) => `${r.model}\u0000${r.missId}\u0000${r.requestKey}`));
  const work = turns.map((turn) => ({ turn, req: buildJudgeRequest(turn, opts.prompt, opts.judgeModel) }));
  const pending = work.filter((w) => !existing.has(`${w.turn.model}\u0000${w.turn.missId}\u0000${w.req.key}`));
  const resumed = work.length - pending.length;
  // An interrupted run may have left a torn last line: end it so the next label starts clean.
  if (existsSync(opts.labelsFile)) {
    const text = readFileSync(opts.labelsFile, "utf8");
    if (text.length > 0 && !text.endsWith("\n")) appendFileSync(opts.labelsFile, "\n");
  }
  let done = resumed;
  let fromCache = 0;
  let requested = 0;
  let labelled = 0;
  const failures: { model: string; missId: string; message: string }[] = [];
  opts.onProgress?.(done, work.length);

  let next = 0;
  const post = poster(opts);
  const key = opts.apiKey === "" ? null : opts.apiKey;
  const worker = async (): Promise<void> => {
    while (next < pending.length) {
      const { turn, req } = pending[next++];
      try {
        let found = readCache(opts.cacheDir, req.key);
        if (found !== null) fromCache++;
        else {
          requested++;
          const reply = await post(req);
          if (!reply.ok) failures.push({ model: turn.model, missId: turn.missId, message: reply.message });
          else {
            const parsed = parseJudgeReply(reply.content);
            if (!parsed.ok) failures.push({ model: turn.model, missId: turn.missId, message: `malformed judge reply: ${redactKey(parsed.message, key).slice(0, 300)}` });
            else {
              found = { label: parsed.label, raw: storedReply(reply.content, key) };
              if (opts.cacheDir) writeCache(opts.cacheDir, req.key, found.label, found.raw);
            }
          }
        }
        if (found !== null) {
          const record: JudgeRecord = { model: turn.model, missId: turn.missId, requestKey: req.key, label: found.label, raw: storedReply(found.raw, key) };
          // One whole line per append: an interruption loses at most the line being written.
          appendFileSync(opts.labelsFile, JSON.stringify(record) + "\n");
          labelled++;
        }
      } catch (e) {
        failures.push({ model: turn.model, missId: turn.missId, message: redactKey(e instanceof Error ? e.message : String(e), key) });
      }
      done++;
      opts.onProgress?.(done, work.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, pending.length || 1)) }, worker));
  failures.sort((a, b) => (a.model + a.missId).localeCompare(b.model + b.missId));
  return { labelled, resumed, fromCache, requested, failures };
}
