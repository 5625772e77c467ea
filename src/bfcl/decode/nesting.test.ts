import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { PyDict } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { NESTED_ARGUMENT, NESTED_JSON, nestingDifference, nestingMeasurements, type NestingVectors } from "../../python/testing/nesting.js";
import { decodeFcStep, decodeFcStepPlain } from "./fc.js";
import type { DecodeOutcome } from "./outcome.js";
import { decodePromptingStep } from "./prompting.js";

const VECTORS = JSON.parse(readFileSync(new URL("../../python/vectors/nesting.json", import.meta.url), "utf8")) as NestingVectors;

/** A decoder's outcome as the generator records BFCL's: the joined call strings, or the exception it raised. */
function asPython(out: DecodeOutcome): string {
  if (out.ok) return out.calls.join("\n");
  const colon = out.error.indexOf(": ");
  throw new PyException(colon < 0 ? out.error : out.error.slice(0, colon), colon < 0 ? "" : out.error.slice(colon + 2));
}

function differences(stage: string, run: (form: string, depth: number) => () => unknown, wantMessage?: (m: string) => string): string[] {
  const bad: string[] = [];
  for (const m of nestingMeasurements(VECTORS, stage)) {
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
    expect(
      differences("bfcl.fc", (_, n) => {
        const raw = text(n);
        return () => asPython(decodeFcStepPlain([{ f: raw }]));
      }),
    ).toEqual([]);
    expect(
      differences("bfcl.fc", (_, n) => {
        const raw = text(n);
        return () => asPython(decodeFcStep([new PyDict([["f", raw]])]));
      }),
    ).toEqual([]);
  });
  test("prompting (ast.parse, resolve_ast_by_type, ast.unparse): brackets at 200, unparse's Python recursion", () => {
    expect(
      differences("bfcl.prompting", (form, n) => {
        const s = "[f(a=" + NESTED_ARGUMENT[form](n) + ")]";
        return () => asPython(decodePromptingStep(s));
      }),
    ).toEqual([]);
  });
  test("an argument object whose value nests 10,000 lists (the reported crash) is a RecursionError, not a stack overflow", () => {
    const raw = NESTED_JSON["args-list"](10_000);
    expect(decodeFcStepPlain([{ mkdir: raw }])).toEqual({
      ok: false,
      error: "RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string",
    });
    // a step whose structure itself nests (arguments as an object) is refused the same way, by the line's json.loads
    const deepStep = JSON.parse(`[{"mkdir": ${raw}}]`) as unknown;
    expect(decodeFcStepPlain(deepStep)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^RecursionError: maximum recursion depth exceeded while decoding a JSON (array|object)/),
    });
  });
});
