/**
 * Python's `bytes`, as far as model outputs and BFCL's classes reach it: a literal
 * (`b'…'`), its repr, equality, truth, and `+`/`*` (in `arithmetic.ts`).
 */
import type { PyObject, PyValue } from "./value.js";

/** A Python `bytes` value. */
export class PyBytes implements PyObject {
  readonly pyTypeName = "bytes";
  constructor(readonly data: Uint8Array) {}
  pyRepr(): string {
    return bytesRepr(this.data);
  }
  pyEq(other: PyValue): boolean {
    return other instanceof PyBytes && other.data.length === this.data.length && other.data.every((b, i) => b === this.data[i]);
  }
  pyBool(): boolean {
    return this.data.length > 0;
  }
}

/** `repr(bytes)`: `b'…'` with CPython's quote choice and `\\x` escapes. */
export function bytesRepr(b: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const c of b) {
    if (c === 0x27) hasSingle = true;
    else if (c === 0x22) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? 0x22 : 0x27;
  let out = "b" + String.fromCharCode(quote);
  for (const c of b) {
    if (c === quote || c === 0x5c) out += "\\" + String.fromCharCode(c);
    else if (c === 0x09) out += "\\t";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c < 0x20 || c >= 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else out += String.fromCharCode(c);
  }
  return out + String.fromCharCode(quote);
}

/** `a + b` for two bytes values. */
export function bytesConcat(a: PyBytes, b: PyBytes): PyBytes {
  const out = new Uint8Array(a.data.length + b.data.length);
  out.set(a.data);
  out.set(b.data, a.data.length);
  return new PyBytes(out);
}

/** `b * count` for a count already checked against the size limit. */
export function bytesRepeat(b: PyBytes, count: number): PyBytes {
  const out = new Uint8Array(count * b.data.length);
  for (let k = 0; k < count; k++) out.set(b.data, k * b.data.length);
  return new PyBytes(out);
}
