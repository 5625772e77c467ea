import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { describeVectorReplay, runCall } from "../../testing/class-vectors.js";
import { newTradingBot } from "./trading-bot.js";

describeVectorReplay({
  className: "TradingBot",
  vectors: "trading-bot",
  make: (p) => newTradingBot(p),
  gtCases: 200,
  gtExample: "multi_turn_base_3",
  inlineCovers: "the error paths, wrong-typed arguments and long_context filler",
  minInlineCalls: 80,
  modelCases: 15,
  modelStored: 566,
  modelExample: ["2025-11-12-harmony-fixes", "openai_gpt-oss-120b", "multi_turn_base_100"],
});

describeVectorReplay({
  className: "TradingBot",
  vectors: "trading-bot",
  version: "v3",
  make: (p) => newTradingBot(p),
  gtCases: 200,
  gtExample: "multi_turn_base_100",
  inlineCovers: "the error paths and v3's make_transaction, update_market_status and update_stock_price",
  minInlineCalls: 100,
  modelCases: 5,
  modelStored: 150,
  modelExample: ["", "Salesforce_Llama-xLAM-2-8b-fc-r", "multi_turn_base_100"],
});

describe("TradingBot: behaviours checked by hand", () => {
  it("draws the first transaction timestamp from Random(1053520): 2024-09-02 05:40:15", () => {
    const t = newTradingBot();
    t.loadScenario(new PyDict(), false);
    runCall(t, "trading_login(username='a', password='b')");
    expect(runCall(t, "fund_account(amount=5)")).toBe('{"status": "Account funded successfully", "new_balance": 10005.0}');
    expect(runCall(t, "get_transaction_history()")).toBe(
      '{"transaction_history": [{"type": "deposit", "amount": 5, "timestamp": "2024-09-02 05:40:15"}]}',
    );
    expect(runCall(t, "get_current_time()")).toBe('{"current_time": "10:30 AM"}');
  });
});
