/**
 * Python's fixed-point float formatting (`f"{x:.2f}"`, `"%.2f" % x`, `format(x, ".2f")`).
 * CPython rounds the exact binary value half-to-even (`53.125` → `53.12`, `0.125` → `0.12`),
 * which JS `toFixed` does not always match; TradingBot and `du -h` print money and sizes this way.
 */
import type { PyValue } from "./value.js";
import { PyException } from "./exception.js";
import { roundDecimalString } from "./numeric.js";

function typeName(v: PyValue): string {
  if (v === null) return "NoneType";
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "list";
  if (typeof v === "object") return (v as { pyTypeName?: string }).pyTypeName ?? "object";
  return typeof v;
}

/** `format(x, f".{digits}f")` for int, bool or float x; ints are converted to float first, as CPython does. */
export function formatFixed(x: PyValue, digits: number): string {
  let f: number;
  if (typeof x === "number") f = x;
  else if (typeof x === "bigint" || typeof x === "boolean") {
    f = Number(typeof x === "boolean" ? (x ? 1n : 0n) : x);
    if (!Number.isFinite(f)) throw new PyException("OverflowError", "int too large to convert to float");
  } else {
    const hook = x !== null && typeof x === "object" ? (x as { pyFormat?: (spec: string) => string }).pyFormat : undefined;
    if (hook) return hook.call(x, `.${digits}f`);
    throw new PyException("ValueError", `Unknown format code 'f' for object of type '${typeName(x)}'`);
  }
  if (Number.isNaN(f)) return "nan";
  if (f === Infinity) return "inf";
  if (f === -Infinity) return "-inf";
  const { negative, text } = roundDecimalString(f, digits);
  return negative ? `-${text}` : text;
}
