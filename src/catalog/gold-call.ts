/**
 * Reading a reference call string (`"echo(content='x', file_name='a.txt')"`) just far
 * enough to classify it: the function name and which arguments are present. Scalar
 * values are decoded (None, booleans, numbers, plain string literals — what the echo rule
 * needs); lists and dicts are kept as their source text. The full Python grammar lives in
 * `src/python/`; this reader exists because the reference strings BFCL ships use a
 * small, fixed subset (brief §1.3) and classification needs nothing more.
 */
import type { ArgValue, ExtractedCall } from "../extract/types.js";
import { err, ok, problem, type Result } from "../messages/index.js";
import { kindOf } from "./catalog.js";
import type { WorldChangingOptions } from "./types.js";
import { isWorldChanging } from "./world-changing.js";

const closers: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

/** Split the argument text at top-level commas, respecting quotes and brackets. */
function splitTopLevel(text: string): string[] | null {
  const parts: string[] = [];
  const stack: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c in closers) stack.push(closers[c]);
    else if (c === ")" || c === "]" || c === "}") {
      if (stack.pop() !== c) return null;
    } else if (c === "," && stack.length === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quote || stack.length > 0) return null;
  parts.push(text.slice(start));
  const trimmed = parts.map((p) => p.trim());
  // `f()` has no argument and `f(a,)` a trailing comma; any other empty argument is an error.
  if (trimmed[trimmed.length - 1] === "") trimmed.pop();
  return trimmed.includes("") ? null : trimmed;
}

const simpleEscapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0" };

/** Decode a single string literal without prefixes; null when the text is not exactly one. */
function decodeStringLiteral(text: string): string | null {
  const q = text[0];
  if ((q !== "'" && q !== '"') || text.length < 2 || text[text.length - 1] !== q) return null;
  let out = "";
  for (let i = 1; i < text.length - 1; i++) {
    const c = text[i];
    if (c === q) return null;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const n = text[++i];
    if (n === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) {
      out += String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
      i += 4;
    } else if (n in simpleEscapes) out += simpleEscapes[n];
    else out += "\\" + n;
  }
  return out;
}

/** None, booleans, plain numbers and plain strings are decoded; anything else stays source text. */
function valueOf(text: string): ArgValue {
  if (text === "None") return null;
  if (text === "True" || text === "False") return text === "True";
  if (/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  const s = decodeStringLiteral(text);
  return s ?? text;
}

/**
 * Parse a reference call string into an `ExtractedCall` (shape `python-text`). Errors
 * (not a call, unbalanced brackets) come back as a problem naming the text.
 */
export function parseGoldCall(text: string): Result<ExtractedCall> {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/.exec(text);
  const args = m ? splitTopLevel(m[2]) : null;
  if (!m || !args) return err(problem("gold-call", `not a reference call: ${JSON.stringify(text.slice(0, 80))}`));
  const positional: ArgValue[] = [];
  const keywords: [string, ArgValue][] = [];
  for (const arg of args) {
    const kw = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)\s*([\s\S]*)$/.exec(arg);
    if (kw) keywords.push([kw[1], valueOf(kw[2].trim())]);
    else if (keywords.length > 0) return err(problem("gold-call", `positional argument after keyword in ${JSON.stringify(text.slice(0, 80))}`));
    else positional.push(valueOf(arg));
  }
  return ok({ name: m[1], positional, keywords, shape: "python-text" });
}

/** How a reference call is classified: by the catalog, with the echo rule applied to its arguments. */
export type GoldCallClass = "world-changing" | "login" | "read" | "unknown";

/**
 * Classify one reference call string. `login` is reported as its own class so the pair
 * builder can tell a login-only anchor turn from a read-only one; under
 * `countLogin` a login is world-changing.
 */
export function classifyGoldCall(text: string, options: WorldChangingOptions = { countLogin: false }): Result<GoldCallClass> {
  const call = parseGoldCall(text);
  if (!call.ok) return call;
  const kind = kindOf(call.value.name);
  if (kind === undefined) return ok("unknown");
  if (isWorldChanging(call.value, options)) return ok("world-changing");
  return ok(kind === "login" ? "login" : "read");
}
