/**
 * The Python value model the simulator runs on. BFCL's result strings are Python's `json.dumps`/`repr` of
 * Python values, so int vs float, tuple vs list and typed dict keys are behaviour, not detail. More in this
 * folder's README.md.
 */

/** Any Python value the simulator handles. */
export type PyValue = null | boolean | bigint | number | string | PyValue[] | PyTuple | PyDict | PySet | PyObject;

/** A Python object other than the built-in containers: it knows its own repr/str/equality. */
export interface PyObject {
  /** Python's `type(x).__name__`. */
  readonly pyTypeName: string;
  pyRepr(): string;
  /** `str(x)`; defaults to `pyRepr()` when absent. */
  pyStr?(): string;
  /** `x == other`; identity when absent. */
  pyEq?(other: PyValue): boolean;
  /** `bool(x)`; true when absent (mpf/Decimal zero and empty objects override it). */
  pyBool?(): boolean;
  /** `x < other` etc.; undefined means NotImplemented (then the reflected hook, then TypeError). */
  pyCompare?(op: "<" | "<=" | ">" | ">=", other: PyValue): boolean | undefined;
  /** `float(x)`; TypeError when absent. */
  pyFloat?(): number;
  /** `int(x)`; TypeError when absent. */
  pyInt?(): bigint;
  /** `len(x)`; TypeError when absent. */
  pyLen?(): number;
  /** `iter(x)` as a list of items; TypeError when absent. */
  pyIter?(): PyValue[];
  /** `item in x`; TypeError when absent. */
  pyContains?(item: PyValue): boolean;
  /** `round(x, ndigits)`; TypeError when absent. */
  pyRound?(ndigits: PyValue | undefined): PyValue;
  /** `format(x, spec)` for specs like `.2f`; ValueError when absent. */
  pyFormat?(spec: string): string;
  /** `copy.deepcopy(x)` with the shared memo; objects without it are treated as immutable and shared. */
  pyDeepCopy?(memo: Map<object, PyValue>): PyValue;
}

/** Re-exported container and exception classes live in their own modules. */
export { PyTuple, PyDict, PySet } from "./containers.js";
export { PyException } from "./exception.js";
import type { PyTuple, PyDict, PySet } from "./containers.js";
