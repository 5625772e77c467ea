/**
 * Python `str` methods whose behaviour differs from the JS ones the classes would
 * otherwise reach for: `splitlines` has eleven line boundaries, `split()`/`strip()` use
 * Python's Unicode whitespace set (`len` in code points is `pyLen` in iterables.ts).
 */
import { PyException } from "./exception.js";

const WS = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const WS_CHAR = new RegExp(`^[${WS}]$`);
const WS_RUN = new RegExp(`[${WS}]+`);
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** `ch.isspace()` for one UTF-16 unit (all Python whitespace is in the BMP). */
export function strIsSpace(ch: string): boolean {
  return WS_CHAR.test(ch);
}

/** `s.splitlines(keepends)`: splits on \n, \r, \r\n, \v, \f, \x1c–\x1e, \x85, \u2028, \u2029; no trailing empty line. */
export function strSplitlines(s: string, keepends = false): string[] {
  const out: string[] = [];
  let last = 0;
  LINE_BREAK.lastIndex = 0;
  for (let m = LINE_BREAK.exec(s); m !== null; m = LINE_BREAK.exec(s)) {
    out.push(s.slice(last, keepends ? m.index + m[0].length : m.index));
    last = m.index + m[0].length;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}

/**
 * `s.split(sep=None, maxsplit=-1)`: with no separator, splits on runs of Python whitespace and
 * drops empty strings; with one, splits on every occurrence (`''` → ValueError `empty separator`).
 */
export function strSplit(s: string, sep: string | null = null, maxsplit = -1): string[] {
  if (sep === null) {
    const out: string[] = [];
    let rest = strLStrip(s);
    while (rest.length > 0) {
      if (maxsplit >= 0 && out.length === maxsplit) {
        out.push(rest);
        break;
      }
      const m = WS_RUN.exec(rest);
      if (!m) {
        out.push(rest);
        break;
      }
      out.push(rest.slice(0, m.index));
      rest = rest.slice(m.index + m[0].length);
      if (maxsplit >= 0 && out.length === maxsplit) {
        rest = strLStrip(rest);
        if (rest.length > 0) out.push(rest);
        break;
      }
    }
    return out;
  }
  if (sep.length === 0) throw new PyException("ValueError", "empty separator");
  if (maxsplit < 0) return s.split(sep);
  const out: string[] = [];
  let pos = 0;
  while (out.length < maxsplit) {
    const at = s.indexOf(sep, pos);
    if (at < 0) break;
    out.push(s.slice(pos, at));
    pos = at + sep.length;
  }
  out.push(s.slice(pos));
  return out;
}

function stripSet(chars: string | null): (ch: string) => boolean {
  if (chars === null) return strIsSpace;
  const set = new Set(Array.from(chars));
  return (ch) => set.has(ch);
}

/** `s.lstrip(chars=None)`. */
export function strLStrip(s: string, chars: string | null = null): string {
  const cps = Array.from(s);
  const drop = stripSet(chars);
  let i = 0;
  while (i < cps.length && drop(cps[i])) i++;
  return cps.slice(i).join("");
}

/** `s.rstrip(chars=None)`. */
export function strRStrip(s: string, chars: string | null = null): string {
  const cps = Array.from(s);
  const drop = stripSet(chars);
  let j = cps.length;
  while (j > 0 && drop(cps[j - 1])) j--;
  return cps.slice(0, j).join("");
}

/** `s.strip(chars=None)`: Python whitespace by default, else any of the given characters. */
export function strStrip(s: string, chars: string | null = null): string {
  return strLStrip(strRStrip(s, chars), chars);
}
