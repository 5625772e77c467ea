/**
 * An in-memory HTTP stand-in for a host's `http`: a chat-completions endpoint answered by
 * a function in this process, no socket opened. It answers the endpoint probe as the
 * test servers of `replay.ts` do (`GET …/models` lists the models given; the probe's
 * one-token request gets "OK"), and hands every other request's JSON body to `respond`.
 */
import type { HttpReply, HttpRequestInit, HttpTransport } from "../io/http-transport.js";
import { PROBE_ITEM_ID } from "../io/openai-chat.js";

type Msg = Record<string, unknown>;

/** One request the stand-in was sent. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  /** The JSON body (null for a GET). */
  readonly body: Msg | null;
}

/** The stand-in and every request it was sent, in order. */
export interface MemoryHttp {
  readonly http: HttpTransport;
  readonly sent: SentRequest[];
}

function reply(status: number, value: unknown, maxBytes: number): HttpReply {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return {
    status,
    statusText: status === 200 ? "OK" : "Error",
    headers: new Headers({ "content-type": "application/json" }),
    body: bytes.length > maxBytes ? { ok: false, read: bytes.length } : { ok: true, bytes },
  };
}

function bodyOf(init: HttpRequestInit): Msg | null {
  if (init.body === undefined || init.body === null) return null;
  const text = typeof init.body === "string" ? init.body : new TextDecoder().decode(init.body);
  return JSON.parse(text) as Msg;
}

/**
 * A stand-in whose chat replies come from `respond` (the request's body and its
 * `x-twinscore-item` header in, an HTTP status and JSON body out); `models` are the ones
 * `GET …/models` lists.
 */
export function memoryHttp(
  respond: (body: Msg, itemId: string) => { status: number; body: unknown },
  models: readonly string[],
): MemoryHttp {
  const sent: SentRequest[] = [];
  const http: HttpTransport = async (url, init, maxBytes) => {
    init.signal?.throwIfAborted();
    const method = (init.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers);
    const body = bodyOf(init);
    sent.push({ method, url, headers, body });
    if (method === "GET" && /\/models\/?(\?.*)?$/.test(new URL(url).pathname))
      return reply(200, { object: "list", data: models.map((id) => ({ id, object: "model", owned_by: "test" })) }, maxBytes);
    const item = headers.get("x-twinscore-item") ?? "";
    if (item === PROBE_ITEM_ID)
      return reply(
        200,
        {
          id: "probe",
          object: "chat.completion",
          created: 0,
          model: body?.model ?? null,
          choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "length" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        },
        maxBytes,
      );
    const answer = respond(body ?? {}, item);
    return reply(answer.status, answer.body, maxBytes);
  };
  return { http, sent };
}
