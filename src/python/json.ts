/**
 * Python's `json.dumps` (default arguments) and `json.loads`. BFCL turns every dict a
 * method returns into its result string with `json.dumps`, so separators, ASCII escaping,
 * float repr and key coercion are what the response check compares; `loads` is the inverse
 * used when reading Python-written JSON where int vs float must survive.
 */
import type { PyValue } from "./value.js";
import { PyTuple, PyDict, PySet } from "./containers.js";
import { PyException } from "./exception.js";
import { floatRepr, intRepr } from "./repr.js";
import { JSON_DECODE_MAX_DEPTH, JSON_ENCODE_MAX_DEPTH, recursionError } from "./limits.js";
import { ok, err, type Result } from "../messages/result.js";
import { problem } from "../messages/problem.js";

function typeNameOf(v: PyValue): string {
  if (v === null) return "NoneType";
  if (Array.isArray(v)) return "list";
  if (v instanceof PyTuple) return "tuple";
  if (v instanceof PyDict) return "dict";
  if (v instanceof PySet) return "set";
  if (typeof v === "object") return v.pyTypeName;
  return { boolean: "bool", bigint: "int", number: "float", string: "str" }[typeof v as "boolean"];
}

/** Printable ASCII without `"` or `\\`: emitted unchanged (the common case, checked in one regex pass). */
const PLAIN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The escape `json.dumps` writes for one UTF-16 code unit that it does not emit as is. */
function jsonEscape(c: number): string {
  switch (c) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return "\\\\";
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
    case 0x08:
      return "\\b";
    case 0x0c:
      return "\\f";
    default:
      // JS strings are UTF-16 already, so astral characters come out as their surrogate pair
      return "\\u" + c.toString(16).padStart(4, "0");
  }
}

/** JSON string literal with `ensure_ascii=True`: `\"`, `\\`, `\n`… and `\uXXXX` (surrogate pairs) for everything outside space–`~`. */
export function jsonQuote(s: string): string {
  if (PLAIN_JSON.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c ? s[i] : jsonEscape(c);
  }
  return out + '"';
}

/** `json.dumps(s, ensure_ascii=False)` for a string (BFCL's score files): only `"`, `\\` and control characters are escaped. */
export function jsonQuoteUnicode(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i) + jsonEscape(c);
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}

/** JSON text of a float: Python's repr, with `NaN`, `Infinity`, `-Infinity` (allow_nan=True). */
export function jsonFloat(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return floatRepr(x);
}

function keyText(k: PyValue): string {
  if (typeof k === "string") return k;
  if (typeof k === "number") return jsonFloat(k);
  if (k === true) return "true";
  if (k === false) return "false";
  if (k === null) return "null";
  if (typeof k === "bigint") return intRepr(k);
  throw new PyException("TypeError", `keys must be str, int, float, bool or None, not ${typeNameOf(k)}`);
}

/**
 * `json.dumps(v)` with Python's defaults: `", "` and `": "` separators, ASCII escaping,
 * non-string keys coerced (`1` → `"1"`, `True` → `"true"`), tuples as arrays. Throws
 * PyException TypeError `Object of type X is not JSON serializable` for sets and other
 * objects, and ValueError `Circular reference detected` for cycles.
 */
export function jsonDumps(v: PyValue): string {
  const stack = new Set<object>();
  let out = "";
  // one level per list/dict being encoded; CPython raises RecursionError past its C limit
  let depth = 0;
  const enc = (x: PyValue): void => {
    if (x === null) {
      out += "null";
      return;
    }
    switch (typeof x) {
      case "boolean":
        out += x ? "true" : "false";
        return;
      case "bigint":
        out += intRepr(x);
        return;
      case "number":
        out += jsonFloat(x);
        return;
      case "string":
        out += jsonQuote(x);
        return;
    }
    const items = Array.isArray(x) ? x : x instanceof PyTuple ? x.items : null;
    // every list and dict is one level deeper, empty ones too (CPython checks before looking inside)
    if (items) {
      if (depth >= JSON_ENCODE_MAX_DEPTH) throw recursionError(" while encoding a JSON object");
      if (items.length === 0) {
        out += "[]";
        return;
      }
      if (stack.has(x)) throw new PyException("ValueError", "Circular reference detected");
      depth++;
      stack.add(x);
      out += "[";
      for (let i = 0; i < items.length; i++) {
        if (i > 0) out += ", ";
        enc(items[i]);
      }
      out += "]";
      stack.delete(x);
      depth--;
      return;
    }
    if (x instanceof PyDict) {
      if (depth >= JSON_ENCODE_MAX_DEPTH) throw recursionError(" while encoding a JSON object");
      if (x.size === 0) {
        out += "{}";
        return;
      }
      if (stack.has(x)) throw new PyException("ValueError", "Circular reference detected");
      depth++;
      stack.add(x);
      let first = true;
      out += "{";
      x.forEach((val, k) => {
        if (!first) out += ", ";
        first = false;
        out += jsonQuote(keyText(k));
        out += ": ";
        enc(val);
      });
      out += "}";
      stack.delete(x);
      depth--;
      return;
    }
    throw new PyException("TypeError", `Object of type ${typeNameOf(x)} is not JSON serializable`);
  };
  enc(v);
  return out;
}

/** Python's `JSONDecodeError` message: `{msg}: line L column C (char P)`. */
function decodeError(msg: string, doc: string, pos: number): PyException {
  let line = 1;
  let lastNl = -1;
  for (let i = 0; i < pos && i < doc.length; i++) {
    if (doc.charCodeAt(i) === 10) {
      line++;
      lastNl = i;
    }
  }
  const col = pos - lastNl;
  const e = new PyException("JSONDecodeError", `${msg}: line ${line} column ${col} (char ${pos})`);
  return e;
}

const WS = /[ \t\n\r]*/y;
const NUMBER = /(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?/y;
const STR_CHUNK = /[^"\\\x00-\x1f]*/y;

/**
 * `json.loads(text)` with Python's results (integers → bigint, `1.0` → float, NaN/Infinity
 * accepted, duplicate keys last-wins, objects → PyDict) and Python's JSONDecodeError
 * messages (`Expecting value: line 1 column 1 (char 0)` …). Throws PyException.
 */
export function jsonLoadsOrThrow(doc: string): PyValue {
  // Python positions count code points; JS indexes UTF-16 units. Map back when reporting.
  const posOf = (i: number): number => {
    let n = 0;
    for (let k = 0; k < i; k++) {
      const c = doc.charCodeAt(k);
      if (c >= 0xd800 && c < 0xdc00 && k + 1 < i) {
        const d = doc.charCodeAt(k + 1);
        if (d >= 0xdc00 && d < 0xe000) k++;
      }
      n++;
    }
    return n;
  };
  const fail = (msg: string, i: number) => decodeError(msg, doc, posOf(i));
  const skipWs = (i: number): number => {
    WS.lastIndex = i;
    WS.exec(doc);
    return WS.lastIndex;
  };

  const parseString = (start: number): [string, number] => {
    // start points just after the opening quote
    let i = start;
    let out = "";
    for (;;) {
      STR_CHUNK.lastIndex = i;
      const m = STR_CHUNK.exec(doc)!;
      out += m[0];
      i = STR_CHUNK.lastIndex;
      if (i >= doc.length) throw fail("Unterminated string starting at", start - 1);
      const c = doc[i];
      if (c === '"') return [out, i + 1];
      if (c !== "\\") throw fail("Invalid control character at", i);
      const esc = doc[i + 1];
      if (esc === undefined) throw fail("Unterminated string starting at", start - 1);
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (esc !== "u") {
        if (!(esc in simple)) throw fail("Invalid \\escape", i);
        out += simple[esc];
        i += 2;
        continue;
      }
      const readHex = (at: number): number => {
        const h = doc.slice(at, at + 4);
        if (h.length < 4 || !/^[0-9a-fA-F]{4}$/.test(h)) throw fail("Invalid \\uXXXX escape", at - 1);
        return parseInt(h, 16);
      };
      let u = readHex(i + 2);
      i += 6;
      if (u >= 0xd800 && u <= 0xdbff && doc[i] === "\\" && doc[i + 1] === "u") {
        const u2 = readHex(i + 2);
        if (u2 >= 0xdc00 && u2 <= 0xdfff) {
          u = 0x10000 + ((u - 0xd800) << 10) + (u2 - 0xdc00);
          i += 6;
        }
      }
      out += String.fromCodePoint(u);
    }
  };

  // `depth` counts the arrays and objects open around the value; CPython raises on
  // entering the one past its C recursion limit, before reading any of it
  const parseValue = (i: number, depth: number): [PyValue, number] => {
    const c = doc[i];
    if (c === '"') return parseString(i + 1);
    if (c === "{") {
      if (depth >= JSON_DECODE_MAX_DEPTH) throw recursionError(" while decoding a JSON object from a unicode string");
      return parseObject(i + 1, depth + 1);
    }
    if (c === "[") {
      if (depth >= JSON_DECODE_MAX_DEPTH) throw recursionError(" while decoding a JSON array from a unicode string");
      return parseArray(i + 1, depth + 1);
    }
    if (c === "n" && doc.startsWith("null", i)) return [null, i + 4];
    if (c === "t" && doc.startsWith("true", i)) return [true, i + 4];
    if (c === "f" && doc.startsWith("false", i)) return [false, i + 5];
    if (c === "N" && doc.startsWith("NaN", i)) return [NaN, i + 3];
    if (c === "I" && doc.startsWith("Infinity", i)) return [Infinity, i + 8];
    if (c === "-" && doc.startsWith("-Infinity", i)) return [-Infinity, i + 9];
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(doc);
    if (m && m.index === i) {
      const end = NUMBER.lastIndex;
      if (m[2] !== undefined || m[3] !== undefined) return [Number(m[0]), end];
      const digits = m[1].replace("-", "").length;
      if (digits > 4300) {
        throw new PyException(
          "ValueError",
          `Exceeds the limit (4300 digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
        );
      }
      return [BigInt(m[1]), end];
    }
    throw fail("Expecting value", i);
  };

  const parseObject = (i: number, depth: number): [PyValue, number] => {
    const d = new PyDict();
    i = skipWs(i);
    if (doc[i] === "}") return [d, i + 1];
    for (;;) {
      if (doc[i] !== '"') throw fail("Expecting property name enclosed in double quotes", i);
      const [k, afterKey] = parseString(i + 1);
      i = skipWs(afterKey);
      if (doc[i] !== ":") throw fail("Expecting ':' delimiter", i);
      i = skipWs(i + 1);
      const [v, afterVal] = parseValue(i, depth);
      d.set(k, v); // a repeated key keeps its first position and takes the last value, as dict(pairs) does
      i = skipWs(afterVal);
      if (doc[i] === "}") return [d, i + 1];
      if (doc[i] !== ",") throw fail("Expecting ',' delimiter", i);
      i = skipWs(i + 1);
      if (doc[i] !== '"') throw fail("Expecting property name enclosed in double quotes", i);
    }
  };

  const parseArray = (i: number, depth: number): [PyValue, number] => {
    const out: PyValue[] = [];
    i = skipWs(i);
    if (doc[i] === "]") return [out, i + 1];
    for (;;) {
      const [v, after] = parseValue(i, depth);
      out.push(v);
      i = skipWs(after);
      if (doc[i] === "]") return [out, i + 1];
      if (doc[i] !== ",") throw fail("Expecting ',' delimiter", i);
      i = skipWs(i + 1);
    }
  };

  const start = skipWs(0);
  const [value, end] = parseValue(start, 0);
  const rest = skipWs(end);
  if (rest !== doc.length) throw fail("Extra data", rest);
  return value;
}

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * The number tokens (int text, or null for a float) and the key tokens (as written,
 * quotes included) of a valid JSON text, in order. One pass with no allocation for
 * string values, which are most of the text.
 */
function jsonTokens(doc: string, numbers: (string | null)[], keys: string[]): void {
  const n = doc.length;
  let i = 0;
  while (i < n) {
    const c = doc.charCodeAt(i);
    if (c === 0x22) {
      // the closing quote: the next one not escaped by an odd run of backslashes
      let close = doc.indexOf('"', i + 1);
      for (;;) {
        if (close < 0) throw new NotProven();
        let slashes = 0;
        while (doc.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        close = doc.indexOf('"', close + 1);
      }
      let k = close + 1;
      while (k < n) {
        const w = doc.charCodeAt(k);
        if (w === 0x20 || w === 0x09 || w === 0x0a || w === 0x0d) k++;
        else break;
      }
      if (doc.charCodeAt(k) === 0x3a) keys.push(doc.slice(i, close + 1));
      i = close + 1;
      continue;
    }
    if (c === 0x2d || isAsciiDigit(c)) {
      let j = c === 0x2d ? i + 1 : i;
      const digits = j;
      while (isAsciiDigit(doc.charCodeAt(j))) j++;
      if (j === digits) {
        i++;
        continue;
      }
      let float = false;
      if (doc.charCodeAt(j) === 0x2e && isAsciiDigit(doc.charCodeAt(j + 1))) {
        j += 2;
        while (isAsciiDigit(doc.charCodeAt(j))) j++;
        float = true;
      }
      const e = doc.charCodeAt(j);
      if (e === 0x65 || e === 0x45) {
        let k = j + 1;
        const sign = doc.charCodeAt(k);
        if (sign === 0x2b || sign === 0x2d) k++;
        if (isAsciiDigit(doc.charCodeAt(k))) {
          j = k + 1;
          while (isAsciiDigit(doc.charCodeAt(j))) j++;
          float = true;
        }
      }
      numbers.push(float ? null : doc.slice(i, j));
      i = j;
      continue;
    }
    i++;
  }
}

/** Thrown inside the fast reader when it cannot prove its result equals `json.loads`. */
class NotProven {}

/**
 * `jsonLoadsOrThrow(doc)`, computed with the native `JSON.parse` where that provably gives the same value
 * (number types and key order checked against the source's tokens). It declines, and the Python-faithful reader
 * runs, on anything it cannot prove. More in this folder's README.md.
 */
export function jsonLoadsFast(doc: string): PyValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(doc);
  } catch {
    return jsonLoadsOrThrow(doc);
  }
  const numbers: (string | null)[] = []; // int token text, or null for a float
  const keys: string[] = []; // key tokens as written, quotes included
  try {
    jsonTokens(doc, numbers, keys);
  } catch (e) {
    if (!(e instanceof NotProven)) throw e;
    return jsonLoadsOrThrow(doc);
  }
  let nextNumber = 0;
  let nextKey = 0;
  // `depth` counts the arrays and objects around `v`; past the limit the faithful reader
  // raises Python's RecursionError
  const convert = (v: unknown, depth: number): PyValue => {
    if (v === null || typeof v === "string" || typeof v === "boolean") return v;
    if (typeof v === "number") {
      if (nextNumber >= numbers.length) throw new NotProven();
      const token = numbers[nextNumber++];
      if (token === null) return v;
      if (token.length > 4300) throw new NotProven();
      return BigInt(token);
    }
    if (depth >= JSON_DECODE_MAX_DEPTH) throw new NotProven();
    if (Array.isArray(v)) {
      const out: PyValue[] = new Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = convert(v[i], depth + 1);
      return out;
    }
    const d = new PyDict();
    for (const k of Object.keys(v as object)) {
      // the walk meets the keys in source order only if JavaScript kept that order (no
      // index-like key moved to the front) and no repeated key was merged
      const token = keys[nextKey++];
      if (token === undefined) throw new NotProven();
      if (token.slice(1, -1) !== k && JSON.parse(token) !== k) throw new NotProven();
      d.set(k, convert((v as Record<string, unknown>)[k], depth + 1));
    }
    return d;
  };
  try {
    const value = convert(parsed, 0);
    if (nextNumber !== numbers.length || nextKey !== keys.length) throw new NotProven();
    return value;
  } catch (e) {
    if (!(e instanceof NotProven)) throw e;
    return jsonLoadsOrThrow(doc);
  }
}

/**
 * Whether a `JSON.parse` result nests arrays/objects more than `depth` deep. Walked with an
 * explicit stack (JSON.parse itself accepts any depth), stopping at the first level past
 * `depth`; readers use it to find the lines Python's `json.loads` refuses.
 */
export function jsonNestsDeeperThan(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== "object") return false;
  // two parallel stacks (no object per node): the containers still to visit and their levels
  const nodes: object[] = [value];
  const levels: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop() as object;
    const level = levels.pop() as number;
    if (level > depth) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const c: unknown = node[i];
        if (c !== null && typeof c === "object") {
          nodes.push(c);
          levels.push(level + 1);
        }
      }
    } else {
      for (const k in node) {
        const c: unknown = (node as Record<string, unknown>)[k];
        if (c !== null && typeof c === "object") {
          nodes.push(c);
          levels.push(level + 1);
        }
      }
    }
  }
  return false;
}

/** `json.loads` as a Result: the value, or a `json-malformed` problem carrying Python's message. */
export function jsonLoads(doc: string): Result<PyValue> {
  try {
    return ok(jsonLoadsOrThrow(doc));
  } catch (e) {
    if (e instanceof PyException) return err(problem("json-malformed", e.pyMessage));
    throw e;
  }
}
