/**
 * Python's tuple, dict and set over `PyValue`, with Python's key equality: `1`, `1.0`
 * and `True` are the same key, `"1"` is another. Keys are mapped to a canonical string
 * (`keyOf`) so lookups stay O(1); insertion order is kept like CPython's dict.
 */
import type { PyValue } from "./value.js";
import { PyException } from "./exception.js";

/** An immutable Python tuple. */
export class PyTuple {
  constructor(readonly items: readonly PyValue[]) {}
}

/**
 * A Map key standing for a hashable Python value (Python's equality decides what is the
 * same key). A str is its own key, so the common lookup allocates nothing; ints, bools
 * and integral floats become the BigInt of their value (`1 == 1.0 == True`); other
 * floats stay numbers (a JS Map tells `1.5` from `"1.5"`); None is `null`; every NaN is
 * a distinct key, as in CPython; tuples and objects become an interned symbol of their
 * canonical text.
 */
export type PyKey = string | bigint | number | null | symbol | object;

/** The Map key of a hashable Python value; throws TypeError for unhashable ones. */
export function keyOf(v: PyValue): PyKey {
  if (typeof v === "string") return v;
  if (typeof v === "bigint") return v;
  if (v === null) return null;
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "number") {
    if (Number.isInteger(v)) return BigInt(v);
    return Number.isNaN(v) ? {} : v;
  }
  if (v instanceof PyTuple) return Symbol.for(`t(${v.items.map(keyText).join(",")})`);
  if (Array.isArray(v)) throw new PyException("TypeError", "unhashable type: 'list'");
  if (v instanceof PyDict) throw new PyException("TypeError", "unhashable type: 'dict'");
  if (v instanceof PySet) throw new PyException("TypeError", "unhashable type: 'set'");
  return Symbol.for(`o${v.pyTypeName}:${v.pyRepr()}`);
}

/** Canonical text of a hashable value inside a tuple key (the same equality as `keyOf`). */
function keyText(v: PyValue): string {
  const k = keyOf(v);
  if (typeof k === "string") return `s${k}`;
  if (typeof k === "bigint") return `n${k}`;
  if (typeof k === "number") return `f${k}`;
  if (k === null) return "N";
  if (typeof k === "symbol") return k.description ?? "";
  return `fNaN${Math.random()}`;
}

/** An insertion-ordered Python dict. The stored key is the first one inserted, as in CPython. */
export class PyDict {
  private readonly slots = new Map<PyKey, [PyValue, PyValue]>();

  constructor(entries: Iterable<readonly [PyValue, PyValue]> = []) {
    for (const [k, v] of entries) this.set(k, v);
  }
  get size(): number {
    return this.slots.size;
  }
  has(k: PyValue): boolean {
    return this.slots.has(keyOf(k));
  }
  get(k: PyValue): PyValue | undefined {
    return this.slots.get(keyOf(k))?.[1];
  }
  set(k: PyValue, v: PyValue): void {
    const h = keyOf(k);
    const slot = this.slots.get(h);
    if (slot) slot[1] = v;
    else this.slots.set(h, [k, v]);
  }
  /** Removes the key; returns whether it was present. */
  delete(k: PyValue): boolean {
    return this.slots.delete(keyOf(k));
  }
  keys(): PyValue[] {
    return [...this.slots.values()].map((s) => s[0]);
  }
  values(): PyValue[] {
    return [...this.slots.values()].map((s) => s[1]);
  }
  entries(): [PyValue, PyValue][] {
    return [...this.slots.values()].map((s) => [s[0], s[1]]);
  }
  /**
   * `{k: f(v) for k, v in d.items()}`: same key objects in the same order, without hashing
   * the keys again (what `copy.deepcopy` of a config needs, at a fraction of the cost).
   */
  mapValues(f: (v: PyValue) => PyValue): PyDict {
    const out = new PyDict();
    for (const [h, slot] of this.slots) out.slots.set(h, [slot[0], f(slot[1])]);
    return out;
  }
}

/** A Python set (insertion-ordered here; Python's iteration order is not relied on). */
export class PySet {
  private readonly slots = new Map<PyKey, PyValue>();

  constructor(items: Iterable<PyValue> = []) {
    for (const v of items) this.add(v);
  }
  get size(): number {
    return this.slots.size;
  }
  has(v: PyValue): boolean {
    return this.slots.has(keyOf(v));
  }
  add(v: PyValue): void {
    const h = keyOf(v);
    if (!this.slots.has(h)) this.slots.set(h, v);
  }
  delete(v: PyValue): boolean {
    return this.slots.delete(keyOf(v));
  }
  values(): PyValue[] {
    return [...this.slots.values()];
  }
}
