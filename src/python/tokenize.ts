/**
 * Tokenizer for one Python 3 expression (what `ast.parse(source, mode="eval")` reads). More in this folder's
 * README.md.
 */
import type { PySyntaxError } from "./ast.js";

/** One numeric literal, already converted (ints are exact). */
export type NumberToken =
  | { readonly kind: "int"; readonly value: bigint }
  | { readonly kind: "float"; readonly value: number }
  | { readonly kind: "imag"; readonly value: number };

/** One string literal piece (before implicit concatenation). */
export interface StringToken {
  /** Decoded text for str pieces; for bytes, each char code is one byte (0–255). */
  readonly value: string;
  readonly bytes: boolean;
  /** f-strings are kept opaque: `value` is unused and the parser records only the source. */
  readonly fstring: boolean;
  /** For f-strings: the raw text between the quotes and whether it had an `r` prefix (the parser validates it). */
  readonly body?: string;
  readonly raw?: boolean;
  /** Written with a lowercase `u` prefix. */
  readonly u: boolean;
}

/** A token with its half-open span in the source. */
export type Token =
  | { readonly kind: "name"; readonly id: string; readonly start: number; readonly end: number }
  | { readonly kind: "number"; readonly num: NumberToken; readonly start: number; readonly end: number }
  | { readonly kind: "string"; readonly str: StringToken; readonly start: number; readonly end: number }
  | { readonly kind: "op"; readonly op: string; readonly start: number; readonly end: number }
  | { readonly kind: "newline"; readonly start: number; readonly end: number }
  | { readonly kind: "end"; readonly start: number; readonly end: number };

/** The token list, or the first syntax error met. */
export type TokenizeResult = { readonly ok: true; readonly tokens: Token[] } | { readonly ok: false; readonly error: PySyntaxError };

/** CPython's default limit on decimal digits when converting text to int (`sys.get_int_max_str_digits()`). */
const INT_MAX_STR_DIGITS = 4300;

/** CPython's tokenizer limit on bracket nesting (MAXLEVEL); deeper input is a syntax error, never a crash. */
export const MAX_BRACKET_DEPTH = 200;

const THREE_CHAR_OPS = new Set(["**=", "//=", ">>=", "<<=", "..."]);
const TWO_CHAR_OPS = new Set([
  "->",
  ":=",
  "**",
  "//",
  "<<",
  ">>",
  "<=",
  ">=",
  "==",
  "!=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "@=",
]);
const ONE_CHAR_OPS = ["+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "="];
/** Single-character operators by char code (undefined where none). */
const ONE_CHAR_TABLE: (string | undefined)[] = (() => {
  const t: (string | undefined)[] = new Array(128).fill(undefined);
  for (const op of ONE_CHAR_OPS) t[op.charCodeAt(0)] = op;
  return t;
})();

const ID_START = /[\p{ID_Start}_]/u;
const ID_CONTINUE = /[\p{ID_Continue}\u00B7\u0387\u1369-\u1371\u19DA]/u;

function isAsciiIdStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** A tokenizer error (thrown inside the tokenizer and by `TokenStream.next`). */
export class TokenizeError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

/** Split `source` into tokens the way CPython 3.11 does for `mode="eval"`. */
export function tokenize(source: string): TokenizeResult {
  try {
    const stream = new TokenStream(source);
    const tokens: Token[] = [];
    for (;;) {
      const t = stream.next();
      tokens.push(t);
      if (t.kind === "end") return { ok: true, tokens };
    }
  } catch (e) {
    if (e instanceof TokenizeError) return { ok: false, error: { message: e.message, offset: e.offset } };
    return { ok: false, error: { message: `internal tokenizer error: ${String(e)}`, offset: 0 } };
  }
}

/**
 * Pull-based tokens for the parser: one at a time, so a huge input never holds a token
 * list beside its tree (CPython's tokenizer is lazy the same way, so the first error in
 * reading order is the one reported). After the end token, `next` keeps returning it.
 * Throws `TokenizeError`.
 */
export class TokenStream {
  private readonly tokenizer: Tokenizer;
  constructor(source: string) {
    this.tokenizer = new Tokenizer(source);
  }
  next(): Token {
    return this.tokenizer.nextToken();
  }
}

class Tokenizer {
  private pos = 0;
  private depth = 0;
  /** Tokens produced but not yet handed out (at most two: the final newline and end). */
  private readonly tokens: Token[] = [];
  private emitted = 0;
  private lastKind: Token["kind"] | null = null;
  private endToken: Token | null = null;
  /** True at the start of a logical line (indentation is checked there). */
  private atLineStart = true;

  constructor(private readonly src: string) {}

  nextToken(): Token {
    if (this.tokens.length === 0) {
      if (this.endToken !== null) return this.endToken;
      this.advance();
    }
    return this.tokens.shift()!;
  }

  private emit(t: Token): void {
    this.tokens.push(t);
    this.emitted++;
    this.lastKind = t.kind;
  }

  /** Scan until at least one token is queued (or the end tokens are). */
  private advance(): void {
    const src = this.src;
    const n = src.length;
    while (this.tokens.length === 0) {
      if (this.atLineStart && this.depth === 0) {
        if (this.lineStart()) continue;
      }
      if (this.pos >= n) {
        this.finish();
        return;
      }
      const c = src.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 12) {
        this.pos++;
        continue;
      }
      if (c === 35) {
        this.skipComment();
        continue;
      }
      if (c === 10 || c === 13) {
        this.pos += c === 13 && src.charCodeAt(this.pos + 1) === 10 ? 2 : 1;
        if (this.depth === 0) {
          this.emit({ kind: "newline", start: this.pos - 1, end: this.pos });
          this.atLineStart = true;
        }
        continue;
      }
      if (c === 92) {
        this.continuation();
        continue;
      }
      if (c === 0) throw new TokenizeError("source code string cannot contain null bytes", this.pos);
      if (isDigit(c) || (c === 46 && isDigit(src.charCodeAt(this.pos + 1)))) {
        this.number();
        continue;
      }
      if (c === 34 || c === 39) {
        this.string(this.pos, "");
        continue;
      }
      if (isAsciiIdStart(c) || c >= 128) {
        this.nameOrPrefixedString();
        continue;
      }
      this.operator();
    }
  }

  private finish(): void {
    const end = this.src.length;
    if (this.depth > 0) throw new TokenizeError("unexpected EOF while parsing", end);
    if (this.emitted > 0 && this.lastKind !== "newline") this.emit({ kind: "newline", start: end, end });
    const endToken: Token = { kind: "end", start: end, end };
    this.emit(endToken);
    this.endToken = endToken;
  }

  /**
   * At the start of a logical line outside brackets: skip blank and comment-only lines;
   * leading whitespace before real content is "unexpected indent" (an expression has no
   * indented block). Returns true when it consumed a blank line (caller loops).
   */
  private lineStart(): boolean {
    const src = this.src;
    let p = this.pos;
    // indentation column as CPython counts it: tabs to the next multiple of 8, form feed resets
    let col = 0;
    while (p < src.length) {
      const c = src.charCodeAt(p);
      if (c === 32) col++;
      else if (c === 9) col = (Math.floor(col / 8) + 1) * 8;
      else if (c === 12) col = 0;
      else break;
      p++;
    }
    const c = src.charCodeAt(p);
    if (p >= src.length) {
      // a last line of only indentation (no newline after it) is an indent, as in CPython
      if (col > 0) throw new TokenizeError("unexpected indent", p);
      this.pos = p;
      this.atLineStart = false;
      return false;
    }
    if (c === 35 || c === 10 || c === 13) {
      // blank or comment-only line
      while (p < src.length && src.charCodeAt(p) !== 10 && src.charCodeAt(p) !== 13) p++;
      if (p < src.length) p += src.charCodeAt(p) === 13 && src.charCodeAt(p + 1) === 10 ? 2 : 1;
      this.pos = p;
      return true;
    }
    if (c === 92 && p === this.pos) {
      // a continuation at column 0 joins lines; handled by the main loop
      this.atLineStart = false;
      return false;
    }
    if (col > 0) throw new TokenizeError("unexpected indent", p);
    this.pos = p;
    this.atLineStart = false;
    return false;
  }

  private skipComment(): void {
    const src = this.src;
    while (this.pos < src.length && src.charCodeAt(this.pos) !== 10 && src.charCodeAt(this.pos) !== 13) this.pos++;
  }

  private continuation(): void {
    const src = this.src;
    const next = src.charCodeAt(this.pos + 1);
    if (next === 10) this.pos += 2;
    else if (next === 13) this.pos += src.charCodeAt(this.pos + 2) === 10 ? 3 : 2;
    else if (this.pos + 1 >= src.length) throw new TokenizeError("unexpected EOF while parsing", this.pos);
    else throw new TokenizeError("unexpected character after line continuation character", this.pos);
    if (this.pos >= src.length) throw new TokenizeError("unexpected EOF while parsing", this.pos);
  }

  private operator(): void {
    const src = this.src;
    const start = this.pos;
    const c = src.charCodeAt(start);
    const c2 = src.charCodeAt(start + 1);
    let op: string | undefined;
    // Only a following `=`, `>`, `.` or a doubled character can extend an operator; the
    // common single-character case takes its interned string from a table.
    if (c2 === 61 || c2 === 62 || c2 === 46 || c2 === c) {
      const three = src.slice(start, start + 3);
      if (THREE_CHAR_OPS.has(three)) op = three;
      else if (TWO_CHAR_OPS.has(three.slice(0, 2))) op = three.slice(0, 2);
    }
    op ??= c < 128 ? ONE_CHAR_TABLE[c] : undefined;
    if (op === undefined) {
      const cp = src.codePointAt(start)!;
      if (cp === 33) throw new TokenizeError("invalid syntax", start);
      if (cp < 128) throw new TokenizeError("invalid syntax", start);
      const hexCp = cp.toString(16).toUpperCase().padStart(4, "0");
      throw new TokenizeError(`invalid character '${String.fromCodePoint(cp)}' (U+${hexCp})`, start);
    }
    if (op === "(" || op === "[" || op === "{") {
      this.depth++;
      if (this.depth > MAX_BRACKET_DEPTH) throw new TokenizeError("too many nested parentheses", start);
    } else if (op === ")" || op === "]" || op === "}") {
      if (this.depth === 0) throw new TokenizeError(`unmatched '${op}'`, start);
      this.depth--;
    }
    this.pos = start + op.length;
    this.emit({ kind: "op", op, start, end: this.pos });
  }

  // ---- names -------------------------------------------------------------------------

  private nameOrPrefixedString(): void {
    const src = this.src;
    const start = this.pos;
    // String prefixes: at most two ASCII letters from r/b/u/f directly before a quote.
    let p = start;
    while (p < src.length && p - start < 3) {
      const c = src.charCodeAt(p) | 0x20;
      if (c === 114 || c === 98 || c === 117 || c === 102) p++;
      else break;
    }
    const q = src.charCodeAt(p);
    if (p > start && (q === 34 || q === 39)) {
      const written = src.slice(start, p);
      const prefix = written.toLowerCase();
      if (isValidPrefix(prefix)) {
        // CPython marks only a lowercase `u` prefix (Constant.kind == "u")
        this.string(p, prefix, written === "u");
        return;
      }
    }
    // identifier
    let i = start;
    let ascii = true;
    while (i < src.length) {
      const c = src.charCodeAt(i);
      if (isAsciiIdStart(c) || isDigit(c)) {
        i++;
        continue;
      }
      if (c < 128) break;
      const cp = src.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      const ok =
        i === start ? ID_START.test(ch) || ID_START.test(ch.normalize("NFKC").slice(0, 1)) : ID_CONTINUE.test(ch) || isNfkcIdContinue(ch);
      if (!ok) break;
      ascii = false;
      i += ch.length;
    }
    if (i === start) {
      const cp = src.codePointAt(start)!;
      const hexCp = cp.toString(16).toUpperCase().padStart(4, "0");
      throw new TokenizeError(`invalid character '${String.fromCodePoint(cp)}' (U+${hexCp})`, start);
    }
    const raw = src.slice(start, i);
    const id = ascii ? raw : raw.normalize("NFKC");
    if (!ascii && !isValidIdentifier(id)) throw new TokenizeError(`invalid character in identifier`, start);
    this.pos = i;
    this.emit({ kind: "name", id, start, end: i });
  }

  // ---- numbers -----------------------------------------------------------------------

  /** Digits with single underscores between them; returns the end, or throws on `1__0` / `1_`. */
  private digitPart(p: number, isOk: (c: number) => boolean, kind: string): number {
    const src = this.src;
    if (!isOk(src.charCodeAt(p))) return p;
    p++;
    while (p < src.length) {
      const c = src.charCodeAt(p);
      if (isOk(c)) p++;
      else if (c === 95) {
        if (!isOk(src.charCodeAt(p + 1))) throw new TokenizeError(`invalid ${kind} literal`, p);
        p++;
      } else break;
    }
    return p;
  }

  /** CPython's `verify_end_of_number`: a letter right after a number is an error unless a keyword starts there. */
  private verifyEnd(p: number, kind: string): void {
    const src = this.src;
    const c = src.charCodeAt(p);
    if (!(isAsciiIdStart(c) || isDigit(c))) return;
    const rest = src.slice(p, p + 4);
    const keywordFollows =
      rest.startsWith("and") ||
      rest.startsWith("else") ||
      rest.startsWith("for") ||
      rest.startsWith("if") ||
      rest.startsWith("in") ||
      rest.startsWith("is") ||
      rest.startsWith("not") ||
      rest.startsWith("or");
    if (keywordFollows) return;
    throw new TokenizeError(`invalid ${kind} literal`, p);
  }

  private number(): void {
    const src = this.src;
    const start = this.pos;
    const c0 = src.charCodeAt(start);
    const c1 = src.charCodeAt(start + 1) | 0x20;
    if (c0 === 48 && (c1 === 120 || c1 === 111 || c1 === 98)) this.prefixedInt(start, c1);
    else this.decimalNumber(start, c0);
  }

  /** `0x…`, `0o…`, `0b…`: an int in radix 16, 8 or 2. */
  private prefixedInt(start: number, c1: number): void {
    const src = this.src;
    const [radix, kind, isOk] =
      c1 === 120
        ? ([16, "hexadecimal", isHexDigit] as const)
        : c1 === 111
          ? ([8, "octal", (c: number) => c >= 48 && c <= 55] as const)
          : ([2, "binary", (c: number) => c === 48 || c === 49] as const);
    let p = start + 2;
    if (src.charCodeAt(p) === 95) p++;
    const digitsStart = p;
    p = this.digitPart(p, isOk, kind);
    if (p === digitsStart) {
      const bad = src.charCodeAt(p);
      if (isDigit(bad)) throw new TokenizeError(`invalid digit '${src[p]}' in ${kind} literal`, p);
      throw new TokenizeError(`invalid ${kind} literal`, p);
    }
    if (isDigit(src.charCodeAt(p))) throw new TokenizeError(`invalid digit '${src[p]}' in ${kind} literal`, p);
    this.verifyEnd(p, kind);
    const raw = src.slice(digitsStart, p);
    const digits = raw.includes("_") ? raw.replaceAll("_", "") : raw;
    const prefix = radix === 16 ? "0x" : radix === 8 ? "0o" : "0b";
    this.push({ kind: "int", value: BigInt(prefix + digits) }, start, p);
  }

  /** A decimal int, float or imaginary literal. */
  private decimalNumber(start: number, c0: number): void {
    const src = this.src;
    let p = start;
    let isFloat = false;
    if (c0 !== 46) p = this.digitPart(p, isDigit, "decimal");
    if (src.charCodeAt(p) === 46) {
      isFloat = true;
      p++;
      p = this.digitPart(p, isDigit, "decimal");
    }
    const e = src.charCodeAt(p) | 0x20;
    if (e === 101) {
      let q = p + 1;
      const sign = src.charCodeAt(q);
      if (sign === 43 || sign === 45) q++;
      if (isDigit(src.charCodeAt(q))) {
        p = this.digitPart(q, isDigit, "decimal");
        isFloat = true;
      } else {
        // `1else`: the `e` starts a keyword, not an exponent
        this.verifyEnd(p, "decimal");
        if (sign === 43 || sign === 45) throw new TokenizeError("invalid decimal literal", p);
      }
    }
    const rawText = src.slice(start, p);
    const text = rawText.includes("_") ? rawText.replaceAll("_", "") : rawText;
    if ((src.charCodeAt(p) | 0x20) === 106) {
      p++;
      this.verifyEnd(p, "imaginary");
      this.push({ kind: "imag", value: Number(text) }, start, p);
      return;
    }
    this.verifyEnd(p, "decimal");
    if (isFloat) {
      this.push({ kind: "float", value: Number(text) }, start, p);
      return;
    }
    // leading zeros are only allowed for zero itself
    if (text.length > 1 && text.charCodeAt(0) === 48 && /[1-9]/.test(text)) {
      throw new TokenizeError("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers", start);
    }
    if (text.length > INT_MAX_STR_DIGITS) {
      throw new TokenizeError(
        `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${text.length} digits; use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge integer literals to avoid decimal conversion limits.`,
        start,
      );
    }
    this.push({ kind: "int", value: BigInt(text) }, start, p);
  }

  private push(num: NumberToken, start: number, end: number): void {
    this.pos = end;
    this.emit({ kind: "number", num, start, end });
  }

  // ---- strings -----------------------------------------------------------------------

  /** Read a string literal whose opening quote is at `q` (prefix letters already read). */
  private string(q: number, prefix: string, lowercaseU = false): void {
    const src = this.src;
    const start = this.pos;
    const raw = prefix.includes("r");
    const bytes = prefix.includes("b");
    const fstring = prefix.includes("f");
    const quote = src.charCodeAt(q);
    const triple = src.charCodeAt(q + 1) === quote && src.charCodeAt(q + 2) === quote;
    let p = q + (triple ? 3 : 1);
    const bodyStart = p;
    let bodyEnd = -1;
    while (p < src.length) {
      const c = src.charCodeAt(p);
      if (c === 92) {
        p += src.charCodeAt(p + 1) === 13 && src.charCodeAt(p + 2) === 10 ? 3 : 2;
        continue;
      }
      if (c === quote) {
        if (!triple) {
          bodyEnd = p;
          p++;
          break;
        }
        if (src.charCodeAt(p + 1) === quote && src.charCodeAt(p + 2) === quote) {
          bodyEnd = p;
          p += 3;
          break;
        }
      } else if ((c === 10 || c === 13) && !triple) {
        break;
      }
      p++;
    }
    if (bodyEnd < 0) {
      if (triple) throw new TokenizeError("unterminated triple-quoted string literal", start);
      throw new TokenizeError("unterminated string literal", start);
    }
    const body = src.slice(bodyStart, bodyEnd);
    let value = "";
    if (!fstring) {
      if (bytes) {
        for (let i = 0; i < body.length; i++) {
          if (body.charCodeAt(i) >= 128) throw new TokenizeError("bytes can only contain ASCII literal characters", start);
        }
      }
      value = raw ? normalizeNewlines(body) : decodeEscapes(body, bytes, bodyStart);
    }
    this.pos = p;
    const str: StringToken = fstring ? { value, bytes, fstring, u: lowercaseU, body, raw } : { value, bytes, fstring, u: lowercaseU };
    this.emit({ kind: "string", str, start, end: p });
  }
}

function isValidPrefix(prefix: string): boolean {
  switch (prefix) {
    case "r":
    case "u":
    case "b":
    case "f":
    case "br":
    case "rb":
    case "fr":
    case "rf":
      return true;
    default:
      return false;
  }
}

function isNfkcIdContinue(ch: string): boolean {
  const n = ch.normalize("NFKC");
  for (const x of n) if (!ID_CONTINUE.test(x)) return false;
  return n.length > 0;
}

/** After NFKC normalisation the identifier must still be start + continue characters. */
function isValidIdentifier(id: string): boolean {
  let first = true;
  for (const ch of id) {
    if (first ? !ID_START.test(ch) : !ID_CONTINUE.test(ch)) return false;
    first = false;
  }
  return !first;
}

/** Python reads `\r\n` and lone `\r` inside literals as `\n` (universal newlines). */
function normalizeNewlines(s: string): string {
  return s.includes("\r") ? s.replace(/\r\n?/g, "\n") : s;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

/**
 * Check the escapes of a non-raw str literal piece (used for the literal parts of
 * f-strings); returns the error message, or null when they decode.
 */
export function checkStrEscapes(text: string): string | null {
  try {
    decodeEscapes(text, false, 0);
    return null;
  } catch (e) {
    if (e instanceof TokenizeError) return e.message;
    throw e;
  }
}

/** Decode backslash escapes of a non-raw literal body (str or bytes). */
function decodeEscapes(body: string, bytes: boolean, bodyStart: number): string {
  if (!body.includes("\\")) return normalizeNewlines(body);
  body = normalizeNewlines(body);
  let out = "";
  let i = 0;
  while (i < body.length) {
    const c = body[i]!;
    if (c !== "\\") {
      out += c;
      i++;
      continue;
    }
    const [text, next] = escapeAt(body, i, bytes, bodyStart);
    out += text;
    i = next;
  }
  return out;
}

/** The escape whose backslash is at `i`: what it stands for, and where the text goes on. */
function escapeAt(body: string, i: number, bytes: boolean, bodyStart: number): [string, number] {
  const codecError = (what: string, at: number): TokenizeError =>
    new TokenizeError(
      bytes
        ? `(value error) invalid \\x escape at position ${at}`
        : `(unicode error) 'unicodeescape' codec can't decode bytes in position ${at}-${at + 1}: ${what}`,
      bodyStart,
    );
  const e = body[i + 1];
  if (e === undefined) return ["\\", i + 1];
  if (e === "\n") return ["", i + 2];
  const simple = SIMPLE_ESCAPES[e];
  if (simple !== undefined) return [simple, i + 2];
  if (e >= "0" && e <= "7") {
    let j = i + 1;
    let v = 0;
    while (j < body.length && j < i + 4 && body[j]! >= "0" && body[j]! <= "7") v = v * 8 + (body.charCodeAt(j++) - 48);
    return [String.fromCharCode(bytes ? v & 0xff : v), j];
  }
  if (e === "x") {
    const h = body.slice(i + 2, i + 4);
    if (h.length < 2 || !isHexDigit(h.charCodeAt(0)) || !isHexDigit(h.charCodeAt(1))) throw codecError("truncated \\xXX escape", i);
    return [String.fromCharCode(parseInt(h, 16)), i + 4];
  }
  if (!bytes && (e === "u" || e === "U")) {
    const len = e === "u" ? 4 : 8;
    const h = body.slice(i + 2, i + 2 + len);
    let okHex = h.length === len;
    for (let k = 0; okHex && k < len; k++) okHex = isHexDigit(h.charCodeAt(k));
    if (!okHex) throw codecError(e === "u" ? "truncated \\uXXXX escape" : "truncated \\UXXXXXXXX escape", i);
    const cp = parseInt(h, 16);
    if (cp > 0x10ffff) throw codecError("illegal Unicode character", i);
    return [String.fromCodePoint(cp), i + 2 + len];
  }
  if (!bytes && e === "N") {
    // Character names need the Unicode name table, which twinscore does not ship.
    throw new TokenizeError("\\N{...} escapes are not supported by this parser", bodyStart + i);
  }
  // unknown escape: kept as written (CPython only warns)
  return ["\\" + e, i + 2];
}
