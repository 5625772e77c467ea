/**
 * Where bytes stop being UTF-8, the way Python's strict `utf-8` codec sees it (BFCL opens
 * result files with it): overlong forms, surrogates (ED A0–BF) and code points past
 * U+10FFFF are errors too. Pure; the readers use Node's native check first and call this
 * only to say where a line goes wrong.
 */

/** The offset of the first byte in `[start, end)` that is not part of valid UTF-8, or -1 when all is. */
export function firstInvalidUtf8(bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end;) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0; // overlong
      if (b === 0xed) hi = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90; // overlong
      if (b === 0xf4) hi = 0x8f; // past U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = i + k < end ? bytes[i + k] : -1;
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** The problem sentence for a line whose bytes stop being UTF-8 at `offset` (0-based within the line). */
export function invalidUtf8Message(bytes: Uint8Array, lineStart: number, offset: number): string {
  const byte = bytes[offset].toString(16).padStart(2, "0");
  return `not valid UTF-8 (byte 0x${byte} at byte ${offset - lineStart + 1} of the line): Python's utf-8 codec raises UnicodeDecodeError on it, so BFCL reads none of this file`;
}
