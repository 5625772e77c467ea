/**
 * NumPy's default random stream, re-implemented so that twinscore's bootstrap intervals equal the ones a NumPy
 * script computes to the last digit, without depending on Python. More in this folder's README.md.
 */

const MASK32 = 0xffffffff;

// SeedSequence constants (numpy/random/bit_generator.pyx).
const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
const XSHIFT = 16;
const POOL_SIZE = 4;

/** The 128-bit PCG multiplier 0x2360ED051FC65DA44385DF649FCCF645 as 24-bit limbs, least significant first. */
const MULT_LIMBS = [0xccf645, 0xdf649f, 0xa44385, 0x1fc65d, 0x60ed05, 0x23] as const;

/** A non-negative integer seed as NumPy coerces it: little-endian 32-bit words (0 → [0]). */
export function seedWords(seed: number | bigint): number[] {
  let v = typeof seed === "bigint" ? seed : BigInt(seed);
  if (v < 0n) throw new RangeError("seed must be non-negative");
  if (typeof seed === "number" && !Number.isSafeInteger(seed)) throw new RangeError("seed must be a safe integer (pass a bigint)");
  const words: number[] = [];
  do {
    words.push(Number(v & 0xffffffffn));
    v >>= 32n;
  } while (v > 0n);
  return words;
}

/** SeedSequence's entropy pool (pool size 4) for a seed with no spawn key. */
export function seedSequencePool(seed: number | bigint): number[] {
  const entropy = seedWords(seed);
  let hashConst = INIT_A;
  const hashmix = (value: number): number => {
    let v = (value ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_A) >>> 0;
    v = Math.imul(v, hashConst) >>> 0;
    return (v ^ (v >>> XSHIFT)) >>> 0;
  };
  const mix = (x: number, y: number): number => {
    const r = (Math.imul(MIX_MULT_L, x) - Math.imul(MIX_MULT_R, y)) >>> 0;
    return (r ^ (r >>> XSHIFT)) >>> 0;
  };
  const pool = new Array<number>(POOL_SIZE);
  for (let i = 0; i < POOL_SIZE; i++) pool[i] = hashmix(i < entropy.length ? entropy[i] : 0);
  for (let src = 0; src < POOL_SIZE; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) {
      if (src !== dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
    }
  }
  for (let src = POOL_SIZE; src < entropy.length; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) pool[dst] = mix(pool[dst], hashmix(entropy[src]));
  }
  return pool;
}

/** `SeedSequence(seed).generate_state(n, uint64)`, as bigints. */
export function generateState64(seed: number | bigint, nWords64: number): bigint[] {
  const pool = seedSequencePool(seed);
  let hashConst = INIT_B;
  const words32: number[] = [];
  for (let i = 0; i < nWords64 * 2; i++) {
    let v = (pool[i % POOL_SIZE] ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_B) >>> 0;
    v = Math.imul(v, hashConst) >>> 0;
    words32.push((v ^ (v >>> XSHIFT)) >>> 0);
  }
  const out: bigint[] = [];
  for (let i = 0; i < nWords64; i++) out.push(BigInt(words32[2 * i]) | (BigInt(words32[2 * i + 1]) << 32n));
  return out;
}

const MOD128 = (1n << 128n) - 1n;
const MULT128 = 0x2360ed051fc65da44385df649fccf645n;

/** A 128-bit value as six 24-bit limbs, least significant first (the top limb holds 8 bits). */
function toLimbs(v: bigint): number[] {
  const limbs: number[] = [];
  for (let i = 0; i < 6; i++) limbs.push(Number((v >> BigInt(24 * i)) & 0xffffffn));
  return limbs;
}

/** One LCG step, state = state × MULT + inc (mod 2^128), on 24-bit limbs in place. */
function stepLimbs(s: Int32Array, c: Int32Array): void {
  const s0 = s[0],
    s1 = s[1],
    s2 = s[2],
    s3 = s[3],
    s4 = s[4],
    s5 = s[5];
  let r = s0 * M0 + c[0];
  let q = Math.floor(r * INV24);
  let lo = r - q * 16777216;
  s[0] = lo;
  r = q + s0 * M1 + s1 * M0 + c[1];
  q = Math.floor(r * INV24);
  lo = r - q * 16777216;
  s[1] = lo;
  r = q + s0 * M2 + s1 * M1 + s2 * M0 + c[2];
  q = Math.floor(r * INV24);
  lo = r - q * 16777216;
  s[2] = lo;
  r = q + s0 * M3 + s1 * M2 + s2 * M1 + s3 * M0 + c[3];
  q = Math.floor(r * INV24);
  lo = r - q * 16777216;
  s[3] = lo;
  r = q + s0 * M4 + s1 * M3 + s2 * M2 + s3 * M1 + s4 * M0 + c[4];
  q = Math.floor(r * INV24);
  lo = r - q * 16777216;
  s[4] = lo;
  r = q + s0 * M5 + s1 * M4 + s2 * M3 + s3 * M2 + s4 * M1 + s5 * M0 + c[5];
  lo = r - Math.floor(r / 256) * 256;
  s[5] = lo;
}

const [M0, M1, M2, M3, M4, M5] = MULT_LIMBS;
/** 2^-24: multiplying by it is an exact shift of a double. */
const INV24 = 1 / 16777216;
const TWO32 = 4294967296;

/** The four 32-bit words of a state held in 24-bit limbs, least significant first. */
function words(s0: number, s1: number, s2: number, s3: number, s4: number, s5: number): [number, number, number, number] {
  return [(s0 | (s1 << 24)) >>> 0, ((s1 >>> 8) | (s2 << 16)) >>> 0, ((s2 >>> 16) | (s3 << 8)) >>> 0, (s4 | (s5 << 24)) >>> 0];
}

/** XSL-RR output of the state: [hi, lo] 32-bit words of the 64-bit output. */
function outputXslRr(s: Int32Array, out: Uint32Array): void {
  const [w0, w1, w2, w3] = words(s[0], s[1], s[2], s[3], s[4], s[5]);
  let hi = (w3 ^ w1) >>> 0;
  let lo = (w2 ^ w0) >>> 0;
  let rot = w3 >>> 26;
  if (rot >= 32) {
    const t = hi;
    hi = lo;
    lo = t;
    rot -= 32;
  }
  if (rot !== 0) {
    const nhi = ((hi >>> rot) | (lo << (32 - rot))) >>> 0;
    lo = ((lo >>> rot) | (hi << (32 - rot))) >>> 0;
    hi = nhi;
  }
  out[0] = hi;
  out[1] = lo;
}

/** A PCG64 bit generator (NumPy's `PCG64`), including its buffered 32-bit half. */
export class Pcg64 {
  /** The state as six 24-bit limbs, least significant first. */
  readonly state = new Int32Array(6);
  /** The increment (odd) as six 24-bit limbs. */
  readonly inc = new Int32Array(6);
  /** NumPy's `has_uint32` / `uinteger`: the buffered high half of the last 64-bit output. */
  hasUint32 = false;
  uinteger = 0;
  private readonly pair = new Uint32Array(2);

  /** Seed exactly as `numpy.random.PCG64(seed)` does (through SeedSequence). */
  constructor(seed: number | bigint) {
    const [s0, s1, i0, i1] = generateState64(seed, 4);
    const initState = (s0 << 64n) | s1;
    const initSeq = (i0 << 64n) | i1;
    // pcg_setseq_128_srandom_r: state = 0, inc = seq<<1|1, step, state += init, step.
    const inc = ((initSeq << 1n) | 1n) & MOD128;
    let state = inc;
    state = (state + initState) & MOD128;
    state = (state * MULT128 + inc) & MOD128;
    this.inc.set(toLimbs(inc));
    this.state.set(toLimbs(state));
  }

  /** `random_raw()`: the next 64-bit output (step, then XSL-RR). */
  nextUint64(): bigint {
    stepLimbs(this.state, this.inc);
    outputXslRr(this.state, this.pair);
    return (BigInt(this.pair[0]) << 32n) | BigInt(this.pair[1]);
  }

  /** `next_uint32`: the low half of a fresh 64-bit output, then its buffered high half. */
  nextUint32(): number {
    if (this.hasUint32) {
      this.hasUint32 = false;
      return this.uinteger;
    }
    stepLimbs(this.state, this.inc);
    outputXslRr(this.state, this.pair);
    this.hasUint32 = true;
    this.uinteger = this.pair[0];
    return this.pair[1];
  }

  /**
   * `size` draws of Lemire's bounded method for a bound `n` with 2 ≤ n < 2^21 (so that
   * draw × n is exact in a double), written into `out`. The hot path of the bootstrap:
   * the state lives in locals and the step and output are inlined.
   */
  fillBoundedSmall(n: number, size: number, out: Int32Array): void {
    const threshold = (MASK32 - (n - 1)) % n;
    const st = this.state;
    const c = this.inc;
    let s0 = st[0],
      s1 = st[1],
      s2 = st[2],
      s3 = st[3],
      s4 = st[4],
      s5 = st[5];
    const c0 = c[0],
      c1 = c[1],
      c2 = c[2],
      c3 = c[3],
      c4 = c[4],
      c5 = c[5];
    let has = this.hasUint32;
    let buffered = this.uinteger;
    for (let i = 0; i < size; i++) {
      for (;;) {
        let draw: number;
        if (has) {
          has = false;
          draw = buffered;
        } else {
          let r = s0 * M0 + c0;
          let q = Math.floor(r * INV24);
          let lo = r - q * 16777216;
          const n0 = lo;
          r = q + s0 * M1 + s1 * M0 + c1;
          q = Math.floor(r * INV24);
          lo = r - q * 16777216;
          const n1 = lo;
          r = q + s0 * M2 + s1 * M1 + s2 * M0 + c2;
          q = Math.floor(r * INV24);
          lo = r - q * 16777216;
          const n2 = lo;
          r = q + s0 * M3 + s1 * M2 + s2 * M1 + s3 * M0 + c3;
          q = Math.floor(r * INV24);
          lo = r - q * 16777216;
          const n3 = lo;
          r = q + s0 * M4 + s1 * M3 + s2 * M2 + s3 * M1 + s4 * M0 + c4;
          q = Math.floor(r * INV24);
          lo = r - q * 16777216;
          const n4 = lo;
          r = q + s0 * M5 + s1 * M4 + s2 * M3 + s3 * M2 + s4 * M1 + s5 * M0 + c5;
          lo = r - Math.floor(r / 256) * 256;
          const n5 = lo;
          s0 = n0;
          s1 = n1;
          s2 = n2;
          s3 = n3;
          s4 = n4;
          s5 = n5;
          // XSL-RR: xor the 64-bit halves of the state, rotate right by its top 6 bits.
          const w0 = s0 | (s1 << 24);
          const w1 = (s1 >>> 8) | (s2 << 16);
          const w2 = (s2 >>> 16) | (s3 << 8);
          const w3 = s4 | (s5 << 24);
          let hi = w3 ^ w1;
          let lw = w2 ^ w0;
          let rot = w3 >>> 26;
          if (rot >= 32) {
            const t = hi;
            hi = lw;
            lw = t;
            rot -= 32;
          }
          if (rot !== 0) {
            const nhi = (hi >>> rot) | (lw << (32 - rot));
            lw = (lw >>> rot) | (hi << (32 - rot));
            hi = nhi;
          }
          has = true;
          buffered = hi >>> 0;
          draw = lw >>> 0;
        }
        const m = draw * n;
        const mHi = Math.floor(m / TWO32);
        const leftover = m - mHi * TWO32;
        if (leftover >= n || leftover >= threshold) {
          out[i] = mHi;
          break;
        }
      }
    }
    st[0] = s0;
    st[1] = s1;
    st[2] = s2;
    st[3] = s3;
    st[4] = s4;
    st[5] = s5;
    this.hasUint32 = has;
    this.uinteger = buffered;
  }
}

/** The largest exclusive upper bound `integers` supports (NumPy's 32-bit path). */
export const MAX_INTEGERS_BOUND = 2 ** 32;

/** Bounds below this take the inlined fast path (draw × n exact in a double). */
const SMALL_BOUND = 2 ** 21;

/** A NumPy `Generator` over PCG64: the draws the bootstrap needs. */
export class NumpyGenerator {
  /** The underlying bit generator. */
  readonly bitGenerator: Pcg64;

  constructor(seed: number | bigint) {
    this.bitGenerator = new Pcg64(seed);
  }

  /**
   * `Generator.integers(0, n, size=size)` (int64, endpoint False) into `out` (or a new
   * array): Lemire's method on 32-bit draws, rejecting while the low word of draw × n
   * falls below (2^32 − n) mod n, exactly as NumPy's `buffered_bounded_lemire_uint32`.
   * Values are returned as numbers (all below 2^32).
   */
  integers(n: number, size: number): Float64Array {
    const out = new Float64Array(size);
    this.integersInto(n, size, out);
    return out;
  }

  /** As `integers`, writing into a caller-owned buffer (no allocation on the hot path). */
  integersInto(n: number, size: number, out: Int32Array | Float64Array): void {
    if (!Number.isInteger(n) || n < 1 || n > MAX_INTEGERS_BOUND)
      throw new RangeError(`integers: bound must be an integer in [1, 2^32], got ${n}`);
    const bits = this.bitGenerator;
    if (n === 1) {
      out.fill(0, 0, size);
      return;
    }
    if (n < SMALL_BOUND && out instanceof Int32Array) {
      bits.fillBoundedSmall(n, size, out);
      return;
    }
    if (n === MAX_INTEGERS_BOUND) {
      for (let i = 0; i < size; i++) out[i] = bits.nextUint32();
      return;
    }
    const threshold = (MASK32 - (n - 1)) % n;
    for (let i = 0; i < size; i++) {
      let m = mul32x32(bits.nextUint32(), n);
      if (m.lo < n) {
        while (m.lo < threshold) m = mul32x32(bits.nextUint32(), n);
      }
      out[i] = m.hi;
    }
  }
}

const product = { hi: 0, lo: 0 };

/** Exact 32×32→64-bit product split into high and low words (shared scratch object). */
function mul32x32(a: number, b: number): { hi: number; lo: number } {
  const aLo = a & 0xffff;
  const aHi = a >>> 16;
  const low = aLo * b; // < 2^48
  const high = aHi * b; // < 2^48, weight 2^16
  const lowLo = low % 65536;
  const mid = (low - lowLo) / 65536 + high; // < 2^49, weight 2^16
  const midLo = mid % 65536;
  product.lo = midLo * 65536 + lowLo;
  product.hi = (mid - midLo) / 65536;
  return product;
}

/** `numpy.random.default_rng(seed)`. */
export function defaultRng(seed: number | bigint): NumpyGenerator {
  return new NumpyGenerator(seed);
}
