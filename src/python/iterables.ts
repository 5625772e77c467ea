/**
 * Python's builtins over iterables — `iter`, `len`, `sum`, `sorted`, `min`/`max` and
 * `in` — in CPython's order of operations, so a mixed-type list raises the same
 * TypeError and a float sum rounds the same way as in BFCL's classes.
 */
import type { PyObject, PyValue } from "./value.js";
import { PyTuple, PyDict, PySet } from "./containers.js";
import { PyException } from "./exception.js";
import { cpythonSetOrder } from "./set-order.js";
import { asInt, isPyObject, pyTypeName } from "./kinds.js";
import { pyEquals, pyGt, pyLt } from "./compare.js";
import { pyAdd } from "./arithmetic.js";

/** The items of an iterable value (list, tuple, set in CPython's order, dict keys, str characters), or TypeError. */
export function pyIter(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return [...v.items];
  if (v instanceof PySet) return cpythonSetOrder(v.values());
  if (v instanceof PyDict) return v.keys();
  if (typeof v === "string") return Array.from(v);
  const hook = isPyObject(v) ? (v as PyObject & { pyIter?: () => PyValue[] }).pyIter : undefined;
  if (hook) return hook.call(v);
  throw new PyException("TypeError", `'${pyTypeName(v)}' object is not iterable`);
}

const LONG_MAX = (1n << 63n) - 1n;

/**
 * `sum(items, start=0)` as CPython >= 3.12 computes it: exact ints, then (once a float
 * appears) Neumaier-compensated float accumulation where int items are added uncompensated,
 * falling back to generic `+` for anything else.
 */
export function pySum(items: readonly PyValue[], start: PyValue = 0n): PyValue {
  if (typeof start === "string") throw new PyException("TypeError", "sum() can't sum strings [use ''.join(seq) instead]");
  let result: PyValue = start;
  let i = 0;
  if (typeof result === "bigint") {
    let acc: bigint = result;
    for (; i < items.length; i++) {
      const it = items[i];
      if (typeof it === "bigint") acc += it;
      else if (typeof it === "boolean") acc += it ? 1n : 0n;
      else break;
    }
    result = acc;
    if (i === items.length) return result;
    const it = items[i];
    result = pyAdd(result, it);
    i++;
  }
  if (typeof result === "number") {
    let f = result;
    let c = 0;
    let fellBack = false;
    for (; i < items.length; i++) {
      const it = items[i];
      if (typeof it === "number") {
        const t = f + it;
        if (Math.abs(f) >= Math.abs(it)) c += f - t + it;
        else c += it - t + f;
        f = t;
        continue;
      }
      const iv = asInt(it);
      if (iv !== undefined && iv <= LONG_MAX && iv >= -LONG_MAX - 1n) {
        f += Number(iv);
        continue;
      }
      fellBack = true;
      break;
    }
    if (!fellBack) {
      if (c && Number.isFinite(c)) f += c;
      return f;
    }
    result = f;
  }
  for (; i < items.length; i++) result = pyAdd(result, items[i]);
  return result;
}

/** `len(x)`: str counts code points like Python; TypeError for unsized values. */
export function pyLen(v: PyValue): number {
  if (typeof v === "string") {
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < v.length) {
        const d = v.charCodeAt(i + 1);
        if (d >= 0xdc00 && d < 0xe000) i++;
      }
      n++;
    }
    return n;
  }
  if (Array.isArray(v)) return v.length;
  if (v instanceof PyTuple) return v.items.length;
  if (v instanceof PyDict || v instanceof PySet) return v.size;
  const hook = isPyObject(v) ? (v as PyObject & { pyLen?: () => number }).pyLen : undefined;
  if (hook) return hook.call(v);
  throw new PyException("TypeError", `object of type '${pyTypeName(v)}' has no len()`);
}

/**
 * `sorted(items, key=…, reverse=…)`: stable, ordered by Python `<` only, performing the
 * comparisons in CPython's order for lists under 64 items (count_run + binary insertion), so
 * a mixed-type list raises the same `'<' not supported between …` message.
 */
export function pySorted(items: Iterable<PyValue>, options: { key?: (v: PyValue) => PyValue; reverse?: boolean } = {}): PyValue[] {
  const vals = [...items];
  const keys = options.key ? vals.map(options.key) : vals.slice();
  const idx = vals.map((_, i) => i);
  if (options.reverse) {
    idx.reverse();
  }
  const lt = (i: number, j: number) => pyLt(keys[i], keys[j]);
  const n = idx.length;
  if (n >= 2) {
    // count_run on the first run
    let run = 2;
    if (lt(idx[1], idx[0])) {
      while (run < n && lt(idx[run], idx[run - 1])) run++;
      const head = idx.slice(0, run).reverse();
      for (let k = 0; k < run; k++) idx[k] = head[k];
    } else {
      while (run < n && !lt(idx[run], idx[run - 1])) run++;
    }
    // binary insertion of the rest
    for (let s = run; s < n; s++) {
      const pivot = idx[s];
      let l = 0;
      let r = s;
      do {
        const p = l + ((r - l) >> 1);
        if (lt(pivot, idx[p])) r = p;
        else l = p + 1;
      } while (l < r);
      idx.splice(s, 1);
      idx.splice(l, 0, pivot);
    }
  }
  if (options.reverse) idx.reverse();
  return idx.map((i) => vals[i]);
}

/** `min(items)` / `max(items)` over a non-empty sequence, with Python's first-wins tie rule and empty-sequence ValueError. */
export function pyMinMax(kind: "min" | "max", items: readonly PyValue[]): PyValue {
  if (items.length === 0) throw new PyException("ValueError", `${kind}() arg is an empty sequence`);
  let best = items[0];
  for (let i = 1; i < items.length; i++) {
    if (kind === "min" ? pyLt(items[i], best) : pyGt(items[i], best)) best = items[i];
  }
  return best;
}

/** `x in container` with Python membership rules (substring for str, keys for dict). */
export function pyContains(container: PyValue, x: PyValue): boolean {
  if (typeof container === "string") {
    if (typeof x !== "string") throw new PyException("TypeError", `'in <string>' requires string as left operand, not ${pyTypeName(x)}`);
    return container.includes(x);
  }
  if (container instanceof PyDict) return container.has(x);
  if (container instanceof PySet) return container.has(x);
  if (Array.isArray(container) || container instanceof PyTuple) {
    const arr = Array.isArray(container) ? container : container.items;
    return arr.some((y) => y === x || pyEquals(y, x));
  }
  const hook = isPyObject(container) ? (container as PyObject & { pyContains?: (v: PyValue) => boolean }).pyContains : undefined;
  if (hook) return hook.call(container, x);
  throw new PyException("TypeError", `argument of type '${pyTypeName(container)}' is not iterable`);
}
