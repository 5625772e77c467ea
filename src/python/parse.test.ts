import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, test } from "vitest";
import { bfclDataDir, projectRoot } from "../testing/shared.js";
import type { PyExpr } from "./ast.js";
import { parseExpression } from "./parse.js";
import { canonicalJson, dumpExpr, shortHash, type Dump } from "./testing/pydump.js";

interface Vectors {
  python: string;
  cases: { source: string; expect: Dump & Record<string, Dump> }[];
  deep: { name: string; accepted: boolean }[];
}

const vectors = JSON.parse(readFileSync(join(projectRoot, "src/python/testdata/parse-vectors.json"), "utf8")) as Vectors;
const gtHashes = JSON.parse(readFileSync(join(projectRoot, "src/python/testdata/gt-parse-hashes.json"), "utf8")) as {
  callStrings: number;
  hashes: Record<string, string>;
};

function parsed(source: string): PyExpr {
  const r = parseExpression(source);
  if (!r.ok) throw new Error(`unexpected syntax error on ${JSON.stringify(source)}: ${r.error.message}`);
  return r.expr;
}

/** Node kinds CPython accepts that the agreed tree deliberately leaves out. */
function isUnsupported(d: Dump): boolean {
  return canonicalJson(d).includes('"k":"unsupported:');
}

describe("parseExpression against CPython vectors (tools/gen-python-parse-vectors.py)", () => {
  it("has the vectors the generator wrote", () => {
    expect(vectors.cases.length).toBeGreaterThan(250);
  });

  for (const c of vectors.cases) {
    const expected = c.expect;
    const label = JSON.stringify(c.source).slice(0, 70);
    if ("error" in expected) {
      it(`rejects ${label} like CPython (${String(expected.error).slice(0, 60)})`, () => {
        const r = parseExpression(c.source);
        expect(r.ok, `parsed to ${r.ok ? canonicalJson(dumpExpr(r.expr)) : ""}`).toBe(false);
      });
    } else if (isUnsupported(expected) || c.source.includes("\\N{")) {
      it(`reports ${label} as unsupported instead of mis-parsing it`, () => {
        const r = parseExpression(c.source);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.error.message).toMatch(/not supported/);
      });
    } else {
      it(`parses ${label} to CPython's tree`, () => {
        expect(dumpExpr(parsed(c.source))).toEqual(expected);
      });
    }
  }

  for (const d of vectors.deep) {
    it(`deep nesting ${d.name}: ${d.accepted ? "accepted" : "rejected"} like CPython, never a crash`, () => {
      const sources: Record<string, string> = {
        "parens-200": "(".repeat(200) + "1" + ")".repeat(200),
        "parens-201": "(".repeat(201) + "1" + ")".repeat(201),
        "lists-199": "[".repeat(199) + "]".repeat(199),
        "unary-1000": "-".repeat(1000) + "1",
        "not-1000": "not ".repeat(1000) + "x",
        "ifexp-300": "a if b else ".repeat(300) + "c",
        "lambda-300": "lambda: ".repeat(300) + "1",
        "pow-1000": Array(1000).fill("2").join("**"),
      };
      const src = sources[d.name];
      expect(src).toBeDefined();
      expect(parseExpression(src!).ok).toBe(d.accepted);
    });
  }
});

describe("parseExpression on every BFCL v4 multi-turn ground-truth call string", () => {
  it("reproduces CPython's tree for all 4,625 strings of base, long_context, miss_func and miss_param", () => {
    let strings = 0;
    const mismatched: string[] = [];
    for (const category of ["base", "long_context", "miss_func", "miss_param"]) {
      const text = readFileSync(join(bfclDataDir(), "possible_answer", `BFCL_v4_multi_turn_${category}.json`), "utf8");
      for (const line of text.split("\n")) {
        if (line.trim() === "") continue;
        const entry = JSON.parse(line) as { id: string; ground_truth: string[][] };
        const dumps: Dump[] = entry.ground_truth.map((turn) =>
          turn.map((s) => {
            strings++;
            const r = parseExpression(s);
            return r.ok ? dumpExpr(r.expr) : { error: r.error.message };
          }),
        );
        const key = `${category}/${entry.id}`;
        if (shortHash(dumps) !== gtHashes.hashes[key]) mismatched.push(key);
      }
    }
    expect(strings).toBe(4625);
    expect(gtHashes.callStrings).toBe(4625);
    expect(Object.keys(gtHashes.hashes)).toHaveLength(800);
    expect(mismatched).toEqual([]);
  });

  it("keeps source spans that slice back to each argument (multi_turn_base_0, turn 0)", () => {
    const src = "mv(source='final_report.pdf', destination='temp')";
    const e = parsed(src);
    expect(e.kind).toBe("call");
    if (e.kind !== "call") return;
    expect(src.slice(e.func.start, e.func.end)).toBe("mv");
    expect(e.keywords.map((k) => src.slice(k.value.start, k.value.end))).toEqual(["'final_report.pdf'", "'temp'"]);
    expect([e.start, e.end]).toEqual([0, src.length]);
  });
});

describe("parseExpression specifics", () => {
  it("keeps ints exact as bigint", () => {
    const e = parsed("123456789012345678901234567890");
    expect(e).toMatchObject({ kind: "int", value: 123456789012345678901234567890n });
  });

  it("rejects decimal ints beyond CPython's 4300-digit conversion limit", () => {
    expect(parseExpression("1".repeat(4300)).ok).toBe(true);
    const r = parseExpression("1".repeat(4301));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/Exceeds the limit \(4300 digits\)/);
  });

  it("returns opaque lambda/comprehension/f-string nodes with their source", () => {
    expect(parsed("lambda x: x + 1")).toMatchObject({ kind: "lambda", source: "lambda x: x + 1" });
    expect(parsed("[x for x in y]")).toMatchObject({ kind: "comprehension", source: "[x for x in y]" });
    expect(parsed("f'a{b}' 'c'")).toMatchObject({ kind: "fstring", source: "f'a{b}' 'c'" });
  });

  it("reports errors with an offset into the source", () => {
    const r = parseExpression("f(a=1, 2)");
    expect(r).toEqual({ ok: false, error: { message: "positional argument follows keyword argument", offset: 8 } }); // CPython 3.12: offset 9 (1-based), the token that stops the argument
  });

  it("handles huge flat inputs and hostile nesting without throwing", () => {
    const big = "[" + Array.from({ length: 20000 }, (_, i) => `f${i}(a=${i}, b='x${i}')`).join(", ") + "]";
    const r = parseExpression(big);
    expect(r.ok).toBe(true);
    if (r.ok && r.expr.kind === "list") expect(r.expr.elts).toHaveLength(20000);
    for (const hostile of [
      "(".repeat(100000),
      "-".repeat(200000) + "1",
      "not ".repeat(100000) + "x",
      "lambda: ".repeat(5000) + "1",
      "a if b else ".repeat(50000) + "c",
      "+".repeat(3) + "1" + "+1".repeat(200000),
      "'" + "\\".repeat(100001),
      "a" + ".b".repeat(100000),
      "f" + "(1)".repeat(100000),
    ]) {
      expect(() => parseExpression(hostile)).not.toThrow();
    }
    expect(parseExpression("lambda: ".repeat(5000) + "1").ok).toBe(false);
  });
});

describe("parseExpression against 2,000 seeded fuzz expressions (tools/gen-python-parse-vectors.py)", () => {
  const fuzz = JSON.parse(readFileSync(join(projectRoot, "src/python/testdata/parse-fuzz.json"), "utf8")) as { cases: [string, string][] };
  it("accepts exactly what CPython accepts and builds the same trees", () => {
    expect(fuzz.cases).toHaveLength(2000);
    const wrong: string[] = [];
    let accepted = 0;
    for (const [source, expected] of fuzz.cases) {
      const r = parseExpression(source);
      if (expected === "E" || expected === "U") {
        if (r.ok)
          wrong.push(`${JSON.stringify(source)}: CPython ${expected === "E" ? "rejects" : "has an unsupported node"}, we parsed it`);
      } else {
        accepted++;
        if (!r.ok) wrong.push(`${JSON.stringify(source)}: CPython accepts, we said ${r.error.message}`);
        else if (shortHash(dumpExpr(r.expr)).slice(0, 12) !== expected)
          wrong.push(`${JSON.stringify(source)}: different tree ${canonicalJson(dumpExpr(r.expr)).slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(accepted).toBeGreaterThan(800);
  });
});

describe("a positional argument after a keyword argument", () => {
  // CPython 3.12's messages and offsets (its error pass matches `args ',' args`, whatever stops the second)
  test.each([
    ["f(a=1, b)", "positional argument follows keyword argument", 8],
    ["f(a=1, b?=2)", "positional argument follows keyword argument", 8],
    ["echo(content='6500',file?='x')", "positional argument follows keyword argument", 24],
    ["f(a=1, b+)", "positional argument follows keyword argument", 9],
    ["f(**k, b?)", "positional argument follows keyword argument unpacking", 8],
    ["f(a?=2)", "invalid syntax", 3],
    ["f(x, b?=2)", "invalid syntax", 6],
  ])("%s", (source, message, offset) => {
    expect(parseExpression(source)).toEqual({ ok: false, error: { message, offset } });
  });
});
