/**
 * The simulated user of interactive runs. BFCL's scripted user reads its lines in order and cannot answer the
 * question a model asks on a should-ask item's anchor turn T, so on the answer turn T+1 an LLM plays the user
 * and answers only what was asked. More in this folder's README.md.
 */
import { PyDict } from "../python/containers.js";
import type { PyValue } from "../python/value.js";
import { dict, plainToPy } from "./serialize.js";
import { USER_SIMULATOR_KEY } from "../bfcl/line-keys.js";

/** The word the simulated user says when the model's message asks it nothing. */
export const NO_QUESTION = "NO_QUESTION";

/** The top-level key of an interactive line (its one definition is with the other line keys). */
export { USER_SIMULATOR_KEY };

export { OPENING_LOG_KEY, openingMessageOf } from "./opening-message.js";

/** A message of the simulator's request: the prompt's system part and the filled user template. */
export interface SimMessage {
  readonly role: "system" | "user";
  readonly content: string;
}

/** What the loop asks the simulator's endpoint for. */
export interface UserSimRequest {
  /** The entry id (sent as the `x-twinscore-item` header, like the model's requests). */
  readonly itemId: string;
  readonly messages: readonly SimMessage[];
}

/** The simulator's reply text and token usage, or its failure (after the client's retries), worded by the client. */
export type UserSimOutcome =
  | { readonly ok: true; readonly text: string; readonly usage: unknown }
  | { readonly ok: false; readonly error: string; readonly connectionFailed?: boolean };

/** An OpenAI-compatible endpoint serving the user-simulator model. */
export type UserSimEndpoint = (request: UserSimRequest) => Promise<UserSimOutcome>;

/** The shipped (or the user's) prompt: a system part and a user template with placeholders. */
export interface UserSimPrompt {
  readonly system: string;
  readonly user: string;
}

/** The placeholders a user-simulator prompt may use; `{{message}}` is required. */
export const userSimPlaceholders = [
  "{{request}}",
  "{{base_request}}",
  "{{removed}}",
  "{{scripted_line}}",
  "{{conversation}}",
  "{{message}}",
  "{{no_question}}",
] as const;

/**
 * Split a prompt file at its line `---user---`: above it the system message, below it
 * the user template. The template must contain `{{message}}` (the model's reply to answer).
 */
export function parseUserSimPrompt(text: string): { ok: true; prompt: UserSimPrompt } | { ok: false; message: string } {
  const parts = text.split(/^---user---[ \t]*\r?$/m);
  if (parts.length !== 2)
    return {
      ok: false,
      message: "the user-simulator prompt needs exactly one line `---user---` between the system part and the user template",
    };
  const user = parts[1].trim();
  if (!user.includes("{{message}}"))
    return { ok: false, message: "the user template must contain {{message}} (the model's reply the user answers)" };
  return { ok: true, prompt: { system: parts[0].trim(), user } };
}

/** What was withheld from the should-ask item, as the simulated user knows it. */
export interface WithheldFacts {
  /** The request on the anchor turn as the model received it (information removed). */
  readonly request: string;
  /** The same request from the base twin, complete. */
  readonly baseRequest: string;
  /** miss_func: the held-back functions (empty for miss_param). */
  readonly removedFunctions: readonly string[];
}

/** One message of the exchange since the anchor turn ended: the model's replies and the user's answers. */
export interface ExchangeMessage {
  readonly role: "assistant" | "user";
  readonly content: string;
}

/** One request to the simulated user. */
export interface UserAsk {
  readonly itemId: string;
  /** 0: the opening of the answer turn (the model's last reply on turn T); k ≥ 1: the k-th reply inside the answer turn. */
  readonly round: number;
  /** The model's reply to answer (non-empty). */
  readonly message: string;
  /** Earlier messages of the exchange (empty on round 0). */
  readonly earlier: readonly ExchangeMessage[];
  /** The scripted line of the answer turn: the data's user message, or BFCL's notice on a miss_func holdout turn. */
  readonly scriptedLine: string;
}

/** The simulated user's answer: its text, or null when the model asked nothing; and the log entry of the exchange. */
export type UserAnswer =
  | { readonly ok: true; readonly answer: string | null; readonly log: PyDict; readonly inputTokens: number; readonly outputTokens: number }
  | { readonly ok: false; readonly error: string };

/** A simulated user on one should-ask entry. */
export interface InteractiveUser {
  /** The turn whose scripted line the simulated user replaces: the anchor turn + 1. */
  readonly answerTurn: number;
  /** Extra rounds inside the answer turn (`--max-clarifications`). */
  readonly maxClarifications: number;
  respond(ask: UserAsk): Promise<UserAnswer>;
}

function placeholderValues(facts: WithheldFacts, ask: UserAsk): Record<string, string> {
  const conversation =
    ask.earlier.length === 0
      ? "(none)"
      : ask.earlier.map((m) => `${m.role === "assistant" ? "Assistant" : "You"}: ${m.content}`).join("\n\n");
  return {
    "{{request}}": facts.request,
    "{{base_request}}": facts.baseRequest,
    "{{removed}}":
      facts.removedFunctions.length > 0
        ? facts.removedFunctions.join(", ")
        : "(none: a value was left out of the request, no function was withheld)",
    "{{scripted_line}}": ask.scriptedLine,
    "{{conversation}}": conversation,
    "{{message}}": ask.message,
    "{{no_question}}": NO_QUESTION,
  };
}

/** Fill a template in one pass, so text inside a filled value is never expanded again. */
export function fillUserSimTemplate(template: string, facts: WithheldFacts, ask: UserAsk): string {
  const values = placeholderValues(facts, ask);
  return template.replace(/\{\{(request|base_request|removed|scripted_line|conversation|message|no_question)\}\}/g, (m) => values[m]);
}

/** The simulator's request for one ask: the prompt's system part, then the filled user template. */
export function userSimMessages(prompt: UserSimPrompt, facts: WithheldFacts, ask: UserAsk): SimMessage[] {
  return [
    { role: "system", content: fillUserSimTemplate(prompt.system, facts, ask) },
    { role: "user", content: fillUserSimTemplate(prompt.user, facts, ask) },
  ];
}

/**
 * Read the simulator's reply: `NO_QUESTION` (alone, give or take quotes, backticks and a
 * final period) means the model asked nothing; any other text is the user's answer,
 * trimmed. A reasoning block a server leaves in the content (`<think>…</think>`) is
 * dropped first. Null when nothing is left: the reply is unusable.
 */
export function readSimReply(text: string): { kind: "answer"; answer: string } | { kind: "no-question" } | null {
  const visible = text.replace(/^\s*<think>[\s\S]*?<\/think>/, "").trim();
  if (visible === "") return null;
  const bare = visible
    .replace(/^["'`*]+|["'`*]+$/g, "")
    .replace(/\.$/, "")
    .trim();
  if (bare === NO_QUESTION) return { kind: "no-question" };
  return { kind: "answer", answer: visible };
}

function tokens(usage: unknown, key: "prompt_tokens" | "completion_tokens"): number | null {
  if (usage === null || typeof usage !== "object") return null;
  const v = (usage as Record<string, unknown>)[key];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/**
 * The LLM user of one should-ask entry: each ask becomes one request to the simulator's
 * endpoint; the exchange (request messages, raw reply, the answer or null) is returned
 * for the result line's `inference_log`.
 */
export function llmUser(opts: {
  readonly endpoint: UserSimEndpoint;
  readonly prompt: UserSimPrompt;
  readonly facts: WithheldFacts;
  readonly answerTurn: number;
  readonly maxClarifications: number;
  /** The simulator's model name, recorded with each exchange. */
  readonly model: string;
}): InteractiveUser {
  return {
    answerTurn: opts.answerTurn,
    maxClarifications: opts.maxClarifications,
    async respond(ask) {
      const messages = userSimMessages(opts.prompt, opts.facts, ask);
      const reply = await opts.endpoint({ itemId: ask.itemId, messages });
      if (!reply.ok) return { ok: false, error: `user simulator: ${reply.error}` };
      const read = readSimReply(reply.text);
      if (read === null) return { ok: false, error: "user simulator: the reply has no text" };
      const answer = read.kind === "answer" ? read.answer : null;
      const inTok = tokens(reply.usage, "prompt_tokens");
      const outTok = tokens(reply.usage, "completion_tokens");
      const log = dict([
        ["role", "user_simulator"],
        ["round", BigInt(ask.round)],
        ["model", opts.model],
        // the model's reply it answers: in FC the text of a no-call step may live only here (BFCL records `[]` when a server sends `tool_calls: []`)
        ["message", ask.message],
        [
          "messages",
          messages.map((m) =>
            dict([
              ["role", m.role],
              ["content", m.content],
            ]),
          ),
        ],
        ["reply", reply.text],
        ["answer", answer],
        ["input_token_count", inTok === null ? null : plainToPy(inTok)],
        ["output_token_count", outTok === null ? null : plainToPy(outTok)],
      ]);
      return { ok: true, answer, log, inputTokens: inTok ?? 0, outputTokens: outTok ?? 0 };
    },
  };
}

/** The handler-log entry of a step whose reply asks the user and is answered (it replaces BFCL's "Proceed to next turn" entry). */
export function clarificationLog(round: number, max: number, decodeError: string | null): PyDict {
  const entries: [string, PyValue][] = [
    ["role", "handler_log"],
    [
      "content",
      `${decodeError === null ? "No call" : "Error decoding the model response"}: the model asks the user, and the simulated user answers (clarification round ${round} of at most ${max}).`,
    ],
  ];
  entries.push(decodeError === null ? ["model_response_decoded", []] : ["error", decodeError]);
  return dict(entries);
}

/** The handler-log entry of a reply that would ask again after the last allowed round: the simulated user is not asked, the turn ends. */
export function clarificationLimitLog(max: number): PyDict {
  return dict([
    ["role", "handler_log"],
    ["content", `Clarification limit reached (${max} rounds): the simulated user does not answer again, and the turn ends.`],
  ]);
}

/** The handler-log entry of an opening the simulator was not asked about: the model's last reply on the anchor turn has no text. */
export function silentOpeningLog(): PyDict {
  return dict([
    ["role", "handler_log"],
    ["content", "The model's last reply on the anchor turn has no text: the simulated user is not asked, and the scripted line is sent."],
  ]);
}

/**
 * How the answer turn opened: the simulated user answered the model's last reply on the
 * anchor turn; or it said the model asked nothing, or that reply had no text — in both
 * cases the scripted line was sent.
 */
export type OpeningKind = "answered" | "no-question" | "silent";

/** What an interactive line records at its top level: the answer turn, how it opened, how many rounds followed, the simulator's requests. */
export function interactiveSummary(answerTurn: number, opening: OpeningKind, clarifications: number, requests: number): PyDict {
  return dict([
    ["answer_turn", BigInt(answerTurn)],
    ["opening", opening],
    ["clarifications", BigInt(clarifications)],
    ["simulator_requests", BigInt(requests)],
  ]);
}
