import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../testing/shared.js";
import { parseExpression } from "./parse.js";
import { callName, resolveCall, resolveValue, unparse } from "./literal.js";
import { bytesRepr } from "./bytes.js";
import type { PyExpr } from "./ast.js";
import type { Outcome } from "./testing/test-vectors.js";

const vectors = JSON.parse(readFileSync(join(projectRoot, "src/extract/testdata/bfcl-decode-vectors.json"), "utf8")) as {
  unparse: { source: string; unparse: string }[];
};

function expr(source: string): PyExpr {
  const r = parseExpression(source);
  if (!r.ok) throw new Error(`syntax error in test source ${source}: ${r.error.message}`);
  return r.expr;
}

describe("unparse matches CPython 3.11 ast.unparse (tools/gen-bfcl-decode-vectors.py)", () => {
  it("has the generated vectors", () => {
    expect(vectors.unparse.length).toBeGreaterThan(200);
  });
  for (const v of vectors.unparse) {
    it(`unparses ${JSON.stringify(v.source).slice(0, 70)}`, () => {
      expect(unparse(expr(v.source))).toBe(v.unparse);
    });
  }
});

describe("resolveValue follows BFCL's resolve_ast_by_type", () => {
  const value = (s: string) => resolveValue(expr(s));
  it("negates the constant under any unary operator", () => {
    expect(value("+3")).toEqual({ ok: true, value: -3 });
    expect(value("not True")).toEqual({ ok: true, value: -1 });
    expect(value("~3")).toEqual({ ok: true, value: -3 });
    expect(value("-x").ok).toBe(false);
    expect(value("-'x'").ok).toBe(false);
  });
  it("evaluates binary operations over literals and fails like eval otherwise", () => {
    expect(value("1 + 2")).toEqual({ ok: true, value: 3 });
    expect(value("'ab' * 2")).toEqual({ ok: true, value: "abab" });
    expect(value("7 / 2")).toEqual({ ok: true, value: 3.5 });
    expect(value("-7 // 2")).toEqual({ ok: true, value: -4 });
    expect(value("1 / 0").ok).toBe(false);
    expect(value("x + 1").ok).toBe(false);
  });
  it("turns names, keyword-less calls and subscripts into text", () => {
    expect(value("folder")).toEqual({ ok: true, value: "folder" });
    expect(value("g(1,2)")).toEqual({ ok: true, value: "g(1, 2)" });
    expect(value("b[1, 2]")).toEqual({ ok: true, value: "b[(1, 2)]" });
  });
  it("nests calls with keywords as {name: {kw: value}} and tuples as arrays", () => {
    expect(value("g(b=h(c=(1, 2)))")).toEqual({ ok: true, value: { g: { b: { h: { c: [1, 2] } } } } });
  });
  it("keys dicts by Python str() with Python's key equality (True == 1)", () => {
    expect(value("{1: 'one', True: 'y', None: 'z', (1, 2): 't'}")).toEqual({ ok: true, value: { "1": "y", None: "z", "(1, 2)": "t" } });
    expect(value("{'__proto__': 1}")).toEqual({ ok: true, value: JSON.parse('{"__proto__": 1}') });
  });
  it("rejects the node types BFCL does not support", () => {
    for (const s of ["x.y", "{1, 2}", "1 < 2", "a and b", "a if b else c", "lambda: 1", "[x for x in y]", "f'{x}'", "{**a}"]) {
      expect(value(s).ok, s).toBe(false);
    }
  });
  it("evaluates complex literal arithmetic and writes `True .real` like ast.unparse", () => {
    expect(value("3j - 3j")).toEqual({ ok: true, value: "0j" });
    expect(value("1 + 2j")).toEqual({ ok: true, value: "(1+2j)" });
    expect(unparse(expr("True .real"))).toBe("True .real");
  });

  it("keeps bytes and complex as their repr text", () => {
    expect(value("b'a\\x00'")).toEqual({ ok: true, value: "b'a\\x00'" });
    expect(value("3j")).toEqual({ ok: true, value: "3j" });
    expect(bytesRepr(new Uint8Array([0x27]))).toBe(`b"'"`);
  });
});

describe("a binary operation is BFCL's eval(ast.unparse(value)): the same results and messages as Python's eval", () => {
  const cases = (
    JSON.parse(readFileSync(join(projectRoot, "src/python/vectors/literal-eval.json"), "utf8")) as ({ src: string } & Outcome)[]
  ).filter((c) => expr(c.src).kind === "binary");
  it("has binary vectors, failing and not", () => {
    expect(cases.filter((c) => c.error !== undefined).length).toBeGreaterThan(30);
    expect(cases.filter((c) => c.error === undefined).length).toBeGreaterThan(30);
  });
  for (const c of cases) {
    it(c.src, () => {
      const r = resolveValue(expr(c.src));
      if (c.error !== undefined) expect(r).toEqual({ ok: false, reason: `${c.error}: ${c.message}` });
      else expect(r.ok).toBe(true);
    });
  }
});

describe("a unary operand is read as BFCL's `-value.operand.value`", () => {
  // the reasons are what BFCL's resolve_ast_by_type raises on each text (run on CPython 3.11)
  const reasons: [string, string][] = [
    ["-a.b", "TypeError: bad operand type for unary -: 'Name'"],
    ["-x[0]", "TypeError: bad operand type for unary -: 'Name'"],
    ["-x", "AttributeError: 'Name' object has no attribute 'value'"],
    ["-f(1)", "AttributeError: 'Call' object has no attribute 'value'"],
    ["-(1+2)", "AttributeError: 'BinOp' object has no attribute 'value'"],
    ["-{1}", "AttributeError: 'Set' object has no attribute 'value'"],
    ["-...", "TypeError: bad operand type for unary -: 'ellipsis'"],
    ["+'a'", "TypeError: bad operand type for unary -: 'str'"],
    ["not None", "TypeError: bad operand type for unary -: 'NoneType'"],
    ["-b'a'", "TypeError: bad operand type for unary -: 'bytes'"],
  ];
  for (const [source, reason] of reasons) {
    it(source, () => {
      expect(resolveValue(expr(source))).toEqual({ ok: false, reason });
    });
  }
  it("negates a complex constant", () => {
    expect(resolveValue(expr("-(2j)"))).toEqual({ ok: true, value: "(-0-2j)" });
  });
});

describe("resolveCall", () => {
  it("builds BFCL's dotted name and drops a non-name base", () => {
    const c = (s: string) => expr(s) as Extract<PyExpr, { kind: "call" }>;
    expect(callName(c("a.b.c(d=1)").func)).toBe("a.b.c");
    expect(callName(c("x[0].foo(a=1)").func)).toBe("foo");
    expect(callName(c("f()(a=1)").func)).toBe("");
  });
  it("keeps positional arguments (echo's file name) and collapses repeated keywords like a dict", () => {
    const call = resolveCall(expr("echo('hi', 'a.txt', content='x', content='y')") as Extract<PyExpr, { kind: "call" }>);
    expect(call).toEqual({ name: "echo", positional: ["hi", "a.txt"], keywords: [["content", "y"]], failure: null });
  });
  it("reports the first unresolvable keyword and keeps its source text", () => {
    const call = resolveCall(expr("mv(source=a.b, destination='c')") as Extract<PyExpr, { kind: "call" }>);
    expect(call.failure).toBe("Exception: Unsupported AST type: <class 'ast.Attribute'>");
    expect(call.keywords).toEqual([
      ["source", "a.b"],
      ["destination", "c"],
    ]);
  });
});
