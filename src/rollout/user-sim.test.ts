import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeFcStep, decodePromptingStep } from "../bfcl/decode/index.js";
import { PyDict } from "../python/containers.js";
import { jsonDumps } from "../python/json.js";
import type { PyValue } from "../python/value.js";
import { projectRoot } from "../testing/shared.js";
import { prepareEntry, type RolloutEntry } from "./entry.js";
import type { EntryExecutor } from "./executor.js";
import { ADDITIONAL_FUNCTION_NOTICE, runEntry, type ChatOutcome, type ChatRequest } from "./loop.js";
import {
  fillUserSimTemplate,
  llmUser,
  NO_QUESTION,
  openingMessageOf,
  parseUserSimPrompt,
  readSimReply,
  userSimPlaceholders,
  type UserSimEndpoint,
  type UserSimRequest,
  type WithheldFacts,
} from "./user-sim.js";
import { functionDocs } from "../testing/run-fixtures.js";

const shipped = readFileSync(join(projectRoot, "data", "user-sim-prompt.md"), "utf8");
const prompt = (() => {
  const p = parseUserSimPrompt(shipped);
  if (!p.ok) throw new Error(p.message);
  return p.prompt;
})();

const docs = functionDocs(["GorillaFileSystem", "MathAPI"]);

const userMsg = (content: string) =>
  new PyDict([
    ["role", "user"],
    ["content", content],
  ]);

/** A three-turn entry: turn 0 the anchor, turn 1 the answer turn (a holdout turn when `holdout`), turn 2 a later turn. */
function entry(holdout: boolean): RolloutEntry {
  const q = new PyDict([
    ["id", holdout ? "multi_turn_miss_func_900" : "multi_turn_miss_param_900"],
    ["question", [[userMsg("Move the report.")], holdout ? [] : [userMsg("Move it to archive/.")], [userMsg("Now list the folder.")]]],
    ["initial_config", new PyDict()],
    ["involved_classes", ["GorillaFileSystem", "MathAPI"]],
  ]);
  if (holdout) q.set("missed_function", new PyDict([["1", ["mv"]]]));
  const e = prepareEntry(q, docs, { file: "q.json", line: 1 });
  if (!e.ok) throw new Error("entry");
  return e.value;
}

const facts: WithheldFacts = { request: "Move the report.", baseRequest: "Move the report to archive/.", removedFunctions: [] };
const echoExecutor: EntryExecutor = { run: (calls) => calls.map((c) => `ran ${c}`), state: () => [] };

const said = (content: string, emptyCalls = true): ChatOutcome => ({
  ok: true,
  message: emptyCalls ? { role: "assistant", content, tool_calls: [] } : { role: "assistant", content },
  usage: { prompt_tokens: 5, completion_tokens: 3 },
});
const calls = (name: string, args: string): ChatOutcome => ({
  ok: true,
  message: { role: "assistant", content: null, tool_calls: [{ id: `c_${name}`, type: "function", function: { name, arguments: args } }] },
  usage: { prompt_tokens: 5, completion_tokens: 3 },
});

/** A model driven by the number of user messages (turn + answers) and the step since the last one. */
function model(script: (users: number, step: number) => ChatOutcome, seen: ChatRequest[] = []) {
  return async (req: ChatRequest): Promise<ChatOutcome> => {
    seen.push(req);
    const msgs = req.messages as { role: string }[];
    const users = msgs.filter((m) => m.role === "user").length;
    const lastUser = msgs.map((m) => m.role).lastIndexOf("user");
    const step = msgs.slice(lastUser + 1).filter((m) => m.role === "assistant").length;
    return script(users, step);
  };
}

/** A simulator that answers questions (text ending in "?") with `answer` and says NO_QUESTION otherwise. */
function simulator(answer: string, seen: UserSimRequest[] = []): UserSimEndpoint {
  return async (req) => {
    seen.push(req);
    const message = req.messages[1].content.split("which you reply to now:\n")[1] ?? "";
    return { ok: true, text: message.trim().endsWith("?") ? answer : NO_QUESTION, usage: { prompt_tokens: 100, completion_tokens: 7 } };
  };
}

function user(endpoint: UserSimEndpoint, maxClarifications = 2, withFacts: WithheldFacts = facts) {
  return llmUser({ endpoint, prompt, facts: withFacts, answerTurn: 1, maxClarifications, model: "sim" });
}

describe("the user-simulator prompt", () => {
  it("the shipped file parses, names every placeholder, and fills in one pass", () => {
    for (const ph of userSimPlaceholders) expect(shipped, ph).toContain(ph);
    const text = fillUserSimTemplate(
      prompt.user,
      { ...facts, removedFunctions: ["mv"] },
      { itemId: "x", round: 0, message: "Where to {{request}}?", earlier: [], scriptedLine: "Move it to archive/." },
    );
    expect(text).toContain("Where to {{request}}?"); // a filled value is not expanded again
    expect(text).toContain("Move the report to archive/.");
    expect(text).toContain("Withheld function: mv");
    expect(fillUserSimTemplate(prompt.system, facts, { itemId: "x", round: 0, message: "m", earlier: [], scriptedLine: "s" })).toContain(
      NO_QUESTION,
    );
  });
  it("a file without the separator or without {{message}} is refused", () => {
    expect(parseUserSimPrompt("just text {{message}}").ok).toBe(false);
    expect(parseUserSimPrompt("system\n---user---\nno placeholder").ok).toBe(false);
  });
  it("reads a reply: NO_QUESTION give or take quotes and a period, a reasoning block dropped, nothing left unusable", () => {
    expect(readSimReply("NO_QUESTION")).toEqual({ kind: "no-question" });
    expect(readSimReply(' "NO_QUESTION." ')).toEqual({ kind: "no-question" });
    expect(readSimReply("<think>hmm</think>\nThe folder is archive/.")).toEqual({ kind: "answer", answer: "The folder is archive/." });
    expect(readSimReply("NO_QUESTION, but the folder is archive/.")).toEqual({
      kind: "answer",
      answer: "NO_QUESTION, but the folder is archive/.",
    });
    expect(readSimReply("  ")).toBeNull();
    expect(readSimReply("<think>only thoughts</think>")).toBeNull();
  });
});

describe("the loop with a simulated user", () => {
  it("answers the anchor reply on T+1 and one question inside T+1, recorded as steps of that turn", async () => {
    const seen: ChatRequest[] = [];
    const sims: UserSimRequest[] = [];
    // turn 0: asks; turn 1 (2 user msgs: the answer): asks again; after the second answer: calls, then closes; turn 2: closes
    const m = model((users, step) => {
      if (users === 1) return said("Where should the report go?");
      if (users === 2) return said("Into archive/ itself, or a subfolder?");
      if (users === 3) return step === 0 ? calls("mv", '{"source": "report.txt", "destination": "archive"}') : said("Done.");
      return said("Listed.");
    }, seen);
    const out = await runEntry(entry(false), {
      mode: "fc",
      chat: m,
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      interactive: user(simulator("Into archive/.", sims)),
    });
    expect(out.error).toBeNull();
    const line = out.line;
    const result = line.get("result") as PyValue[][];
    expect(result.map((t) => t.length)).toEqual([1, 3, 1]); // one entry per turn; the answer turn: ask, call, close
    expect(jsonDumps(result[1])).toBe('[[], [{"mv": "{\\"source\\": \\"report.txt\\", \\"destination\\": \\"archive\\"}"}], []]');
    expect((line.get("input_token_count") as PyValue[][]).map((t) => t.length)).toEqual([1, 3, 1]);
    // the simulator: the anchor reply, the question inside T+1, the closing "Done." (NO_QUESTION: the turn ends)
    expect(sims.map((r) => r.messages[1].content.split("which you reply to now:\n")[1].trim())).toEqual([
      "Where should the report go?",
      "Into archive/ itself, or a subfolder?",
      "Done.",
    ]);
    expect(sims.every((r) => r.itemId === "multi_turn_miss_param_900")).toBe(true);
    expect(sims[1].messages[1].content).toContain("Assistant: Where should the report go?\n\nYou: Into archive/.");
    // the model's history: the answer replaces the scripted line; the clarification answer follows the asking message in the same turn
    const roles = (seen[3].messages as { role: string; content: unknown }[]).map(
      (m) => `${m.role}:${typeof m.content === "string" ? m.content : ""}`,
    );
    expect(roles).toEqual([
      "user:Move the report.",
      "assistant:Where should the report go?",
      "user:Into archive/.",
      "assistant:Into archive/ itself, or a subfolder?",
      "user:Into archive/.",
      "assistant:",
      "tool:ran mv(source='report.txt',destination='archive')",
    ]);
    expect(seen[seen.length - 1].messages.at(-1)).toEqual({ role: "user", content: "Now list the folder." }); // turn 2 is scripted
    // the log: the opening exchange in the turn record, the round in its step, BFCL's entries elsewhere
    const turn1 = (line.get("inference_log") as PyValue[]).filter((x) => x instanceof PyDict)[1] as PyDict;
    expect([...turn1.keys()]).toEqual(["begin_of_turn_query", "user_simulator", "step_0", "step_1", "step_2"]);
    expect(jsonDumps(turn1.get("begin_of_turn_query") as PyValue)).toBe('[{"role": "user", "content": "Into archive/."}]');
    const opening = (turn1.get("user_simulator") as PyDict[])[0];
    expect(opening.get("round")).toBe(0n);
    expect(opening.get("answer")).toBe("Into archive/.");
    expect(((opening.get("messages") as PyDict[])[0].get("content") as string).length).toBeGreaterThan(100);
    const step0 = turn1.get("step_0") as PyDict[];
    expect(step0.map((e) => e.get("role"))).toEqual(["assistant", "handler_log", "handler_log", "user_simulator", "user"]);
    expect(step0[2].get("content")).toBe(
      "No call: the model asks the user, and the simulated user answers (clarification round 1 of at most 2).",
    );
    expect(step0[4].get("content")).toBe("Into archive/.");
    const step2 = turn1.get("step_2") as PyDict[];
    expect(step2.map((e) => e.get("role"))).toEqual(["assistant", "handler_log", "user_simulator", "handler_log"]);
    expect(step2[3].get("content")).toBe("Empty response from the model. Proceed to next turn.");
    expect(jsonDumps(line.get("twinscore_user_simulator") as PyValue)).toBe(
      '{"answer_turn": 1, "opening": "answered", "clarifications": 1, "simulator_requests": 3}',
    );
    expect([...line.keys()].at(-1)).toBe("twinscore_user_simulator");
    expect(openingMessageOf(line)).toBe("Where should the report go?"); // BFCL recorded `[]` for that step: the text lives in the exchange
    expect(
      openingMessageOf(
        new PyDict([
          ["id", "x"],
          ["result", []],
        ]),
      ),
    ).toBeNull();
    expect(out.stats).toMatchObject({ requests: 5, simRequests: 3, simInputTokens: 300, simOutputTokens: 21 });
  });

  it("holds the clarification bound: after N answered rounds the next question ends the turn unanswered", async () => {
    for (const max of [0, 1, 3]) {
      const sims: UserSimRequest[] = [];
      const m = model((users) => (users >= 2 && users < 99 ? said(`Which exactly (${users})?`, false) : said("Where to?", false)));
      const out = await runEntry(entry(false), {
        mode: "fc",
        chat: m,
        now: () => 0,
        executor: echoExecutor,
        decode: decodeFcStep,
        interactive: user(simulator("Into archive/.", sims), max),
      });
      const result = out.line.get("result") as PyValue[][];
      expect(result[1], `max ${max}`).toHaveLength(max + 1);
      expect(sims).toHaveLength(1 + max);
      const turn1 = (out.line.get("inference_log") as PyValue[]).filter((x) => x instanceof PyDict)[1] as PyDict;
      const last = turn1.get(`step_${max}`) as PyDict[];
      // a text step (no tool_calls key) fails to decode, as in BFCL; the bound's note, then BFCL's own entry
      expect(last.map((e) => e.get("content")).slice(-2)).toEqual([
        `Clarification limit reached (${max} rounds): the simulated user does not answer again, and the turn ends.`,
        "Error decoding the model response. Proceed to next turn.",
      ]);
      expect((out.line.get("twinscore_user_simulator") as PyDict).get("clarifications")).toBe(BigInt(max));
    }
  });

  it("when the model asks nothing the scripted line is sent verbatim; a reply with no text is not sent to the simulator", async () => {
    const sims: UserSimRequest[] = [];
    const seen: ChatRequest[] = [];
    const acted = model(
      (users, step) => (users === 1 && step === 0 ? calls("mv", '{"source": "a", "destination": "b"}') : said("Done.")),
      seen,
    );
    const out = await runEntry(entry(false), {
      mode: "fc",
      chat: acted,
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      interactive: user(simulator("x", sims)),
    });
    expect(sims).toHaveLength(2); // "Done." on T, "Done." closing T+1: both NO_QUESTION
    expect(
      seen.find((r) => r.messages.length > 0 && (r.messages.at(-1) as { content: unknown }).content === "Move it to archive/."),
    ).toBeDefined();
    expect((out.line.get("twinscore_user_simulator") as PyDict).get("opening")).toBe("no-question");

    const silentSims: UserSimRequest[] = [];
    const silent = model(() => ({
      ok: true,
      message: { role: "assistant", content: null, tool_calls: [] },
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    }));
    const quiet = await runEntry(entry(false), {
      mode: "fc",
      chat: silent,
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      interactive: user(simulator("x", silentSims)),
    });
    expect(silentSims).toHaveLength(0);
    const turn1 = (quiet.line.get("inference_log") as PyValue[]).filter((x) => x instanceof PyDict)[1] as PyDict;
    expect(jsonDumps(turn1.get("begin_of_turn_query") as PyValue)).toBe('[{"role": "user", "content": "Move it to archive/."}]');
    expect((quiet.line.get("twinscore_user_simulator") as PyDict).get("opening")).toBe("silent");
  });

  it("miss_func: the held-back docs come back on T+1 as in BFCL, only the message text is the simulated user's (FC and prompting)", async () => {
    const removed = { ...facts, removedFunctions: ["mv"] };
    const seen: ChatRequest[] = [];
    const sims: UserSimRequest[] = [];
    const m = model((users) => (users === 1 ? said("I have no function to move files. Can you help?") : said("Done.")), seen);
    await runEntry(entry(true), {
      mode: "fc",
      chat: m,
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      interactive: user(simulator("You can use mv now.", sims), 2, removed),
    });
    const answerTurn = seen[1];
    expect((answerTurn.tools ?? []).map((t) => (t as { function: { name: string } }).function.name).at(-1)).toBe("mv");
    expect(answerTurn.messages.at(-1)).toEqual({ role: "user", content: "You can use mv now." });
    expect(sims[0].messages[1].content).toContain(`What your script says next: ${ADDITIONAL_FUNCTION_NOTICE}`);

    const promptSeen: ChatRequest[] = [];
    const pm = model((users) => (users === 1 ? said("I cannot move files with these tools. Can you help?") : said("[]")), promptSeen);
    const out = await runEntry(entry(true), {
      mode: "prompting",
      systemPrompt: () => "SYSTEM",
      chat: pm,
      now: () => 0,
      executor: echoExecutor,
      decode: (s: PyValue) => decodePromptingStep(s),
      interactive: user(simulator("You can use mv now."), 2, removed),
    });
    expect(out.error).toBeNull();
    const content = (promptSeen[1].messages.at(-1) as { content: string }).content;
    expect(content.startsWith("[{'name': 'mv'")).toBe(true);
    expect(content.endsWith("}]\nYou can use mv now.")).toBe(true);
  });

  it("the simulator failing ends the entry with an error line naming it", async () => {
    const failing: UserSimEndpoint = async () => ({ ok: false, error: "Error code: 503 - {'error': 'down'}" });
    const m = model(() => said("Where to?"));
    const out = await runEntry(entry(false), {
      mode: "fc",
      chat: m,
      now: () => 0,
      executor: echoExecutor,
      decode: decodeFcStep,
      interactive: user(failing),
    });
    expect(out.error).toBe("user simulator: Error code: 503 - {'error': 'down'}");
    expect(jsonDumps(out.line)).toContain('"result": "Error during inference: user simulator: Error code: 503');
    const empty: UserSimEndpoint = async () => ({ ok: true, text: "", usage: null });
    expect(
      (
        await runEntry(entry(false), {
          mode: "fc",
          chat: m,
          now: () => 0,
          executor: echoExecutor,
          decode: decodeFcStep,
          interactive: user(empty),
        })
      ).error,
    ).toBe("user simulator: the reply has no text");
  });
});
