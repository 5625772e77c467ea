/**
 * A real Python 3 expression parser (the `mode="eval"` subset of CPython 3.11's grammar) producing the agreed
 * `PyExpr` tree. More in this folder's README.md.
 */
import type { PyExpr, PySyntaxError } from "./ast.js";
import { checkStrEscapes, TokenizeError, TokenStream, type Token } from "./tokenize.js";

/** The outcome of parsing one expression. */
export type ParseResult = { readonly ok: true; readonly expr: PyExpr } | { readonly ok: false; readonly error: PySyntaxError };

/**
 * Which of CPython's entry points the text goes to: `ast.parse(mode="eval")` builds Python
 * AST objects (every node counts towards the depth limit, the `Expression` root and
 * `keyword` nodes included); `eval` compiles (only expression nodes count).
 */
export type ParseMode = "ast" | "eval";

/** CPython's PEG parser stack (MAXSTACK): a rule call at this level overflows it. */
const PARSER_STACK_LIMIT = 6000;
/** Parser levels above the first operand of a top-level expression (eval → expressions → … → primary). */
const PARSER_BASE_LEVEL = 24;
/** Parser levels one bracket (or call, or subscript) adds around its contents. */
const LEVELS_PAREN = 28;
const LEVELS_DISPLAY = 29;
const LEVELS_CALL = 24;
const LEVELS_KEYWORD = 4;
const LEVELS_SUBSCRIPT = 24;
/** Parser levels per link of a `**` chain, per `lambda` header, per lambda default (a prefix `-`/`not` or an `else` link is one). */
const LEVELS_POWER = 2;
const LEVELS_LAMBDA = 2;
const LEVELS_DEFAULT = 10;
/**
 * The deepest tree that still compiles: deeper expressions raise RecursionError (3.12's
 * C recursion limit of 1500, at two levels per C frame, less what the caller holds).
 */
const MAX_TREE_DEPTH = 2996;

const KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

const COMPARE_OPS = new Set(["==", "!=", "<", "<=", ">", ">="]);

type BinOp = Extract<PyExpr, { kind: "binary" }>["op"];
type UnaryOp = Extract<PyExpr, { kind: "unary" }>["op"];

class ParseError {
  constructor(
    readonly message: string,
    readonly offset: number,
    readonly type?: "MemoryError",
  ) {}
}

/**
 * Parse `source` as one Python expression, as `ast.parse(source, mode="eval")` (or, with
 * mode `"eval"`, `eval`'s compiler) would.
 */
export function parseExpression(source: string, mode: ParseMode = "ast"): ParseResult {
  let expr: PyExpr;
  try {
    expr = new Parser(source, new TokenStream(source)).parseEval();
  } catch (e) {
    if (e instanceof ParseError)
      return {
        ok: false,
        error: e.type ? { message: e.message, offset: e.offset, type: e.type } : { message: e.message, offset: e.offset },
      };
    if (e instanceof TokenizeError) return { ok: false, error: { message: e.message, offset: e.offset } };
    return { ok: false, error: { message: `internal parser error: ${String(e)}`, offset: 0 } };
  }
  // a tree has fewer levels than the text has characters: only long texts can be too deep
  if (source.length > MAX_TREE_DEPTH - 2 && treeDepth(expr, mode === "ast") > MAX_TREE_DEPTH) {
    const where = mode === "ast" ? "during ast construction" : "during compilation";
    return { ok: false, error: { message: `maximum recursion depth exceeded ${where}`, offset: 0, type: "RecursionError" } };
  }
  return { ok: true, expr };
}

/**
 * The depth of a tree as CPython counts it, walked with an explicit stack: expression
 * nodes, plus (for `ast.parse`) the `Expression` root and the `keyword` node between a
 * call and each keyword value. Opaque nodes (lambda, comprehension, f-string) count one.
 */
export function treeDepth(root: PyExpr, countAstNodes: boolean): number {
  let max = 0;
  const stack: [PyExpr, number][] = [[root, countAstNodes ? 2 : 1]];
  while (stack.length > 0) {
    const [e, d] = stack.pop()!;
    if (d > max) max = d;
    forEachChild(e, countAstNodes, (c, extra) => {
      if (c) stack.push([c, d + 1 + extra]);
    });
  }
  return max;
}

/** Each child of an expression node, with the nodes between them that `ast.parse` counts (a keyword's). */
function forEachChild(e: PyExpr, countAstNodes: boolean, visit: (c: PyExpr | null | undefined, extra: number) => void): void {
  const push = (c: PyExpr | null | undefined) => visit(c, 0);
  switch (e.kind) {
    case "list":
    case "tuple":
    case "set":
      for (const x of e.elts) push(x);
      break;
    case "dict":
      e.keys.forEach((k, i) => {
        push(k);
        push(e.values[i]);
      });
      break;
    case "call":
      push(e.func);
      for (const a of e.args) push(a);
      for (const k of e.keywords) visit(k.value, countAstNodes ? 1 : 0);
      break;
    case "attribute":
    case "starred":
      push(e.value);
      break;
    case "subscript":
      push(e.value);
      push(e.index);
      break;
    case "slice":
      push(e.lower);
      push(e.upper);
      push(e.step);
      break;
    case "unary":
      push(e.operand);
      break;
    case "binary":
      push(e.left);
      push(e.right);
      break;
    case "boolop":
      for (const v of e.values) push(v);
      break;
    case "compare":
      push(e.left);
      for (const c of e.comparators) push(c);
      break;
    case "ifexp":
      push(e.test);
      push(e.body);
      push(e.orelse);
      break;
  }
}

class Parser {
  /** CPython's parser stack level at the current position (a model: levels per construct, calibrated on CPython 3.12). */
  private level = PARSER_BASE_LEVEL;
  /** Lookahead buffer (current token first); tokens are pulled from the stream on demand. */
  private readonly ahead: Token[] = [];
  private previous: Token | null = null;

  constructor(
    private readonly src: string,
    private readonly stream: TokenStream,
  ) {}

  // ---- token helpers -----------------------------------------------------------------

  private peek(k = 0): Token {
    while (this.ahead.length <= k) this.ahead.push(this.stream.next());
    return this.ahead[k]!;
  }
  private isOp(op: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === "op" && t.op === op;
  }
  private isKw(kw: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === "name" && t.id === kw;
  }
  private next(): Token {
    const t = this.peek();
    if (t.kind !== "end") {
      this.ahead.shift();
      this.previous = t;
    }
    return t;
  }
  private fail(message = "invalid syntax", at?: Token): never {
    const t = at ?? this.peek();
    if (message === "invalid syntax" && t.kind === "end") {
      throw new ParseError("unexpected EOF while parsing", t.start);
    }
    throw new ParseError(message, t.start);
  }
  private expectOp(op: string): Token {
    if (!this.isOp(op)) {
      if (op === ")" || op === "]" || op === "}") {
        const t = this.peek();
        if (t.kind === "op" && (t.op === ")" || t.op === "]" || t.op === "}")) {
          this.fail(`closing parenthesis '${t.op}' does not match opening parenthesis`);
        }
      }
      this.fail();
    }
    return this.next();
  }
  private expectKw(kw: string): void {
    if (!this.isKw(kw)) this.fail();
    this.next();
  }
  private prevEnd(): number {
    return this.previous!.end;
  }
  /** Raise CPython's MemoryError when the modelled parser stack has overflowed. */
  private checkStack(): void {
    if (this.level >= PARSER_STACK_LIMIT)
      throw new ParseError("Parser stack overflowed - Python source too complex to parse", this.peek().start, "MemoryError");
  }
  /** Parse `f` with `levels` more parser levels (a bracket, a call's arguments …). */
  private within<T>(levels: number, f: () => T): T {
    this.level += levels;
    this.checkStack();
    const r = f();
    this.level -= levels;
    return r;
  }
  /** True when the current token can begin an expression (used for trailing commas). */
  private startsExpression(): boolean {
    const t = this.peek();
    switch (t.kind) {
      case "number":
      case "string":
        return true;
      case "name":
        return (
          !KEYWORDS.has(t.id) ||
          t.id === "True" ||
          t.id === "False" ||
          t.id === "None" ||
          t.id === "not" ||
          t.id === "lambda" ||
          t.id === "await"
        );
      case "op":
        return ["(", "[", "{", "-", "+", "~", "...", "*"].includes(t.op);
      default:
        return false;
    }
  }

  // ---- entry -------------------------------------------------------------------------

  parseEval(): PyExpr {
    if (this.peek().kind === "end" || this.peek().kind === "newline") this.fail();
    const e = this.expressions();
    while (this.peek().kind === "newline") this.next();
    if (this.peek().kind !== "end") this.failAfterExpression();
    return e;
  }

  /** A friendlier message for the common `print x` / `x = 1` shapes, then plain "invalid syntax". */
  private failAfterExpression(): never {
    const t = this.peek();
    if (t.kind === "op" && t.op === "=") this.fail("invalid syntax");
    this.fail();
  }

  /** `expression (',' expression)* [',']` — a bare tuple at the top level. */
  private expressions(): PyExpr {
    const first = this.expression();
    if (!this.isOp(",")) return first;
    const elts = [first];
    while (this.isOp(",")) {
      this.next();
      if (!this.startsExpression() || this.isOp("*")) break;
      elts.push(this.expression());
    }
    return { kind: "tuple", elts, start: first.start, end: this.prevEnd() };
  }

  // ---- expression levels -------------------------------------------------------------

  /** `disjunction 'if' disjunction 'else' expression | disjunction | lambdef`, chains parsed in a loop. */
  private expression(): PyExpr {
    {
      const heads: { body: PyExpr; test: PyExpr }[] = [];
      let last: PyExpr;
      while (true) {
        if (this.isKw("lambda")) {
          last = this.lambda();
          break;
        }
        const d = this.disjunction();
        if (!this.isKw("if")) {
          last = d;
          break;
        }
        this.next();
        const test = this.disjunction();
        if (!this.isKw("else")) this.fail("expected 'else' after 'if' expression");
        this.next();
        heads.push({ body: d, test });
        this.level++;
        this.checkStack();
      }
      this.level -= heads.length;
      for (let k = heads.length - 1; k >= 0; k--) {
        const h = heads[k]!;
        last = { kind: "ifexp", test: h.test, body: h.body, orelse: last, start: h.body.start, end: last.end };
      }
      return last;
    }
  }

  /**
   * `lambda [params]: body`, its parameters checked by CPython's rules. A body that is itself a lambda is read
   * in the same loop, so `lambda: lambda: …` costs no stack per link. More in this folder's README.md.
   */
  private lambda(): PyExpr {
    const start = this.peek().start;
    const level = this.level;
    while (this.isKw("lambda")) {
      this.next();
      this.level += LEVELS_LAMBDA;
      this.checkStack();
      this.lambdaParams();
      this.next(); // ':'
    }
    const body = this.expression();
    this.level = level;
    return { kind: "lambda", source: this.src.slice(start, body.end), start, end: body.end };
  }

  /** A lambda's parameters up to (not including) its `:`. */
  private lambdaParams(): void {
    let seenSlash = false;
    let seenStar = false;
    let bareStar = false;
    let seenDefault = false;
    let positional = 0;
    while (!this.isOp(":")) {
      if (this.isOp("**")) {
        this.next();
        this.paramName();
        if (bareStar) this.fail("named arguments must follow bare *");
        if (this.isOp(",")) this.next();
        if (!this.isOp(":")) this.fail("arguments cannot follow var-keyword argument");
        break;
      }
      if (this.isOp("*")) {
        if (seenStar) this.fail("* argument may appear only once");
        seenStar = true;
        this.next();
        if (this.peek().kind === "name") this.paramName();
        else {
          bareStar = true;
          if (!this.isOp(",")) this.fail("named arguments must follow bare *");
        }
      } else if (this.isOp("/")) {
        if (seenSlash || seenStar || positional === 0) this.fail();
        seenSlash = true;
        this.next();
      } else {
        this.paramName();
        if (this.isOp("=")) {
          this.next();
          this.within(LEVELS_DEFAULT, () => this.expression());
          if (!seenStar) seenDefault = true;
        } else if (seenDefault && !seenStar) this.fail("non-default argument follows default argument");
        if (seenStar) bareStar = false;
        else positional++;
      }
      if (this.isOp(",")) this.next();
      else if (!this.isOp(":")) this.fail();
    }
    if (bareStar) this.fail("named arguments must follow bare *");
  }

  private paramName(): void {
    const t = this.peek();
    if (t.kind !== "name" || KEYWORDS.has(t.id)) this.fail();
    this.next();
  }

  private disjunction(): PyExpr {
    const first = this.conjunction();
    if (!this.isKw("or")) return first;
    const values = [first];
    while (this.isKw("or")) {
      this.next();
      values.push(this.conjunction());
    }
    return { kind: "boolop", op: "or", values, start: first.start, end: values[values.length - 1]!.end };
  }

  private conjunction(): PyExpr {
    const first = this.inversion();
    if (!this.isKw("and")) return first;
    const values = [first];
    while (this.isKw("and")) {
      this.next();
      values.push(this.inversion());
    }
    return { kind: "boolop", op: "and", values, start: first.start, end: values[values.length - 1]!.end };
  }

  private inversion(): PyExpr {
    const starts: number[] = [];
    while (this.isKw("not")) starts.push(this.next().start);
    const level = this.level;
    this.level += starts.length;
    this.checkStack();
    let e = this.comparison();
    this.level = level;
    for (let k = starts.length - 1; k >= 0; k--) e = { kind: "unary", op: "not", operand: e, start: starts[k]!, end: e.end };
    return e;
  }

  private comparison(): PyExpr {
    const left = this.bitOr();
    const ops: string[] = [];
    const comparators: PyExpr[] = [];
    while (true) {
      const t = this.peek();
      let op: string | null = null;
      if (t.kind === "op" && COMPARE_OPS.has(t.op)) {
        op = t.op;
        this.next();
      } else if (t.kind === "name" && t.id === "in") {
        op = "in";
        this.next();
      } else if (t.kind === "name" && t.id === "not" && this.isKw("in", 1)) {
        op = "not in";
        this.next();
        this.next();
      } else if (t.kind === "name" && t.id === "is") {
        this.next();
        if (this.isKw("not")) {
          this.next();
          op = "is not";
        } else op = "is";
      }
      if (op === null) break;
      ops.push(op);
      comparators.push(this.bitOr());
    }
    if (ops.length === 0) return left;
    return { kind: "compare", left, ops, comparators, start: left.start, end: comparators[comparators.length - 1]!.end };
  }

  private binaryLevel(ops: readonly string[], operand: () => PyExpr): PyExpr {
    let left = operand();
    while (true) {
      const t = this.peek();
      if (t.kind !== "op" || !ops.includes(t.op)) return left;
      this.next();
      const right = operand();
      left = { kind: "binary", op: t.op as BinOp, left, right, start: left.start, end: right.end };
    }
  }

  private bitOr = (): PyExpr => this.binaryLevel(["|"], this.bitXor);
  private bitXor = (): PyExpr => this.binaryLevel(["^"], this.bitAnd);
  private bitAnd = (): PyExpr => this.binaryLevel(["&"], this.shift);
  private shift = (): PyExpr => this.binaryLevel(["<<", ">>"], this.sum);
  private sum = (): PyExpr => this.binaryLevel(["+", "-"], this.term);
  private term = (): PyExpr => this.binaryLevel(["*", "/", "//", "%", "@"], this.factor);

  /** Prefix `+ - ~` operators, collected in a loop (no recursion per operator). */
  private unaryPrefix(): { op: UnaryOp; start: number }[] {
    const out: { op: UnaryOp; start: number }[] = [];
    while (true) {
      const t = this.peek();
      if (t.kind === "op" && (t.op === "-" || t.op === "+" || t.op === "~")) {
        out.push({ op: t.op, start: t.start });
        this.next();
      } else return out;
    }
  }

  private static wrapUnary(prefix: { op: UnaryOp; start: number }[], e: PyExpr): PyExpr {
    for (let k = prefix.length - 1; k >= 0; k--) e = { kind: "unary", op: prefix[k]!.op, operand: e, start: prefix[k]!.start, end: e.end };
    return e;
  }

  /**
   * `factor: ('+'|'-'|'~') factor | power`, with `power: primary '**' factor` folded from
   * the right. Each prefix and `**` link is a parser level (two inside a `**` chain), so a
   * long chain overflows CPython's parser stack as it does there.
   */
  private factor = (): PyExpr => {
    const level = this.level;
    const outer = this.unaryPrefix();
    this.level += outer.length;
    this.checkStack();
    const primaries: PyExpr[] = [this.primary()];
    const prefixes: { op: UnaryOp; start: number }[][] = [outer];
    while (this.isOp("**")) {
      this.next();
      const inner = this.unaryPrefix();
      this.level += LEVELS_POWER * (1 + inner.length);
      this.checkStack();
      prefixes.push(inner);
      primaries.push(this.primary());
    }
    this.level = level;
    const n = primaries.length - 1;
    let r = primaries[n]!;
    for (let k = n - 1; k >= 0; k--) {
      r = Parser.wrapUnary(prefixes[k + 1]!, r);
      const base = primaries[k]!;
      r = { kind: "binary", op: "**", left: base, right: r, start: base.start, end: r.end };
    }
    return Parser.wrapUnary(outer, r);
  };

  // ---- primaries ---------------------------------------------------------------------

  private primary(): PyExpr {
    let e = this.atom();
    while (true) {
      if (this.isOp(".")) {
        this.next();
        const t = this.peek();
        if (t.kind !== "name" || KEYWORDS.has(t.id)) this.fail();
        this.next();
        e = { kind: "attribute", value: e, attr: t.id, start: e.start, end: t.end };
      } else if (this.isOp("(")) {
        const func = e;
        e = this.within(LEVELS_CALL, () => this.call(func));
      } else if (this.isOp("[")) {
        this.next();
        const index = this.within(LEVELS_SUBSCRIPT, () => this.slices());
        const close = this.expectOp("]");
        e = { kind: "subscript", value: e, index, start: e.start, end: close.end };
      } else return e;
    }
  }

  private call(func: PyExpr): PyExpr {
    this.next(); // '('
    const args: PyExpr[] = [];
    const keywords: { arg: string | null; value: PyExpr }[] = [];
    let sawKeyword = false;
    let sawDoubleStar = false;
    let count = 0;
    while (!this.isOp(")")) {
      const t = this.peek();
      count++;
      if (t.kind === "op" && t.op === "*") {
        this.next();
        const v = this.expression();
        if (sawDoubleStar) this.fail("iterable argument unpacking follows keyword argument unpacking", t);
        args.push({ kind: "starred", value: v, start: t.start, end: v.end });
      } else if (t.kind === "op" && t.op === "**") {
        this.next();
        const v = this.expression();
        keywords.push({ arg: null, value: v });
        sawDoubleStar = true;
      } else if (t.kind === "name" && this.keywordFollows(sawKeyword, sawDoubleStar) && !KEYWORDS.has(t.id)) {
        this.next();
        this.next();
        keywords.push({ arg: t.id, value: this.within(LEVELS_KEYWORD, () => this.expression()) });
        sawKeyword = true;
      } else {
        const { arg, generator } = this.positionalArgument(t, count, sawKeyword, sawDoubleStar);
        args.push(arg);
        if (generator) break;
      }
      if (this.isOp(",")) this.next();
      else if (!this.isOp(")")) this.fail();
    }
    const close = this.expectOp(")");
    return { kind: "call", func, args, keywords, start: func.start, end: close.end };
  }

  /** A positional argument (or a call's one bare generator expression), with CPython's errors for one after a keyword argument. */
  private positionalArgument(t: Token, count: number, sawKeyword: boolean, sawDoubleStar: boolean): { arg: PyExpr; generator: boolean } {
    // after a keyword argument CPython's error pass reads `args ',' args` first: whatever
    // stops a positional argument there is "positional argument follows keyword argument"
    const afterKeyword = sawDoubleStar
      ? "positional argument follows keyword argument unpacking"
      : sawKeyword
        ? "positional argument follows keyword argument"
        : null;
    let v: PyExpr;
    try {
      v = this.namedExpression();
    } catch (e) {
      // a plain syntax error inside it, or a token the tokenizer cannot read (`file?=`)
      const plain = (e instanceof ParseError && e.type === undefined) || e instanceof TokenizeError;
      if (afterKeyword !== null && plain && (e as ParseError | TokenizeError).message === "invalid syntax")
        throw new ParseError(afterKeyword, (e as ParseError).offset);
      throw e;
    }
    if (this.isOp("=")) {
      if (t.kind === "name" && (t.id === "True" || t.id === "False" || t.id === "None")) this.fail(`cannot assign to ${t.id}`, t);
      this.fail('expression cannot contain assignment, perhaps you meant "=="?', t);
    }
    if (this.isKw("for") || this.isKw("async")) {
      const g = this.comprehensionTail(v, t.start);
      if (count !== 1 || !this.isOp(")")) this.fail("Generator expression must be parenthesized", t);
      return { arg: g, generator: true };
    }
    if (afterKeyword !== null) this.fail(afterKeyword, this.startsExpression() ? t : this.peek());
    return { arg: v, generator: false };
  }

  /**
   * Whether the name at the current token is a keyword argument's (`=` follows). A token
   * the tokenizer cannot read there (`file?=`) after a keyword argument is CPython's
   * "positional argument follows keyword argument" (its error pass matches `args ',' args`).
   */
  private keywordFollows(sawKeyword: boolean, sawDoubleStar: boolean): boolean {
    try {
      return this.isOp("=", 1);
    } catch (e) {
      if (e instanceof TokenizeError && e.message === "invalid syntax" && (sawKeyword || sawDoubleStar)) {
        throw new ParseError(
          sawDoubleStar ? "positional argument follows keyword argument unpacking" : "positional argument follows keyword argument",
          e.offset,
        );
      }
      throw e;
    }
  }

  /** Subscript contents: one item, or a comma-separated tuple of items (slices, starred). */
  private slices(): PyExpr {
    const start = this.peek().start;
    const first = this.sliceItem();
    if (!this.isOp(",")) {
      if (first.kind === "starred") return { kind: "tuple", elts: [first], start: first.start, end: first.end };
      return first;
    }
    const elts = [first];
    while (this.isOp(",")) {
      this.next();
      if (this.isOp("]")) break;
      elts.push(this.sliceItem());
    }
    return { kind: "tuple", elts, start, end: this.prevEnd() };
  }

  private sliceItem(): PyExpr {
    const start = this.peek().start;
    if (this.isOp("*")) {
      this.next();
      const v = this.bitOr();
      return { kind: "starred", value: v, start, end: v.end };
    }
    let lower: PyExpr | null = null;
    if (!this.isOp(":")) {
      lower = this.namedExpression();
      if (!this.isOp(":")) return lower;
    }
    this.next(); // ':'
    let upper: PyExpr | null = null;
    let step: PyExpr | null = null;
    if (!this.isOp(":") && !this.isOp(",") && !this.isOp("]")) upper = this.expression();
    if (this.isOp(":")) {
      this.next();
      if (!this.isOp(",") && !this.isOp("]")) step = this.expression();
    }
    return { kind: "slice", lower, upper, step, start, end: this.prevEnd() };
  }

  /** `named_expression`; assignment expressions are rejected (not part of the agreed tree). */
  private namedExpression(): PyExpr {
    const t = this.peek();
    if (t.kind === "name" && this.isOp(":=", 1)) this.fail("assignment expressions are not supported", this.peek(1));
    return this.expression();
  }

  /** `'*' bitwise_or | named_expression` inside displays. */
  private starNamedExpression(): PyExpr {
    if (this.isOp("*")) {
      const s = this.next();
      const v = this.bitOr();
      return { kind: "starred", value: v, start: s.start, end: v.end };
    }
    return this.namedExpression();
  }

  // ---- atoms -------------------------------------------------------------------------

  private atom(): PyExpr {
    const t = this.peek();
    switch (t.kind) {
      case "number": {
        this.next();
        const n = t.num;
        if (n.kind === "int") return { kind: "int", value: n.value, start: t.start, end: t.end };
        if (n.kind === "float") return { kind: "float", value: n.value, start: t.start, end: t.end };
        return { kind: "imag", value: n.value, start: t.start, end: t.end };
      }
      case "string":
        return this.strings();
      case "name": {
        switch (t.id) {
          case "True":
          case "False":
            this.next();
            return { kind: "bool", value: t.id === "True", start: t.start, end: t.end };
          case "None":
            this.next();
            return { kind: "none", start: t.start, end: t.end };
        }
        if (KEYWORDS.has(t.id)) {
          if (t.id === "await" || t.id === "yield") this.fail(`'${t.id}' expressions are not supported`);
          this.fail();
        }
        this.next();
        const after = this.peek();
        if (
          (t.id === "print" || t.id === "exec") &&
          (after.kind === "string" || after.kind === "number" || after.kind === "name") &&
          !(after.kind === "name" && KEYWORDS.has(after.id))
        ) {
          this.fail(`Missing parentheses in call to '${t.id}'. Did you mean ${t.id}(...)?`, t);
        }
        return { kind: "name", id: t.id, start: t.start, end: t.end };
      }
      case "op":
        switch (t.op) {
          case "(":
            return this.within(LEVELS_PAREN, () => this.parenthesized());
          case "[":
            return this.within(LEVELS_DISPLAY, () => this.listDisplay());
          case "{":
            return this.within(LEVELS_DISPLAY, () => this.braceDisplay());
          case "...":
            this.next();
            return { kind: "ellipsis", start: t.start, end: t.end };
        }
        return this.fail();
      default:
        return this.fail();
    }
  }

  /** Adjacent literals concatenate; mixing bytes with str is an error; any f-part makes the whole opaque. */
  private strings(): PyExpr {
    const first = this.peek();
    let bytes: boolean | null = null;
    let fstring = false;
    let value = "";
    let end = first.end;
    while (true) {
      const t = this.peek();
      if (t.kind !== "string") break;
      this.next();
      if (bytes !== null && bytes !== t.str.bytes) this.fail("cannot mix bytes and nonbytes literals", first);
      bytes = t.str.bytes;
      if (t.str.fstring) {
        fstring = true;
        const problem = validateFString(t.str.body ?? "", t.str.raw === true, 0);
        if (problem !== null) this.fail(problem, t);
      }
      value += t.str.value;
      end = t.end;
    }
    if (fstring) return { kind: "fstring", source: this.src.slice(first.start, end), start: first.start, end };
    if (bytes) {
      const arr = new Uint8Array(value.length);
      for (let k = 0; k < value.length; k++) arr[k] = value.charCodeAt(k);
      return { kind: "bytes", value: arr, start: first.start, end };
    }
    if (first.kind === "string" && first.str.u) return { kind: "str", value, u: true, start: first.start, end };
    return { kind: "str", value, start: first.start, end };
  }

  private parenthesized(): PyExpr {
    const open = this.next();
    if (this.isOp(")")) {
      const close = this.next();
      return { kind: "tuple", elts: [], start: open.start, end: close.end };
    }
    if (this.isKw("yield")) this.fail("'yield' expressions are not supported");
    const first = this.starNamedExpression();
    if (first.kind !== "starred" && (this.isKw("for") || this.isKw("async"))) {
      this.comprehensionTail(first, open.start);
      const close = this.expectOp(")");
      return { kind: "comprehension", source: this.src.slice(open.start, close.end), start: open.start, end: close.end };
    }
    if (this.isOp(")")) {
      this.next();
      if (first.kind === "starred") this.fail("cannot use starred expression here", open);
      return first;
    }
    if (!this.isOp(",")) this.fail();
    const elts = [first];
    while (this.isOp(",")) {
      this.next();
      if (this.isOp(")")) break;
      elts.push(this.starNamedExpression());
    }
    const close = this.expectOp(")");
    return { kind: "tuple", elts, start: open.start, end: close.end };
  }

  private listDisplay(): PyExpr {
    const open = this.next();
    const elts: PyExpr[] = [];
    if (!this.isOp("]")) {
      const first = this.starNamedExpression();
      if (first.kind !== "starred" && (this.isKw("for") || this.isKw("async"))) {
        this.comprehensionTail(first, open.start);
        const close = this.expectOp("]");
        return { kind: "comprehension", source: this.src.slice(open.start, close.end), start: open.start, end: close.end };
      }
      elts.push(first);
      while (this.isOp(",")) {
        this.next();
        if (this.isOp("]")) break;
        elts.push(this.starNamedExpression());
      }
    }
    const close = this.expectOp("]");
    return { kind: "list", elts, start: open.start, end: close.end };
  }

  private braceDisplay(): PyExpr {
    const open = this.next();
    if (this.isOp("}")) {
      const close = this.next();
      return { kind: "dict", keys: [], values: [], start: open.start, end: close.end };
    }
    let firstKey: PyExpr | null;
    let firstValue: PyExpr;
    if (this.isOp("**")) {
      this.next();
      firstKey = null;
      firstValue = this.bitOr();
    } else {
      const first = this.starNamedExpression();
      if (!this.isOp(":") || first.kind === "starred") return this.setRest(open, first);
      this.next();
      firstKey = first;
      firstValue = this.expression();
      if (this.isKw("for") || this.isKw("async")) {
        this.comprehensionTail(firstValue, open.start);
        const close = this.expectOp("}");
        return { kind: "comprehension", source: this.src.slice(open.start, close.end), start: open.start, end: close.end };
      }
    }
    const keys: (PyExpr | null)[] = [firstKey];
    const values: PyExpr[] = [firstValue];
    while (this.isOp(",")) {
      this.next();
      if (this.isOp("}")) break;
      if (this.isOp("**")) {
        this.next();
        keys.push(null);
        values.push(this.bitOr());
      } else {
        keys.push(this.expression());
        this.expectOp(":");
        values.push(this.expression());
      }
    }
    const close = this.expectOp("}");
    return { kind: "dict", keys, values, start: open.start, end: close.end };
  }

  private setRest(open: Token, first: PyExpr): PyExpr {
    if (first.kind !== "starred" && (this.isKw("for") || this.isKw("async"))) {
      this.comprehensionTail(first, open.start);
      const close = this.expectOp("}");
      return { kind: "comprehension", source: this.src.slice(open.start, close.end), start: open.start, end: close.end };
    }
    const elts = [first];
    while (this.isOp(",")) {
      this.next();
      if (this.isOp("}")) break;
      elts.push(this.starNamedExpression());
    }
    const close = this.expectOp("}");
    return { kind: "set", elts, start: open.start, end: close.end };
  }

  /** `('async'? 'for' targets 'in' disjunction ('if' disjunction)*)+` after the element. */
  private comprehensionTail(elt: PyExpr, start: number): PyExpr {
    let any = false;
    while (this.isKw("for") || (this.isKw("async") && this.isKw("for", 1))) {
      any = true;
      if (this.isKw("async")) this.next();
      this.next(); // 'for'
      this.targets();
      this.expectKw("in");
      this.disjunction();
      while (this.isKw("if")) {
        this.next();
        this.disjunction();
      }
    }
    if (!any) this.fail();
    void elt;
    return { kind: "comprehension", source: this.src.slice(start, this.prevEnd()), start, end: this.prevEnd() };
  }

  /** Loop targets: assignable expressions separated by commas. */
  private targets(): void {
    for (;;) {
      const t = this.isOp("*") ? (this.next(), this.bitOr()) : this.bitOr();
      if (!isAssignable(t)) this.fail(`cannot assign to ${describe(t)}`);
      if (!this.isOp(",")) return;
      this.next();
      if (this.isKw("in")) return; // trailing comma: `for x, in y`
    }
  }
}

function isAssignable(e: PyExpr): boolean {
  switch (e.kind) {
    case "name":
    case "attribute":
    case "subscript":
    case "starred":
      return true;
    case "tuple":
    case "list":
      return e.elts.every(isAssignable);
    default:
      return false;
  }
}

function describe(e: PyExpr): string {
  switch (e.kind) {
    case "int":
    case "float":
    case "imag":
    case "str":
    case "bytes":
      return "literal";
    case "call":
      return "function call";
    default:
      return "expression";
  }
}

// ---- f-string contents (CPython 3.11's fstring_find_literal / fstring_find_expr) -------

/** Python-3.11 limit on nested replacement fields (`{a:{b}}` is fine, one more level is not). */
const MAX_FSTRING_NESTING = 2;

/**
 * Validate the body of one f-string piece the way CPython 3.11 does before building the
 * (here opaque) JoinedStr: literal text with `{{`/`}}` escapes and valid backslash
 * escapes, and replacement fields `{expr[=][!conv][:spec]}` whose expression parses as
 * `(expr)` and contains no backslash or `#`. Returns the error message or null.
 */
function validateFString(body: string, raw: boolean, level: number): string | null {
  const r = scanFString(body, 0, raw, level);
  if (typeof r === "string") return r;
  return r === body.length ? null : "f-string: single '}' is not allowed";
}

/** Scan literal text and fields from `i`; returns where it stopped (end, or a `}` closing a format spec at level > 0) or an error. */
function scanFString(body: string, i: number, raw: boolean, level: number): number | string {
  let literalStart = i;
  const flushLiteral = (end: number): string | null => (raw ? null : checkStrEscapes(body.slice(literalStart, end)));
  while (i < body.length) {
    const c = body[i];
    if (c === "\\" && !raw) {
      if (body[i + 1] === "N" && body[i + 2] === "{") {
        const close = body.indexOf("}", i + 3);
        i = close === -1 ? body.length : close + 1;
      } else i += 2;
      continue;
    }
    if (c === "{") {
      if (level === 0 && body[i + 1] === "{") {
        i += 2;
        continue;
      }
      const lit = flushLiteral(i);
      if (lit !== null) return lit;
      const end = scanField(body, i + 1, raw, level);
      if (typeof end === "string") return end;
      i = end;
      literalStart = i;
      continue;
    }
    if (c === "}") {
      if (level > 0) {
        const lit = flushLiteral(i);
        return lit ?? i;
      }
      if (body[i + 1] === "}") {
        i += 2;
        continue;
      }
      return "f-string: single '}' is not allowed";
    }
    i++;
  }
  const lit = flushLiteral(body.length);
  return lit ?? body.length;
}

/** One replacement field starting after its `{`; returns the index after its `}` or an error. */
function scanField(body: string, i: number, raw: boolean, level: number): number | string {
  if (level >= MAX_FSTRING_NESTING) return "f-string: expressions nested too deeply";
  const end = fieldExpressionEnd(body, i);
  if (typeof end === "string") return end;
  const expr = body.slice(i, end);
  if (expr.trim() === "") return "f-string: empty expression not allowed";
  const parsed = parseExpression(`(${expr})`);
  if (!parsed.ok) return `f-string: ${parsed.error.message}`;
  return fieldSuffixEnd(body, end, raw, level);
}

/** Where a field's expression ends (at `!`, `:`, `=` or `}` outside brackets and quotes), or an error. */
function fieldExpressionEnd(body: string, i: number): number | string {
  const stack: string[] = [];
  let quote: string | null = null;
  for (; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === "\\") return "f-string expression part cannot include a backslash";
    if (quote !== null) {
      if (body.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = null;
      }
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = body.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
      i += quote.length - 1;
      continue;
    }
    if (ch === "[" || ch === "(" || ch === "{") {
      stack.push(ch);
      continue;
    }
    if (ch === "#") return "f-string expression part cannot include '#'";
    if (stack.length > 0 && (ch === "]" || ch === ")" || ch === "}")) {
      const open = stack.pop()!;
      if ({ "]": "[", ")": "(", "}": "{" }[ch] !== open)
        return `f-string: closing parenthesis '${ch}' does not match opening parenthesis '${open}'`;
      continue;
    }
    if (stack.length === 0 && (ch === "]" || ch === ")")) return `f-string: unmatched '${ch}'`;
    if (stack.length === 0 && "!:}=<>".includes(ch)) {
      const next = body[i + 1];
      if (next === "=" && (ch === "!" || ch === "=" || ch === "<" || ch === ">")) {
        i++;
        continue;
      }
      if (ch === "<" || ch === ">") continue;
      break;
    }
  }
  if (quote !== null) return "f-string: unterminated string";
  if (stack.length > 0) return `f-string: unmatched '${stack[stack.length - 1]}'`;
  if (i >= body.length) return "f-string: expecting '}'";
  return i;
}

/** After a field's expression: `=`, a `!s`/`!r`/`!a` conversion, a format spec, then `}`; the index after it, or an error. */
function fieldSuffixEnd(body: string, i: number, raw: boolean, level: number): number | string {
  if (body[i] === "=") {
    i++;
    while (i < body.length && /\s/.test(body[i]!)) i++;
    if (i >= body.length) return "f-string: expecting '}'";
  }
  if (body[i] === "!") {
    const conv = body[i + 1];
    if (conv === undefined) return "f-string: expecting '}'";
    if (conv !== "s" && conv !== "r" && conv !== "a") return "f-string: invalid conversion character: expected 's', 'r', or 'a'";
    i += 2;
    if (i >= body.length || (body[i] !== ":" && body[i] !== "}")) return "f-string: expecting '}'";
  }
  if (body[i] === ":") {
    const end = scanFString(body, i + 1, raw, level + 1);
    if (typeof end === "string") return end;
    i = end;
  }
  if (body[i] !== "}") return "f-string: expecting '}'";
  return i + 1;
}
