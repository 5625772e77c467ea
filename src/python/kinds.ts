/**
 * What kind of Python value a `PyValue` is: its `type(x).__name__`, its truth value and
 * its int view. Every operator and builtin starts here, and every TypeError message
 * names the type the way CPython does.
 */
import type { PyObject, PyValue } from "./value.js";
import { PyTuple, PyDict, PySet } from "./containers.js";

/** True for a value implementing PyObject (not None, a primitive or a built-in container). */
export function isPyObject(v: PyValue): v is PyObject {
  return (
    v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyTuple) && !(v instanceof PyDict) && !(v instanceof PySet)
  );
}

/** `type(x).__name__`, used in every TypeError message. */
export function pyTypeName(v: PyValue): string {
  if (v === null) return "NoneType";
  switch (typeof v) {
    case "boolean":
      return "bool";
    case "bigint":
      return "int";
    case "number":
      return "float";
    case "string":
      return "str";
  }
  if (Array.isArray(v)) return "list";
  if (v instanceof PyTuple) return "tuple";
  if (v instanceof PyDict) return "dict";
  if (v instanceof PySet) return "set";
  return v.pyTypeName;
}

/** `bool(x)`: empty containers, zero and None are false; other objects true unless they define `pyBool`. */
export function pyTruthy(v: PyValue): boolean {
  if (v === null) return false;
  switch (typeof v) {
    case "boolean":
      return v;
    case "bigint":
      return v !== 0n;
    case "number":
      return v !== 0; // NaN is truthy in Python, and NaN !== 0
    case "string":
      return v.length > 0;
  }
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof PyDict || v instanceof PySet) return v.size > 0;
  const b = (v as PyObject & { pyBool?: () => boolean }).pyBool;
  return b ? b.call(v) : true;
}

/** The int value of an int or bool (bool is an int subclass), else undefined. */
export function asInt(v: PyValue): bigint | undefined {
  if (typeof v === "bigint") return v;
  if (typeof v === "boolean") return v ? 1n : 0n;
  return undefined;
}
