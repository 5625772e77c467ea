/**
 * CPython's `random.Random(int_seed)`: the MT19937 stream seeded through
 * `init_by_array`, and the methods BFCL's classes draw from (`randint` for ids, tokens,
 * card numbers and timestamps; `uniform` for temperatures and speeds). Ground-truth results
 * such as `cancel_booking(booking_id='3426812')` depend on reproducing it bit for bit.
 */
import { PyException } from "./exception.js";

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

/**
 * Seeded states after `init_by_array` and the first twist (ready for the first draw), by
 * |seed|: the classes reseed with a handful of seeds thousands of times.
 */
const seededStates = new Map<bigint, Uint32Array>();
const SEEDED_STATES_LIMIT = 1024;
const EMPTY_STATE = new Uint32Array(0);

/** MT19937's generation of the next 624 words, in place. */
function twist(mt: Uint32Array): void {
  let kk = 0;
  for (; kk < N - M; kk++) {
    const y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
    mt[kk] = mt[kk + M] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
  }
  for (; kk < N - 1; kk++) {
    const y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
    mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
  }
  const y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
  mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
}

/**
 * A `random.Random` instance seeded with a Python int (the only seeding BFCL uses).
 * Seeding is lazy: most simulated instances never draw, so the MT19937 state is only
 * materialised (copied from a per-seed cache) at the first draw; the stream is the same.
 */
export class PyRandom {
  private mt: Uint32Array = EMPTY_STATE;
  private mti = N + 1;
  private pendingSeed: bigint | null = null;

  constructor(seed: bigint | number) {
    this.seed(seed);
  }

  /** `random.seed(n)` for an int: |n| split into 32-bit words, little-endian, fed to init_by_array. */
  seed(seed: bigint | number): void {
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    this.pendingSeed = n;
  }

  /** Runs the pending `init_by_array` (from the cache when this seed was seen before). */
  private materialise(n: bigint): void {
    this.pendingSeed = null;
    let state = seededStates.get(n);
    if (state === undefined) {
      const key: number[] = [];
      let rest = n;
      while (rest > 0n) {
        key.push(Number(rest & 0xffffffffn));
        rest >>= 32n;
      }
      if (key.length === 0) key.push(0);
      this.mt = new Uint32Array(N);
      this.initByArray(key);
      twist(this.mt);
      if (seededStates.size >= SEEDED_STATES_LIMIT) seededStates.clear();
      seededStates.set(n, this.mt.slice());
    } else this.mt = state.slice();
    this.mti = 0;
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.mti = N;
  }

  private initByArray(key: number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** One raw 32-bit output of MT19937 (`genrand_uint32`). */
  genrandUint32(): number {
    if (this.pendingSeed !== null) this.materialise(this.pendingSeed);
    const mt = this.mt;
    if (this.mti >= N) {
      twist(mt);
      this.mti = 0;
    }
    let y = mt[this.mti++];
    y ^= y >>> 11;
    y = (y ^ ((y << 7) & 0x9d2c5680)) >>> 0;
    y = (y ^ ((y << 15) & 0xefc60000)) >>> 0;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random()`: a float in [0, 1) with 53 random bits. */
  random(): number {
    const a = this.genrandUint32() >>> 5;
    const b = this.genrandUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `getrandbits(k)`: k random bits; words are drawn least significant first, the last one shifted down. */
  getrandbits(k: number): bigint {
    if (k < 0) throw new PyException("ValueError", "number of bits must be non-negative");
    if (k === 0) return 0n;
    if (k <= 32) return BigInt(this.genrandUint32() >>> (32 - k));
    let result = 0n;
    let shift = 0n;
    for (let left = k; left > 0; left -= 32) {
      let r = this.genrandUint32();
      if (left < 32) r >>>= 32 - left;
      result |= BigInt(r) << shift;
      shift += 32n;
    }
    return result;
  }

  /** `_randbelow(n)` for n > 0: rejection sampling on `getrandbits(n.bit_length())`. */
  randbelow(n: bigint): bigint {
    if (n <= 0n) throw new PyException("ValueError", "empty range for randrange()");
    const k = n.toString(2).length;
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `randrange(start, stop=None, step=1)` with Python >= 3.12's int-only arguments and error messages. */
  randrange(start: bigint, stop: bigint | null = null, step: bigint = 1n): bigint {
    if (stop === null) {
      if (step !== 1n) throw new PyException("TypeError", "Missing a non-None stop argument");
      if (start > 0n) return this.randbelow(start);
      throw new PyException("ValueError", "empty range for randrange()");
    }
    const width = stop - start;
    if (step === 1n) {
      if (width > 0n) return start + this.randbelow(width);
      throw new PyException("ValueError", `empty range in randrange(${start}, ${stop})`);
    }
    let n: bigint;
    if (step > 0n) n = (width + step - 1n) / step;
    else if (step < 0n) n = (width + step + 1n) / step;
    else throw new PyException("ValueError", "zero step for randrange()");
    if (n <= 0n) throw new PyException("ValueError", `empty range in randrange(${start}, ${stop}, ${step})`);
    return start + step * this.randbelow(n);
  }

  /** `randint(a, b)`: an int in [a, b], i.e. `randrange(a, b + 1)`. */
  randint(a: bigint, b: bigint): bigint {
    return this.randrange(a, b + 1n);
  }

  /** `uniform(a, b)` = `a + (b - a) * random()`. */
  uniform(a: number, b: number): number {
    return a + (b - a) * this.random();
  }

  /** `choice(seq)`: one element chosen by `_randbelow(len(seq))`. */
  choice<T>(seq: readonly T[]): T {
    if (seq.length === 0) throw new PyException("IndexError", "Cannot choose from an empty sequence");
    return seq[Number(this.randbelow(BigInt(seq.length)))];
  }

  /** `shuffle(x)` in place, Fisher–Yates from the end as CPython does. */
  shuffle<T>(x: T[]): void {
    for (let i = x.length - 1; i > 0; i--) {
      const j = Number(this.randbelow(BigInt(i + 1)));
      const t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
  }
}
