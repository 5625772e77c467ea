/**
 * What an interactive line records of the reply that opened its answer turn: the scorer's
 * readers find it here without loading the simulated user itself (`user-sim.ts`).
 */
import { PyDict } from "../python/containers.js";
import type { PyValue } from "../python/value.js";
import { USER_SIMULATOR_KEY } from "../bfcl/line-keys.js";

/** The turn-record key holding the opening exchange of the answer turn (the simulator's request and reply). */
export const OPENING_LOG_KEY = "user_simulator";

/**
 * The model's reply that opened an interactive line's answer turn, as the simulated user
 * received it: the text of the last reply on the anchor turn. With servers that send
 * `tool_calls: []` on a reply without calls, BFCL records `[]` for that step and the text
 * survives only here. Null for a line that is not interactive, or whose opening had no text.
 */
export function openingMessageOf(line: PyValue): string | null {
  if (!(line instanceof PyDict)) return null;
  const summary = line.get(USER_SIMULATOR_KEY);
  const log = line.get("inference_log");
  if (!(summary instanceof PyDict) || !Array.isArray(log)) return null;
  const turns = log.filter((x): x is PyDict => x instanceof PyDict && x.has("begin_of_turn_query"));
  const answerTurn = summary.get("answer_turn");
  const record = typeof answerTurn === "bigint" ? turns[Number(answerTurn)] : undefined;
  const opening = record?.get(OPENING_LOG_KEY);
  if (!Array.isArray(opening)) return null;
  for (const e of opening) {
    if (e instanceof PyDict && e.get("role") === "user_simulator") {
      const message = e.get("message");
      return typeof message === "string" && message.trim() !== "" ? message : null;
    }
  }
  return null;
}
