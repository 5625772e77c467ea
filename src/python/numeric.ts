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
