import { describe, expect, it } from "vitest";
import { PyDict } from "../python/containers.js";
import { LONG_CONTEXT_NAMES, parseLongContextModule } from "./long-context.js";

/** A hand-made module in long_context.py's shape (not BFCL's text): every required name, one multi-line dict. */
function module(extra = ""): string {
  const lines = LONG_CONTEXT_NAMES.filter((n) => n !== "CREDIT_CARD_EXTENSION").map((n) => `${n} = ['x', 1, 2.0]`);
  return [...lines, "CREDIT_CARD_EXTENSION = {", "    '1234': {'balance': 10.0, 'name': 'A'},", "    # a comment", "}", extra].join("\n");
}

describe("parseLongContextModule", () => {
  it("reads every top-level NAME = literal, multi-line values included, as Python values", () => {
    const r = parseLongContextModule(module(), "long_context.py");
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.value.get("MA_5_EXTENSION")).toEqual(["x", 1n, 2.0]);
    const cards = r.value.get("CREDIT_CARD_EXTENSION") as PyDict;
    expect((cards.get("1234") as PyDict).get("balance")).toBe(10.0);
  });
  it("names the file and line of a value that does not parse", () => {
    const r = parseLongContextModule(module("BROKEN = [1, 2"), "long_context.py");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0].line).toBe(LONG_CONTEXT_NAMES.length + 4);
    expect(r.problems[0].message).toMatch(/^BROKEN: /);
  });
  it("reports missing constants", () => {
    const r = parseLongContextModule("FILES_TAIL_USED = []\n", "lc.py");
    expect(!r.ok && r.problems.map((p) => p.code)).toEqual(["long-context-incomplete"]);
  });
});
