import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { evalLiteral } from "./literal-eval.js";
import { parseExpression } from "./parse.js";
import type { PyExpr } from "./ast.js";
import { pyRepr } from "./repr.js";
import { compareOutcome, type Outcome } from "./testing/test-vectors.js";
import { bfclDataDir } from "../testing/shared.js";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}.json`, import.meta.url), "utf8")) as T;

function parsed(src: string): PyExpr {
  const r = parseExpression(src);
  if (!r.ok) throw new Error(`parse failed for ${src}: ${r.error.message}`);
  return r.expr;
}

describe("evalLiteral gives what Python's eval gives for constant expressions", () => {
  const cases = load<({ src: string } & Outcome)[]>("literal-eval");
  test.each(cases.map((c) => [c.src, c] as const))("%s", (_, c) => {
    expect(compareOutcome(() => evalLiteral(parsed(c.src)), c, pyRepr)).toBeNull();
  });
  test("hand-built nodes: unary minus on a number and an unknown name", () => {
    const span = { start: 0, end: 2 };
    expect(evalLiteral({ kind: "unary", op: "-", operand: { kind: "int", value: 5n, ...span }, ...span })).toBe(-5n);
    expect(() => evalLiteral({ kind: "name", id: "ls", ...span })).toThrow("name 'ls' is not defined");
  });
  test("hooks resolve names and calls (the executor's nested method calls)", () => {
    const v = evalLiteral(parsed("[pwd(), x]"), {
      name: (id) => `name:${id}`,
      call: (node, ev) => `call:${pyRepr(ev(node.args[0] ?? { kind: "none", start: 0, end: 0 }))}`,
    });
    expect(pyRepr(v)).toBe("['call:None', 'name:x']");
  });
});

describe("real data: every ground-truth call argument in BFCL v4 evaluates as Python's eval does", () => {
  const digests = load<Record<string, { arguments: number; sha256: string }>>("gt-argument-digests");
  test.each(Object.entries(digests))("%s", (file, want) => {
    const lines: string[] = [];
    const text = readFileSync(join(bfclDataDir(), "possible_answer", file), "utf8");
    for (const row of text.split("\n").filter(Boolean)) {
      const entry = JSON.parse(row) as { ground_truth: string[][] };
      for (const turn of entry.ground_truth) {
        for (const call of turn) {
          const node = parsed(call);
          if (node.kind !== "call") throw new Error(`not a call: ${call}`);
          node.args.forEach((a, i) => lines.push(`#${i}=${pyRepr(evalLiteral(a))}`));
          for (const kw of node.keywords) lines.push(`${kw.arg}=${pyRepr(evalLiteral(kw.value))}`);
        }
      }
    }
    expect(lines.length).toBe(want.arguments);
    expect(createHash("sha256").update(lines.join("\n"), "utf8").digest("hex")).toBe(want.sha256);
  });
});
