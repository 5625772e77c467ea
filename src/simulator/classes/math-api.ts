/**
 * BFCL's MathAPI (`math_api.py`): seventeen pure functions. The result strings show Python's numeric types
 * (int, float, mpmath, Decimal), so those are reproduced, and each method catches exactly the exception types
 * BFCL catches. More in this folder's README.md.
 */
import type { ApiInstance, CallNotes, MethodSpec, ParamSpec } from "../types.js";
import type { PyObject, PyValue } from "../../python/value.js";
import { PyDict } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { pyTruthy, pyTypeName } from "../../python/kinds.js";
import { pyEquals, pyLt } from "../../python/compare.js";
import { pyAbs, pyAdd, pyMul, pyPow, pySub, pyTrueDiv } from "../../python/arithmetic.js";
import { pyRound } from "../../python/convert.js";
import { pyIter, pyLen, pyMinMax, pySum } from "../../python/iterables.js";
import { floatToRatio } from "../../python/numeric.js";
import { MAX_LOG_PREC, mpLogRatio, mpPrecFromDps, rawFromPyValue, type RawMpf } from "../../python/mpf.js";
import { strRepr } from "../../python/repr.js";
import type { PythonProcess } from "./process.js";
import { beyondBound, dict, errorDict, fmt } from "./class-support.js";

/** Runs `body`, turning a Python exception of one of `types` into BFCL's error dict. */
function catching(types: readonly string[] | "all", message: string | null, body: () => PyValue): PyValue {
  try {
    return body();
  } catch (e) {
    if (e instanceof PyException && (types === "all" || types.includes(e.pyType))) return errorDict(message ?? e.pyMessage);
    throw e;
  }
}

/** `isinstance(v, (int, float))` (bool is an int). */
function isNumber(v: PyValue): boolean {
  return typeof v === "bigint" || typeof v === "number" || typeof v === "boolean";
}

const TO_METERS = new PyDict([
  ["km", 1000n],
  ["m", 1n],
  ["cm", 0.01],
  ["mm", 0.001],
  ["um", 1e-6],
  ["nm", 1e-9],
]);
const FROM_METERS = new PyDict(TO_METERS.entries().map(([unit, factor]) => [unit, pyTrueDiv(1n, factor)] as const));

const IMPERIAL = new PyDict([
  ["cm_to_in", 0.393701],
  ["in_to_cm", 2.54],
  ["m_to_ft", 3.28084],
  ["ft_to_m", 0.3048],
  ["m_to_yd", 1.09361],
  ["yd_to_m", 0.9144],
  ["km_to_miles", 0.621371],
  ["miles_to_km", 1.60934],
  ["kg_to_lb", 2.20462],
  ["lb_to_kg", 0.453592],
  ["celsius_to_fahrenheit", 1.8],
  ["fahrenheit_to_celsius", 5 / 9],
]);

// ---------------------------------------------------------------------------------------
// decimal.Decimal, only as far as `Decimal(number).sqrt()` under `getcontext().prec = p`.

/** A finite or special Decimal: (-1)^neg · coef · 10^exp. */
interface Dec {
  readonly neg: boolean;
  readonly special?: "NaN" | "Infinity";
  readonly coef: bigint;
  readonly exp: number;
}

/** `decimal.Decimal`'s repr (`Decimal('1.4142')`, `Decimal('1E+2')`): the to-sci-string rules. */
export class PyDecimal implements PyObject {
  readonly pyTypeName = "Decimal";
  constructor(readonly value: Dec) {}
  pyStr(): string {
    const d = this.value;
    const sign = d.neg ? "-" : "";
    if (d.special) return sign + d.special;
    const digits = d.coef.toString();
    const leftDigits = d.exp + digits.length;
    const dotPlace = d.exp <= 0 && leftDigits > -6 ? leftDigits : 1;
    let intPart: string;
    let fracPart: string;
    if (dotPlace <= 0) {
      intPart = "0";
      fracPart = "." + "0".repeat(-dotPlace) + digits;
    } else if (dotPlace >= digits.length) {
      intPart = digits + "0".repeat(dotPlace - digits.length);
      fracPart = "";
    } else {
      intPart = digits.slice(0, dotPlace);
      fracPart = "." + digits.slice(dotPlace);
    }
    const e = leftDigits - dotPlace;
    const expPart = e === 0 ? "" : `E${e > 0 ? "+" : "-"}${Math.abs(e)}`;
    return sign + intPart + fracPart + expPart;
  }
  pyRepr(): string {
    return `Decimal('${this.pyStr()}')`;
  }
}

/** `Decimal(x)` for an int, bool or float: exact (floats expand their binary value). */
function decimalFromNumber(x: bigint | number | boolean): Dec {
  if (typeof x === "boolean") return { neg: false, coef: x ? 1n : 0n, exp: 0 };
  if (typeof x === "bigint") return { neg: x < 0n, coef: x < 0n ? -x : x, exp: 0 };
  if (Number.isNaN(x)) return { neg: false, special: "NaN", coef: 0n, exp: 0 };
  if (!Number.isFinite(x)) return { neg: x < 0, special: "Infinity", coef: 0n, exp: 0 };
  const neg = x < 0 || Object.is(x, -0);
  if (x === 0) return { neg, coef: 0n, exp: 0 };
  const { num, den } = floatToRatio(Math.abs(x));
  const k = den.toString(2).length - 1; // den is a power of two
  return { neg, coef: num * 5n ** BigInt(k), exp: -k };
}

function digitCount(n: bigint): number {
  return n.toString().length;
}

/** Round a coefficient to `prec` digits, half to even (decimal's `_fix` under ROUND_HALF_EVEN). */
function fixToPrecision(coef: bigint, exp: number, prec: number): { coef: bigint; exp: number } {
  const nd = digitCount(coef);
  if (nd <= prec) return { coef, exp };
  const drop = nd - prec;
  const p = 10n ** BigInt(drop);
  let q = coef / p;
  const r = coef % p;
  const half = p / 2n;
  if (r > half || (r === half && (q & 1n) === 1n)) q += 1n;
  let e = exp + drop;
  if (digitCount(q) > prec) {
    q /= 10n;
    e += 1;
  }
  return { coef: q, exp: e };
}

/** Python's floor division of a small int by two (`>> 1` on a negative odd rounds down). */
function floorHalf(n: number): number {
  return Math.floor(n / 2);
}

/** `Decimal.sqrt()` at precision `prec`, correctly rounded half-even, ideal exponent for exact roots. */
function decimalSqrt(x: Dec, prec: number): Dec {
  if (x.special === "NaN") return x;
  if (x.special === "Infinity") return x; // negative values were rejected before
  if (x.coef === 0n) return { neg: x.neg, coef: 0n, exp: floorHalf(x.exp) };
  const work = prec + 1;
  let e = floorHalf(x.exp);
  const len = digitCount(x.coef);
  let c: bigint;
  let l: number;
  if ((x.exp & 1) !== 0) {
    c = x.coef * 10n;
    l = (len >> 1) + 1;
  } else {
    c = x.coef;
    l = (len + 1) >> 1;
  }
  const shift = work - l;
  let exact: boolean;
  if (shift >= 0) {
    c *= 100n ** BigInt(shift);
    exact = true;
  } else {
    const p = 100n ** BigInt(-shift);
    exact = c % p === 0n;
    c /= p;
  }
  e -= shift;
  let n = 10n ** BigInt(work);
  for (;;) {
    const q = c / n;
    if (n <= q) break;
    n = (n + q) >> 1n;
  }
  exact = exact && n * n === c;
  if (exact) {
    if (shift >= 0) n /= 10n ** BigInt(shift);
    else n *= 10n ** BigInt(-shift);
    e += shift;
  } else if (n % 5n === 0n) {
    n += 1n;
  }
  const fixed = fixToPrecision(n, e, prec);
  return { neg: false, coef: fixed.coef, exp: fixed.exp };
}

/** Largest precision the C decimal module accepts (`MAX_PREC` on 64-bit builds). */
const DECIMAL_MAX_PREC = 999999999999999999n;

/** `getcontext().prec = v` validation: an int (or bool) in [1, MAX_PREC]. */
function decimalPrecision(v: PyValue): number {
  if (typeof v !== "bigint" && typeof v !== "boolean") {
    throw new PyException("TypeError", `'${pyTypeName(v)}' object cannot be interpreted as an integer`);
  }
  const n = typeof v === "boolean" ? (v ? 1n : 0n) : v;
  if (n > (1n << 63n) - 1n || n < -(1n << 63n)) throw new PyException("OverflowError", "Python int too large to convert to C ssize_t");
  if (n < 1n || n > DECIMAL_MAX_PREC) throw new PyException("ValueError", "valid range for prec is [1, MAX_PREC]");
  return Number(n);
}

// ---------------------------------------------------------------------------------------

function params(...names: (string | [string, () => PyValue])[]): ParamSpec[] {
  return names.map((n) => (typeof n === "string" ? { name: n } : { name: n[0], default: n[1] }));
}

/** `sum(iterable)` with the TypeError of a non-iterable. */
function sumOf(numbers: PyValue): PyValue {
  return pySum(pyIter(numbers));
}

class MathApi implements ApiInstance {
  readonly className = "MathAPI" as const;
  /** Every method is a pure function of its arguments, so one table serves every instance. */
  readonly methods: ReadonlyMap<string, MethodSpec> = (mathMethods ??= buildMathMethods());

  loadScenario(): void {
    // MathAPI is in BFCL's STATELESS_CLASSES: it has no _load_scenario and no state.
  }

  publicState(): [string, PyValue][] {
    return [];
  }
}

let mathMethods: ReadonlyMap<string, MethodSpec> | undefined;

/** MathAPI's seventeen methods (built once, on first use: they close over nothing). */
function buildMathMethods(): ReadonlyMap<string, MethodSpec> {
  const m = new Map<string, MethodSpec>();
  const def = (name: string, p: ParamSpec[], invoke: MethodSpec["invoke"]) => m.set(name, { params: p, invoke });

  def("logarithm", params("value", "base", "precision"), ([value, base, precision], _self, notes) =>
    catching("all", null, () => {
      const prec = mpPrecFromDps(dpsArgument(precision));
      // mpmath.log(value) converts, then computes (only finite non-zero values need work at
      // that precision); only then is base converted and its log computed
      if (mpConvertCheck(value).kind === "finite") hugePrecisionGuard(prec, notes);
      if (mpConvertCheck(base).kind === "finite") hugePrecisionGuard(prec, notes);
      if (prec > MAX_LOG_PREC) throw logarithmBound(prec, notes);
      try {
        return dict({ result: mpLogRatio(value, base, prec) });
      } catch (e) {
        if (e instanceof RangeError) throw logarithmBound(prec, notes); // BigInt limits; Python would not finish either
        throw e;
      }
    }),
  );
  def("mean", params("numbers"), ([numbers]) => {
    if (!pyTruthy(numbers)) return errorDict("Cannot calculate mean of an empty list");
    return catching(["TypeError"], "All elements in the list must be numbers", () => {
      const total = sumOf(numbers);
      return dict({ result: pyTrueDiv(total, BigInt(pyLen(numbers))) });
    });
  });
  def("standard_deviation", params("numbers"), ([numbers]) => {
    if (!pyTruthy(numbers)) return errorDict("Cannot calculate standard deviation of an empty list");
    return catching(["TypeError"], "All elements in the list must be numbers", () => {
      const mean = pyTrueDiv(sumOf(numbers), BigInt(pyLen(numbers)));
      const squares = pyIter(numbers).map((x) => pyPow(pySub(x, mean), 2n));
      const variance = pyTrueDiv(pySum(squares), BigInt(pyLen(numbers)));
      return dict({ result: mathSqrt(variance) });
    });
  });
  def("si_unit_conversion", params("value", "unit_in", "unit_out"), ([value, unitIn, unitOut]) => {
    if (!isNumber(value)) return errorDict("Value must be a number");
    if (!TO_METERS.has(unitIn) || !FROM_METERS.has(unitOut)) {
      return errorDict(`Conversion from '${fmt(unitIn)}' to '${fmt(unitOut)}' is not supported`);
    }
    return catching(["OverflowError"], "Conversion resulted in a value too large to represent", () => {
      const meters = pyMul(value, TO_METERS.get(unitIn)!);
      return dict({ result: pyMul(meters, FROM_METERS.get(unitOut)!) });
    });
  });
  def("imperial_si_conversion", params("value", "unit_in", "unit_out"), ([value, unitIn, unitOut]) => {
    if (!isNumber(value)) return errorDict("Value must be a number");
    if (pyEquals(unitIn, unitOut)) return dict({ result: value });
    const key = `${fmt(unitIn)}_to_${fmt(unitOut)}`;
    if (!IMPERIAL.has(key)) return errorDict(`Conversion from '${fmt(unitIn)}' to '${fmt(unitOut)}' is not supported`);
    const factor = IMPERIAL.get(key)!;
    return catching(["OverflowError"], "Conversion resulted in a value too large to represent", () => {
      let result: PyValue;
      if (pyEquals(unitIn, "celsius") && pyEquals(unitOut, "fahrenheit")) result = pyAdd(pyMul(value, factor), 32n);
      else if (pyEquals(unitIn, "fahrenheit") && pyEquals(unitOut, "celsius")) result = pyMul(pySub(value, 32n), factor);
      else result = pyMul(value, factor);
      return dict({ result });
    });
  });
  def("add", params("a", "b"), ([a, b]) => catching(["TypeError"], "Both inputs must be numbers", () => dict({ result: pyAdd(a, b) })));
  def("subtract", params("a", "b"), ([a, b]) =>
    catching(["TypeError"], "Both inputs must be numbers", () => dict({ result: pySub(a, b) })),
  );
  def("multiply", params("a", "b"), ([a, b]) => {
    if (!isNumber(a) || !isNumber(b)) return errorDict("Both inputs must be numbers");
    return catching(["TypeError"], "Both inputs must be numbers", () => dict({ result: pyMul(a, b) }));
  });
  def("divide", params("a", "b"), ([a, b]) =>
    catching(["TypeError"], "Both inputs must be numbers", () => {
      if (pyEquals(b, 0n)) return errorDict("Cannot divide by zero");
      return dict({ result: pyTrueDiv(a, b) });
    }),
  );
  def("power", params("base", "exponent"), ([base, exponent]) =>
    catching(["TypeError"], "Both inputs must be numbers", () => dict({ result: pyPow(base, exponent) })),
  );
  def("square_root", params("number", "precision"), ([number, precision], _self, notes) =>
    catching(["TypeError", "InvalidOperation"], "Input must be a number or computation resulted in an invalid operation", () => {
      if (pyLt(number, 0n)) return errorDict("Cannot calculate square root of a negative number");
      const prec = decimalPrecision(precision);
      if (!isNumber(number)) throw new PyException("TypeError", `conversion from ${pyTypeName(number)} to Decimal is not supported`);
      const x = decimalFromNumber(number as bigint | number | boolean);
      // only a finite non-zero number makes decimal work at that precision
      if (prec > MAX_SQRT_DIGITS && x.special === undefined && x.coef !== 0n) {
        throw beyondBound(
          notes,
          `square_root() at a precision of ${prec} digits (CPython's decimal would compute for minutes or more; twinscore stops above ${MAX_SQRT_DIGITS.toLocaleString("en-US")})`,
        );
      }
      return dict({ result: new PyDecimal(decimalSqrt(x, prec)) });
    }),
  );
  def("absolute_value", params("number"), ([number]) =>
    catching(["TypeError"], "Input must be a number", () => dict({ result: pyAbs(number) })),
  );
  def("round_number", params("number", ["decimal_places", () => 0n]), ([number, places]) =>
    catching(["TypeError"], "First input must be a number, second input must be an integer", () =>
      dict({ result: pyRound(number, places) }),
    ),
  );
  def("percentage", params("part", "whole"), ([part, whole]) =>
    catching(["TypeError"], "Both inputs must be numbers", () => {
      if (pyEquals(whole, 0n)) return errorDict("Whole value cannot be zero");
      return dict({ result: pyMul(pyTrueDiv(part, whole), 100n) });
    }),
  );
  def("min_value", params("numbers"), ([numbers]) => {
    if (!pyTruthy(numbers)) return errorDict("Cannot find minimum of an empty list");
    return catching(["TypeError"], "All elements in the list must be numbers", () => dict({ result: pyMinMax("min", pyIter(numbers)) }));
  });
  def("max_value", params("numbers"), ([numbers]) => {
    if (!pyTruthy(numbers)) return errorDict("Cannot find maximum of an empty list");
    return catching(["TypeError"], "All elements in the list must be numbers", () => dict({ result: pyMinMax("max", pyIter(numbers)) }));
  });
  def("sum_values", params("numbers"), ([numbers]) => {
    if (!pyTruthy(numbers)) return errorDict("Cannot calculate sum of an empty list");
    return catching(["TypeError"], "All elements in the list must be numbers", () => dict({ result: sumOf(numbers) }));
  });
  return m;
}

/** The `mp.dps` argument, with `int()`'s TypeError for containers and None raised here (named like CPython). */
function dpsArgument(v: PyValue): PyValue {
  if (v === null || typeof v === "object") {
    throw new PyException("TypeError", `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`);
  }
  return v;
}

/** mpmath's `get_complex` pattern, applied to any string argument containing "j". */
const MP_COMPLEX = /^\(?(?<re>[+-]?\d*(\.\d*)?(e[+-]?\d+)?)??(?<im>[+-]?\d*(\.\d*)?(e[+-]?\d+)?j)?\)?$/;

/**
 * The errors `mpmath.log(x)` raises while converting `x`: strings containing "j" go through
 * mpmath's complex-string fallback (no match → AttributeError on `None.group`); everything
 * else is converted by the runtime (`cannot create mpf from …`). Complex strings that do
 * parse are not modelled.
 */
function mpConvertCheck(v: PyValue): RawMpf {
  if (typeof v === "string" && v.toLowerCase().includes("j")) {
    const text = v.toLowerCase().replace(/ /g, "");
    const m = MP_COMPLEX.exec(text);
    if (!m) throw new PyException("AttributeError", "'NoneType' object has no attribute 'group'");
    const re = m.groups?.re ?? "";
    const im = (m.groups?.im ?? "").replace(/j+$/, "");
    if (re !== "") rawFromPyValue(re, 53);
    rawFromPyValue(im, 53);
    throw new PyException("TypeError", `complex string arguments are not modelled: ${strRepr(v)}`);
  }
  return rawFromPyValue(v, 53);
}

/** Binary precision above which mpmath (pure Python) runs for minutes or hours: `mp.dps = 10**7` does not finish. */
const MAX_PRACTICAL_PREC = 3_400_000;

/**
 * What happens to an absurd `mp.dps`: CPython fails fast only at the extremes (`10**300` →
 * RecursionError inside mpmath, beyond float range → OverflowError) and otherwise never
 * returns; a never-returning call is reported as not emulated and raises MemoryError here.
 */
function hugePrecisionGuard(prec: number, notes: CallNotes | undefined): void {
  if (!Number.isFinite(prec)) throw new PyException("OverflowError", "int too large to convert to float");
  if (prec >= 3.3e300) throw new PyException("RecursionError", "maximum recursion depth exceeded in comparison");
  if (prec > MAX_PRACTICAL_PREC) throw logarithmBound(prec, notes);
}

/** The bound of `logarithm`'s precision (see `MAX_LOG_PREC`): past it mpmath would compute for minutes to hours. */
function logarithmBound(prec: number, notes: CallNotes | undefined): PyException {
  return beyondBound(
    notes,
    `logarithm() at ${prec} bits of precision (mpmath would compute for minutes or more; twinscore stops above ${MAX_LOG_PREC} bits, about 39,000 digits)`,
  );
}

/**
 * The most digits `square_root` computes: 5,000 times the 20 the real runs ask for at most, about 0.3 s here.
 * Above it the call is reported as not emulated and raises MemoryError, as `logarithm` does above its bound;
 * CPython's decimal grinds for minutes to hours there too. More in this folder's README.md.
 */
export const MAX_SQRT_DIGITS = 100_000;

/** `math.sqrt(x)` for the float (or int) variance. */
function mathSqrt(x: PyValue): number {
  let f: number;
  if (typeof x === "number") f = x;
  else if (typeof x === "bigint" || typeof x === "boolean") f = Number(x);
  else throw new PyException("TypeError", `must be real number, not ${pyTypeName(x)}`);
  if (f < 0) throw new PyException("ValueError", "math domain error");
  return Math.sqrt(f);
}

/** A fresh MathAPI (stateless; the process is unused). */
export function newMathApi(_process: PythonProcess): ApiInstance {
  return new MathApi();
}
