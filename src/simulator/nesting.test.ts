import { describe, expect, test } from "vitest";
import { PyDict } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { NESTED_ARGUMENT, NESTED_JSON, nestingDifference, nestingMeasurements } from "../python/testing/nesting.js";
import { decodeFcStep, decodeFcStepPlain, type DecodeOutcome } from "./fc.js";
import { decodePromptingStep } from "./prompting.js";
import { dumpScoreValue, parseScoreFile, redumpTopLevel } from "./scorefile.js";
import { JSON_DECODE_MAX_DEPTH, JSON_ENCODE_MAX_DEPTH } from "../python/limits.js";
import type { PyValue } from "../python/value.js";

/** A decoder's outcome as the generator records BFCL's: the joined call strings, or the exception it raised. */
function asPython(out: DecodeOutcome): string {
  if (out.ok) return out.calls.join("\n");
  const colon = out.error.indexOf(": ");
  throw new PyException(colon < 0 ? out.error : out.error.slice(0, colon), colon < 0 ? "" : out.error.slice(colon + 2));
}

function differences(stage: string, run: (form: string, depth: number) => () => unknown, wantMessage?: (m: string) => string): string[] {
  const bad: string[] = [];
  for (const m of nestingMeasurements(stage)) {
    for (const c of m.cases) {
      const d = nestingDifference(run(m.form, c.depth), c, wantMessage);
      if (d !== null) bad.push(`${stage} ${m.form} ${d}`);
    }
  }
  return bad;
}

describe("BFCL's decoders on deeply nested steps fail as CPython 3.12 runs them", () => {
  test("FC (convert_to_function_call): the argument string's json.loads gives up at its recursion limit", () => {
    const text = (n: number) => NESTED_JSON["args-list"](n);
    expect(differences("bfcl.fc", (_, n) => { const raw = text(n); return () => asPython(decodeFcStepPlain([{ f: raw }])); })).toEqual([]);
    expect(differences("bfcl.fc", (_, n) => { const raw = text(n); return () => asPython(decodeFcStep([new PyDict([["f", raw]])])); })).toEqual([]);
  });
  test("prompting (ast.parse, resolve_ast_by_type, ast.unparse): brackets at 200, unparse's Python recursion", () => {
    // the decoder keeps a SyntaxError's message without ast.parse's "(<unknown>, line 1)" (BFCL only drops the step)
    const bare = (m: string) => m.replace(/ \(<unknown>, line \d+\)$/, "");
    expect(differences("bfcl.prompting", (form, n) => { const s = "[f(a=" + NESTED_ARGUMENT[form](n) + ")]"; return () => asPython(decodePromptingStep(s)); }, bare)).toEqual([]);
  });
  test("an argument object whose value nests 10,000 lists (the reported crash) is a RecursionError, not a stack overflow", () => {
    const raw = NESTED_JSON["args-list"](10_000);
    expect(decodeFcStepPlain([{ mkdir: raw }])).toEqual({ ok: false, error: "RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string" });
    // a step whose structure itself nests (arguments as an object) is refused the same way, by the line's json.loads
    const deepStep = JSON.parse(`[{"mkdir": ${raw}}]`) as unknown;
    expect(decodeFcStepPlain(deepStep)).toMatchObject({ ok: false, error: expect.stringMatching(/^RecursionError: maximum recursion depth exceeded while decoding a JSON (array|object)/) });
  });
});

describe("the score-file writer and readers stop at json's limits instead of the JavaScript stack", () => {
  const list = (n: number) => "[".repeat(n) + "]".repeat(n);
  test("dumpScoreValue: 1497 nested lists are written, one more raises json.dumps' RecursionError", () => {
    const nested = (n: number): PyValue => {
      let x: PyValue = [];
      for (let i = 1; i < n; i++) x = [x];
      return x;
    };
    expect(dumpScoreValue(nested(JSON_ENCODE_MAX_DEPTH))).toBe(list(JSON_ENCODE_MAX_DEPTH).replaceAll("][", "], ["));
    expect(() => dumpScoreValue(nested(JSON_ENCODE_MAX_DEPTH + 1))).toThrow("maximum recursion depth exceeded while encoding a JSON object");
  });
  test("redumpTopLevel leaves a line nested past json.loads' limit to json.loads (which refuses it)", () => {
    const line = (n: number) => `{"result": ${list(n)}}`;
    expect(redumpTopLevel(line(JSON_DECODE_MAX_DEPTH - 1))?.get("result")).toBe(list(JSON_DECODE_MAX_DEPTH - 1));
    expect(redumpTopLevel(line(JSON_DECODE_MAX_DEPTH))).toBeNull();
    expect(redumpTopLevel(line(100_000))).toBeNull();
  });
  test("parseScoreFile reports a stored line nested 100,000 deep as one problem", () => {
    const text = `{"accuracy": 0.5, "correct_count": 1, "total_count": 2}\n{"id": "multi_turn_base_0", "error": {"error_type": "x", "error_message": ${list(100_000)}}}\n`;
    const r = parseScoreFile(text, "s.json");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => `${p.line}: ${p.code}`)).toEqual(["2: json-malformed"]);
  });
});
