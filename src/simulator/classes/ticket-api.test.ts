import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { join, resolve } from "node:path";
import { longContextPathIn } from "../../io/long-context.js";
import { projectRoot, sharedDir } from "../../testing/shared.js";
import { parseLongContextModule } from "../long-context.js";
import { replayVectorFile, runCall, summarize } from "./class-vectors.js";
import { newTicketApi } from "./ticket-api.js";

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
const outcomes = replayVectorFile(readFileSync(new URL("./testdata/ticket-api.vectors.json", import.meta.url), "utf8"), (p) => newTicketApi(p), io);

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
  it("matches on gpt-oss's own calls (both stored runs, both models)", () => {
    const s = summarize(outcomes, "model");
    expect(s.mismatches).toEqual([]);
    expect(s.cases).toBeGreaterThan(100);
  });
  it("returns the created ticket by reference, so later edits show in earlier results' object", () => {
    const t = newTicketApi();
    t.loadScenario(new PyDict(), false);
    expect(runCall(t, "ticket_login(username='a', password='b')")).toBe('{"success": true}');
    expect(runCall(t, "create_ticket(title='x', priority=6)")).toBe('{"error": "Invalid priority. Priority must be between 1 and 5."}');
    expect(runCall(t, "create_ticket(title='x', priority='2')")).toBe("Error during execution: '<' not supported between instances of 'str' and 'int'");
  });
});
