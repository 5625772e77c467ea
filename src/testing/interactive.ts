/**
 * Test endpoints for interactive runs (`run --user-sim llm`): scripted models that ask, guess or keep asking,
 * and a stub of the simulated user that checks it was given the model's question and the withheld facts. All in
 * FC form, in process or on 127.0.0.1. More in this folder's README.md.
 */
import { PyDict } from "../python/containers.js";
import type { ManifestPair } from "../pairs/types.js";
import type { RolloutEntry } from "../rollout/entry.js";
import { ADDITIONAL_FUNCTION_NOTICE } from "../rollout/loop.js";
import { NO_QUESTION, type UserSimEndpoint } from "../rollout/user-sim.js";
import { pythonHttpErrorText } from "../io/openai-chat.js";
import { callToToolCall, wordCount, type ParamNames } from "./policies.js";
import { sendJson, startChatServer, type ReplayAnswer, type TestServer } from "./replay.js";

type Msg = Record<string, unknown>;

/** The question every asking policy writes on the anchor turn (it names the item, so the stub can check it was passed on). */
export function anchorQuestion(itemId: string): string {
  return `Before I change anything for ${itemId}: your request leaves something out that I need. What should I use?`;
}

/** The question the keep-asking policy repeats inside the answer turn. */
export function followUpQuestion(itemId: string, round: number): string {
  return `Thanks. To be sure for ${itemId} (${round}): could you confirm exactly what you want?`;
}

/** The closing text of a policy's turn: it asks nothing. */
export const CLOSING_TEXT = "Done.";

/** Where a request stands: the item's turn, the step since the last user message, the user answers inside this turn. */
export interface TurnPosition {
  readonly turn: number;
  readonly step: number;
  readonly clarifications: number;
}

/**
 * The turn of a request in an interactive run. Each user message opens the next turn of
 * the item, except inside the answer turn: there a user message that is not the data's
 * next turn is the simulated user answering a clarification. (Without an answer turn,
 * every user message opens a turn, as in BFCL.)
 */
export function interactivePosition(
  messages: readonly Msg[],
  dataTurns: readonly (string | null)[],
  answerTurn: number | null,
): TurnPosition {
  let next = 0;
  let turn = -1;
  let step = 0;
  let clarifications = 0;
  for (const m of messages) {
    if (m.role === "user") {
      const inAnswerTurn = answerTurn !== null && turn === answerTurn && next === answerTurn + 1;
      if (inAnswerTurn && (next >= dataTurns.length || m.content !== dataTurns[next])) clarifications++;
      else {
        turn = next++;
        clarifications = 0;
      }
      step = 0;
    } else if (m.role === "assistant") step++;
  }
  return { turn, step, clarifications };
}

/** The data's user text of each turn of an entry (null for a turn with no message: miss_func's holdout turn). */
export function dataTurnTexts(entry: RolloutEntry): (string | null)[] {
  return entry.turns.map((t) => {
    const c = t[0]?.get("content");
    return typeof c === "string" ? c : null;
  });
}

/** What a policy does at one step: make these calls, or write this text (no call). */
export type PolicyMove = { readonly calls: readonly string[] } | { readonly text: string };

/** A policy: the move for an item at a position (given the item's pair when it is a should-ask item of one). */
export type InteractivePolicy = (itemId: string, at: TurnPosition, pair: ManifestPair | undefined) => PolicyMove;

/** What the policies know: the reference calls by id (turn by turn). */
export type GroundTruth = ReadonlyMap<string, readonly (readonly string[])[]>;

function referenceMove(gt: GroundTruth, id: string, at: TurnPosition): PolicyMove {
  const calls = at.step === 0 ? (gt.get(id)?.[at.turn] ?? []) : [];
  return calls.length > 0 ? { calls } : { text: CLOSING_TEXT };
}

/** Asks on the anchor turn, then makes the reference calls of every turn (the answer turn's included) once answered. */
export function askingOracle(gt: GroundTruth): InteractivePolicy {
  return (id, at, pair) => (pair && at.turn === pair.anchorTurn ? { text: anchorQuestion(id) } : referenceMove(gt, id, at));
}

/** Acts on the anchor turn with the base twin's calls (a guess), then follows the reference. */
export function guessingPolicy(gt: GroundTruth): InteractivePolicy {
  return (id, at, pair) => {
    if (pair && at.turn === pair.anchorTurn) return at.step === 0 ? { calls: pair.goldAnchorCalls } : { text: CLOSING_TEXT };
    return referenceMove(gt, id, at);
  };
}

/** Asks on the anchor turn and at every step of the answer turn; elsewhere follows the reference. */
export function keepAskingPolicy(gt: GroundTruth): InteractivePolicy {
  return (id, at, pair) => {
    if (pair && at.turn === pair.anchorTurn) return { text: anchorQuestion(id) };
    if (pair && at.turn === pair.anchorTurn + 1) return { text: followUpQuestion(id, at.clarifications + 1) };
    return referenceMove(gt, id, at);
  };
}

/**
 * Asks on the anchor turn, and once more on the answer turn before acting (a confirmation);
 * when that is answered, makes the answer turn's reference calls. BFCL's scripted user
 * never answers the confirmation, so the answer turn ends without a call there.
 */
export function confirmingPolicy(gt: GroundTruth): InteractivePolicy {
  return (id, at, pair) => {
    if (pair && at.turn === pair.anchorTurn) return { text: anchorQuestion(id) };
    if (pair && at.turn === pair.anchorTurn + 1 && at.clarifications === 0) return { text: followUpQuestion(id, 1) };
    return referenceMove(gt, id, at);
  };
}

/**
 * A chat responder playing a policy in FC form. A move without calls is sent with no
 * `tool_calls` key (as OpenAI sends it: BFCL records the text as the step), or with
 * `tool_calls: []` (as vLLM sends it: BFCL records `[]` and the text only lives in the
 * history) when `emptyCalls` is set.
 */
export function policyResponder(
  policy: InteractivePolicy,
  ctx: {
    readonly pairs: readonly ManifestPair[];
    readonly entries: ReadonlyMap<string, RolloutEntry>;
    readonly paramNames?: ParamNames;
    readonly emptyCalls?: boolean;
    readonly interactive?: boolean;
  },
): (body: Msg, itemId: string) => ReplayAnswer {
  const pairs = new Map(ctx.pairs.map((p) => [p.missId, p]));
  const texts = new Map<string, (string | null)[]>();
  return (body, id) => {
    const messages = (Array.isArray(body.messages) ? body.messages : []) as Msg[];
    const entry = ctx.entries.get(id);
    if (!entry) return { status: 404, body: { error: { message: `policy: unknown item ${id}` } } };
    let dataTurns = texts.get(id);
    if (!dataTurns) texts.set(id, (dataTurns = dataTurnTexts(entry)));
    const pair = pairs.get(id);
    const at = interactivePosition(messages, dataTurns, ctx.interactive !== false && pair ? pair.anchorTurn + 1 : null);
    const move = policy(id, at, pair);
    let message: Msg;
    if ("calls" in move && move.calls.length > 0) {
      message = {
        role: "assistant",
        content: null,
        tool_calls: move.calls.map((c, i) => {
          const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(c)?.[0] ?? "";
          return { id: `call_${at.turn}_${at.step}_${i}`, type: "function", function: callToToolCall(c, ctx.paramNames?.(id, name) ?? []) };
        }),
      };
    } else {
      const text = "text" in move ? move.text : CLOSING_TEXT;
      message = ctx.emptyCalls ? { role: "assistant", content: text, tool_calls: [] } : { role: "assistant", content: text };
    }
    const prompt = wordCount(messages);
    const completion = "calls" in move ? move.calls.reduce((a, c) => a + c.length, 0) : move.text.split(/\s+/).length;
    return {
      status: 200,
      body: {
        id: `policy-${id}-${at.turn}-${at.step}`,
        object: "chat.completion",
        created: 0,
        model: body.model ?? null,
        choices: [{ index: 0, message, finish_reason: "stop" }],
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
      },
    };
  };
}

/** Parameter names of each method from the simulated classes (one function for every scripted policy). */
export { paramNamesOf } from "./policies.js";

/** The withheld facts of a should-ask item, from BFCL's data: the base twin's anchor request, the scripted answer-turn line, the held-back functions. */
export interface ExpectedFacts {
  readonly baseRequest: string;
  readonly scriptedLine: string;
  readonly removedFunctions: readonly string[];
}

/**
 * The facts of every pair, read from the prepared entries: the base twin's user text on
 * the anchor turn, the should-ask item's text on T+1 (BFCL's notice on a holdout turn),
 * and the names of the docs handed back on T+1.
 */
export function expectedFacts(pairs: readonly ManifestPair[], entries: ReadonlyMap<string, RolloutEntry>): Map<string, ExpectedFacts> {
  const out = new Map<string, ExpectedFacts>();
  for (const p of pairs) {
    const miss = entries.get(p.missId);
    const base = entries.get(p.baseId);
    if (!miss || !base) continue;
    const answer = p.anchorTurn + 1;
    const handed = miss.heldBack.get(String(answer)) ?? [];
    out.set(p.missId, {
      baseRequest: dataTurnTexts(base)[p.anchorTurn] ?? "",
      scriptedLine: dataTurnTexts(miss)[answer] ?? ADDITIONAL_FUNCTION_NOTICE,
      removedFunctions: handed.map((d: PyDict) => String(d.get("name"))),
    });
  }
  return out;
}

/** The marker the shipped prompt puts before the message to answer. */
const MESSAGE_MARKER = "which you reply to now:\n";

/** What the simulated-user stub saw and did. */
export interface UserSimStubLog {
  /** Every request: item, the message it answered, whether it answered. */
  readonly asks: { readonly itemId: string; readonly message: string; readonly answered: boolean }[];
  /** Anything it was given that it should not have been, or not given that it should. */
  readonly mismatches: string[];
}

/**
 * The simulated user's stub: checks that the request holds the model's message and every withheld fact of the
 * item, answers a question with the facts (anything else with `NO_QUESTION`), and refuses a request that fails
 * a check (HTTP 422), so a wrong request leaves error lines, never a quiet pass. More in this folder's
 * README.md.
 */
export function userSimStub(facts: ReadonlyMap<string, ExpectedFacts>, log: UserSimStubLog): (body: Msg, itemId: string) => ReplayAnswer {
  return (body, id) => {
    const messages = (Array.isArray(body.messages) ? body.messages : []) as Msg[];
    const system = typeof messages[0]?.content === "string" ? messages[0].content : "";
    const user = typeof messages[1]?.content === "string" ? messages[1].content : "";
    const expected = facts.get(id);
    const bad: string[] = [];
    if (messages.length !== 2 || messages[0].role !== "system" || messages[1].role !== "user")
      bad.push("expected a system and a user message");
    if (!expected) bad.push("not a should-ask item of a pair");
    const cut = user.lastIndexOf(MESSAGE_MARKER);
    const message = cut < 0 ? "" : user.slice(cut + MESSAGE_MARKER.length).trim();
    if (message === "") bad.push("no model message to answer");
    if (!system.includes(NO_QUESTION)) bad.push("the system part does not name NO_QUESTION");
    if (expected) {
      if (!user.includes(expected.baseRequest)) bad.push("the complete base-twin request is missing");
      if (!user.includes(expected.scriptedLine)) bad.push("the scripted answer-turn line is missing");
      for (const f of expected.removedFunctions) if (!user.includes(f)) bad.push(`the held-back function ${f} is missing`);
    }
    if (bad.length > 0) {
      const why = `user-sim stub: ${id}: ${bad.join("; ")}`;
      log.mismatches.push(why);
      return { status: 422, body: { error: { message: why, type: "stub_mismatch", param: null, code: 422 } } };
    }
    const known = expected as ExpectedFacts;
    const answered = message.endsWith("?");
    log.asks.push({ itemId: id, message, answered });
    const text = !answered
      ? NO_QUESTION
      : known.removedFunctions.length > 0
        ? `You can use ${known.removedFunctions.join(" and ")} now.`
        : known.scriptedLine;
    const promptTokens = wordCount(messages);
    const completionTokens = text.split(/\s+/).length;
    return {
      status: 200,
      body: {
        id: `user-sim-${id}`,
        object: "chat.completion",
        created: 0,
        model: body.model ?? null,
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      },
    };
  };
}

/** A user-simulator responder as an in-process endpoint (no sockets): HTTP errors worded as the client words them. */
export function inProcessUserSim(respond: (body: Msg, itemId: string) => ReplayAnswer, model: string): UserSimEndpoint {
  return async (req) => {
    const answer = respond({ model, messages: req.messages, temperature: 0 }, req.itemId);
    if (answer.status !== 200)
      return {
        ok: false,
        error: pythonHttpErrorText(answer.status, typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body)),
      };
    const completion = answer.body as { choices: { message: { content: unknown } }[]; usage: unknown };
    const content = completion.choices[0].message.content;
    return { ok: true, text: typeof content === "string" ? content : "", usage: completion.usage };
  };
}

/** A responder served over HTTP on 127.0.0.1 (bounded like every test server). */
export function serveResponder(
  respond: (body: Msg, itemId: string) => ReplayAnswer,
  opts: { maxRequests?: number; lifetimeMs?: number } = {},
): Promise<TestServer> {
  return startChatServer((body, req, res) => {
    const a = respond(body, String(req.headers["x-twinscore-item"] ?? ""));
    sendJson(res, a.status, a.body);
  }, opts);
}
