import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { replayClassVectors } from "../../testing/class-vector-files.js";
import { runCall, summarize } from "./class-vectors.js";
import { newTicketApi } from "./ticket-api.js";

const outcomes = replayClassVectors("ticket-api", (p) => newTicketApi(p));

describe("TicketAPI against BFCL's Python (tools/gen-class-vectors.py)", () => {
  it("replays every ground-truth call of base, miss_func, miss_param and long_context (e.g. multi_turn_base_23)", () => {
    const s = summarize(outcomes, "gt");
    expect(s.mismatches).toEqual([]);
    expect(s.cases).toBe(124);
    expect(outcomes.some((o) => o.name === "gt multi_turn_base_23" && o.calls === 1)).toBe(true);
  });
  it("matches on the error paths and wrong-typed arguments", () => {
    const s = summarize(outcomes, "inline");
    expect(s.mismatches).toEqual([]);
    expect(s.calls).toBeGreaterThan(40);
  });
  it("matches on the gpt-oss sequences that add coverage (21 of the 300 stored ones; e.g. 2025-11-12-harmony-fixes gpt-oss-120b multi_turn_base_23)", () => {
    // the generator keeps a model sequence only when it shows something the ground-truth and error sequences did not:
    // a line arc of BFCL's class, an error text, an argument/result/state type shape, or a way its FC steps decode and parse
    const s = summarize(outcomes, "model");
    expect(s.mismatches).toEqual([]);
    expect(s.cases).toBe(21);
    expect(outcomes.some((o) => o.name === "model 2025-11-12-harmony-fixes openai_gpt-oss-120b multi_turn_base_23" && o.calls > 0)).toBe(true);
  });
  it("returns the created ticket by reference, so later edits show in earlier results' object", () => {
    const t = newTicketApi();
    t.loadScenario(new PyDict(), false);
    expect(runCall(t, "ticket_login(username='a', password='b')")).toBe('{"success": true}');
    expect(runCall(t, "create_ticket(title='x', priority=6)")).toBe('{"error": "Invalid priority. Priority must be between 1 and 5."}');
    expect(runCall(t, "create_ticket(title='x', priority='2')")).toBe("Error during execution: '<' not supported between instances of 'str' and 'int'");
  });
});
