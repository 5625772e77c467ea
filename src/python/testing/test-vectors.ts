/**
 * Decoder for the tagged JSON fixtures written by `tools/python-vectors.py`, so tests can
 * rebuild the exact Python value (int vs float, tuple vs list, typed dict keys) that CPython
 * produced. Pure: the tests read the files and pass the parsed JSON in.
 */
import type { PyValue } from "../value.js";
import { PyTuple, PyDict, PySet } from "../containers.js";

/** A value as encoded by the generator script. */
export type TaggedValue =
  | null
  | boolean
  | string
  | TaggedValue[]
  | { i: string }
  | { f: string }
  | { t: TaggedValue[] }
  | { d: [TaggedValue, TaggedValue][] }
  | { s: TaggedValue[] };

/** Turn a float repr (`nan`, `inf`, `-inf`, `1e-05` …) back into the number. */
export function floatFromRepr(r: string): number {
  if (r === "nan") return NaN;
  if (r === "inf") return Infinity;
  if (r === "-inf") return -Infinity;
  return Number(r);
}

/** Rebuild the Python value a tagged fixture describes. */
export function decodeTagged(v: TaggedValue): PyValue {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(decodeTagged);
  if ("i" in v) return BigInt(v.i);
  if ("f" in v) return floatFromRepr(v.f);
  if ("t" in v) return new PyTuple(v.t.map(decodeTagged));
  if ("d" in v) return new PyDict(v.d.map(([k, x]) => [decodeTagged(k), decodeTagged(x)] as const));
  return new PySet(v.s.map(decodeTagged));
}

/** What a generated Python call produced: a value, or an exception type and `str(e)`. */
export interface Outcome {
  ok?: TaggedValue;
  repr?: string;
  error?: string;
  message?: string;
  /** A complex result, kept as CPython's repr. */
  complexRepr?: string;
  /** A value outside the tagged encoding (bytes, Ellipsis), kept as CPython's repr. */
  reprOnly?: string;
}

/**
 * Describe how `run` compares with a generated outcome: `null` when it matches (same repr of
 * the value, or same exception type and message), else a one-line difference for the report.
 */
export function compareOutcome(run: () => PyValue, want: Outcome, repr: (v: PyValue) => string): string | null {
  let got: string;
  try {
    const v = run();
    got = `ok ${repr(v)}`;
  } catch (e) {
    const x = e as { pyType?: string; pyMessage?: string; message?: string };
    got = x.pyType !== undefined ? `${x.pyType}: ${x.pyMessage}` : `JS ${x.message}`;
  }
  const expected =
    want.complexRepr !== undefined
      ? `ok ${want.complexRepr}`
      : want.reprOnly !== undefined
        ? `ok ${want.reprOnly}`
        : want.error !== undefined
          ? `${want.error}: ${want.message}`
          : `ok ${repr(decodeTagged(want.ok ?? null))}`;
  return got === expected ? null : `want ${expected} | got ${got}`;
}
