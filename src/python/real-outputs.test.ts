/**
 * The runtime against real Python output: every tool result BFCL's Python executor produced while the gpt-oss
 * models ran must be reproduced by this runtime, on the path its kind of result takes. More in this folder's
 * README.md.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { rolloutRunDir, rolloutRuns } from "../testing/shared.js";
import { jsonDumps, jsonLoads } from "./json.js";
import { parseExpression } from "./parse.js";
import { evalLiteral } from "./literal-eval.js";
import { pyRepr } from "./repr.js";
import { PyDict } from "./containers.js";
import { mpLogRatio, mpPrecFromDps } from "./mpf.js";
import type { PyObject, PyValue } from "./value.js";
import type { PyExpr } from "./ast.js";

interface Step {
  decoded: string[];
  tools: string[];
}

function readSteps(): Step[] {
  const steps: Step[] = [];
  for (const run of rolloutRuns) {
    const root = join(rolloutRunDir(run), "result");
    for (const model of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      const dir = join(root, model.name, "multi_turn");
      for (const f of readdirSync(dir)) {
        for (const line of readFileSync(join(dir, f), "utf8").split("\n").filter(Boolean)) {
          const entry = JSON.parse(line) as { inference_log?: unknown[] };
          for (const turn of entry.inference_log ?? []) {
            if (turn === null || typeof turn !== "object" || Array.isArray(turn)) continue;
            for (const [key, messages] of Object.entries(
              turn as Record<string, { role: string; content: unknown; model_response_decoded?: string[] }[]>,
            )) {
              if (!key.startsWith("step_")) continue;
              const step: Step = { decoded: [], tools: [] };
              for (const m of messages) {
                if (m.role === "handler_log" && Array.isArray(m.model_response_decoded)) step.decoded.push(...m.model_response_decoded);
                if (m.role === "tool" && typeof m.content === "string") step.tools.push(m.content);
              }
              if (step.tools.length > 0) steps.push(step);
            }
          }
        }
      }
    }
  }
  return steps;
}

const steps = readSteps();
const outputs = steps.flatMap((s) => s.tools);

/** A stand-in for an `mpf('…')`/`Decimal('…')` call inside a repr: prints back as written. */
function opaqueCall(node: Extract<PyExpr, { kind: "call" }>, source: string): PyValue {
  const text = source.slice(node.start, node.end);
  const obj: PyObject = { pyTypeName: "opaque", pyRepr: () => text };
  return obj;
}

describe("real data: tool results of both gpt-oss runs' inference logs", () => {
  test("there are thousands of them", () => {
    expect(outputs.length).toBeGreaterThan(15000);
  });

  test("every JSON object result is json.dumps output this runtime reproduces byte for byte", () => {
    let n = 0;
    const bad: string[] = [];
    for (const s of outputs) {
      if (!s.startsWith("{")) continue;
      const r = jsonLoads(s);
      if (!r.ok) continue; // a repr fallback such as {'result': mpf('2.0')}
      n++;
      if (jsonDumps(r.value) !== s) bad.push(s);
    }
    expect(n).toBeGreaterThan(15000);
    expect(bad).toEqual([]);
  });

  test("every Python-repr result (None, lists, dicts with mpf) is reproduced by pyRepr of its evaluated literal", () => {
    let n = 0;
    const bad: string[] = [];
    for (const s of outputs) {
      if (s.startsWith("{") && jsonLoads(s).ok) continue;
      const p = parseExpression(s);
      if (!p.ok) continue; // free text such as `Error during execution: …`
      let v: PyValue;
      try {
        v = evalLiteral(p.expr, { call: (node) => opaqueCall(node, s) });
      } catch {
        continue; // text that happens to parse as an expression, e.g. a bare sentence fragment
      }
      n++;
      if (pyRepr(v) !== s) bad.push(`${s} -> ${pyRepr(v)}`);
    }
    expect(n).toBeGreaterThan(800);
    expect(bad).toEqual([]);
  });

  test("every logarithm result equals mpmath's, recomputed from the decoded call", () => {
    let n = 0;
    const bad: string[] = [];
    for (const step of steps) {
      if (step.decoded.length !== step.tools.length) continue;
      step.decoded.forEach((call, i) => {
        if (!call.startsWith("logarithm(")) return;
        const p = parseExpression(call);
        if (!p.ok || p.expr.kind !== "call") return;
        const args = new Map<string, PyValue>();
        const names = ["value", "base", "precision"];
        p.expr.args.forEach((a, j) => args.set(names[j], evalLiteral(a)));
        for (const kw of p.expr.keywords) if (kw.arg) args.set(kw.arg, evalLiteral(kw.value));
        if (args.size !== 3 || ![...args.keys()].every((k) => names.includes(k))) return;
        let got: string;
        try {
          const r = mpLogRatio(args.get("value")!, args.get("base")!, mpPrecFromDps(args.get("precision")!));
          got = pyRepr(new PyDict([["result", r]]));
        } catch (e) {
          got = `{'error': '${(e as { pyMessage?: string }).pyMessage}'}`;
        }
        n++;
        if (got !== step.tools[i]) bad.push(`${call}: want ${step.tools[i]} got ${got}`);
      });
    }
    expect(n).toBeGreaterThan(20);
    expect(bad).toEqual([]);
  });
});
