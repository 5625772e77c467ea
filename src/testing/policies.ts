/**
 * Scripted chat endpoints for `twinscore run` tests: models whose every decision is known in advance. More in
 * this folder's README.md.
 */
import { jsonDumps } from "../python/json.js";
import type { ManifestPair } from "../pairs/types.js";
import { parseReferenceCall, playedMessage, type ReferenceCall } from "../rollout/reference-history.js";
import { methodParameterNames } from "../rollout/executor.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import type { EvaluatorProcess } from "../simulator/executor.js";
import { sendJson, startChatServer, type ReplayAnswer, type TestServer } from "./replay.js";

type Msg = Record<string, unknown>;

/** A method's parameter names in signature order, for reference calls that pass arguments by position. */
export type ParamNames = (itemId: string, method: string) => readonly string[] | undefined;

/**
 * A reference call string (`mv(source='a', destination='b')`, `sort('x.txt')`) as a
 * name and its JSON arguments text (positional arguments named from the signature).
 */
export function callToToolCall(call: string, positionalNames: readonly string[] = []): { name: string; arguments: string } {
  const parsed = referenceCall(call, () => positionalNames);
  return { name: parsed.name, arguments: jsonDumps(parsed.args) };
}

/** A reference call parsed as `run --history reference` plays it (positional arguments named from `names`); throws on a call it cannot play. */
function referenceCall(call: string, names: (method: string) => readonly string[] | undefined): ReferenceCall {
  const parsed = parseReferenceCall(call, names);
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  return parsed.value;
}

/** The turn (user messages so far, minus one) and step (assistant messages since the last user message) of a request. */
export function turnAndStep(messages: readonly Msg[]): { turn: number; step: number } {
  let turn = -1;
  let step = 0;
  for (const m of messages) {
    if (m.role === "user") {
      // in prompting mode execution results come back as user messages too: they start with "[{'role': 'tool'"
      if (typeof m.content === "string" && m.content.startsWith("[{'role': 'tool'")) continue;
      turn++;
      step = 0;
    } else if (m.role === "assistant") step++;
  }
  return { turn, step };
}

/** Words of every message's text: the scripted endpoints' token count. */
export function wordCount(messages: readonly Msg[]): number {
  let n = 0;
  for (const m of messages) if (typeof m.content === "string") n += m.content.split(/\s+/).filter((w) => w !== "").length;
  return n;
}

/** Which calls a scripted model makes at step 0 of a turn of an item. */
export type CallScript = (itemId: string, turn: number) => readonly string[];

/** The calls of every turn, from the reference (`possible_answer`) by id. */
export function oracleScript(groundTruth: ReadonlyMap<string, readonly (readonly string[])[]>): CallScript {
  return (id, turn) => groundTruth.get(id)?.[turn] ?? [];
}

/** The model that never calls anything. */
export const alwaysAskScript: CallScript = () => [];

/** The reference calls, and on a should-ask item's anchor turn the base twin's anchor calls (it never holds back). */
export function alwaysActScript(
  groundTruth: ReadonlyMap<string, readonly (readonly string[])[]>,
  pairs: readonly ManifestPair[],
): CallScript {
  const anchors = new Map(pairs.map((p) => [p.missId, p]));
  return (id, turn) => {
    const p = anchors.get(id);
    if (p && p.anchorTurn === turn) return p.goldAnchorCalls;
    return groundTruth.get(id)?.[turn] ?? [];
  };
}

/** The closing text of a scripted policy's last step of a turn (FC; prompting closes with empty text). */
export const SCRIPTED_CLOSING_TEXT = "I need more information to do that.";

/**
 * A responder that plays a call script: all of a turn's calls in step 0, then a closing
 * text. `asPlayed`: the calls step is the message `run --history reference` plays for
 * those calls (its tool-call ids, keyword text in prompting mode), so the history it
 * builds is the played one plus the closing steps.
 */
export function scriptedResponder(
  script: CallScript,
  opts: { mode?: "fc" | "prompting"; paramNames?: ParamNames; asPlayed?: boolean } = {},
): (body: Msg, itemId: string) => ReplayAnswer {
  const mode = opts.mode ?? "fc";
  return (body, id) => {
    const messages = (Array.isArray(body.messages) ? body.messages : []) as Msg[];
    const { turn, step } = turnAndStep(messages);
    const calls = step === 0 ? script(id, turn) : [];
    let message: Msg;
    if (opts.asPlayed && calls.length > 0) {
      message = playedMessage(
        mode,
        turn,
        calls.map((c) => referenceCall(c, (m) => opts.paramNames?.(id, m))),
      );
    } else if (mode === "prompting") message = { role: "assistant", content: calls.length > 0 ? `[${calls.join(", ")}]` : "" };
    else {
      message = {
        role: "assistant",
        content: calls.length > 0 ? null : SCRIPTED_CLOSING_TEXT,
        tool_calls: calls.map((c, i) => {
          const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(c)?.[0] ?? "";
          return { id: `call_${turn}_${step}_${i}`, type: "function", function: callToToolCall(c, opts.paramNames?.(id, name) ?? []) };
        }),
      };
    }
    const prompt = wordCount(messages);
    const completion = calls.length === 0 ? 7 : calls.reduce((a, c) => a + c.length, 0);
    return {
      status: 200,
      body: {
        id: `scripted-${id}-${turn}-${step}`,
        object: "chat.completion",
        created: 0,
        model: body.model ?? null,
        choices: [{ index: 0, message, finish_reason: "stop" }],
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
      },
    };
  };
}

/** Parameter names of each item's methods (the run's classes), for scripted calls that pass arguments by position. */
export function paramNamesOf(
  entries: ReadonlyMap<string, { readonly involvedClasses: readonly string[] }>,
  process: EvaluatorProcess = newEvaluatorProcess(undefined, true),
): ParamNames {
  const byClasses = new Map<string, (method: string) => readonly string[] | undefined>();
  return (itemId, method) => {
    const classes = entries.get(itemId)?.involvedClasses ?? [];
    const key = classes.join(",");
    let names = byClasses.get(key);
    if (names === undefined) {
      names = methodParameterNames(process, classes);
      byClasses.set(key, names);
    }
    return names(method);
  };
}

/**
 * A scripted policy behind an OpenAI-compatible server on 127.0.0.1 (the item from the
 * `x-twinscore-item` header), bounded like every test server; `delayMs` before each
 * answer, `onRequest` told of each chat request (a test kills a run mid-way from there).
 */
export function startPolicyServer(
  respond: (body: Msg, itemId: string) => ReplayAnswer,
  opts: { readonly delayMs?: number; readonly onRequest?: (count: number) => void; readonly maxRequests?: number } = {},
): Promise<TestServer> {
  let count = 0;
  return startChatServer(
    async (body, req, res) => {
      opts.onRequest?.(++count);
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      if (res.destroyed) return;
      const answer = respond(body, String(req.headers["x-twinscore-item"] ?? ""));
      sendJson(res, answer.status, answer.body);
    },
    { maxRequests: opts.maxRequests ?? 20_000, lifetimeMs: 600_000 },
  );
}
