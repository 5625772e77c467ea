/**
 * The Python value model the simulator runs on. BFCL's result strings are Python's
 * `json.dumps`/`repr` of Python values, so int vs float, tuple vs list and typed dict
 * keys are behaviour, not detail. Representation (fixed; every module relies on it):
 *
 * | Python | TypeScript |
 * |---|---|
 * | None | `null` |
 * | bool | `boolean` |
 * | int | `bigint` |
 * | float | `number` |
 * | str | `string` |
 * | list | `PyValue[]` (a plain, mutable JS array) |
 * | tuple | `PyTuple` |
 * | dict | `PyDict` (insertion-ordered; Python key equality: `1`, `1.0`, `True` share a slot, `"1"` does not) |
 * | set | `PySet` |
 * | any other object (File, Directory, mpf, Decimal, datetime …) | an object implementing `PyObject` |
 *
 * Python exceptions raised inside simulated methods are thrown as `PyException`; the
 * executor catches them and formats `Error during execution: {str(e)}` like BFCL.
 *
 * Where the behaviour lives (each checked against CPython-generated vectors in `vectors/`,
 * produced by `tools/python-vectors.py`):
 * - `repr.ts` `pyRepr`/`pyStr`/`floatRepr`/`strRepr`; `json.ts` `jsonDumps`/`jsonLoads`;
 * - `kinds.ts` type names, truthiness, the int view; `compare.ts` `==` and ordering;
 *   `arithmetic.ts` the arithmetic operators, `operators.ts` every unary and binary
 *   operator on top of them (`complex.ts` and `bytes.ts` those two types); `convert.ts`
 *   `pyFloat`/`pyInt`/`pyRound`; `iterables.ts` `pyLen`, `pyIter`, `pySum` (3.12),
 *   `pySorted`, `pyMinMax`, `pyContains`;
 * - `limits.ts` where CPython gives up on deep nesting (`vectors/nesting.json`, produced
 *   by `tools/gen-nesting-vectors.py`);
 * - `format.ts` `"{:.Nf}"`; `strings.ts` splitlines/split/strip; `copy.ts` deepcopy;
 * - `random.ts` `PyRandom`; `datetime.ts` `PyDatetime`/`pyStrptime`; `mpf.ts` mpmath log;
 * - `literal-eval.ts` `evalLiteral` over parsed expressions; `builtins.ts` `callBuiltin`;
 * - `set-order.ts` CPython set iteration order; `numeric.ts` exact float arithmetic.
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
