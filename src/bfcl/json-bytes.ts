/**
 * The byte-level JSON walking the result-line readers share: where whitespace, a string
 * or a whole value ends, found by matching quotes and brackets without decoding or
 * validating anything. Pure: works on `Uint8Array`.
 */

/** The JSON bytes the walkers look at. */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

/** JSON's whitespace: space, tab, newline, carriage return. */
export function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** Index of the first non-whitespace byte at or after `i` (or `end`). */
export function skipSpace(bytes: Uint8Array, i: number, end: number): number {
  while (i < end && isSpace(bytes[i])) i++;
  return i;
}

/**
 * Index just past the JSON string starting at `i` (a quote), or -1 when unterminated. The
 * next quote is found by the typed array's native search, so a long string (a model's
 * reply of many megabytes) costs a memory scan, not a loop over its bytes; a quote after
 * an odd number of backslashes is escaped, and the search goes on past it.
 */
export function skipString(bytes: Uint8Array, i: number, end: number): number {
  for (let from = i + 1; ;) {
    const q = bytes.indexOf(QUOTE, from);
    if (q < 0 || q >= end) return -1;
    let backslashes = 0;
    while (bytes[q - 1 - backslashes] === BACKSLASH) backslashes++;
    if ((backslashes & 1) === 0) return q + 1;
    from = q + 1;
  }
}

/**
 * Index just past the JSON value starting at `i`, matching brackets outside strings; -1
 * when it does not close. It finds where a value ends, it does not validate it.
 */
export function skipValue(bytes: Uint8Array, i: number, end: number): number {
  const first = bytes[i];
  if (first === QUOTE) return skipString(bytes, i, end);
  if (first === OPEN_BRACKET || first === OPEN_BRACE) return skipNested(bytes, i, end);
  while (i < end && bytes[i] !== COMMA && bytes[i] !== CLOSE_BRACE && !isSpace(bytes[i])) i++;
  return i;
}

/**
 * Index just past the list or object starting at `i`, or -1. One loop over its bytes, the
 * strings inside included: most strings of a log are short (17 bytes on average), where a
 * native search per string costs more in calls than it saves (bench/RESULTS.md). An escape
 * skips the byte after the backslash, which is the odd-backslash rule of `skipString`.
 */
function skipNested(bytes: Uint8Array, i: number, end: number): number {
  let depth = 0;
  while (i < end) {
    const b = bytes[i++];
    if (b === QUOTE) {
      for (;;) {
        if (i >= end) return -1;
        const c = bytes[i++];
        if (c === QUOTE) break;
        if (c === BACKSLASH) i++;
      }
    } else if (b === OPEN_BRACKET || b === OPEN_BRACE) depth++;
    else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) {
      if (--depth === 0) return i;
    }
  }
  return -1;
}
