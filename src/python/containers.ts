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
 * A Map key standing for a hashable Python value, so that Python's equality decides what is the same key
 * (`1 == 1.0 == True`). A str is its own key, so the common lookup allocates nothing. The key of each type: this
 * folder's README.md.
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
  if (v instanceof PyTuple) return Symbol.for(tupleKeyText(v));
  if (Array.isArray(v)) throw new PyException("TypeError", "unhashable type: 'list'");
  if (v instanceof PyDict) throw new PyException("TypeError", "unhashable type: 'dict'");
  if (v instanceof PySet) throw new PyException("TypeError", "unhashable type: 'set'");
  return Symbol.for(`o${v.pyTypeName}:${v.pyRepr()}`);
}

/**
 * Canonical text of a tuple key, `t(…)` around its items' texts. Nested tuples are walked
 * with an explicit stack: CPython hashes a tuple of any depth, so this has no depth limit.
 */
function tupleKeyText(root: PyTuple): string {
  let out = "t(";
  const stack: { items: readonly PyValue[]; next: number }[] = [{ items: root.items, next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next >= top.items.length) {
      out += ")";
      stack.pop();
      continue;
    }
    if (top.next > 0) out += ",";
    const it = top.items[top.next++];
    if (it instanceof PyTuple) {
      out += "t(";
      stack.push({ items: it.items, next: 0 });
    } else out += keyText(it);
  }
  return out;
}

/** Canonical text of a hashable non-tuple value inside a tuple key (the same equality as `keyOf`). */
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
  /** Values by Map key, in insertion order. */
  private readonly values_ = new Map<PyKey, PyValue>();
  /** The Python key object of each Map key that is not the key itself (only non-str keys; usually none). */
  private originals: Map<PyKey, PyValue> | null = null;

  constructor(entries?: Iterable<readonly [PyValue, PyValue]>) {
    if (entries !== undefined) for (const [k, v] of entries) this.set(k, v);
  }
  get size(): number {
    return this.values_.size;
  }
  has(k: PyValue): boolean {
    return this.values_.has(keyOf(k));
  }
  get(k: PyValue): PyValue | undefined {
    return this.values_.get(keyOf(k));
  }
  set(k: PyValue, v: PyValue): void {
    const h = keyOf(k);
    if (h !== k && !this.values_.has(h)) (this.originals ??= new Map()).set(h, k);
    this.values_.set(h, v);
  }
  /** Removes the key; returns whether it was present. */
  delete(k: PyValue): boolean {
    const h = keyOf(k);
    this.originals?.delete(h);
    return this.values_.delete(h);
  }
  private original(h: PyKey): PyValue {
    const o = this.originals;
    return o === null ? (h as PyValue) : o.has(h) ? (o.get(h) as PyValue) : (h as PyValue);
  }
  keys(): PyValue[] {
    const out: PyValue[] = [];
    for (const h of this.values_.keys()) out.push(this.original(h));
    return out;
  }
  values(): PyValue[] {
    return [...this.values_.values()];
  }
  entries(): [PyValue, PyValue][] {
    const out: [PyValue, PyValue][] = [];
    for (const [h, v] of this.values_) out.push([this.original(h), v]);
    return out;
  }
  /** Visit every item in order without building pairs (the hot loops: equality, dumping, copying). */
  forEach(f: (value: PyValue, key: PyValue) => void): void {
    if (this.originals === null) this.values_.forEach(f as (v: PyValue, k: PyKey) => void);
    else for (const [h, v] of this.values_) f(v, this.original(h));
  }
  /**
   * Python `==` of two dicts given `==` of values: same size and every key of this one
   * present in the other with an equal value (keys compare by Python equality, which the
   * Map keys encode).
   */
  equalsWith(other: PyDict, valueEquals: (a: PyValue, b: PyValue) => boolean): boolean {
    if (this.values_.size !== other.values_.size) return false;
    // forEach: no [key, value] pair per item (the state check compares whole instance states every turn)
    const theirs = other.values_;
    let equal = true;
    this.values_.forEach((v, h) => {
      if (!equal) return;
      const w = theirs.get(h);
      if ((w === undefined && !theirs.has(h)) || !valueEquals(v, w as PyValue)) equal = false;
    });
    return equal;
  }
  /**
   * `{k: f(v) for k, v in d.items()}`: same key objects in the same order, without hashing
   * the keys again (what `copy.deepcopy` of a config needs, at a fraction of the cost).
   */
  mapValues(f: (v: PyValue) => PyValue): PyDict {
    const out = new PyDict();
    for (const [h, v] of this.values_) out.values_.set(h, f(v));
    if (this.originals !== null) out.originals = new Map(this.originals);
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
