/**
 * Sends held-back turns to an OpenAI-compatible `/chat/completions` endpoint and
 * appends labels to a JSONL file as they arrive. Built for long, interruptible runs:
 * a concurrency limit, retries with exponential backoff on 429 and 5xx, a per-request
 * timeout, a response cache keyed by the request (a rerun costs nothing), and resume
 * from the labels file with no duplicate and no lost label. The API key is only ever
 * put in the Authorization header — never in a file, a log line or an error message.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseJudgeReply } from "../judge/labels.js";
import { buildJudgeRequest, type JudgePrompt, type JudgeRequest } from "../judge/prompt.js";
import type { HeldBackTurn, JudgeRecord } from "../judge/types.js";

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
  /** First backoff delay; doubles each retry (a `Retry-After` header wins when present). */
  readonly backoffMs: number;
  readonly onProgress?: (done: number, total: number) => void;
  /** Injected for tests; defaults to the global fetch. */
  readonly fetchImpl?: typeof fetch;
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

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

class RetryableError extends Error {
  constructor(message: string, readonly retryAfterMs: number | null) {
    super(message);
  }
}

async function postOnce(url: string, req: JudgeRequest, opts: JudgeRunOptions): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  const doFetch = opts.fetchImpl ?? fetch;
  try {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
    let res: Response;
    try {
      res = await doFetch(url, { method: "POST", headers, body: JSON.stringify(req.body), signal: controller.signal });
    } catch (e) {
      const aborted = controller.signal.aborted;
      throw new RetryableError(aborted ? `timed out after ${opts.timeoutMs} ms` : `network error: ${e instanceof Error ? e.message : String(e)}`, null);
    }
    const text = await res.text().catch(() => "");
    if (res.status === 429 || res.status >= 500) {
      const ra = Number(res.headers.get("retry-after"));
      throw new RetryableError(`HTTP ${res.status}`, Number.isFinite(ra) && ra >= 0 ? ra * 1000 : null);
    }
    if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 120)}`);
    let content: unknown;
    try {
      content = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
    } catch {
      throw new Error("the endpoint's reply is not JSON");
    }
    if (typeof content !== "string") throw new Error("the endpoint's reply has no choices[0].message.content");
    return content;
  } finally {
    clearTimeout(timer);
  }
}

async function postWithRetries(url: string, req: JudgeRequest, opts: JudgeRunOptions): Promise<string> {
  let delay = opts.backoffMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await postOnce(url, req, opts);
    } catch (e) {
      if (!(e instanceof RetryableError) || attempt >= opts.retries) throw e;
      await sleep(e.retryAfterMs ?? delay);
      delay *= 2;
    }
  }
}

function writeCache(dir: string, key: string, content: string): void {
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${key}.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify({ content }));
  renameSync(tmp, join(dir, `${key}.json`));
}

function readCache(dir: string | null, key: string): string | null {
  if (!dir) return null;
  const file = join(dir, `${key}.json`);
  if (!existsSync(file)) return null;
  try {
    const c = (JSON.parse(readFileSync(file, "utf8")) as { content?: unknown }).content;
    return typeof c === "string" ? c : null;
  } catch {
    return null;
  }
}

/** Judge every turn not yet labelled, `concurrency` at a time, appending each label as it arrives. */
export async function runJudge(turns: readonly HeldBackTurn[], opts: JudgeRunOptions): Promise<JudgeRunReport> {
  const url = completionsUrl(opts.endpoint);
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
  const worker = async (): Promise<void> => {
    while (next < pending.length) {
      const { turn, req } = pending[next++];
      try {
        let content = readCache(opts.cacheDir, req.key);
        if (content !== null) fromCache++;
        else {
          requested++;
          content = await postWithRetries(url, req, opts);
          if (opts.cacheDir) writeCache(opts.cacheDir, req.key, content);
        }
        const parsed = parseJudgeReply(content);
        if (!parsed.ok) failures.push({ model: turn.model, missId: turn.missId, message: `malformed judge reply: ${parsed.message}` });
        else {
          const record: JudgeRecord = { model: turn.model, missId: turn.missId, requestKey: req.key, label: parsed.label, raw: content };
          // One whole line per append: an interruption loses at most the line being written.
          appendFileSync(opts.labelsFile, JSON.stringify(record) + "\n");
          labelled++;
        }
      } catch (e) {
        failures.push({ model: turn.model, missId: turn.missId, message: e instanceof Error ? e.message : String(e) });
      }
      done++;
      opts.onProgress?.(done, work.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, pending.length || 1)) }, worker));
  failures.sort((a, b) => (a.model + a.missId).localeCompare(b.model + b.missId));
  return { labelled, resumed, fromCache, requested, failures };
}
