/**
 * Test helper: the deeply nested inputs of `tools/gen-nesting-vectors.py`, rebuilt from
 * (form, depth) exactly as the generator builds them, and the outcome format of its
 * vectors (`vectors/nesting.json`), so each stage's tests compare with CPython 3.12.
 * Pure: the tests read the file and pass its parsed JSON in.
 */
import { createHash } from "node:crypto";
import { PyDict, PyTuple } from "../containers.js";
import { PyException } from "../exception.js";
import type { PyValue } from "../value.js";

/** One recorded outcome: ok (with a digest of the result text, or `true`), or Python's exception. */
export type NestingOutcome = { depth: number } & ({ ok: string | true } | { error: string; message: string });

/** The outcomes of one stage on one form of nesting. */
export interface NestingMeasurement {
  stage: string;
  form: string;
  firstFailure: number | null;
  cases: NestingOutcome[];
}

/** The parsed `vectors/nesting.json`. */
export interface NestingVectors {
  measurements: NestingMeasurement[];
}

/** The measurements of `vectors/nesting.json` for a stage (all forms). */
export function nestingMeasurements(doc: NestingVectors, stage: string): NestingMeasurement[] {
  const out = doc.measurements.filter((m) => m.stage === stage);
  if (out.length === 0) throw new Error(`no nesting vectors for stage ${stage}`);
  return out;
}

/** `nested_list(n)`, `nested_dict(n)`, `nested_tuple(n)`: n containers, the innermost empty. */
export const NESTED_VALUES: Record<string, (n: number) => PyValue> = {
  list: (n) => {
    let x: PyValue = [];
    for (let i = 1; i < n; i++) x = [x];
    return x;
  },
  dict: (n) => {
    let x: PyValue = new PyDict();
    for (let i = 1; i < n; i++) x = new PyDict([["a", x]]);
    return x;
  },
  tuple: (n) => {
    let x: PyValue = new PyTuple([]);
    for (let i = 1; i < n; i++) x = new PyTuple([x]);
    return x;
  },
};

/** JSON texts nesting n arrays or objects. */
export const NESTED_JSON: Record<string, (n: number) => string> = {
  list: (n) => "[".repeat(n) + "]".repeat(n),
  dict: (n) => '{"a": '.repeat(n) + "1" + "}".repeat(n),
  "args-list": (n) => '{"a": "x", "deep": ' + "[".repeat(n) + "]".repeat(n) + "}",
};

/** Python expressions nesting n levels of one construct. */
export const NESTED_SOURCE: Record<string, (n: number) => string> = {
  list: (n) => "[".repeat(n) + "]".repeat(n),
  paren: (n) => "(".repeat(n) + "1" + ")".repeat(n),
  call: (n) => "f(".repeat(n) + ")".repeat(n),
  unary: (n) => "-".repeat(n) + "1",
  not: (n) => "not ".repeat(n) + "1",
  pow: (n) => "2**".repeat(n) + "1",
  add: (n) => "1+".repeat(n) + "1",
  attr: (n) => "a" + ".b".repeat(n),
  callchain: (n) => "a" + "()".repeat(n),
  subscript: (n) => "a" + "[0]".repeat(n),
  ifelse: (n) => "1 if 1 else ".repeat(n) + "1",
  lambda: (n) => "lambda: ".repeat(n) + "1",
};

/** Argument expressions for the decoders and the executor (BFCL sees `f(a=<expr>)`). */
export const NESTED_ARGUMENT: Record<string, (n: number) => string> = {
  list: (n) => "[".repeat(n) + "]".repeat(n),
  dict: (n) => "{'a': ".repeat(n) + "1" + "}".repeat(n),
  call: (n) => "g(".repeat(n) + ")".repeat(n),
  kwcall: (n) => "g(x=".repeat(n) + "1" + ")".repeat(n),
  unary: (n) => "-".repeat(n) + "1",
  add: (n) => "1+".repeat(n) + "1",
  pow: (n) => "1**".repeat(n) + "1",
  subscript: (n) => "[0]" + "[0]".repeat(n),
};

/** The generator's digest of a result text (first 16 hex digits of its SHA-256). */
export function nestingDigest(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

/**
 * Run `f` and describe how its outcome differs from the recorded one (null when equal).
 * A string result is compared by digest; a thrown PyException by type and message; any
 * other exception (a JavaScript stack overflow) is always a difference. `wantMessage`
 * adapts a recorded message where a caller keeps less of it.
 */
export function nestingDifference(f: () => unknown, want: NestingOutcome, wantMessage: (m: string) => string = (m) => m): string | null {
  let got: { ok: string | true } | { error: string; message: string };
  try {
    const r = f();
    got = { ok: typeof r === "string" ? nestingDigest(r) : true };
  } catch (e) {
    if (!(e instanceof PyException)) return `depth ${want.depth}: JS ${(e as Error).name}: ${(e as Error).message}`;
    got = { error: e.pyType, message: e.pyMessage };
  }
  const same =
    "ok" in want
      ? "ok" in got && (want.ok === true || got.ok === want.ok)
      : "error" in got && got.error === want.error && got.message === wantMessage(want.message);
  return same ? null : `depth ${want.depth}: want ${JSON.stringify(want)} got ${JSON.stringify(got)}`;
}
