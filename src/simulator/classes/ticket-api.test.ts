import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { describeVectorReplay, runCall } from "../../testing/class-vectors.js";
import { newTicketApi } from "./ticket-api.js";

describeVectorReplay({
  className: "TicketAPI",
  vectors: "ticket-api",
  make: (p) => newTicketApi(p),
  gtCases: 124,
  gtExample: "multi_turn_base_23",
  gtExampleCalls: 1,
  inlineCovers: "the error paths and wrong-typed arguments",
  minInlineCalls: 40,
  modelCases: 21,
  modelStored: 300,
  modelExample: ["2025-11-12-harmony-fixes", "openai_gpt-oss-120b", "multi_turn_base_23"],
});

describeVectorReplay({
  className: "TicketAPI",
  vectors: "ticket-api",
  version: "v3",
  make: (p) => newTicketApi(p),
  gtCases: 124,
  gtExample: "multi_turn_base_23",
  inlineCovers: "the v3 error paths, wrong-typed arguments and `ticket_get_login_status`'s v3 key",
  minInlineCalls: 40,
  modelCases: 7,
  modelStored: 78,
  modelExample: ["", "Salesforce_Llama-xLAM-2-8b-fc-r", "multi_turn_base_23"],
});

describe("TicketAPI: behaviours checked by hand", () => {
  it("returns the created ticket by reference, so later edits show in earlier results' object", () => {
    const t = newTicketApi();
    t.loadScenario(new PyDict(), false);
    expect(runCall(t, "ticket_login(username='a', password='b')")).toBe('{"success": true}');
    expect(runCall(t, "create_ticket(title='x', priority=6)")).toBe('{"error": "Invalid priority. Priority must be between 1 and 5."}');
    expect(runCall(t, "create_ticket(title='x', priority='2')")).toBe(
      "Error during execution: '<' not supported between instances of 'str' and 'int'",
    );
  });
});
