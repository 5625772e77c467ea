/**
 * Python's complex number, as far as BFCL's classes can produce one: a negative float
 * raised to a fractional power (`(-8) ** 0.5` in MathAPI). Its repr and equality are what
 * the result string and the checker see.
 */
import type { PyObject, PyValue } from "./value.js";
import { pyEquals } from "./compare.js";
import { floatRepr } from "./repr.js";

/** A complex number, produced only by a negative float raised to a fractional power. */
export class PyComplex implements PyObject {
  readonly pyTypeName = "complex";
  constructor(
    readonly re: number,
    readonly im: number,
  ) {}
  pyBool(): boolean {
    return this.re !== 0 || this.im !== 0;
  }
  pyRepr(): string {
    const fmt = reprFloatNoSuffix;
    const imag = `${fmt(this.im)}j`;
    if (this.re === 0 && !Object.is(this.re, -0)) return imag;
    const sign = this.im < 0 || Object.is(this.im, -0) || (Number.isNaN(this.im) && false) ? "" : "+";
    return `(${fmt(this.re)}${sign}${imag})`;
  }
  pyEq(other: PyValue): boolean {
    if (other instanceof PyComplex) return other.re === this.re && other.im === this.im;
    if (this.im !== 0) return false;
    return pyEquals(this.re, other);
  }
}

/** Complex repr prints floats like repr() but drops the `.0` of integral values. */
function reprFloatNoSuffix(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const s = floatRepr(x);
  return s.endsWith(".0") ? s.slice(0, -2) : s;
}
