/**
 * The endpoints of a run: the model's chat endpoint and the simulated user's, each
 * through the project's client; the probe before the first item; and the watch that stops
 * a run once too many requests in a row could not connect.
 */
import { problem, type Problem, type Result } from "../../messages/index.js";
import type { Manifest } from "../../pairs/types.js";
import { llmUser, type ChatEndpoint, type InteractiveUser, type RolloutEntry, type UserSimEndpoint } from "../../rollout/index.js";
import { createChatClient, shownUrl } from "../../io/openai-chat.js";
import { checkEndpoints, type EndpointTarget } from "../endpoint-check.js";
import type { RunRequest, UserSimSetup } from "./types.js";

/** The client settings a run's endpoints share. */
export type ClientSettings = Pick<
  RunRequest,
  "timeoutMs" | "retries" | "apiKey" | "backoffMs" | "retryAfterCapMs" | "onRetry" | "maxReplyBytes" | "http"
>;

/** The chat endpoint the loop talks to: the body BFCL's handler sends, through the project's client (with `seed` only when one is given). */
export function endpointFor(
  req: Pick<RunRequest, "endpoint" | "model" | "temperature"> & ClientSettings & { readonly seed?: number | null },
  otherKeys: readonly (string | null)[] = [],
): ChatEndpoint {
  const client = createChatClient({
    endpoint: req.endpoint,
    apiKey: req.apiKey,
    otherKeys,
    timeoutMs: req.timeoutMs,
    retries: req.retries,
    backoffMs: req.backoffMs,
    retryAfterCapMs: req.retryAfterCapMs,
    maxReplyBytes: req.maxReplyBytes,
    onRetry: req.onRetry,
    transport: req.http,
  });
  return async (chat) => {
    const body: Record<string, unknown> = { messages: chat.messages, model: req.model, temperature: req.temperature, store: false };
    if (chat.tools !== null && chat.tools.length > 0) body.tools = chat.tools;
    if (req.seed !== undefined && req.seed !== null) body.seed = req.seed;
    const out = await client(body, chat.itemId);
    if (!out.ok) return { ok: false, error: out.error, connectionFailed: out.kind === "network" };
    const choices = out.completion.choices;
    const first = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : undefined;
    if (first === undefined)
      return { ok: false, error: Array.isArray(choices) ? "list index out of range" : "'NoneType' object is not subscriptable" };
    const message = first.message;
    if (message === null || typeof message !== "object") return { ok: false, error: "'NoneType' object has no attribute 'tool_calls'" };
    return { ok: true, message: message as Record<string, unknown>, usage: out.completion.usage };
  };
}

/** The simulated user's endpoint: the simulator's request through the project's client, the reply's text. */
export function userSimEndpointFor(
  setup: Pick<UserSimSetup, "endpoint" | "model" | "apiKey">,
  client: Omit<ClientSettings, "apiKey">,
  otherKeys: readonly (string | null)[] = [],
): UserSimEndpoint {
  const post = createChatClient({
    endpoint: setup.endpoint,
    apiKey: setup.apiKey,
    otherKeys,
    timeoutMs: client.timeoutMs,
    retries: client.retries,
    backoffMs: client.backoffMs,
    retryAfterCapMs: client.retryAfterCapMs,
    maxReplyBytes: client.maxReplyBytes,
    onRetry: client.onRetry ? (info) => client.onRetry?.({ ...info, reason: `user simulator: ${info.reason}` }) : undefined,
    transport: client.http,
  });
  return async (ask) => {
    const out = await post({ model: setup.model, messages: ask.messages, temperature: 0 }, ask.itemId);
    if (!out.ok) return { ok: false, error: out.error, connectionFailed: out.kind === "network" };
    const choices = out.completion.choices;
    const first = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : undefined;
    const message = first?.message;
    if (message === null || typeof message !== "object") return { ok: false, error: "the reply has no message" };
    const content = (message as Record<string, unknown>).content;
    return { ok: true, text: typeof content === "string" ? content : "", usage: out.completion.usage };
  };
}

/** The simulated user of one entry: only should-ask items of the manifest's pairs have one. */
export function interactiveUserFor(
  entry: RolloutEntry,
  pairsByMiss: ReadonlyMap<string, Manifest["pairs"][number]>,
  setup: UserSimSetup,
  endpoint: UserSimEndpoint,
): InteractiveUser | null {
  const pair = pairsByMiss.get(entry.id);
  if (pair === undefined || pair.anchorTurn + 1 >= entry.turns.length) return null;
  return llmUser({
    endpoint,
    prompt: setup.prompt,
    facts: { request: pair.anchorRequest.miss, baseRequest: pair.anchorRequest.base, removedFunctions: pair.removedFunctions },
    answerTurn: pair.anchorTurn + 1,
    maxClarifications: setup.maxClarifications,
    model: setup.model,
  });
}

/** Probe the model's endpoint and, in interactive mode, the simulator's (each reached over HTTP); the first refusal as a problem, notes as warnings. */
export function probeEndpoints(req: RunRequest, keys: readonly (string | null)[]): Promise<Result<Problem[]>> {
  const targets: EndpointTarget[] = [];
  if (req.probe ?? req.chat === undefined)
    targets.push({ flag: "--endpoint", endpoint: req.endpoint, model: req.model, apiKey: req.apiKey });
  const sim = req.userSim ?? null;
  if (sim !== null && (req.probe ?? sim.chat === undefined))
    targets.push({ flag: "--user-endpoint", endpoint: sim.endpoint, model: sim.model, apiKey: sim.apiKey });
  return checkEndpoints(
    targets,
    { otherKeys: keys, timeoutMs: req.timeoutMs, maxReplyBytes: req.maxReplyBytes, transport: req.http },
    "nothing was generated",
  );
}

/** Why the run stops early: set by any worker, read by all (an object, so every closure sees the same). */
export interface Halt {
  stop: Problem | null;
  write: Problem | null;
}

/** The run's endpoints as the workers call them: each failed connection counted, and a row of them stops the run. */
export interface WatchedEndpoints {
  /** The model's endpoint of one trial (its seed, when the run sends one). */
  readonly chatOf: (seed: number | null) => ChatEndpoint;
  readonly sim: UserSimEndpoint | null;
  readonly halt: Halt;
}

/** Wrap the endpoints so that a row of `maxInRow` requests that could not connect at all (either endpoint) halts the run. */
export function watchedEndpoints(req: RunRequest, keys: readonly (string | null)[], maxInRow: number): WatchedEndpoints {
  const streak = { count: 0, endpoint: req.endpoint };
  const halt: Halt = { stop: null, write: null };
  const watch = (endpoint: string, failed: boolean): void => {
    if (!failed) {
      streak.count = 0;
      return;
    }
    streak.count++;
    streak.endpoint = endpoint;
    if (maxInRow > 0 && streak.count >= maxInRow && halt.stop === null) {
      halt.stop = problem(
        "endpoint-down",
        `${streak.count} requests in a row could not connect to ${shownUrl(endpoint)} (--max-consecutive-errors ${maxInRow}): the run stopped`,
      );
    }
  };
  const watched =
    (base: ChatEndpoint): ChatEndpoint =>
    async (r) => {
      const out = await base(r);
      watch(req.endpoint, !out.ok && out.connectionFailed === true);
      return out;
    };
  const bySeed = new Map<number | null, ChatEndpoint>();
  const chatOf = (seed: number | null): ChatEndpoint => {
    let chat = bySeed.get(seed);
    if (chat === undefined) {
      chat = watched(req.chat ?? endpointFor({ ...req, seed }, keys));
      bySeed.set(seed, chat);
    }
    return chat;
  };
  const userSim = req.userSim ?? null;
  const baseSim = userSim === null ? null : (userSim.chat ?? userSimEndpointFor(userSim, req, keys));
  const sim: UserSimEndpoint | null =
    baseSim === null || userSim === null
      ? null
      : async (r) => {
          const out = await baseSim(r);
          watch(userSim.endpoint, !out.ok && out.connectionFailed === true);
          return out;
        };
  return { chatOf, sim, halt };
}
