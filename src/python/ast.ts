/**
 * The expression tree produced by the Python grammar parser (`parse.ts`). BFCL decodes
 * prompting output with `ast.parse` and executes call strings with `eval`; twinscore
 * parses the same text into this tree and interprets it, never evaluating anything.
 * Every node carries its source span so that callers can recover the exact text
 * (BFCL turns a nested call without keywords into its source text).
 */

/** Half-open character span [start, end) into the parsed source. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** One node of a Python expression. */
export type PyExpr =
  | ({ kind: "int"; value: bigint } & Span)
  | ({ kind: "float"; value: number } & Span)
  | ({ kind: "imag"; value: number } & Span)
  /** A string literal after escape processing and implicit concatenation; `u` when the first piece had a `u` prefix (CPython's `Constant.kind == "u"`, which `ast.unparse` writes back). */
  | ({ kind: "str"; value: string; u?: true } & Span)
  | ({ kind: "bytes"; value: Uint8Array } & Span)
  | ({ kind: "bool"; value: boolean } & Span)
  | ({ kind: "none" } & Span)
  | ({ kind: "ellipsis" } & Span)
  | ({ kind: "name"; id: string } & Span)
  | ({ kind: "attribute"; value: PyExpr; attr: string } & Span)
  | ({ kind: "subscript"; value: PyExpr; index: PyExpr } & Span)
  | ({ kind: "slice"; lower: PyExpr | null; upper: PyExpr | null; step: PyExpr | null } & Span)
  | ({ kind: "list"; elts: PyExpr[] } & Span)
  | ({ kind: "tuple"; elts: PyExpr[] } & Span)
  | ({ kind: "set"; elts: PyExpr[] } & Span)
  /** `keys[i] === null` marks a `**mapping` entry. */
  | ({ kind: "dict"; keys: (PyExpr | null)[]; values: PyExpr[] } & Span)
  | ({ kind: "starred"; value: PyExpr } & Span)
  | ({ kind: "unary"; op: "-" | "+" | "~" | "not"; operand: PyExpr } & Span)
  | ({
      kind: "binary";
      op: "+" | "-" | "*" | "/" | "//" | "%" | "**" | "@" | "<<" | ">>" | "&" | "|" | "^";
      left: PyExpr;
      right: PyExpr;
    } & Span)
  | ({ kind: "boolop"; op: "and" | "or"; values: PyExpr[] } & Span)
  | ({ kind: "compare"; left: PyExpr; ops: string[]; comparators: PyExpr[] } & Span)
  | ({ kind: "ifexp"; test: PyExpr; body: PyExpr; orelse: PyExpr } & Span)
  | ({ kind: "lambda"; source: string } & Span)
  | ({ kind: "comprehension"; source: string } & Span)
  | ({ kind: "fstring"; source: string } & Span)
  /** `keywords[i].arg === null` marks a `**kwargs` entry. */
  | ({ kind: "call"; func: PyExpr; args: PyExpr[]; keywords: { arg: string | null; value: PyExpr }[] } & Span);

/** A syntax error with Python's message and a 0-based offset into the source. */
export interface PySyntaxError {
  readonly message: string;
  readonly offset: number;
  /**
   * Absent for a SyntaxError. Input nested past CPython's compiler limits fails with a
   * RecursionError (tree too deep) or a MemoryError (parser stack overflowed) instead,
   * whose text has no `(<string>, line N)` suffix.
   */
  readonly type?: "RecursionError" | "MemoryError";
}
