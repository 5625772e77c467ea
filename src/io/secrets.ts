/**
 * The API keys of a process, kept out of everything it writes, prints or sends on. More in this folder's
 * README.md.
 */
import { problem, type Problem } from "../messages/index.js";
import { PyDict, PyTuple } from "../python/containers.js";
import type { PyValue } from "../python/value.js";

/** What a redacted key is replaced with. */
export const REDACTED = "[redacted]";

/**
 * The pattern of one character of a key: itself, or a JSON escape of it (with any number
 * of backslashes). For the first character of a spelling (`leading`) an escape must start
 * where its run of backslashes starts: tried from every backslash of a run, the pattern
 * would read the rest of the run each time, and a reply of n backslashes would cost n²
 * steps (150,000 of them took over a minute).
 */
function charPattern(unit: number, leading: boolean): string {
  const hex = unit
    .toString(16)
    .padStart(4, "0")
    .split("")
    .map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h))
    .join("");
  const literal = String.fromCharCode(unit).replace(/[\\^$.*+?()[\]{}|/-]/g, (c) => `\\${c}`);
  const shortEscape = unit === 0x2f || unit === 0x22 || unit === 0x5c ? `|${literal}` : "";
  return `(?:${literal}|${leading ? "(?<!\\\\)" : ""}\\\\+(?:u${hex}${shortEscape}))`;
}

/** The pattern of one spelling of a key: its characters in a row, each as `charPattern` allows. */
function spellingPattern(text: string): string {
  return Array.from({ length: text.length }, (_, i) => charPattern(text.charCodeAt(i), i === 0)).join("");
}

/** Keys shorter than this are not looked for inside base64 text: the encoded parts would be short enough to occur by chance. */
export const MIN_BASE64_KEY_LENGTH = 12;

/**
 * The parts of base64 text that encode the key's bytes and nothing else, for each of the
 * three places the key can start in a 3-byte group, in the standard and the URL-safe
 * alphabet. The characters at either end also carry bits of the bytes around the key, so
 * they are left out. The key is encoded as UTF-8, as a header echoed back would be.
 */
export function base64Cores(key: string): string[] {
  const bytes = Buffer.from(key, "utf8");
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    cores.add(core);
    cores.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...cores];
}

/** The secrets of one process: the keys given (null and empty ones ignored), longest first. */
export interface Redactor {
  readonly keys: readonly string[];
  /** The text with every spelling of every key replaced by `[redacted]`. */
  text(s: string): string;
  /** True when the text holds a key in some spelling. */
  finds(s: string): boolean;
}

/** A redactor for these keys (none: every method is the identity). */
export function redactorOf(keys: Iterable<string | null | undefined>): Redactor {
  const list = [...new Set([...keys].filter((k): k is string => typeof k === "string" && k !== ""))].sort((a, b) => b.length - a.length);
  if (list.length === 0) return { keys: [], text: (s) => s, finds: () => false };
  const spellings = list.flatMap((k) => (k.length >= MIN_BASE64_KEY_LENGTH ? [k, ...base64Cores(k)] : [k]));
  const source = spellings.map(spellingPattern).join("|");
  const global = new RegExp(source, "g");
  const once = new RegExp(source);
  return {
    keys: list,
    text: (s) => (s.length === 0 ? s : s.replace(global, REDACTED)),
    finds: (s) => once.test(s),
  };
}

/**
 * A plain JSON value (from `JSON.parse`) with every string — object keys included —
 * redacted, and every number JSON cannot write (`1e309` parses as Infinity) as null.
 * Walked with an explicit stack: the caller bounds the depth, not the JavaScript stack.
 */
export function cleanPlainValue(value: unknown, redactor: Redactor): unknown {
  const fix = (v: unknown): unknown => (typeof v === "string" ? redactor.text(v) : typeof v === "number" && !Number.isFinite(v) ? null : v);
  if (value === null || typeof value !== "object") return fix(value);
  const root: unknown[] = [value];
  const stack: [Record<string, unknown> | unknown[], number | string][] = [[root, 0]];
  while (stack.length > 0) {
    const [parent, at] = stack.pop() as [Record<string, unknown> | unknown[], number | string];
    const v = (parent as Record<string | number, unknown>)[at];
    if (v === null || typeof v !== "object") {
      (parent as Record<string | number, unknown>)[at] = fix(v);
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push([v, i]);
    } else {
      const o = v as Record<string, unknown>;
      if (redactor.keys.length > 0) {
        for (const k of Object.keys(o)) {
          const clean = redactor.text(k);
          if (clean !== k) {
            o[clean] = o[k];
            delete o[k];
          }
        }
      }
      for (const k of Object.keys(o)) stack.push([o, k]);
    }
  }
  return root[0];
}

/** A Python value with every string (dict keys included) redacted; containers rebuilt only where something changed. Walked without recursion. */
export function redactPyValue(value: PyValue, redactor: Redactor): PyValue {
  if (redactor.keys.length === 0) return value;
  const out: PyValue[] = [null];
  type Frame = { readonly src: PyValue; readonly set: (x: PyValue) => void };
  const stack: Frame[] = [{ src: value, set: (x) => (out[0] = x) }];
  while (stack.length > 0) {
    const { src, set } = stack.pop() as Frame;
    if (typeof src === "string") set(redactor.text(src));
    else if (Array.isArray(src)) {
      const copy: PyValue[] = new Array(src.length);
      set(copy);
      for (let i = 0; i < src.length; i++) stack.push({ src: src[i], set: (x) => (copy[i] = x) });
    } else if (src instanceof PyTuple) {
      const items: PyValue[] = new Array(src.items.length);
      set(new PyTuple(items));
      for (let i = 0; i < src.items.length; i++) stack.push({ src: src.items[i], set: (x) => (items[i] = x) });
    } else if (src instanceof PyDict) {
      const copy = new PyDict();
      const entries = src.entries();
      const keys = entries.map(([k]) => (typeof k === "string" ? redactor.text(k) : k));
      for (const k of keys) copy.set(k, null);
      set(copy);
      entries.forEach(([, x], i) => stack.push({ src: x, set: (y) => copy.set(keys[i], y) }));
    } else set(src);
  }
  return out[0];
}

/**
 * Why a key cannot be used, or null: a control character (a newline from `KEY=$(cat
 * file)`, a tab, NUL) or a character beyond Latin-1 cannot go into an HTTP header. The
 * message names the flag and the variable, never the key.
 */
export function keyProblemText(key: string, flag: string, variable: string): string | null {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) {
      const what =
        c === 0x0a
          ? "a newline"
          : c === 0x0d
            ? "a carriage return"
            : c === 0x09
              ? "a tab"
              : `a control character (U+${c.toString(16).toUpperCase().padStart(4, "0")})`;
      return `${flag} ${variable}: the key contains ${what} at character ${i + 1} of ${key.length}; an HTTP header cannot carry it (a key read from a file often ends with a newline: strip it)`;
    }
    if (c > 0xff)
      return `${flag} ${variable}: the key contains a character an HTTP header cannot carry (beyond Latin-1) at character ${i + 1} of ${key.length}`;
  }
  return null;
}

/**
 * The key a command takes from the environment variable named by `flag` (`--key-env VAR`,
 * `--user-key-env VAR`), checked before anything is read or sent: one check for every
 * command that takes a key. An unset or empty variable is a problem when the key is
 * `required`, else no key (a local server needs none); a key an HTTP header cannot carry
 * is always one. Neither message shows the key.
 */
export function keyFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
  flag: string,
  required = true,
): { key: string | null; problem: Problem | null } {
  const key = env[variable] ?? null;
  if (!key)
    return {
      key: null,
      problem: required ? problem("key-missing", `${flag} ${variable}: that environment variable is not set or empty`) : null,
    };
  const bad = keyProblemText(key, flag, variable);
  return bad === null ? { key, problem: null } : { key: null, problem: problem("key-unusable", bad) };
}
