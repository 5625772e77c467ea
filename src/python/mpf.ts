/**
 * Enough of mpmath 1.3.0 for MathAPI.logarithm: `mp.dps = p` (bits = dps_to_prec), `log(value) / log(base)`
 * with each log and the quotient rounded to that binary precision (round-half-even), and mpmath's `repr`
 * (`mpf('2.7993393')`, digits = repr_dps(prec)). More in this folder's README.md.
 */
import type { PyObject, PyValue } from "./value.js";
import { PyException } from "./exception.js";
import { bitLength, floatToRatio, lnRatioFixed } from "./numeric.js";
import { strRepr } from "./repr.js";
import { pyRepr as reprFn } from "./repr.js";

/** A raw binary float of unbounded precision: ±man·2^exp with man odd, or a special value. */
export type RawMpf =
  | { readonly kind: "finite"; readonly neg: boolean; readonly man: bigint; readonly exp: number }
  | { readonly kind: "zero" | "inf" | "ninf" | "nan" };

const ZERO: RawMpf = { kind: "zero" };
const INF: RawMpf = { kind: "inf" };
const NINF: RawMpf = { kind: "ninf" };
const NAN: RawMpf = { kind: "nan" };

/** Python's `math.log(10, 2)`, which mpmath uses for every digits↔bits conversion. */
const LOG2_10 = 3.3219280948873626;

/** mpmath `dps_to_prec`: the binary precision `mp.dps = n` selects (2→10, 4→17, 5→20, 10→37 bits). */
export function dpsToPrec(dps: bigint): number {
  // (int(n)+1)*3.32… is a float product in Python; huge dps overflow long before it matters here
  return Math.max(1, pyRoundHalfEven((Number(dps) + 1) * LOG2_10));
}

/** mpmath `prec_to_dps`: decimal digits `str()` shows at a binary precision. */
export function precToDps(prec: number): number {
  return Math.max(1, pyRoundHalfEven(prec / LOG2_10) - 1);
}

/** mpmath `repr_dps`: digits `repr()` shows (dps + 3, or 17 at dps 15). */
export function reprDps(prec: number): number {
  const dps = precToDps(prec);
  return dps === 15 ? 17 : dps + 3;
}

/** Python's `round(float)` → int (half to even) for the moderate values used here. */
function pyRoundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** Round num/den (both > 0) to `prec` significant bits, half to even. Returns man (odd) and exponent. */
function roundRatio(num: bigint, den: bigint, prec: number, mode: "n" | "d" = "n"): { man: bigint; exp: number } {
  const s = prec + 3 - (bitLength(num) - bitLength(den));
  const n2 = s >= 0 ? num << BigInt(s) : num;
  const d2 = s >= 0 ? den : den << BigInt(-s);
  let q = n2 / d2;
  const r = n2 % d2;
  const extra = bitLength(q) - prec;
  let exp = -s;
  if (extra > 0) {
    const mask = (1n << BigInt(extra)) - 1n;
    const low = q & mask;
    q >>= BigInt(extra);
    exp += extra;
    if (mode === "n") {
      const half = 1n << BigInt(extra - 1);
      if (low > half || (low === half && (r !== 0n || (q & 1n) === 1n))) q += 1n;
    }
  } else if (extra < 0) {
    throw new Error("roundRatio: insufficient quotient bits");
  }
  if (bitLength(q) > prec) {
    q >>= 1n;
    exp += 1;
  }
  while (q !== 0n && (q & 1n) === 0n) {
    q >>= 1n;
    exp += 1;
  }
  return { man: q, exp };
}

/** A finite raw value from a signed numerator over a power-of-two/any denominator, rounded to prec bits. */
function fromRatio(num: bigint, den: bigint, prec: number, mode: "n" | "d" = "n"): RawMpf {
  if (num === 0n) return ZERO;
  const neg = num < 0n !== den < 0n;
  const { man, exp } = roundRatio(num < 0n ? -num : num, den < 0n ? -den : den, prec, mode);
  return { kind: "finite", neg, man, exp };
}

/** The exact rational value of a finite raw mpf as num/den. */
function toRatio(x: RawMpf & { kind: "finite" }): { num: bigint; den: bigint } {
  const m = x.neg ? -x.man : x.man;
  return x.exp >= 0 ? { num: m << BigInt(x.exp), den: 1n } : { num: m, den: 1n << BigInt(-x.exp) };
}

/** Exact conversion of an int or float (mpmath `from_int`/`from_float`, both exact). */
export function rawFromNumber(v: bigint | number): RawMpf {
  if (typeof v === "number") {
    if (Number.isNaN(v)) return NAN;
    if (v === Infinity) return INF;
    if (v === -Infinity) return NINF;
    if (v === 0) return ZERO;
    const { num, den } = floatToRatio(v);
    return fromRatio(num, den, 64);
  }
  if (v === 0n) return ZERO;
  return fromRatio(v, 1n, Math.max(1, bitLength(v)));
}

/** mpmath's `from_str` for plain decimal literals, rounded to prec; undefined when not one. */
function rawFromDecimalString(s: string, prec: number): RawMpf | undefined {
  const t = s.trim().toLowerCase();
  if (t === "inf" || t === "+inf" || t === "infinity" || t === "+infinity") return INF;
  if (t === "-inf" || t === "-infinity") return NINF;
  if (t === "nan") return NAN;
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/.exec(t);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  const digits = BigInt((m[2] || "0") + (m[3] ?? ""));
  if (digits === 0n) return ZERO;
  const e10 = Number(m[4] ?? "0") - (m[3] ?? "").length;
  const signed = m[1] === "-" ? -digits : digits;
  return e10 >= 0 ? fromRatio(signed * 10n ** BigInt(e10), 1n, prec) : fromRatio(signed, 10n ** BigInt(-e10), prec);
}

/** `mpmath.mpf(v)` conversion as `mpmath.log` performs it; TypeError `cannot create mpf from …` otherwise. */
export function rawFromPyValue(v: PyValue, prec: number): RawMpf {
  if (typeof v === "boolean") return rawFromNumber(v ? 1n : 0n);
  if (typeof v === "bigint" || typeof v === "number") return rawFromNumber(v);
  if (v instanceof PyMpf) return v.raw;
  if (typeof v === "string") {
    const r = rawFromDecimalString(v, prec);
    if (r) return r;
    throw new PyException("TypeError", `cannot create mpf from ${strRepr(v)}`);
  }
  throw new PyException("TypeError", `cannot create mpf from ${reprForError(v)}`);
}

function reprForError(v: PyValue): string {
  return reprFn(v);
}

// ---------------------------------------------------------------------------------------
// natural logarithm in fixed point

/** mpmath `mpf_log(x, prec, 'n')`: ln(x) rounded to prec bits; negative x is reported as undefined (complex result). */
export function rawLog(x: RawMpf, prec: number): RawMpf | undefined {
  switch (x.kind) {
    case "zero":
      return NINF;
    case "inf":
      return INF;
    case "ninf":
      return undefined;
    case "nan":
      return NAN;
  }
  if (x.neg) return undefined;
  if (x.man === 1n && x.exp === 0) return ZERO;
  // extra fractional bits: cancellation near 1 (ln x ≈ x − 1) and guard bits
  const { num, den } = toRatio(x);
  const dist = num - den; // (x − 1)·den
  const distBits = dist === 0n ? 0 : bitLength(dist < 0n ? -dist : dist) - bitLength(den);
  const F = prec + 80 + Math.max(0, -distBits) + bitLength(BigInt(Math.abs(x.exp) + 64));
  const L = lnRatioFixed(num, den, F);
  return fromRatio(L, 1n << BigInt(F), prec);
}

/** mpmath's π rounded to prec bits (for the imaginary part of the log of a negative number). */
function rawPi(prec: number): RawMpf {
  // π = 16·atan(1/5) − 4·atan(1/239) (Machin), atan via the alternating series in fixed point
  const F = prec + 40;
  const atanInv = (n: bigint): bigint => {
    const one = 1n << BigInt(F);
    let term = one / n;
    const n2 = n * n;
    let sum = 0n;
    let sign = 1n;
    for (let k = 1n; term !== 0n; k += 2n) {
      sum += (sign * term) / k;
      term /= n2;
      sign = -sign;
    }
    return sum;
  };
  const pi = 16n * atanInv(5n) - 4n * atanInv(239n);
  return fromRatio(pi, 1n << BigInt(F), prec);
}

/** Negation of a raw value. */
function rawNeg(x: RawMpf): RawMpf {
  if (x.kind === "finite") return { ...x, neg: !x.neg };
  if (x.kind === "inf") return NINF;
  if (x.kind === "ninf") return INF;
  return x;
}

/** mpmath `mpf_div(a, b, prec, rnd)`; ZeroDivisionError (empty message) on division by zero. */
export function rawDiv(a: RawMpf, b: RawMpf, prec: number, mode: "n" | "d" = "n"): RawMpf {
  if (b.kind === "zero") throw new PyException("ZeroDivisionError", "");
  if (a.kind === "nan" || b.kind === "nan") return NAN;
  if (a.kind === "zero") return b.kind === "finite" ? ZERO : ZERO;
  const aInf = a.kind === "inf" || a.kind === "ninf";
  const bInf = b.kind === "inf" || b.kind === "ninf";
  if (aInf && bInf) return NAN;
  const negOf = (x: RawMpf) => x.kind === "ninf" || (x.kind === "finite" && x.neg);
  if (aInf) return negOf(a) !== negOf(b) ? NINF : INF;
  if (bInf) return ZERO;
  const ra = toRatio(a as RawMpf & { kind: "finite" });
  const rb = toRatio(b as RawMpf & { kind: "finite" });
  return fromRatio(ra.num * rb.den, ra.den * rb.num, prec, mode);
}

/** Exact product of two raw values (mpmath `mpf_mul` without a precision). */
function rawMulExact(a: RawMpf, b: RawMpf): RawMpf {
  if (a.kind !== "finite" || b.kind !== "finite") {
    if (a.kind === "zero" || b.kind === "zero") return ZERO;
    throw new PyException("ValueError", "non-finite complex arithmetic is not modelled");
  }
  return { kind: "finite", neg: a.neg !== b.neg, man: a.man * b.man, exp: a.exp + b.exp };
}

/** a + b rounded to prec bits in the given mode (`sub` negates b). */
function rawAdd(a: RawMpf, b: RawMpf, prec: number, mode: "n" | "d"): RawMpf {
  if (a.kind === "zero") return b.kind === "finite" ? fromRatio(toRatio(b).num, toRatio(b).den, prec, mode) : b;
  if (b.kind === "zero") return a.kind === "finite" ? fromRatio(toRatio(a).num, toRatio(a).den, prec, mode) : a;
  if (a.kind !== "finite" || b.kind !== "finite") throw new PyException("ValueError", "non-finite complex arithmetic is not modelled");
  const ra = toRatio(a);
  const rb = toRatio(b);
  return fromRatio(ra.num * rb.den + rb.num * ra.den, ra.den * rb.den, prec, mode);
}

// ---------------------------------------------------------------------------------------
// decimal output (mpmath to_digits_exp / to_str)

function toDigitsExp(x: RawMpf & { kind: "finite" }, dps: number): { sign: string; digits: string; exponent: number } {
  const sign = x.neg ? "-" : "";
  const bc = bitLength(x.man);
  const bitprec = Math.trunc(dps * LOG2_10) + 10;
  const fixprec = Math.max(bitprec - x.exp - bc, 0);
  const fixdps = Math.trunc(fixprec / LOG2_10 + 0.5);
  const offset = x.exp + fixprec;
  const sf = offset >= 0 ? x.man << BigInt(offset) : x.man >> BigInt(-offset);
  const sd = (sf * 10n ** BigInt(fixdps)) >> BigInt(fixprec);
  const digits = sd.toString();
  return { sign, digits, exponent: digits.length - fixdps - 1 };
}

/** mpmath `to_str(x, dps)`: at most dps significant digits, fixed notation near unit magnitude, trailing zeros stripped. */
export function rawToStr(x: RawMpf, dps: number): string {
  switch (x.kind) {
    case "zero":
      return dps ? "0.0" : ".0";
    case "inf":
      return "+inf";
    case "ninf":
      return "-inf";
    case "nan":
      return "nan";
  }
  const minFixed = Math.min(-Math.floor(dps / 3), -5);
  const maxFixed = dps;
  let { sign, digits, exponent } = toDigitsExp(x, dps + 3);
  if (!dps) {
    if ("56789".includes(digits[0])) exponent += 1;
    digits = ".0";
  } else {
    if (digits.length > dps && "56789".includes(digits[dps])) {
      digits = digits.slice(0, dps);
      let i = dps - 1;
      while (i >= 0 && digits[i] === "9") i--;
      if (i >= 0) digits = digits.slice(0, i) + String(Number(digits[i]) + 1) + "0".repeat(dps - i - 1);
      else {
        digits = "1" + "0".repeat(dps - 1);
        exponent += 1;
      }
    } else {
      digits = digits.slice(0, dps);
    }
    let split: number;
    if (minFixed < exponent && exponent < maxFixed) {
      if (exponent < 0) {
        digits = "0".repeat(-exponent) + digits;
        split = 1;
      } else {
        split = exponent + 1;
        if (split > dps) digits += "0".repeat(split - dps);
      }
      exponent = 0;
    } else {
      split = 1;
    }
    digits = digits.slice(0, split) + "." + digits.slice(split);
    digits = digits.replace(/0+$/, "");
    if (digits.endsWith(".")) digits += "0";
  }
  if (exponent === 0 && dps) return sign + digits;
  if (exponent >= 0) return `${sign}${digits}e+${exponent}`;
  return `${sign}${digits}e${exponent}`;
}

/** Exact float value of a raw mpf (mpmath `to_float`, round-half-even). */
function rawToFloat(x: RawMpf): number {
  switch (x.kind) {
    case "zero":
      return 0;
    case "inf":
      return Infinity;
    case "ninf":
      return -Infinity;
    case "nan":
      return NaN;
  }
  const { num, den } = toRatio(x);
  return Number(num) / Number(den); // adequate for comparisons of moderate values
}

/** An mpmath `mpf`: remembers the working precision it was printed at (BFCL prints it right away). */
export class PyMpf implements PyObject {
  readonly pyTypeName = "mpf";
  constructor(
    readonly raw: RawMpf,
    /** `mp.prec` in effect when the value is printed (the call that created it set it). */
    readonly prec: number,
  ) {}
  pyRepr(): string {
    return `mpf('${rawToStr(this.raw, reprDps(this.prec))}')`;
  }
  pyStr(): string {
    return rawToStr(this.raw, precToDps(this.prec));
  }
  pyEq(other: PyValue): boolean {
    if (this.raw.kind === "nan") return false;
    let o: RawMpf;
    if (other instanceof PyMpf) o = other.raw;
    else if (typeof other === "bigint" || typeof other === "number" || typeof other === "boolean") o = rawFromPyValue(other, this.prec);
    else return false;
    return rawEquals(this.raw, o);
  }
  pyBool(): boolean {
    return this.raw.kind !== "zero";
  }
  pyFloat(): number {
    return rawToFloat(this.raw);
  }
}

function rawEquals(a: RawMpf, b: RawMpf): boolean {
  if (a.kind === "nan" || b.kind === "nan") return false;
  if (a.kind !== "finite" || b.kind !== "finite") return a.kind === b.kind;
  return a.neg === b.neg && a.man === b.man && a.exp === b.exp;
}

/** An mpmath `mpc` (complex), produced by the logarithm of a negative number. */
export class PyMpc implements PyObject {
  readonly pyTypeName = "mpc";
  constructor(
    readonly re: RawMpf,
    readonly im: RawMpf,
    readonly prec: number,
  ) {}
  pyRepr(): string {
    const d = reprDps(this.prec);
    return `mpc(real='${rawToStr(this.re, d)}', imag='${rawToStr(this.im, d)}')`;
  }
  pyStr(): string {
    // mpc_to_str: "(re + im j)" style
    const d = precToDps(this.prec);
    const re = rawToStr(this.re, d);
    const imNeg = this.im.kind === "ninf" || (this.im.kind === "finite" && this.im.neg);
    const im = rawToStr(imNeg ? rawNeg(this.im) : this.im, d);
    return `(${re} ${imNeg ? "-" : "+"} ${im}j)`;
  }
  pyEq(other: PyValue): boolean {
    if (other instanceof PyMpc) return rawEquals(this.re, other.re) && rawEquals(this.im, other.im);
    return this.im.kind === "zero" && new PyMpf(this.re, this.prec).pyEq(other);
  }
  pyBool(): boolean {
    return this.re.kind !== "zero" || this.im.kind !== "zero";
  }
}

/** The binary precision `mpmath.mp.dps = precision` selects, with Python's `int()` conversion errors. */
export function mpPrecFromDps(precision: PyValue): number {
  let n: bigint;
  if (typeof precision === "bigint") n = precision;
  else if (typeof precision === "boolean") n = precision ? 1n : 0n;
  else if (typeof precision === "number") {
    if (Number.isNaN(precision)) throw new PyException("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(precision)) throw new PyException("OverflowError", "cannot convert float infinity to integer");
    n = BigInt(Math.trunc(precision));
  } else if (typeof precision === "string" && /^\s*[+-]?\d+(?:_\d+)*\s*$/.test(precision)) {
    n = BigInt(precision.trim().replace(/_/g, ""));
  } else if (typeof precision === "string") {
    throw new PyException("ValueError", `invalid literal for int() with base 10: ${strRepr(precision)}`);
  } else {
    const t =
      precision === null
        ? "NoneType"
        : Array.isArray(precision)
          ? "list"
          : typeof precision === "object"
            ? ((precision as { pyTypeName?: string }).pyTypeName ?? "object")
            : typeof precision;
    throw new PyException("TypeError", `int() argument must be a string, a bytes-like object or a real number, not '${t}'`);
  }
  return dpsToPrec(n);
}

/**
 * Above this binary precision (about 39,000 digits) the series-based logarithm would run for
 * minutes; the call is refused with MemoryError rather than hanging the checker. mpmath itself
 * would grind through it and print a result nobody asks BFCL for.
 */
export const MAX_LOG_PREC = 1 << 17;

type Num = { re: RawMpf; im: RawMpf | null };

function logValue(v: PyValue, prec: number): Num {
  const x = rawFromPyValue(v, prec);
  const r = rawLog(x, prec);
  if (r !== undefined) return { re: r, im: null };
  // negative: log|x| + iπ (mpc_log of a real negative)
  const re = rawLog(rawNeg(x), prec)!;
  return { re, im: rawPi(prec) };
}

/**
 * `mpmath.log(value) / mpmath.log(base)` at binary precision `prec` (set it with
 * `mpPrecFromDps`). Returns a PyMpf, or a PyMpc for negative inputs; throws PyException
 * (`ZeroDivisionError` with an empty message for base 1, TypeError for non-numbers).
 */
export function mpLogRatio(value: PyValue, base: PyValue, prec: number): PyMpf | PyMpc {
  if (prec > MAX_LOG_PREC) throw new PyException("MemoryError", "");
  const a = logValue(value, prec);
  const b = logValue(base, prec);
  if (a.im === null && b.im === null) return new PyMpf(rawDiv(a.re, b.re, prec), prec);
  if (b.im === null) {
    // mpc / mpf: each part divided (mpc_div_mpf)
    return new PyMpc(rawDiv(a.re, b.re, prec), rawDiv(a.im!, b.re, prec), prec);
  }
  // mpc_div: (a+bi)/(c+di) with the sums at prec+10 rounded toward zero, then two divisions
  const A = a.re;
  const B = a.im ?? ZERO;
  const C = b.re;
  const D = b.im;
  const wp = prec + 10;
  const mag = rawAdd(rawMulExact(C, C), rawMulExact(D, D), wp, "d");
  const t = rawAdd(rawMulExact(A, C), rawMulExact(B, D), wp, "d");
  const u = rawAdd(rawMulExact(B, C), rawNeg(rawMulExact(A, D)), wp, "d");
  return new PyMpc(rawDiv(t, mag, prec), rawDiv(u, mag, prec), prec);
}
