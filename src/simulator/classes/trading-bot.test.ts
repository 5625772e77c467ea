import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { replayClassVectors } from "../../testing/class-vector-files.js";
import { runCall, summarize } from "./class-vectors.js";
import { newTradingBot } from "./trading-bot.js";

const outcomes = replayClassVectors("trading-bot", (p) => newTradingBot(p));

describe("TradingBot against BFCL's Python (tools/gen-class-vectors.py)", () => {
  it("replays every ground-truth call of base, miss_func, miss_param and long_context (e.g. multi_turn_base_3)", () => {
    const s = summarize(outcomes, "gt");
    expect(s.mismatches).toEqual([]);
    expect(s.cases).toBe(200);
  });
  it("matches on the error paths, wrong-typed arguments and long_context filler", () => {
    const s = summarize(outcomes, "inline");
    expect(s.mismatches).toEqual([]);
    expect(s.calls).toBeGreaterThan(80);
  });
  it("matches on the gpt-oss sequences that add coverage (15 of the 566 stored ones; e.g. 2025-11-12-harmony-fixes gpt-oss-120b multi_turn_base_100)", () => {
    // the generator keeps a model sequence only when it shows something the ground-truth and error sequences did not:
    // a line arc of BFCL's class, an error text, an argument/result/state type shape, or a way its FC steps decode and parse
    const s = summarize(outcomes, "model");
    expect(s.mismatches).toEqual([]);
    expect(s.cases).toBe(15);
    expect(outcomes.some((o) => o.name === "model 2025-11-12-harmony-fixes openai_gpt-oss-120b multi_turn_base_100" && o.calls > 0)).toBe(true);
  });
  it("draws the first transaction timestamp from Random(1053520): 2024-09-02 05:40:15", () => {
    const t = newTradingBot();
    t.loadScenario(new PyDict(), false);
    runCall(t, "trading_login(username='a', password='b')");
    expect(runCall(t, "fund_account(amount=5)")).toBe('{"status": "Account funded successfully", "new_balance": 10005.0}');
    expect(runCall(t, "get_transaction_history()")).toBe('{"transaction_history": [{"type": "deposit", "amount": 5, "timestamp": "2024-09-02 05:40:15"}]}');
    expect(runCall(t, "get_current_time()")).toBe('{"current_time": "10:30 AM"}');
  });
});
