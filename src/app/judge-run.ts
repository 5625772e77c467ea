/**
 * The judge loop: sends held-back turns to the judge endpoint and appends labels to a JSONL file as they
 * arrive, built for long, interruptible runs (a concurrency limit, a response cache, resume). More in this
 * folder's README.md.
 */
import { cachedLabel, judgeRecordsOf, parseJudgeReply } from "../judge/labels.js";
import { buildJudgeRequest, type JudgePrompt } from "../judge/prompt.js";
import type { HeldBackTurn, JudgeLabel, JudgeRecord } from "../judge/types.js";
import {
  appendJsonLine,
  endTornLine,
  judgePoster,
  readCacheEntry,
  readJsonLines,
  storedReply,
  writeCacheEntry,
} from "../io/judge-client.js";
import { redactKey, type RetryInfo } from "../io/openai-chat.js";

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

/** Read the labels already in the file; a torn last line (interrupted write) is ignored. */
export function readLabelsFile(file: string): JudgeRecord[] {
  return judgeRecordsOf(readJsonLines(file));
}

/** A cached label, or null (no cache, no entry, unreadable, or an older entry whose reply has no label). */
function readCache(dir: string | null, key: string): { label: JudgeLabel; raw: string } | null {
  return dir === null ? null : cachedLabel(readCacheEntry(dir, key));
}

/** Counters and failures of one judge run, shared by its workers. */
interface JudgeTally {
  fromCache: number;
  requested: number;
  labelled: number;
  readonly failures: { model: string; missId: string; message: string }[];
}

/** Label one turn: from the cache, or else by asking the judge; append the label and count what happened. */
async function labelTurn(
  turn: HeldBackTurn,
  req: ReturnType<typeof buildJudgeRequest>,
  opts: JudgeRunOptions,
  key: string | null,
  post: ReturnType<typeof judgePoster>,
  tally: JudgeTally,
): Promise<void> {
  const failures = tally.failures;
  try {
    let found = readCache(opts.cacheDir, req.key);
    if (found !== null) tally.fromCache++;
    else {
      tally.requested++;
      const reply = await post(req.body as unknown as Record<string, unknown>, req.key);
      if (!reply.ok) failures.push({ model: turn.model, missId: turn.missId, message: reply.message });
      else {
        const parsed = parseJudgeReply(reply.content);
        if (!parsed.ok)
          failures.push({
            model: turn.model,
            missId: turn.missId,
            message: `malformed judge reply: ${redactKey(parsed.message, key).slice(0, 300)}`,
          });
        else {
          found = { label: parsed.label, raw: storedReply(reply.content, key) };
          // only replies that gave a label are cached: a bad reply is asked again next time
          if (opts.cacheDir) writeCacheEntry(opts.cacheDir, req.key, { label: found.label, raw: found.raw });
        }
      }
    }
    if (found !== null) {
      const record: JudgeRecord = {
        model: turn.model,
        missId: turn.missId,
        requestKey: req.key,
        label: found.label,
        raw: storedReply(found.raw, key),
      };
      appendJsonLine(opts.labelsFile, record);
      tally.labelled++;
    }
  } catch (e) {
    failures.push({ model: turn.model, missId: turn.missId, message: redactKey(e instanceof Error ? e.message : String(e), key) });
  }
}

/** Judge every turn not yet labelled, `concurrency` at a time, appending each label as it arrives. */
export async function runJudge(turns: readonly HeldBackTurn[], opts: JudgeRunOptions): Promise<JudgeRunReport> {
  const existing = new Set(readLabelsFile(opts.labelsFile).map((r) => `${r.model}\u0000${r.missId}\u0000${r.requestKey}`));
  const work = turns.map((turn) => ({ turn, req: buildJudgeRequest(turn, opts.prompt, opts.judgeModel) }));
  const pending = work.filter((w) => !existing.has(`${w.turn.model}\u0000${w.turn.missId}\u0000${w.req.key}`));
  const resumed = work.length - pending.length;
  // An interrupted run may have left a torn last line: end it so the next label starts clean.
  endTornLine(opts.labelsFile);
  let done = resumed;
  const tally: JudgeTally = { fromCache: 0, requested: 0, labelled: 0, failures: [] };
  opts.onProgress?.(done, work.length);

  let next = 0;
  const key = opts.apiKey === "" ? null : opts.apiKey;
  const post = judgePoster({ ...opts, apiKey: key });
  const worker = async (): Promise<void> => {
    while (next < pending.length) {
      const { turn, req } = pending[next++];
      await labelTurn(turn, req, opts, key, post, tally);
      done++;
      opts.onProgress?.(done, work.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, pending.length || 1)) }, worker));
  const { labelled, fromCache, requested, failures } = tally;
  failures.sort((a, b) => (a.model + a.missId).localeCompare(b.model + b.missId));
  return { labelled, resumed, fromCache, requested, failures };
}
