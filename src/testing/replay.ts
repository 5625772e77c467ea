/**
 * Test endpoints for `twinscore run`: an OpenAI-compatible chat-completions server on 127.0.0.1 that replays a
 * recorded BFCL run. More in this folder's README.md.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { evalLiteral } from "../python/literal-eval.js";
import { jsonLoadsOrThrow } from "../python/json.js";
import { parseExpression } from "../python/parse.js";
import { pyRepr } from "../python/repr.js";
import { PyDict } from "../python/containers.js";
import { pyToPlain } from "../rollout/serialize.js";
import type { ChatEndpoint } from "../rollout/loop.js";
import { PROBE_ITEM_ID, pythonHttpErrorText } from "../io/openai-chat.js";

/** One recorded assistant step. */
export interface RecordedStep {
  readonly turn: number;
  readonly step: number;
  /** `result[turn][step]` as recorded (a call list, text or null). */
  readonly response: unknown;
  readonly promptTokens: unknown;
  readonly completionTokens: unknown;
  /** Tool outputs logged after the step; null when the step was not executed (empty or undecodable). */
  readonly toolOutputs: string[] | null;
}

/** One recorded entry: its steps and per-turn queries, or the error it ended with. */
export interface RecordedEntry {
  readonly id: string;
  readonly steps: RecordedStep[];
  /** `begin_of_turn_query` of each turn, as recorded. */
  readonly queries: { role: string; content: unknown }[][];
  /** The recorded `result` of an error line (`Error during inference: …`), else null. */
  readonly error: string | null;
}

/** Parse a recorded result file's text into entries by id. */
export function parseRecording(text: string): Map<string, RecordedEntry> {
  const out = new Map<string, RecordedEntry>();
  for (const l of text.split("\n")) {
    if (l.trim() === "") continue;
    const line = JSON.parse(l) as Record<string, unknown>;
    const id = line.id as string;
    if (!Array.isArray(line.result)) {
      out.set(id, { id, steps: [], queries: [], error: String(line.result) });
      continue;
    }
    const result = line.result as unknown[][];
    const inTok = line.input_token_count as unknown[][];
    const outTok = line.output_token_count as unknown[][];
    const turnLogs = (line.inference_log as unknown[]).filter((x) => !Array.isArray(x)) as Record<string, unknown>[];
    const steps: RecordedStep[] = [];
    const queries: { role: string; content: unknown }[][] = [];
    result.forEach((turnSteps, t) => {
      const log = turnLogs[t];
      queries.push(
        ((log?.begin_of_turn_query as { role: string; content: unknown }[]) ?? []).map((m) => ({ role: m.role, content: m.content })),
      );
      turnSteps.forEach((response, k) => {
        const entries = (log?.[`step_${k}`] as Record<string, unknown>[]) ?? [];
        const tools = entries.filter((e) => e.role === "tool").map((e) => String(e.content));
        const executed =
          entries.some((e) => e.role === "tool") ||
          (entries.some((e) => e.content === "Successfully decoded model response.") &&
            !entries.some((e) => String(e.content).startsWith("Empty response")));
        steps.push({
          turn: t,
          step: k,
          response,
          promptTokens: inTok[t][k],
          completionTokens: outTok[t][k],
          toolOutputs: executed ? tools : null,
        });
      });
    });
    out.set(id, { id, steps, queries, error: null });
  }
  return out;
}

/** `Error code: 500 - {…python repr…}` → status and JSON body, to serve a recorded HTTP error again. */
export function recordedHttpError(message: string): { status: number; body: string } | null {
  const m = /^Error during inference: Error code: (\d{3}) - ([\s\S]*)$/.exec(message);
  if (!m) return null;
  const parsed = parseExpression(m[2]);
  if (!parsed.ok) return { status: Number(m[1]), body: m[2] };
  return { status: Number(m[1]), body: JSON.stringify(pyToPlain(evalLiteral(parsed.expr))) };
}

/** The Python-call text a prompting model would have written for a recorded FC step. */
export function renderAsPythonCalls(response: unknown): string | null {
  if (!Array.isArray(response)) return null;
  const calls: string[] = [];
  for (const item of response as Record<string, unknown>[]) {
    for (const [name, raw] of Object.entries(item)) {
      if (typeof raw !== "string") return null;
      let args;
      try {
        args = jsonLoadsOrThrow(raw);
      } catch {
        return null;
      }
      const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
      if (!(args instanceof PyDict) || !identifier.test(name) || !args.keys().every((k) => typeof k === "string" && identifier.test(k)))
        return null;
      calls.push(
        `${name}(${args
          .entries()
          .map(([k, v]) => `${String(k)}=${pyRepr(v)}`)
          .join(", ")})`,
      );
    }
  }
  return calls.length === 0 ? "" : `[${calls.join(", ")}]`;
}

/** Options of a replay server. */
export interface ReplayOptions {
  readonly mode?: "fc" | "prompting";
  /** Added before every reply (the bench's simulated model time). */
  readonly delayMs?: number;
  /** Requests served before the server refuses more (a bound on any loop). */
  readonly maxRequests?: number;
  /** The server closes itself after this long. */
  readonly lifetimeMs?: number;
  /** Port to listen on (127.0.0.1); 0 picks a free one. */
  readonly port?: number;
  /** Called with each request's headers (tests check the item header and the key). */
  readonly onRequest?: (headers: IncomingMessage["headers"], body: Record<string, unknown>) => void;
}

/** A running test server. */
export interface TestServer {
  readonly url: string;
  readonly server: Server;
  /**
   * Requests answered so far (the probe's not counted), the 409 diagnostics sent, the time
   * spent serving (request start to reply end, delays excluded), and the probe requests.
   */
  stats: { requests: number; mismatches: string[]; busyMs: number; probes: number };
  close(): Promise<void>;
}

/**
 * How a test server meets `run`'s probe: `answer` (the default) as a healthy server does, so the responder sees
 * only the run's own requests; `pass` hands the probe's chat request to the responder and answers
 * `GET …/models` with 404 or `models`. More in this folder's README.md.
 */
export interface ProbeHandling {
  readonly probe?: "answer" | "pass";
  /** The model ids `GET …/models` lists. */
  readonly models?: readonly string[];
}

type Msg = Record<string, unknown>;

/** Check the history a client sent for step `n` against the recording; the first mismatch, or null. */
export function checkHistory(rec: RecordedEntry, messages: Msg[], n: number, mode: "fc" | "prompting"): string | null {
  const convo = messages.filter((m) => m.role !== "developer" && m.role !== "system");
  let i = 0;
  const expectUser = (content: unknown, what: string): string | null => {
    const m = convo[i++];
    if (!m || m.role !== "user") return `${what}: expected a user message, got ${m ? String(m.role) : "nothing"}`;
    if (m.content !== content) return `${what}: user content differs`;
    return null;
  };
  for (let s = 0; s < n; s++) {
    const step = rec.steps[s];
    if (step.step === 0) {
      for (const q of rec.queries[step.turn]) {
        if (q.role === "system") continue;
        const bad = expectUser(q.content, `turn ${step.turn} query`);
        if (bad) return bad;
      }
    }
    const a = convo[i++];
    if (!a || a.role !== "assistant") return `step ${s}: expected the assistant message`;
    if (step.toolOutputs === null) continue;
    if (mode === "fc") {
      for (let c = 0; c < step.toolOutputs.length; c++) {
        const tm = convo[i++];
        const want = `call_${step.turn}_${step.step}_${c}`;
        if (!tm || tm.role !== "tool") return `turn ${step.turn} step ${step.step}: expected tool message ${c}`;
        if (tm.tool_call_id !== want) return `turn ${step.turn} step ${step.step}: tool_call_id ${String(tm.tool_call_id)}, issued ${want}`;
        if (tm.content !== step.toolOutputs[c])
          return `turn ${step.turn} step ${step.step}: tool output ${c} differs: got ${JSON.stringify(tm.content)}, recorded ${JSON.stringify(step.toolOutputs[c])}`;
      }
    } else {
      const um = convo[i++];
      if (!um || um.role !== "user" || typeof um.content !== "string")
        return `turn ${step.turn} step ${step.step}: expected the execution-results message`;
      for (const out of step.toolOutputs) {
        if (!um.content.includes(`'content': ${pyRepr(out)}`))
          return `turn ${step.turn} step ${step.step}: tool output differs from the recorded ${JSON.stringify(out)}`;
      }
    }
  }
  const step = rec.steps[n];
  if (step && step.step === 0) {
    for (const q of rec.queries[step.turn]) {
      if (q.role === "system") continue;
      const bad = expectUser(q.content, `turn ${step.turn} query`);
      if (bad) return bad;
    }
  }
  if (i !== convo.length) return `history has ${convo.length - i} unexpected trailing message(s)`;
  return null;
}

/** The reply for one recorded step. */
function stepReply(rec: RecordedEntry, n: number, model: unknown, mode: "fc" | "prompting"): Msg {
  const step = rec.steps[n];
  let message: Msg;
  if (mode === "prompting") {
    const text = renderAsPythonCalls(step.response);
    message = { role: "assistant", content: text ?? (typeof step.response === "string" ? step.response : "") };
  } else if (Array.isArray(step.response)) {
    message = {
      role: "assistant",
      content: null,
      tool_calls: (step.response as Record<string, unknown>[]).flatMap((item, c) =>
        Object.entries(item).map(([name, args]) => ({
          id: `call_${step.turn}_${step.step}_${c}`,
          type: "function",
          function: { name, arguments: args },
        })),
      ),
    };
  } else message = { role: "assistant", content: step.response ?? null, tool_calls: null };
  return {
    id: `replay-${rec.id}-${n}`,
    object: "chat.completion",
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: "stop" }],
    usage: {
      prompt_tokens: step.promptTokens,
      completion_tokens: step.completionTokens,
      total_tokens: Number(step.promptTokens) + Number(step.completionTokens),
    },
  };
}

/** Read a request body, bounded. */
export function readBody(req: IncomingMessage, limit = 64 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error("request body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Send a JSON reply. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

/** A probe of the endpoint (`GET /models`, or the probe item's request), answered as `probe` asks; whether it was one. */
function answeredProbe(
  req: IncomingMessage,
  res: ServerResponse,
  probe: NonNullable<ProbeHandling["probe"]>,
  models: readonly string[] | undefined,
  stats: { probes: number },
): boolean {
  if (req.method === "GET" && /\/models\/?(\?.*)?$/.test(req.url ?? "")) {
    stats.probes++;
    req.resume();
    if (probe === "pass" && models === undefined) sendJson(res, 404, { error: { message: "test server: no such route" } });
    else sendJson(res, 200, { object: "list", data: (models ?? []).map((id) => ({ id, object: "model", owned_by: "test" })) });
    return true;
  }
  if (probe === "answer" && req.headers["x-twinscore-item"] === PROBE_ITEM_ID) {
    stats.probes++;
    readBody(req)
      .then((text) => {
        const model = (JSON.parse(text) as Msg).model ?? null;
        sendJson(res, 200, {
          id: "probe",
          object: "chat.completion",
          created: 0,
          model,
          choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "length" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        });
      })
      .catch(() => sendJson(res, 400, { error: { message: "test server: the probe body is not JSON" } }));
    return true;
  }
  return false;
}

/**
 * Start a chat-completions server on 127.0.0.1 whose replies come from `respond`
 * (request body and headers in, status and body out). Bounded by `maxRequests` and
 * `lifetimeMs`.
 */
export async function startChatServer(
  respond: (body: Msg, req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
  opts: { maxRequests?: number; lifetimeMs?: number; port?: number } & ProbeHandling = {},
): Promise<TestServer> {
  const stats = { requests: 0, mismatches: [] as string[], busyMs: 0, probes: 0 };
  const maxRequests = opts.maxRequests ?? 200_000;
  const probe = opts.probe ?? "answer";
  const server = createServer((req, res) => {
    if (answeredProbe(req, res, probe, opts.models, stats)) return;
    stats.requests++;
    const t0 = performance.now();
    res.on("finish", () => (stats.busyMs += performance.now() - t0));
    if (stats.requests > maxRequests) {
      sendJson(res, 503, { error: { message: "test server: request limit reached" } });
      return;
    }
    readBody(req)
      .then(async (text) => {
        let body: Msg;
        try {
          body = JSON.parse(text) as Msg;
        } catch {
          sendJson(res, 400, { error: { message: "test server: the body is not JSON" } });
          return;
        }
        await respond(body, req, res);
      })
      .catch((e: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: `test server: ${e instanceof Error ? e.message : String(e)}` } });
      });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((r) => server.listen(opts.port ?? 0, "127.0.0.1", r));
  const lifetime = setTimeout(() => void close(), opts.lifetimeMs ?? 600_000);
  lifetime.unref();
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
  return { url: `http://127.0.0.1:${port}/v1`, server, stats, close };
}

/** What a replay answers: an HTTP status and a JSON body. */
export interface ReplayAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * The replay's answer to one request (shared by the HTTP server and the in-process
 * endpoint). `tolerate` keeps serving after a tool-output mismatch (recording it), so
 * one executor difference does not hide the rest of the entry.
 */
export function replayResponder(
  recording: ReadonlyMap<string, RecordedEntry>,
  opts: { mode?: "fc" | "prompting"; tolerate?: boolean; mismatches?: string[] } = {},
): (body: Msg, itemId: string) => ReplayAnswer {
  const mode = opts.mode ?? "fc";
  const mismatches = opts.mismatches ?? [];
  return (body, id) => {
    const rec = recording.get(id);
    if (!rec)
      return {
        status: 404,
        body: { error: { message: `replay: no recording of item ${JSON.stringify(id)}`, type: "not_found", param: null, code: 404 } },
      };
    if (rec.error !== null) {
      const http = recordedHttpError(rec.error);
      if (http) return { status: http.status, body: http.body };
      return {
        status: 404,
        body: {
          error: {
            message: `replay: the recording of ${id} is an error line without steps: ${rec.error}`,
            type: "not_recorded",
            param: null,
            code: 404,
          },
        },
      };
    }
    const messages = (Array.isArray(body.messages) ? body.messages : []) as Msg[];
    const n = messages.filter((m) => m.role === "assistant").length;
    if (n >= rec.steps.length) {
      const why = `replay: ${id} asks for step ${n}, the recording has ${rec.steps.length}`;
      mismatches.push(why);
      return { status: 409, body: { error: { message: why, type: "replay_mismatch", param: null, code: 409 } } };
    }
    const bad = checkHistory(rec, messages, n, mode);
    if (bad) {
      const why = `replay: ${id}: ${bad}`;
      const toolOnly = / tool output \d+ differs| tool output differs/.test(bad);
      if (!(opts.tolerate && toolOnly) || !mismatches.includes(why)) mismatches.push(why);
      if (!(opts.tolerate && toolOnly))
        return { status: 409, body: { error: { message: why, type: "replay_mismatch", param: null, code: 409 } } };
    }
    return { status: 200, body: stepReply(rec, n, body.model ?? null, mode) };
  };
}

/** Start a replay server over recorded entries (several files may be merged into one map). */
export async function startReplayServer(
  recording: ReadonlyMap<string, RecordedEntry>,
  opts: ReplayOptions & { tolerate?: boolean } = {},
): Promise<TestServer> {
  const mismatches: string[] = [];
  const respond = replayResponder(recording, { mode: opts.mode, tolerate: opts.tolerate, mismatches });
  const srv = await startChatServer(
    async (body, req, res) => {
      opts.onRequest?.(req.headers, body);
      if (opts.delayMs) {
        await new Promise((r) => setTimeout(r, opts.delayMs));
        srv.stats.busyMs -= opts.delayMs;
      }
      const answer = respond(body, String(req.headers["x-twinscore-item"] ?? ""));
      sendJson(res, answer.status, answer.body);
    },
    { maxRequests: opts.maxRequests, lifetimeMs: opts.lifetimeMs, port: opts.port },
  );
  srv.stats.mismatches = mismatches;
  return srv;
}

/**
 * The replay as an in-process chat endpoint (no sockets, no client): what the tests over
 * all 2,400 recorded entries use, so they stay fast. HTTP errors are worded as the
 * client words them.
 */
export function inProcessEndpoint(respond: (body: Msg, itemId: string) => ReplayAnswer, model: string): ChatEndpoint {
  return async (req) => {
    const body: Msg = { messages: req.messages, model, temperature: 0.001, store: false };
    if (req.tools !== null && req.tools.length > 0) body.tools = req.tools;
    const answer = respond(body, req.itemId);
    if (answer.status !== 200)
      return {
        ok: false,
        error: pythonHttpErrorText(answer.status, typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body)),
      };
    const completion = answer.body as { choices: { message: Record<string, unknown> }[]; usage: unknown };
    // the wire would hand over a fresh copy; so does this
    return { ok: true, message: structuredClone(completion.choices[0].message), usage: completion.usage };
  };
}
