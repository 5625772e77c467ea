import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import type { PyValue } from "./value.js";
import { PySet } from "./containers.js";
import { pyEquals, pyLt } from "./compare.js";
import { pyDeepCopy } from "./copy.js";
import { jsonDumps, jsonLoadsFast, jsonLoadsOrThrow } from "./json.js";
import { pyRepr } from "./repr.js";
import { pyHash } from "./set-order.js";
import type { PyExpr } from "./ast.js";
import { parseExpression, type ParseMode } from "./parse.js";
import { evalLiteral, type LiteralEvalHooks } from "./literal-eval.js";
import { PyException } from "./exception.js";
import {
  NESTED_ARGUMENT,
  NESTED_JSON,
  NESTED_SOURCE,
  NESTED_VALUES,
  nestingDifference,
  nestingMeasurements,
  type NestingVectors,
} from "./testing/nesting.js";

const VECTORS = JSON.parse(readFileSync(new URL("./vectors/nesting.json", import.meta.url), "utf8")) as NestingVectors;

/** Every recorded depth of every form of a stage, run through `run`; the differences (none wanted). */
function differences(stage: string, run: (form: string, depth: number) => () => unknown): string[] {
  const bad: string[] = [];
  for (const m of nestingMeasurements(VECTORS, stage)) {
    for (const c of m.cases) {
      const d = nestingDifference(run(m.form, c.depth), c);
      if (d !== null) bad.push(`${stage} ${m.form} ${d}`);
    }
  }
  return bad;
}

describe("deep nesting fails where CPython 3.12 fails, with its RecursionError", () => {
  test("json.loads: arrays and objects past the C recursion limit (both readers)", () => {
    expect(differences("json.loads", (form, n) => () => (jsonLoadsOrThrow(NESTED_JSON[form](n)), null))).toEqual([]);
    expect(differences("json.loads", (form, n) => () => (jsonLoadsFast(NESTED_JSON[form](n)), null))).toEqual([]);
  });
  test("repr of nested lists, dicts and tuples", () => {
    expect(
      differences("repr", (form, n) => {
        const v = NESTED_VALUES[form](n);
        return () => pyRepr(v);
      }),
    ).toEqual([]);
  });
  test("json.dumps of nested lists and dicts", () => {
    expect(
      differences("json.dumps", (form, n) => {
        const v = NESTED_VALUES[form](n);
        return () => jsonDumps(v);
      }),
    ).toEqual([]);
  });
  test("== and < on nested containers", () => {
    expect(
      differences("==", (form, n) => {
        const a = NESTED_VALUES[form](n),
          b = NESTED_VALUES[form](n);
        return () => pyEquals(a, b) || null;
      }),
    ).toEqual([]);
    expect(
      differences("<", (form, n) => {
        const a = NESTED_VALUES[form](n),
          b = NESTED_VALUES[form](n + 1);
        return () => pyLt(a, b) || null;
      }),
    ).toEqual([]);
  });
  test("copy.deepcopy (Python recursion: a third of the depth)", () => {
    expect(
      differences("copy.deepcopy", (form, n) => {
        const v = NESTED_VALUES[form](n);
        return () => (pyDeepCopy(v), null);
      }),
    ).toEqual([]);
  });
  test("hash of nested tuples has no limit (a set member, a dict key)", () => {
    expect(
      differences("hash", (form, n) => {
        const v = NESTED_VALUES[form](n);
        return () => (new PySet([v as PyValue]), pyHash(v), null);
      }),
    ).toEqual([]);
  });
});

/** Python's AST class name of a parsed root (what the generator records for `ast.parse`). */
const AST_CLASS: Record<string, string> = {
  list: "List",
  tuple: "Tuple",
  int: "Constant",
  float: "Constant",
  unary: "UnaryOp",
  binary: "BinOp",
  attribute: "Attribute",
  call: "Call",
  subscript: "Subscript",
  ifexp: "IfExp",
  lambda: "Lambda",
  name: "Name",
};

/** Parse as the given entry point; a failure becomes the exception CPython raises (SyntaxError text with its suffix). */
function parsed(source: string, mode: ParseMode, filename: string): PyExpr {
  const p = parseExpression(source, mode);
  if (p.ok) return p.expr;
  if (p.error.type !== undefined) throw new PyException(p.error.type, p.error.message);
  throw new PyException("SyntaxError", `${p.error.message} (${filename}, line 1)`);
}

/** `f` and `g` of the generator's namespace: `f(**kw)` → None, `g(*a, **kw)` → 1. */
const CALLABLES: LiteralEvalHooks = {
  name(id) {
    if (id === "f" || id === "g") return id;
    throw new PyException("NameError", `name '${id}' is not defined`);
  },
  call(node, ev) {
    const f = ev(node.func);
    for (const a of node.args) ev(a);
    for (const k of node.keywords) ev(k.value);
    if (f === "f") return null;
    if (f === "g") return 1n;
    throw new PyException("TypeError", `'${typeof f}' object is not callable`);
  },
};

describe("deep source text fails where CPython 3.12's compiler fails", () => {
  test("ast.parse: 200 brackets, the parser stack (** and lambda chains), the AST depth", () => {
    expect(
      differences("ast.parse", (form, n) => {
        const s = NESTED_SOURCE[form](n);
        return () => AST_CLASS[parsed(s, "ast", "<unknown>").kind];
      }),
    ).toEqual([]);
  });
  test("compile (eval's parser and compiler)", () => {
    expect(
      differences("compile", (form, n) => {
        const s = NESTED_SOURCE[form](n);
        return () => (parsed(s, "eval", "<string>"), "'<module>'");
      }),
    ).toEqual([]);
  });
  test("eval of a call whose argument nests: parsed and evaluated without running out of stack", () => {
    expect(
      differences("bfcl.execute", (form, n) => {
        const s = "f(a=" + NESTED_ARGUMENT[form](n) + ")";
        return () => {
          const v = evalLiteral(parsed(s, "eval", "<string>"), CALLABLES);
          return v === null ? "None" : String(v);
        };
      }),
    ).toEqual([]);
  });
});
