/**
 * `copy.deepcopy` over the value model. BFCL deep-copies each class default and the
 * scenario before loading, and the workaround replay snapshots state; Python's memo keeps
 * shared references shared (and cycles finite), so this one does too.
 */
import type { PyObject, PyValue } from "./value.js";
import { PyTuple, PyDict, PySet } from "./containers.js";
import { DEEPCOPY_MAX_DEPTH, recursionError } from "./limits.js";

/** A PyObject that knows how to deep-copy itself (e.g. File/Directory with parent links). */
export interface PyDeepCopyable extends PyObject {
  pyDeepCopy(memo: Map<object, PyValue>): PyValue;
}

/** Memo shared across one deep copy: original object → its copy. */
export type DeepCopyMemo = Map<object, PyValue>;

/** Containers being copied around the current one (CPython's deepcopy is Python recursion). */
let copyDepth = 0;

/**
 * `copy.deepcopy(v)`: new lists, dicts, sets and tuples all the way down; objects copy
 * themselves through `pyDeepCopy(memo)` or, lacking it, are treated as immutable and shared.
 * Nesting past Python's recursion limit raises RecursionError, as `copy.deepcopy` does.
 */
export function pyDeepCopy<T extends PyValue>(v: T, memo: DeepCopyMemo = new Map()): T {
  if (v === null || typeof v !== "object") return v;
  const seen = memo.get(v);
  if (seen !== undefined) return seen as T;
  if (copyDepth >= DEEPCOPY_MAX_DEPTH) throw recursionError();
  copyDepth++;
  try {
    return copyContainer(v, memo);
  } finally {
    copyDepth--;
  }
}

function copyContainer<T extends PyValue & object>(v: T, memo: DeepCopyMemo): T {
  if (Array.isArray(v)) {
    const out: PyValue[] = [];
    memo.set(v, out);
    for (const x of v) out.push(pyDeepCopy(x, memo));
    return out as T;
  }
  if (v instanceof PyDict) {
    const out = new PyDict();
    memo.set(v, out);
    for (const [k, x] of v.entries()) out.set(pyDeepCopy(k, memo), pyDeepCopy(x, memo));
    return out as T;
  }
  if (v instanceof PySet) {
    const out = new PySet(v.values().map((x) => pyDeepCopy(x, memo)));
    memo.set(v, out);
    return out as T;
  }
  if (v instanceof PyTuple) {
    const out = new PyTuple(v.items.map((x) => pyDeepCopy(x, memo)));
    memo.set(v, out);
    return out as T;
  }
  const obj = v as PyObject & Partial<PyDeepCopyable>;
  if (typeof obj.pyDeepCopy === "function") {
    const out = obj.pyDeepCopy(memo);
    memo.set(v, out);
    return out as T;
  }
  return v;
}
