/**
 * Python builtins a model can reach inside a call string. BFCL `eval`s call strings with
 * builtins in scope, so `get_stock_info(symbol=str('AAPL'))` or `add(a=float('2'), b=1)`
 * work there; the executor resolves class methods itself and hands other names here.
 */
import type { PyValue } from "./value.js";
import { PyTuple, PyDict, PySet } from "./containers.js";
import { PyException } from "./exception.js";
import { pyTruthy, pyTypeName } from "./kinds.js";
import { pyAbs } from "./arithmetic.js";
import { pyFloat, pyInt, pyRound } from "./convert.js";
import { pyIter, pyLen, pyMinMax, pySorted, pySum } from "./iterables.js";
import { pyRepr, pyStr } from "./repr.js";

/** Names `callBuiltin` models. */
export const MODELLED_BUILTINS: ReadonlySet<string> = new Set([
  "abs",
  "bool",
  "dict",
  "float",
  "int",
  "len",
  "list",
  "max",
  "min",
  "repr",
  "round",
  "set",
  "sorted",
  "str",
  "sum",
  "tuple",
]);

function exactlyOne(name: string, args: PyValue[]): PyValue {
  if (args.length !== 1) throw new PyException("TypeError", `${name}() takes exactly one argument (${args.length} given)`);
  return args[0];
}

function noKeywords(name: string, kwargs: [string, PyValue][]): void {
  if (kwargs.length > 0) throw new PyException("TypeError", `${name}() takes no keyword arguments`);
}

function atMost(name: string, args: PyValue[], n: number): void {
  if (args.length > n) {
    throw new PyException("TypeError", `${name} expected at most ${n} argument${n === 1 ? "" : "s"}, got ${args.length}`);
  }
}

/**
 * `name(*args, **kwargs)` for a modelled builtin, with CPython's results and messages; returns
 * undefined when `name` is not modelled (or uses a form that is not, such as `sorted(key=…)`),
 * so the caller can report Python's NameError or its own error.
 */
export function callBuiltin(name: string, args: PyValue[], kwargs: [string, PyValue][] = []): PyValue | undefined {
  return BUILTIN_CALLS.get(name)?.(name, args, kwargs);
}

type BuiltinCall = (name: string, args: PyValue[], kwargs: [string, PyValue][]) => PyValue | undefined;

/** A builtin of one optional positional argument and no keywords: `convert(arg)`, or `empty()` when called bare. */
function oneOptional(empty: () => PyValue, convert: (arg: PyValue) => PyValue): BuiltinCall {
  return (name, args, kwargs) => {
    noKeywords(name, kwargs);
    atMost(name, args, 1);
    return args.length === 0 ? empty() : convert(args[0]);
  };
}

/** A builtin of exactly one positional argument and no keywords. */
function exactlyOneArg(call: (arg: PyValue) => PyValue): BuiltinCall {
  return (name, args, kwargs) => {
    noKeywords(name, kwargs);
    return call(exactlyOne(name, args));
  };
}

/** The modelled builtins; each returns undefined for a form it does not model. */
const BUILTIN_CALLS: ReadonlyMap<string, BuiltinCall> = new Map<string, BuiltinCall>([
  ["len", exactlyOneArg((x) => BigInt(pyLen(x)))],
  ["abs", exactlyOneArg(pyAbs)],
  ["repr", exactlyOneArg(pyRepr)],
  ["bool", oneOptional(() => false, pyTruthy)],
  // the encoding and base forms are not modelled
  ["str", (_, args, kwargs) => (kwargs.length > 0 || args.length > 1 ? undefined : args.length === 0 ? "" : pyStr(args[0]))],
  ["int", (_, args, kwargs) => (kwargs.length > 0 || args.length > 1 ? undefined : args.length === 0 ? 0n : pyInt(args[0]))],
  ["float", oneOptional(() => 0, pyFloat)],
  [
    "list",
    oneOptional(
      () => [],
      (x) => [...pyIter(x)],
    ),
  ],
  [
    "tuple",
    oneOptional(
      () => new PyTuple([]),
      (x) => new PyTuple(pyIter(x)),
    ),
  ],
  [
    "set",
    oneOptional(
      () => new PySet([]),
      (x) => new PySet(pyIter(x)),
    ),
  ],
  ["dict", dictCall],
  ["round", roundCall],
  ["sum", sumCall],
  ["min", minMaxCall],
  ["max", minMaxCall],
  ["sorted", sortedCall],
]);

function dictCall(name: string, args: PyValue[], kwargs: [string, PyValue][]): PyValue {
  atMost(name, args, 1);
  const d = new PyDict();
  if (args.length === 1) {
    const src = args[0];
    if (src instanceof PyDict) for (const [k, v] of src.entries()) d.set(k, v);
    else {
      pyIter(src).forEach((item, i) => {
        const pair = Array.isArray(item) ? item : item instanceof PyTuple ? item.items : typeof item === "string" ? Array.from(item) : null;
        if (pair === null) throw new PyException("TypeError", `cannot convert dictionary update sequence element #${i} to a sequence`);
        if (pair.length !== 2) {
          throw new PyException("ValueError", `dictionary update sequence element #${i} has length ${pair.length}; 2 is required`);
        }
        d.set(pair[0], pair[1]);
      });
    }
  }
  for (const [k, v] of kwargs) d.set(k, v);
  return d;
}

function roundCall(_: string, args: PyValue[], kwargs: [string, PyValue][]): PyValue {
  let x: PyValue | undefined = args[0];
  let n: PyValue | undefined = args[1];
  for (const [k, v] of kwargs) {
    if (k === "number") x = v;
    else if (k === "ndigits") n = v;
    else throw new PyException("TypeError", `round() got an unexpected keyword argument '${k}'`);
  }
  if (args.length > 2) throw new PyException("TypeError", `round() takes at most 2 arguments (${args.length} given)`);
  if (x === undefined) throw new PyException("TypeError", "round() missing required argument 'number' (pos 1)");
  return pyRound(x, n);
}

function sumCall(_: string, args: PyValue[], kwargs: [string, PyValue][]): PyValue {
  let start: PyValue = 0n;
  for (const [k, v] of kwargs) {
    if (k === "start") start = v;
    else throw new PyException("TypeError", `sum() got an unexpected keyword argument '${k}'`);
  }
  if (args.length === 0) throw new PyException("TypeError", "sum() takes at least 1 positional argument (0 given)");
  if (args.length > 2) throw new PyException("TypeError", `sum() takes at most 2 arguments (${args.length} given)`);
  if (args.length === 2) start = args[1];
  return pySum(pyIter(args[0]), start);
}

function minMaxCall(name: string, args: PyValue[], kwargs: [string, PyValue][]): PyValue | undefined {
  if (kwargs.length > 0) return undefined; // key=/default= forms
  if (args.length === 0) throw new PyException("TypeError", `${name} expected at least 1 argument, got 0`);
  const items = args.length === 1 ? pyIter(args[0]) : args;
  return pyMinMax(name as "min" | "max", items);
}

function sortedCall(_: string, args: PyValue[], kwargs: [string, PyValue][]): PyValue | undefined {
  let reverse = false;
  for (const [k, v] of kwargs) {
    if (k === "reverse") reverse = pyTruthy(v);
    else if (k === "key") {
      if (v !== null) return undefined; // a key function cannot come from a literal
    } else throw new PyException("TypeError", `sort() got an unexpected keyword argument '${k}'`);
  }
  if (args.length !== 1) throw new PyException("TypeError", `sorted expected 1 argument, got ${args.length}`);
  return pySorted(pyIter(args[0]), { reverse });
}

/** The TypeError Python gives when a non-callable value is called. */
export function notCallable(v: PyValue): PyException {
  return new PyException("TypeError", `'${pyTypeName(v)}' object is not callable`);
}
