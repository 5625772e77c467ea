/**
 * Test helper: the canonical dump of a `PyExpr` that `tools/gen-python-parse-vectors.py`
 * produces from CPython's `ast` (fixed key order, ints as decimal strings, floats as the
 * hex of their IEEE-754 bits, bytes as int lists, ASCII-escaped compact JSON), so parser
 * tests compare trees with CPython's exactly.
 */
import { createHash } from "node:crypto";
import type { PyExpr } from "../ast.js";

/** A JSON value in the canonical dump. */
export type Dump = null | boolean | string | number | Dump[] | { [k: string]: Dump };

/** Big-endian hex of a float's bits, like Python's `struct.pack(">d", x).hex()`. */
export function floatBits(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  let s = "";
  for (let i = 0; i < 8; i++) s += view.getUint8(i).toString(16).padStart(2, "0");
  return s;
}

/** Dump one node in the generator's format. */
export function dumpExpr(e: PyExpr | null): Dump {
  if (e === null) return null;
  switch (e.kind) {
    case "int":
      return { k: "int", v: e.value.toString() };
    case "float":
      return { k: "float", v: floatBits(e.value) };
    case "imag":
      return { k: "imag", v: floatBits(e.value) };
    case "str":
      return { k: "str", v: e.value };
    case "bytes":
      return { k: "bytes", v: Array.from(e.value) };
    case "bool":
      return { k: "bool", v: e.value };
    case "none":
      return { k: "none" };
    case "ellipsis":
      return { k: "ellipsis" };
    case "name":
      return { k: "name", id: e.id };
    case "attribute":
      return { k: "attribute", value: dumpExpr(e.value), attr: e.attr };
    case "subscript":
      return { k: "subscript", value: dumpExpr(e.value), index: dumpExpr(e.index) };
    case "slice":
      return { k: "slice", lower: dumpExpr(e.lower), upper: dumpExpr(e.upper), step: dumpExpr(e.step) };
    case "list":
    case "tuple":
    case "set":
      return { k: e.kind, elts: e.elts.map(dumpExpr) };
    case "dict":
      return { k: "dict", keys: e.keys.map(dumpExpr), values: e.values.map(dumpExpr) };
    case "starred":
      return { k: "starred", value: dumpExpr(e.value) };
    case "unary":
      return { k: "unary", op: e.op, operand: dumpExpr(e.operand) };
    case "binary":
      return { k: "binary", op: e.op, left: dumpExpr(e.left), right: dumpExpr(e.right) };
    case "boolop":
      return { k: "boolop", op: e.op, values: e.values.map(dumpExpr) };
    case "compare":
      return { k: "compare", left: dumpExpr(e.left), ops: [...e.ops], comparators: e.comparators.map(dumpExpr) };
    case "ifexp":
      return { k: "ifexp", test: dumpExpr(e.test), body: dumpExpr(e.body), orelse: dumpExpr(e.orelse) };
    case "lambda":
    case "comprehension":
    case "fstring":
      return { k: e.kind };
    case "call":
      return {
        k: "call",
        func: dumpExpr(e.func),
        args: e.args.map(dumpExpr),
        keywords: e.keywords.map((kw) => [kw.arg, dumpExpr(kw.value)]),
      };
  }
}

/** `json.dumps(x, ensure_ascii=True, separators=(",", ":"))`. */
export function canonicalJson(x: Dump): string {
  return JSON.stringify(x).replace(/[\u007f-\uffff]/g, (ch) => {
    const c = ch.charCodeAt(0);
    return c === 0x7f ? ch : "\\u" + c.toString(16).padStart(4, "0");
  });
}

/** First 16 hex digits of the SHA-256 of the canonical JSON, as the generator stores them. */
export function shortHash(x: Dump): string {
  return createHash("sha256").update(canonicalJson(x), "ascii").digest("hex").slice(0, 16);
}
