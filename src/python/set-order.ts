/**
 * CPython's iteration order for a set: `str(set)` appears in BFCL's state reports, and CPython orders a set by
 * its hash table, not by insertion. More in this folder's README.md.
 */
import type { PyValue } from "./value.js";
import { PyTuple } from "./containers.js";
import { floatToRatio } from "./numeric.js";

const MODULUS = (1n << 61n) - 1n;
const MASK64 = (1n << 64n) - 1n;

/** Python's `hash(n)` for an int (reduced modulo 2^61 − 1, -1 mapped to -2). */
export function hashInt(n: bigint): bigint {
  const a = n < 0n ? -n : n;
  let h = a % MODULUS;
  if (n < 0n) h = -h;
  return h === -1n ? -2n : h;
}

/** Python's `hash(x)` for a finite float: the hash of the rational it equals; inf → ±314159; NaN has no stable hash. */
function hashFloat(x: number): bigint | undefined {
  if (Number.isNaN(x)) return undefined;
  if (x === Infinity) return 314159n;
  if (x === -Infinity) return -314159n;
  const { num, den } = floatToRatio(x);
  const k = BigInt(den.toString(2).length - 1); // den = 2^k
  const a = num < 0n ? -num : num;
  // 2^61 ≡ 1 (mod 2^61 − 1), so 2^-k ≡ 2^((61 − k mod 61) mod 61)
  const e = (61n - (k % 61n)) % 61n;
  let h = ((a % MODULUS) * ((1n << e) % MODULUS)) % MODULUS;
  if (num < 0n) h = -h;
  return h === -1n ? -2n : h;
}

const XXPRIME_1 = 11400714785074694791n;
const XXPRIME_2 = 14029467366897019727n;
const XXPRIME_5 = 2870177450012600261n;

/** One step of CPython's tuplehash: fold an item's hash into the accumulator. */
function tupleHashStep(acc: bigint, h: bigint): bigint {
  const lane = h & MASK64;
  acc = (acc + lane * XXPRIME_2) & MASK64;
  acc = ((acc << 31n) | (acc >> 33n)) & MASK64;
  return (acc * XXPRIME_1) & MASK64;
}

function tupleHashFinish(acc: bigint, length: number): bigint {
  acc = (acc + (BigInt(length) ^ (XXPRIME_5 ^ 3527539n))) & MASK64;
  if (acc === MASK64) return 1546275796n;
  return acc >= 1n << 63n ? acc - (1n << 64n) : acc;
}

/**
 * Python's `hash(tuple)` (the xxHash-based tuplehash of CPython >= 3.8). Nested tuples are
 * walked with an explicit stack: CPython hashes them to any depth without a recursion
 * limit, so this must not stop at the JavaScript stack either.
 */
function hashTuple(root: readonly PyValue[]): bigint | undefined {
  const stack: { items: readonly PyValue[]; next: number; acc: bigint }[] = [{ items: root, next: 0, acc: XXPRIME_5 }];
  for (;;) {
    const top = stack[stack.length - 1];
    if (top.next < top.items.length) {
      const it = top.items[top.next++];
      if (it instanceof PyTuple) {
        stack.push({ items: it.items, next: 0, acc: XXPRIME_5 });
        continue;
      }
      const h = pyHash(it);
      if (h === undefined) return undefined;
      top.acc = tupleHashStep(top.acc, h);
      continue;
    }
    const h = tupleHashFinish(top.acc, top.items.length);
    stack.pop();
    if (stack.length === 0) return h;
    const parent = stack[stack.length - 1];
    parent.acc = tupleHashStep(parent.acc, h);
  }
}

/** Python's `hash(v)` where it is the same in every process; undefined for str, None and objects. */
export function pyHash(v: PyValue): bigint | undefined {
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "bigint") return hashInt(v);
  if (typeof v === "number") return hashFloat(v);
  if (v instanceof PyTuple) return hashTuple(v.items);
  return undefined;
}

const LINEAR_PROBES = 9;
const PERTURB_SHIFT = 5n;
const MIN_SIZE = 8;

interface Slot {
  value: PyValue;
  hash: bigint;
}

function insertClean(table: (Slot | null)[], mask: number, slot: Slot): void {
  let perturb = slot.hash & MASK64;
  let i = Number(perturb & BigInt(mask));
  for (;;) {
    if (table[i] === null) {
      table[i] = slot;
      return;
    }
    if (i + LINEAR_PROBES <= mask) {
      for (let j = 1; j <= LINEAR_PROBES; j++) {
        if (table[i + j] === null) {
          table[i + j] = slot;
          return;
        }
      }
    }
    perturb >>= PERTURB_SHIFT;
    i = Number((BigInt(i) * 5n + 1n + perturb) & BigInt(mask));
  }
}

/**
 * The order CPython iterates a set built by adding `values` one by one (no removals), or the
 * given order when some member's hash is process-dependent. `values` are distinct members.
 */
export function cpythonSetOrder(values: readonly PyValue[]): PyValue[] {
  const slots: Slot[] = [];
  for (const value of values) {
    const hash = pyHash(value);
    if (hash === undefined) return [...values];
    slots.push({ value, hash });
  }
  let mask = MIN_SIZE - 1;
  let table: (Slot | null)[] = new Array<Slot | null>(MIN_SIZE).fill(null);
  let used = 0;
  for (const slot of slots) {
    // set_add_entry on a table without dummies: the first empty slot of the probe sequence
    insertClean(table, mask, slot);
    used++;
    if (used * 5 >= mask * 3) {
      const minUsed = used > 50000 ? used * 2 : used * 4;
      let size = MIN_SIZE;
      while (size <= minUsed) size <<= 1;
      const old = table;
      mask = size - 1;
      table = new Array<Slot | null>(size).fill(null);
      for (const s of old) if (s !== null) insertClean(table, mask, s);
    }
  }
  return table.filter((s): s is Slot => s !== null).map((s) => s.value);
}
