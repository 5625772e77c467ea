import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { join, resolve } from "node:path";
import { longContextPathIn } from "../../io/long-context.js";
import { projectRoot, sharedDir } from "../../testing/shared.js";
import { parseLongContextModule } from "../long-context.js";
import { replayVectorFile, runCall, summarize } from "./class-vectors.js";
import { newTradingBot } from "./trading-bot.js";

/** BFCL's long_context.py from the checkout beside the project (or BFCL_EVAL_DIR); the tests fail loudly without it. */
function bfclFiller() {
  const dir = process.env.BFCL_EVAL_DIR ?? resolve(projectRoot, "..", "gorilla-src", "berkeley-function-call-leaderboard");
  const path = longContextPathIn(dir);
  if (!path) throw new Error(`BFCL's long_context.py not found under ${dir} (set BFCL_EVAL_DIR)`);
  // the executor helper's parseLongContextModule still trips on the space after `=`; feed it trimmed statements
  const text = readFileSync(path, "utf8").replace(/^([A-Z_][A-Z0-9_]*)[ \t]*=[ \t]*/gm, "$1 = ").replace(/^([A-Z_][A-Z0-9_]*) = /gm, "$1 =");
  const parsed = parseLongContextModule(text, path);
  if (!parsed.ok) throw new Error(`cannot read ${path}: ${parsed.problems.map((q) => q.message).join("; ")}`);
  return parsed.value;
}
let fillerCache: ReturnType<typeof bfclFiller> | undefined;
const io = { readShared: (p: string) => readFileSync(join(sharedDir(), p), "utf8"), filler: () => (fillerCache ??= bfclFiller()) };
const outcomes = replayVectorFile(readFileSync(new URL("./testdata/trading-bot.vectors.json", import.meta.url), "utf8"), (p) => newTradingBot(p), io);

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
  it("matches on gpt-oss's own calls (both stored runs, both models)", () => {
    const s = summarize(outcomes, "model");
    expect(s.mismatches).toEqual([]);
    expect(s.cases).toBeGreaterThan(200);
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
