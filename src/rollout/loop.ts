/**
 * BFCL's multi-turn generation loop (`inference_multi_turn_FC` and `inference_multi_turn_prompting` of its
 * base handler, with the OpenAI chat-completions handler's request and parsing), as a pure function of an
 * entry and three injected things: the chat endpoint, the clock and the executor. More in this folder's
 * README.md.
 */
import { PyDict } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { pyRepr } from "../python/repr.js";
import type { PyValue } from "../python/value.js";
import { failureMessage, isEmptyDecoded, type DecodeOutcome } from "../bfcl/decode/index.js";
import { convertToTools, type RolloutEntry } from "./entry.js";
import type { EntryExecutor } from "./executor.js";
import { dict, plainToPy, pyToPlain } from "./serialize.js";
import { HISTORY_KEY, INJECTED_KEY, PLAYED_TURNS_KEY, REFERENCE_HISTORY, STOPPED_AFTER_TURN_KEY } from "../bfcl/line-keys.js";
import type { InjectedPlacement } from "./inject-check.js";
import type { PlayedHistory } from "./reference-history.js";
import {
  clarificationLimitLog,
  clarificationLog,
  interactiveSummary,
  OPENING_LOG_KEY,
  silentOpeningLog,
  USER_SIMULATOR_KEY,
  type ExchangeMessage,
  type InteractiveUser,
  type OpeningKind,
} from "./user-sim.js";

/** BFCL's step limit: a turn is force-quit once more than this many steps executed. */
export const MAXIMUM_STEP_LIMIT = 20;

/** The user message BFCL sends on a holdout turn in FC mode (the held-back tools come back with it). */
export const ADDITIONAL_FUNCTION_NOTICE = "I have updated some more functions you can choose from. What about now?";

/** What the loop asks the endpoint for. */
export interface ChatRequest {
  /** The entry id (sent as the `x-twinscore-item` header). */
  readonly itemId: string;
  /** The history so far, as JSON values (dataset messages, echoed assistant messages, tool results). */
  readonly messages: readonly unknown[];
  /** FC mode: the converted tools (absent when there are none, as BFCL omits them); prompting: null. */
  readonly tools: readonly unknown[] | null;
}

/**
 * The endpoint's answer: the first choice's message as received, and `usage`; or the
 * failure, worded as BFCL words it, and whether it was a failure to connect at all (no
 * answer of any kind: the run counts those in a row to stop early).
 */
export type ChatOutcome =
  | { readonly ok: true; readonly message: Record<string, unknown>; readonly usage: unknown }
  | { readonly ok: false; readonly error: string; readonly connectionFailed?: boolean };

/** An OpenAI-compatible chat-completions endpoint (retries and timeouts are its business). */
export type ChatEndpoint = (request: ChatRequest) => Promise<ChatOutcome>;

/**
 * The source of each turn's user messages. `messages(t, history)` gets the turn index
 * and the conversation so far and returns that turn's messages (dicts as in the data
 * file; `[]` for an empty turn). The scripted source ignores the history.
 */
export interface UserTurns {
  readonly count: number;
  messages(turn: number, history: readonly unknown[]): readonly PyDict[];
}

/** The scripted user: the data file's turns, verbatim. */
export function scriptedTurns(entry: RolloutEntry): UserTurns {
  return { count: entry.turns.length, messages: (t) => entry.turns[t] };
}

/** How one entry is generated. */
export interface LoopOptions {
  readonly mode: "fc" | "prompting";
  readonly chat: ChatEndpoint;
  /** Seconds, for the latency lists (wall clock in real runs, a fake in tests). */
  readonly now: () => number;
  readonly executor: EntryExecutor;
  /** The mode's step decoder (FC: `convert_to_function_call`; prompting: BFCL's Python-call decoder). */
  readonly decode: (step: PyValue) => DecodeOutcome;
  /** Prompting: the system prompt for the entry's docs (BFCL's template, read from the user's installation). */
  readonly systemPrompt?: (functions: readonly PyDict[]) => string;
  /** The prompt arm's extra block: a developer message before the first turn (FC) or appended to the system prompt (prompting). */
  readonly inject?: string | null;
  /** Stop after this turn (the anchor turn of `--until-anchor`); the line records where it stopped. */
  readonly lastTurn?: number | null;
  readonly userTurns?: UserTurns;
  /** Interactive mode: the simulated user of this entry's answer turn (absent: BFCL's script throughout). */
  readonly interactive?: InteractiveUser | null;
  /** Leave out the state snapshots (`--exclude-state-log`). */
  readonly excludeStateLog?: boolean;
  /** `--history reference`: the turns before the anchor are played from the reference, not generated. */
  readonly played?: PlayedHistory | null;
}

/** Counts of one entry's generation, for progress and summaries. */
export interface EntryStats {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  steps: number;
  /** Requests to the simulated user, and their tokens (interactive mode). */
  simRequests: number;
  simInputTokens: number;
  simOutputTokens: number;
  /** Steps played from the reference (no request made). */
  playedSteps: number;
}

/** A generated line: the dict to write (keys in BFCL's order) and whether it is an error line. */
export interface EntryOutcome {
  readonly line: PyDict;
  readonly error: string | null;
  readonly stats: EntryStats;
}

export { STOPPED_AFTER_TURN_KEY };

class EntryAbort extends Error {}

function tokenCount(usage: unknown, key: "prompt_tokens" | "completion_tokens"): PyValue {
  if (usage === null || usage === undefined || typeof usage !== "object") {
    throw new EntryAbort(`'NoneType' object has no attribute '${key}'`);
  }
  return plainToPy((usage as Record<string, unknown>)[key] ?? null);
}

/**
 * `_parse_query_response_FC`: the calls as `[{name: arguments}]` and their ids when
 * `tool_calls` iterates; otherwise (null, absent, malformed) the message content.
 */
function parseFcMessage(message: Record<string, unknown>): { responses: PyValue; ids: unknown[] } {
  const calls = message.tool_calls;
  if (Array.isArray(calls)) {
    const responses: PyValue[] = [];
    const ids: unknown[] = [];
    let fine = true;
    for (const c of calls) {
      const fn = c !== null && typeof c === "object" ? (c as Record<string, unknown>).function : undefined;
      if (fn === null || typeof fn !== "object") {
        fine = false;
        break;
      }
      const name = (fn as Record<string, unknown>).name;
      responses.push(
        new PyDict([[typeof name === "string" ? name : pyRepr(plainToPy(name)), plainToPy((fn as Record<string, unknown>).arguments)]]),
      );
      ids.push((c as Record<string, unknown>).id ?? null);
    }
    if (fine) return { responses, ids };
  }
  return { responses: plainToPy(message.content ?? null), ids: [] };
}

/** Generate one entry; never throws for endpoint or model behaviour (those become lines). */
export async function runEntry(entry: RolloutEntry, opts: LoopOptions): Promise<EntryOutcome> {
  const stats: EntryStats = {
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    steps: 0,
    simRequests: 0,
    simInputTokens: 0,
    simOutputTokens: 0,
    playedSteps: 0,
  };
  try {
    return { line: await generate(entry, opts, stats), error: null, stats };
  } catch (e) {
    let message: string;
    if (e instanceof EntryAbort) message = e.message;
    else if (e instanceof PyException) message = e.pyMessage;
    // what an input too deep or too large does to JavaScript (Python raises RecursionError / MemoryError): this entry's error, not the run's
    else if (e instanceof RangeError)
      message = /call stack/i.test(e.message) ? "maximum recursion depth exceeded" : `MemoryError: ${e.message}`;
    else throw e;
    const line = errorLine(entry.id, message, "twinscore run: the entry stopped here (no Python traceback; BFCL records one)");
    return { line: opts.played ? withPlayedKeys(line, opts.played.anchorTurn) : line, error: message, stats };
  }
}

/** A line's record of a played history (`bfcl/line-keys.ts`): the protocol and the played turns, after BFCL's keys. */
export function withPlayedKeys(line: PyDict, anchorTurn: number): PyDict {
  line.set(HISTORY_KEY, REFERENCE_HISTORY);
  line.set(
    PLAYED_TURNS_KEY,
    Array.from({ length: anchorTurn }, (_, t) => BigInt(t)),
  );
  return line;
}

/** BFCL's inference-error line: the entry's partial progress is dropped. */
export function errorLine(id: string, message: string, traceback: string): PyDict {
  return dict([
    ["id", id],
    ["result", `Error during inference: ${message}`],
    ["traceback", traceback],
  ]);
}

/** One entry being generated: its options, the conversation so far, and the line's lists. */
interface EntryRun {
  readonly entry: RolloutEntry;
  readonly opts: LoopOptions;
  readonly stats: EntryStats;
  readonly fc: boolean;
  readonly functions: PyDict[];
  tools: unknown[];
  readonly history: unknown[];
  readonly inferenceLog: PyValue[];
  readonly results: PyValue[];
  readonly inputTokens: PyValue[];
  readonly outputTokens: PyValue[];
  readonly latencies: PyValue[];
  /** Prompting: the system prompt, built once from the docs offered at the start. */
  systemPrompt: string | null;
  readonly played: PlayedHistory | null;
  readonly user: InteractiveUser | null;
  /** Interactive: the text of the reply that ended the previous turn. */
  endText: string;
  /** Interactive: the exchange since the anchor turn ended. */
  readonly exchange: ExchangeMessage[];
  opening: OpeningKind | null;
  rounds: number;
  scriptedLine: string;
}

/** One turn being generated: its log and per-step lists. */
interface TurnRun {
  readonly t: number;
  readonly turnLog: PyDict;
  readonly turnResults: PyValue[];
  readonly turnIn: PyValue[];
  readonly turnOut: PyValue[];
  readonly turnLatency: PyValue[];
  /** The interactive answer turn, whose opening the simulated user spoke. */
  readonly interactiveTurn: boolean;
  /** A played turn: one step, the reference's calls in place of the endpoint's reply (no request, 0 tokens, latency 0). */
  readonly playedTurn: boolean;
}

async function generate(entry: RolloutEntry, opts: LoopOptions, stats: EntryStats): Promise<PyDict> {
  const run = startEntry(entry, opts, stats);
  const turnsSource = opts.userTurns ?? scriptedTurns(entry);
  let stoppedAfter: number | null = null;
  for (let t = 0; t < turnsSource.count; t++) {
    const forceQuit = await generateTurn(run, t, turnsSource);
    snapshot(run);
    if (forceQuit) break;
    if (opts.lastTurn !== undefined && opts.lastTurn !== null && t >= opts.lastTurn && t + 1 < turnsSource.count) {
      stoppedAfter = t;
      break;
    }
  }
  return entryLine(run, stoppedAfter);
}

/** The entry's state before its first turn: tools, the injected message or system prompt, the first state snapshot. */
function startEntry(entry: RolloutEntry, opts: LoopOptions, stats: EntryStats): EntryRun {
  const fc = opts.mode === "fc";
  const functions: PyDict[] = [...entry.functions];
  const history: unknown[] = [];
  if (fc && opts.inject) history.push({ role: "developer", content: opts.inject });
  const run: EntryRun = {
    entry,
    opts,
    stats,
    fc,
    functions,
    tools: fc ? (pyToPlain(convertToTools(functions)) as unknown[]) : [],
    history,
    inferenceLog: [],
    results: [],
    inputTokens: [],
    outputTokens: [],
    latencies: [],
    systemPrompt: null,
    played: opts.played ?? null,
    user: opts.interactive ?? null,
    endText: "",
    exchange: [],
    opening: null,
    rounds: 0,
    scriptedLine: "",
  };
  snapshot(run);
  if (!fc) {
    if (!opts.systemPrompt) throw new EntryAbort("prompting mode needs a system prompt");
    const prompt = opts.systemPrompt(functions);
    run.systemPrompt = opts.inject ? `${prompt}\n\n${opts.inject}` : prompt;
  }
  return run;
}

/** The executor's state in the inference log (unless excluded). */
function snapshot(run: EntryRun): void {
  if (run.opts.excludeStateLog) return;
  const s = run.opts.executor.state();
  if (s.length > 0) run.inferenceLog.push(s);
}

/** Generate turn `t`: its messages, then steps until the model ends the turn. True when the model was forced to quit. */
async function generateTurn(run: EntryRun, t: number, turnsSource: UserTurns): Promise<boolean> {
  const held = turnWithHeldBack(run, t, [...turnsSource.messages(t, run.history)]);
  const opened = await openInteractiveTurn(run, t, held.turnMessages, held.fixedPrefix);
  const turnMessages = opened.turnMessages;
  if (t === 0 && run.systemPrompt !== null) withSystemPrompt(turnMessages, run.systemPrompt);
  for (const m of turnMessages) run.history.push(pyToPlain(m));
  const turnLog = new PyDict([["begin_of_turn_query", turnMessages]]);
  if (opened.openingLog !== null) turnLog.set(OPENING_LOG_KEY, opened.openingLog);
  const turn: TurnRun = {
    t,
    turnLog,
    turnResults: [],
    turnIn: [],
    turnOut: [],
    turnLatency: [],
    interactiveTurn: opened.openingLog !== null && run.user !== null,
    playedTurn: run.played !== null && t < run.played.anchorTurn,
  };
  let forceQuit = false;
  // `count` is BFCL's count of executed steps (the force-quit limit); `stepIndex` names the step record (they differ only after a clarification round)
  for (let count = 0, stepIndex = 0; ; stepIndex++) {
    const step = await generateStep(run, turn, stepIndex);
    if (step === "again") continue;
    if (step === "end") break;
    count++;
    if (count > MAXIMUM_STEP_LIMIT) {
      forceQuit = true;
      step.push(
        dict([
          ["role", "handler_log"],
          ["content", `Model has been forced to quit after ${MAXIMUM_STEP_LIMIT} steps.`],
        ]),
      );
      break;
    }
    // the played turn is over: no closing request, so no text the model did not write
    if (turn.playedTurn) break;
  }
  run.results.push(turn.turnResults);
  run.inferenceLog.push(turnLog);
  run.inputTokens.push(turn.turnIn);
  run.outputTokens.push(turn.turnOut);
  run.latencies.push(turn.turnLatency);
  return forceQuit;
}

/** A turn that hands back held-out functions: no user message of its own, the notice instead (prompting: after the docs). */
function turnWithHeldBack(run: EntryRun, t: number, turnMessages: PyDict[]): { turnMessages: PyDict[]; fixedPrefix: string } {
  const handedBack = run.entry.heldBack.get(String(t));
  // what precedes the replaceable text of the turn's last user message (prompting: the handed-back docs)
  if (handedBack === undefined) return { turnMessages, fixedPrefix: "" };
  if (run.fc) {
    run.functions.push(...handedBack);
    run.tools = pyToPlain(convertToTools(run.functions)) as unknown[];
  }
  if (turnMessages.length !== 0) throw new EntryAbort("Holdout turn should not have user message.");
  const fixedPrefix = run.fc ? "" : `${pyRepr([...handedBack])}\n`;
  return {
    turnMessages: [
      dict([
        ["role", "user"],
        ["content", `${fixedPrefix}${ADDITIONAL_FUNCTION_NOTICE}`],
      ]),
    ],
    fixedPrefix,
  };
}

/**
 * The interactive answer turn's opening: the simulated user reads the reply that ended the
 * previous turn and may answer it in place of the scripted line. Other turns pass through.
 */
async function openInteractiveTurn(
  run: EntryRun,
  t: number,
  messages: PyDict[],
  fixedPrefix: string,
): Promise<{ turnMessages: PyDict[]; openingLog: PyValue[] | null }> {
  let turnMessages = messages;
  const user = run.user;
  const lastUser = turnMessages.length > 0 && turnMessages[turnMessages.length - 1].get("role") === "user" ? turnMessages.length - 1 : -1;
  if (user === null || t !== user.answerTurn || lastUser < 0) return { turnMessages, openingLog: null };
  const scripted = turnMessages[lastUser].get("content");
  run.scriptedLine = typeof scripted === "string" ? scripted.slice(fixedPrefix.length) : "";
  const openingLog: PyValue[] = [];
  let sent = run.scriptedLine;
  if (run.endText.trim() === "") {
    run.opening = "silent";
    openingLog.push(silentOpeningLog());
  } else {
    const reply = await user.respond({ itemId: run.entry.id, round: 0, message: run.endText, earlier: [], scriptedLine: run.scriptedLine });
    if (!reply.ok) throw new EntryAbort(reply.error);
    countSim(run.stats, reply);
    openingLog.push(reply.log);
    run.opening = reply.answer === null ? "no-question" : "answered";
    if (reply.answer !== null) {
      sent = reply.answer;
      turnMessages = [...turnMessages];
      turnMessages[lastUser] = new PyDict(turnMessages[lastUser].entries());
      turnMessages[lastUser].set("content", `${fixedPrefix}${sent}`);
    }
  }
  if (run.endText.trim() !== "") run.exchange.push({ role: "assistant", content: run.endText });
  run.exchange.push({ role: "user", content: sent });
  return { turnMessages, openingLog };
}

/** BFCL inserts the system message into the first turn's own list (or prepends to one already there). */
function withSystemPrompt(turnMessages: PyDict[], systemPrompt: string): void {
  const first = turnMessages[0];
  if (first !== undefined && first.get("role") === "system") {
    turnMessages[0] = new PyDict(first.entries());
    turnMessages[0].set("content", `${systemPrompt}\n\n${String(first.get("content"))}`);
  } else
    turnMessages.unshift(
      dict([
        ["role", "system"],
        ["content", systemPrompt],
      ]),
    );
}

/**
 * One step: the model's reply (or the played reference's), decoded and executed. "again":
 * the simulated user answered a question, the turn goes on; "end": the turn ends; else the
 * step's log, its calls executed.
 */
async function generateStep(run: EntryRun, turn: TurnRun, stepIndex: number): Promise<"again" | "end" | PyValue[]> {
  const { fc, stats, history } = run;
  const stepLog: PyValue[] = [];
  turn.turnLog.set(`step_${stepIndex}`, stepLog);
  const { reply, latency } = await nextReply(run, turn);
  const message = reply.message;
  const parsed = fc ? parseFcMessage(message) : { responses: plainToPy(message.content ?? null), ids: [] as unknown[] };
  history.push(message);
  const inTok = tokenCount(reply.usage, "prompt_tokens");
  const outTok = tokenCount(reply.usage, "completion_tokens");
  if (typeof inTok === "bigint") stats.inputTokens += Number(inTok);
  if (typeof outTok === "bigint") stats.outputTokens += Number(outTok);
  if (!turn.playedTurn) stats.steps++;
  turn.turnIn.push(inTok);
  turn.turnOut.push(outTok);
  turn.turnLatency.push(latency);
  turn.turnResults.push(parsed.responses);
  stepLog.push(
    dict([
      ["role", "assistant"],
      ["content", parsed.responses],
    ]),
  );
  const decoded = run.opts.decode(parsed.responses);
  const content = typeof message.content === "string" ? message.content : "";
  // the reply's text: FC, the message content beside the (absent) calls; prompting, the content when it is not calls
  run.endText = fc || !decoded.ok ? content : "";
  if (!decoded.ok) {
    if (await clarify(run, turn, stepLog, run.endText, failureMessage(decoded) ?? "")) return "again";
    stepLog.push(
      dict([
        ["role", "handler_log"],
        ["content", "Error decoding the model response. Proceed to next turn."],
        ["error", failureMessage(decoded) ?? ""],
      ]),
    );
    return "end";
  }
  stepLog.push(
    dict([
      ["role", "handler_log"],
      ["content", "Successfully decoded model response."],
      ["model_response_decoded", [...decoded.calls]],
    ]),
  );
  if (isEmptyDecoded(decoded.calls)) {
    if (await clarify(run, turn, stepLog, run.endText, null)) return "again";
    stepLog.push(
      dict([
        ["role", "handler_log"],
        ["content", "Empty response from the model. Proceed to next turn."],
        ["model_response_decoded", [...decoded.calls]],
      ]),
    );
    return "end";
  }
  executeCalls(run, decoded.calls, parsed.ids, stepLog);
  return stepLog;
}

/** The step's reply: the played reference's message, or the endpoint's (timed). */
async function nextReply(run: EntryRun, turn: TurnRun): Promise<{ reply: Extract<ChatOutcome, { ok: true }>; latency: number }> {
  const { opts, stats, played } = run;
  if (turn.playedTurn && played !== null) {
    stats.playedSteps++;
    return { reply: { ok: true, message: played.message(turn.t), usage: { prompt_tokens: 0, completion_tokens: 0 } }, latency: 0 };
  }
  const started = opts.now();
  const answered = await opts.chat({
    itemId: run.entry.id,
    messages: run.history.slice(),
    tools: run.fc ? (run.tools.length > 0 ? run.tools : null) : null,
  });
  const latency = opts.now() - started;
  if (!answered.ok) throw new EntryAbort(answered.error);
  stats.requests++;
  return { reply: answered, latency };
}

/** Run the decoded calls and hand their outputs back (FC: tool messages by call id; prompting: one user message). */
function executeCalls(run: EntryRun, calls: readonly string[], ids: readonly unknown[], stepLog: PyValue[]): void {
  const outputs = run.opts.executor.run(calls);
  if (run.fc) {
    const n = Math.min(outputs.length, ids.length);
    for (let i = 0; i < n; i++) run.history.push({ role: "tool", content: outputs[i], tool_call_id: ids[i] });
  } else {
    const n = Math.min(outputs.length, calls.length);
    const records: PyValue[] = [];
    for (let i = 0; i < n; i++)
      records.push(
        dict([
          ["role", "tool"],
          ["name", calls[i]],
          ["content", outputs[i]],
        ]),
      );
    run.history.push({ role: "user", content: pyRepr(records) });
  }
  for (const o of outputs)
    stepLog.push(
      dict([
        ["role", "tool"],
        ["content", o],
      ]),
    );
}

/**
 * Interactive answer turn: a step that executed nothing and has text may ask the user
 * again. Below the bound the simulated user is asked; when it answers, the answer is
 * logged and sent and the turn goes on (true); otherwise the turn ends as BFCL ends it.
 */
async function clarify(run: EntryRun, turn: TurnRun, stepLog: PyValue[], text: string, decodeError: string | null): Promise<boolean> {
  const user = run.user;
  if (!turn.interactiveTurn || user === null || text.trim() === "") return false;
  if (run.rounds >= user.maxClarifications) {
    stepLog.push(clarificationLimitLog(user.maxClarifications));
    return false;
  }
  const reply = await user.respond({
    itemId: run.entry.id,
    round: run.rounds + 1,
    message: text,
    earlier: [...run.exchange],
    scriptedLine: run.scriptedLine,
  });
  if (!reply.ok) throw new EntryAbort(reply.error);
  countSim(run.stats, reply);
  if (reply.answer === null) {
    stepLog.push(reply.log);
    return false;
  }
  run.rounds++;
  stepLog.push(
    clarificationLog(run.rounds, user.maxClarifications, decodeError),
    reply.log,
    dict([
      ["role", "user"],
      ["content", reply.answer],
    ]),
  );
  run.history.push({ role: "user", content: reply.answer });
  run.exchange.push({ role: "assistant", content: text }, { role: "user", content: reply.answer });
  return true;
}

/** The entry's result line, with the keys that say how it was generated. */
function entryLine(run: EntryRun, stoppedAfter: number | null): PyDict {
  const { opts, played, user } = run;
  const line = dict([
    ["id", run.entry.id],
    ["result", run.results],
    ["input_token_count", run.inputTokens],
    ["output_token_count", run.outputTokens],
    ["latency", run.latencies],
    ["inference_log", run.inferenceLog],
  ]);
  // the prompt arm says so in its lines: what compare's injection check looks for (before the history keys, which end a line)
  if (opts.inject)
    line.set(
      INJECTED_KEY,
      dict([
        ["placement", (run.fc ? "developer-message" : "system-prompt") satisfies InjectedPlacement],
        ["text", opts.inject],
      ]),
    );
  if (played !== null) withPlayedKeys(line, played.anchorTurn);
  if (stoppedAfter !== null) line.set(STOPPED_AFTER_TURN_KEY, BigInt(stoppedAfter));
  if (user !== null && run.opening !== null)
    line.set(USER_SIMULATOR_KEY, interactiveSummary(user.answerTurn, run.opening, run.rounds, run.stats.simRequests));
  return line;
}

function countSim(stats: EntryStats, reply: { inputTokens: number; outputTokens: number }): void {
  stats.simRequests++;
  stats.simInputTokens += reply.inputTokens;
  stats.simOutputTokens += reply.outputTokens;
}
