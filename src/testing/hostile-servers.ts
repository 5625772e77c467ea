/**
 * Hostile and broken chat-completions endpoints for the hardening tests of `run`, all on 127.0.0.1 and bounded
 * (request cap, lifetime, bytes sent): key echoes, endless or deeply nested replies, numbers JSON cannot hold,
 * odd probe answers. More in this folder's README.md.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:net";
import { sendJson, startChatServer, type ProbeHandling, type TestServer } from "./replay.js";

type Msg = Record<string, unknown>;

/** The spellings of a key a server can echo in JSON text (each decodes to the key). */
export const keySpellings = [
  "plain",
  "escaped-slash",
  "unicode",
  "unicode-upper",
  "mixed",
  "nested-json",
  "nested-unicode",
  "base64",
  "base64-url",
] as const;
export type KeySpelling = (typeof keySpellings)[number];

function unicodeEscape(c: string, upper: boolean): string {
  const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
  return `\\u${upper ? hex.toUpperCase() : hex}`;
}

/**
 * The key written as raw JSON string content in one spelling: escaped in one of the ways JSON allows, inside a
 * JSON text that is itself a string, or inside base64 text at each offset of a 3-byte group. More in this
 * folder's README.md.
 */
export function spellKey(key: string, spelling: KeySpelling): string {
  const plain = JSON.stringify(key).slice(1, -1);
  switch (spelling) {
    case "plain":
      return plain;
    case "escaped-slash":
      return plain.replace(/\//g, "\\/");
    case "unicode":
      return [...key].map((c) => unicodeEscape(c, false)).join("");
    case "unicode-upper":
      return [...key].map((c) => unicodeEscape(c, true)).join("");
    case "mixed":
      return [...key].map((c, i) => (i % 2 === 0 ? unicodeEscape(c, i % 4 === 0) : JSON.stringify(c).slice(1, -1))).join("");
    case "nested-json":
      // the inner JSON text {"echo": "<key with \/>"} as the content of an outer string
      return `{\\"echo\\": \\"${plain.replace(/\//g, "\\\\/")}\\"}`;
    case "nested-unicode":
      return `{\\"echo\\": \\"${[...key].map((c) => `\\${unicodeEscape(c, false)}`).join("")}\\"}`;
    case "base64":
      return Buffer.from(`Bearer ${key}`).toString("base64");
    case "base64-url":
      return Buffer.from(JSON.stringify({ key })).toString("base64url");
  }
}

/** The key sent in a request's Authorization header ("" without one). */
export function bearerKey(req: IncomingMessage): string {
  const auth = String(req.headers.authorization ?? "");
  return auth.startsWith("Bearer ") ? auth.slice("Bearer ".length) : "";
}

/** A chat completion's JSON text whose message content is `contentJson` (raw JSON string content, unquoted). */
export function completionText(contentJson: string, usage = '{"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}'): string {
  return `{"id": "hostile", "object": "chat.completion", "created": 0, "model": "hostile", "choices": [{"index": 0, "message": {"role": "assistant", "content": "${contentJson}"}, "finish_reason": "stop"}], "usage": ${usage}}`;
}

/** Every request body a server received, as text, for checks that nothing was forwarded. */
export interface ReceivedBodies {
  readonly bodies: string[];
}

/**
 * A model endpoint that echoes the key of each request back, cycling through the
 * spellings: in the reply's text (which ends with a question, so an interactive run asks
 * its simulated user; `reply` words it otherwise, e.g. as a judge's label), and on every
 * `errorEvery`-th request in an HTTP 500 error body. Every request body is recorded.
 */
export function startKeyEchoModel(
  received: ReceivedBodies,
  opts: { errorEvery?: number; reply?: (spelled: string) => string } = {},
): Promise<TestServer> {
  let n = 0;
  return startChatServer((body, req, res) => {
    received.bodies.push(JSON.stringify(body));
    const spelled = spellKey(bearerKey(req), keySpellings[n % keySpellings.length]);
    n++;
    if (opts.errorEvery !== undefined && n % opts.errorEvery === 0) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(`{"error": {"message": "internal failure for token ${spelled}", "type": "server_error", "param": null, "code": 500}}`);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(completionText(opts.reply ? opts.reply(spelled) : `I was called with ${spelled}. Which file do you mean?`));
  });
}

/** A simulated-user endpoint that answers every ask and echoes its own key in the answer, cycling through the spellings; every request body is recorded. */
export function startKeyEchoSimulator(received: ReceivedBodies): Promise<TestServer> {
  let n = 0;
  return startChatServer((body, req, res) => {
    received.bodies.push(JSON.stringify(body));
    const spelled = spellKey(bearerKey(req), keySpellings[n++ % keySpellings.length]);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(completionText(`Use the file named after ${spelled}, please.`));
  });
}

/**
 * A reply that never ends: the status line, then JSON text written as fast as the client
 * reads it, until the client hangs up (or `maxBytes` were sent, or the lifetime ends).
 */
export function startEndlessServer(opts: { maxBytes?: number; lifetimeMs?: number } = {}): Promise<TestServer> {
  const cap = opts.maxBytes ?? 4 * 1024 ** 3;
  const chunk = Buffer.alloc(64 * 1024, "x");
  return startChatServer(
    (_body, _req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id": "endless", "choices": [{"index": 0, "message": {"role": "assistant", "content": "');
      let sent = 0;
      const pump = (): void => {
        while (!res.destroyed && sent < cap) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once("drain", pump);
            return;
          }
        }
        if (!res.destroyed) res.end('"}}]}');
      };
      pump();
    },
    { lifetimeMs: opts.lifetimeMs ?? 120_000 },
  );
}

/** JSON nested `depth` levels: arrays (`[[[…]]]`) or objects (`{"a": {"a": …}}`). */
export function nestedJson(depth: number, kind: "array" | "object"): string {
  return kind === "array" ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a": '.repeat(depth)}1${"}".repeat(depth)}`;
}

/**
 * A model endpoint whose replies nest deep: per item (by its header), `content` as an
 * array nested `depth` levels, or one tool call whose `arguments` is an object (not a
 * string) nested that deep; items not named get a plain text reply.
 */
export function startDeepServer(
  plan: ReadonlyMap<string, { readonly where: "content" | "arguments"; readonly depth: number }>,
): Promise<TestServer> {
  return startChatServer((_body, req, res) => {
    const p = plan.get(String(req.headers["x-twinscore-item"] ?? ""));
    res.writeHead(200, { "content-type": "application/json" });
    const usage = '{"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}';
    if (p === undefined) {
      res.end(completionText("Nothing to do."));
      return;
    }
    const message =
      p.where === "content"
        ? `{"role": "assistant", "content": ${nestedJson(p.depth, "array")}}`
        : `{"role": "assistant", "content": null, "tool_calls": [{"id": "call_0", "type": "function", "function": {"name": "ls", "arguments": ${nestedJson(p.depth, "object")}}}]}`;
    res.end(
      `{"id": "deep", "object": "chat.completion", "created": 0, "model": "deep", "choices": [{"index": 0, "message": ${message}, "finish_reason": "stop"}], "usage": ${usage}}`,
    );
  });
}

/** A text reply whose `usage` holds numbers beyond any float (`1e309` reads as infinity). */
export function startHugeUsageServer(): Promise<TestServer> {
  return startChatServer((_body, _req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(completionText("Nothing to do.", '{"prompt_tokens": 1e309, "completion_tokens": -1e309, "total_tokens": 1e400}'));
  });
}

/**
 * A server that serves `models` only, as vLLM does: `GET …/models` lists them, and a chat
 * request for any other model is a 404 (`The model \`x\` does not exist.`). A served model
 * gets a plain text reply.
 */
export function startModelListServer(models: readonly string[], opts: ProbeHandling = {}): Promise<TestServer> {
  return startChatServer(
    (body, _req, res: ServerResponse) => {
      const model = String((body as Msg).model);
      if (!models.includes(model))
        sendJson(res, 404, {
          object: "error",
          message: `The model \`${model}\` does not exist.`,
          type: "NotFoundError",
          param: null,
          code: 404,
        });
      else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(completionText("Nothing to do."));
      }
    },
    { probe: "pass", models, ...opts },
  );
}

/** A port on 127.0.0.1 where nothing listens (bound once to find it free, then closed). */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * Replies made of backslashes: every chat reply's text is `count` backslashes (twice as
 * many in the JSON text), and `GET …/models` lists one model whose id is `count`
 * backslashes, then the model asked for (so the probe reads the long id, then passes).
 */
export function startBackslashServer(count: number, model: string): Promise<TestServer> {
  const text = completionText("\\\\".repeat(count));
  return startChatServer(
    (_body, _req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(text);
    },
    { probe: "pass", models: ["\\".repeat(count), model] },
  );
}
