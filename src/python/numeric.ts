/**
 * Exact arithmetic on binary floats. CPython rounds `round(x, n)`, `"{:.2f}"` and
 * int/int true division on the exact binary value (correctly rounded), which plain JS
 * `toFixed`/`Math.round` do not; these helpers do it with BigInt.
 */

/** The exact value of a finite float as `num / den` (den a power of two, num signed). */
export function floatToRatio(x: number): { num: bigint; den: bigint } {
  if (!Number.isFinite(x)) throw new RangeError("floatToRatio of a non-finite value");
  if (x === 0) return { num: 0n, den: 1n };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const sign = hi >>> 31 ? -1n : 1n;
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (bexp === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = bexp - 1075;
  }
  if (e >= 0) return { num: sign * (mant << BigInt(e)), den: 1n };
  // reduce the power of two so small fractions stay small
  let shift = BigInt(-e);
  while (shift > 0n && (mant & 1n) === 0n) {
    mant >>= 1n;
    shift -= 1n;
  }
  return { num: sign * mant, den: 1n << shift };
}

/** Bit length of a non-negative bigint (`int.bit_length()`). */
export function bitLength(n: bigint): number {
  if (n < 0n) n = -n;
  return n === 0n ? 0 : n.toString(2).length;
}

/**
 * The float nearest to num/den (ties to even), or ±Infinity when it overflows. Used for
 * int/int true division and exact powers, where CPython is correctly rounded.
 */
export function ratioToFloat(num: bigint, den: bigint): number {
  if (den === 0n) throw new RangeError("ratioToFloat with zero denominator");
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const neg = num < 0n;
  if (neg) num = -num;
  if (num === 0n) return neg ? -0 : 0;
  // scale so the integer quotient has at least 55 significant bits, plus a sticky bit
  let shift = 55 - (bitLength(num) - bitLength(den));
  // keep subnormal results exact: never ask for more precision than 2^-1074 allows
  if (shift > 1074 + 55) shift = 1074 + 55;
  let q: bigint;
  let r: bigint;
  if (shift >= 0) {
    const n2 = num << BigInt(shift);
    q = n2 / den;
    r = n2 % den;
  } else {
    const d2 = den << BigInt(-shift);
    q = num / d2;
    r = num % d2;
  }
  if (r !== 0n) q |= 1n;
  let value: number;
  if (shift > 1074) {
    // result is subnormal (or tiny): round q at the 2^-1074 grid explicitly
    const drop = BigInt(shift - 1074);
    const unit = 1n << drop;
    let m = q >> drop;
    const rem = q & (unit - 1n);
    const half = unit >> 1n;
    if (rem > half || (rem === half && (m & 1n) === 1n)) m += 1n;
    value = Number(m) * 2 ** -1074;
  } else {
    const qf = Number(q); // correctly rounded: q has >= 55 bits with a sticky LSB
    value = shift >= 0 ? scalePow2(qf, -shift) : scalePow2(qf, -shift);
  }
  return neg ? -value : value;
}

function scalePow2(x: number, e: number): number {
  // multiply in steps so intermediate powers of two stay representable
  while (e > 1000) {
    x *= 2 ** 1000;
    e -= 1000;
  }
  while (e < -1000) {
    x *= 2 ** -1000;
    e += 1000;
  }
  return x * 2 ** e;
}

/**
 * Round the exact value of float x to `ndigits` decimal places, half to even, returned as
 * a signed decimal digit string with exactly max(ndigits, 0) fraction digits (ndigits < 0
 * rounds to tens, hundreds …). The shared core of `round(x, n)` and `"%.nf"`.
 */
export function roundDecimalString(x: number, ndigits: number): { negative: boolean; text: string } {
  const { num, den } = floatToRatio(x);
  const negative = num < 0n || Object.is(x, -0);
  const a = num < 0n ? -num : num;
  let scaledNum: bigint;
  let scaledDen: bigint;
  if (ndigits >= 0) {
    scaledNum = a * 10n ** BigInt(ndigits);
    scaledDen = den;
  } else {
    scaledNum = a;
    scaledDen = den * 10n ** BigInt(-ndigits);
  }
  let q = scaledNum / scaledDen;
  const r2 = (scaledNum % scaledDen) * 2n;
  if (r2 > scaledDen || (r2 === scaledDen && (q & 1n) === 1n)) q += 1n;
  if (ndigits <= 0) {
    const s = ndigits < 0 && q !== 0n ? q.toString() + "0".repeat(-ndigits) : q.toString();
    return { negative, text: s };
  }
  let s = q.toString().padStart(ndigits + 1, "0");
  s = `${s.slice(0, s.length - ndigits)}.${s.slice(s.length - ndigits)}`;
  return { negative, text: s };
}

const ln2Cache = new Map<number, bigint>();

/** atanh(p/q)·2^F by the odd power series; converges fast for |p/q| ≤ 0.18. */
function atanhFixed(p: bigint, q: bigint, F: number): bigint {
  // work on |p/q|: arithmetic right shifts of negative terms would never reach zero
  if (p < 0n) return -atanhFixed(-p, q, F);
  const bf = BigInt(F);
  const z = (p << bf) / q;
  const z2 = (z * z) >> bf;
  let term = z;
  let sum = 0n;
  for (let k = 1n; term !== 0n; k += 2n) {
    sum += term / k;
    term = (term * z2) >> bf;
  }
  return sum;
}

/** ln 2 · 2^F (cached per F). */
export function ln2Fixed(F: number): bigint {
  let v = ln2Cache.get(F);
  if (v === undefined) {
    v = 2n * atanhFixed(1n, 3n, F);
    ln2Cache.set(F, v);
  }
  return v;
}

/** ln(num/den)·2^F for a positive rational, absolute error a few units of 2^-F. */
export function lnRatioFixed(num: bigint, den: bigint, F: number): bigint {
  if (num <= 0n || den <= 0n) throw new RangeError("lnRatioFixed of a non-positive value");
  let k = bitLength(num) - bitLength(den);
  let mNum = num;
  let mDen = den;
  if (k >= 0) mDen <<= BigInt(k);
  else mNum <<= BigInt(-k);
  // m in (1/2, 2); move into [1/√2, √2]
  if (mNum * mNum > 2n * mDen * mDen) {
    mDen <<= 1n;
    k += 1;
  } else if (2n * mNum * mNum < mDen * mDen) {
    mNum <<= 1n;
    k -= 1;
  }
  const G = F + 8;
  const total = 2n * atanhFixed(mNum - mDen, mNum + mDen, G) + BigInt(k) * ln2Fixed(G);
  return total >> 8n;
}

/** exp(z) for a fixed-point z (z·2^F given) as mantissa·2^exp2 with mantissa ≈ 2^F, relative error ~2^-(F-8). */
export function expFixed(zF: bigint, F: number): { mant: bigint; exp2: number } {
  const G = F + 16;
  const bg = BigInt(G);
  const z = zF << 16n;
  const ln2 = ln2Fixed(G);
  // k = round(z / ln2)
  let k = z / ln2;
  let r = z - k * ln2;
  if (2n * r > ln2) {
    k += 1n;
    r -= ln2;
  } else if (2n * r < -ln2) {
    k -= 1n;
    r += ln2;
  }
  // halve r eight times, Taylor, square back (BigInt division truncates toward zero, so terms vanish)
  const s = 8n;
  r /= 1n << s;
  const one = 1n << bg;
  let term = one;
  let sum = one;
  for (let i = 1n; term !== 0n; i++) {
    term = (term * r) / (one * i);
    sum += term;
  }
  for (let i = 0n; i < s; i++) sum = (sum * sum) >> bg;
  return { mant: sum, exp2: Number(k) - G };
}

/**
 * x**y for finite x > 0 and finite y, correctly rounded (what glibc's `pow` returns in all
 * but astronomically rare cases; V8's Math.pow is often one ulp off).
 */
export function powPositive(x: number, y: number): number {
  if (x === 1 || y === 0) return 1;
  const rx = floatToRatio(x);
  const ry = floatToRatio(y);
  // rough magnitude first: outside ±1100 nats the result is 0 or inf
  const approx = y * Math.log(x);
  if (approx > 745) return Infinity;
  if (approx < -760) return 0;
  const F = 128 + Math.max(0, bitLength(ry.num) - bitLength(ry.den));
  const lnx = lnRatioFixed(rx.num, rx.den, F);
  const zF = (lnx * ry.num) / ry.den;
  const { mant, exp2 } = expFixed(zF, F);
  return exp2 >= 0 ? ratioToFloat(mant << BigInt(exp2), 1n) : ratioToFloat(mant, 1n << BigInt(-exp2));
}
