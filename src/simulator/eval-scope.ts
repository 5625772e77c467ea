/**
 * Every name BFCL's `eval` of a call string can reach besides the instance names: the local variables of
 * `execute_multi_turn_func_call` at the moment of the `eval`, the globals of its module (`json`, `re`,
 * `CLASS_FILE_PATH_MAPPING`, …) and Python's builtins (`exec`, `print`, `len`, `open`, the exception classes,
 * …). More in this folder's README.md.
 */
import { PyDict, PySet, PyTuple } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { PyBytes } from "../python/bytes.js";
import { pyPow } from "../python/arithmetic.js";
import { PyComplex } from "../python/complex.js";
import { pyFloat, pyRound } from "../python/convert.js";
import { pyIter, pyLen } from "../python/iterables.js";
import { asInt, pyTypeName } from "../python/kinds.js";
import { pyRepr, pyStr, strRepr } from "../python/repr.js";
import type { PyObject, PyValue } from "../python/value.js";
import { BoundMethod, CLASS_MODULES, InstanceObject } from "./eval-objects.js";
import type { ApiInstance, MethodSpec } from "./types.js";

/** Why a call's result may differ from BFCL's. */
export type EvalNoteKind = "machine" | "not-emulated";

/** What the `eval` of one call sees of BFCL's executor call that runs it. */
export interface ExecutorFrame {
  /** `model_name`, with `_eval` appended as the checker's call does. */
  readonly modelName: string;
  readonly entryId: string;
  readonly initialConfig: PyDict;
  readonly involvedClasses: readonly string[];
  readonly longContext: boolean;
  readonly evalRun: boolean;
  /** Class → instance, in `involved_classes` order. */
  readonly instances: ReadonlyMap<string, ApiInstance>;
  /** Class → the instance's global name. */
  readonly instanceNames: ReadonlyMap<string, string>;
  /** `class_method_name_mapping`. */
  methodOwner(): ReadonlyMap<string, string>;
  /** The executor call created the instances (its first call for this entry and side): `module`, `class_` and `class_initial_config` exist. */
  readonly created: boolean;
  /** `func_call_list`: the calls of this executor call, as decoded. */
  readonly batch: readonly string[];
  /** `execution_results` so far. */
  readonly resultsSoFar: readonly string[];
  /** `func_call_result`: the last result appended, when an earlier call of the batch succeeded. */
  readonly lastResult: string | undefined;
  /** `func_call` (rewritten) and `func_call_copy` (the name the block list checked). */
  readonly funcCall: string;
  readonly funcCallCopy: string;
  /** Record that this call's result may differ from BFCL's, and why. */
  note(kind: EvalNoteKind, detail: string): void;
}

type Keywords = readonly (readonly [string, PyValue])[];

/** A callable the executor can reach (a builtin function or type, a helper object, a module function). */
export class EmulatedCallable implements PyObject {
  constructor(
    readonly pyTypeName: string,
    /** The name CPython prints for it (`print`, `int`, `OSError` for the `IOError` alias). */
    readonly name: string,
    private readonly reprText: string,
    readonly invoke: (positional: readonly PyValue[], keywords: Keywords, frame: ExecutorFrame) => PyValue,
  ) {}
  pyRepr(): string {
    return this.reprText;
  }
}

/** A value the executor can reach that twinscore does not model beyond its type (modules, loaders). */
export class OpaqueValue implements PyObject {
  constructor(
    readonly pyTypeName: string,
    private readonly reprText: string,
  ) {}
  pyRepr(): string {
    return this.reprText;
  }
}

/** An exception instance a call built (not raised): `str()` of one made without arguments. */
class ExceptionInstance implements PyObject {
  constructor(
    readonly pyTypeName: string,
    private readonly text: string,
  ) {}
  pyRepr(): string {
    return `${this.pyTypeName}()`;
  }
  pyStr(): string {
    return this.text;
  }
}

/** A value whose text the machine decides; the best guess is shown and the call noted. */
function machineText(frame: ExecutorFrame, what: string, text: string): PyValue {
  frame.note("machine", what);
  return new OpaqueValue("object", text);
}

function typeError(message: string): PyException {
  return new PyException("TypeError", message);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * CPython's argument-clinic parsing of keyword arguments (`_PyArg_UnpackKeywords`): too
 * many → "takes at most N keyword arguments"; each required parameter missing in order →
 * "missing required argument 'p' (pos k)"; then an unknown name → "'x' is an invalid
 * keyword argument". Returns the values by parameter name.
 */
function clinic(name: string, params: readonly string[], required: number, keywords: Keywords): Map<string, PyValue> {
  if (keywords.length > params.length)
    throw typeError(`${name}() takes at most ${plural(params.length, "keyword argument")} (${keywords.length} given)`);
  const got = new Map(keywords.map(([k, v]) => [k, v] as const));
  params.forEach((p, i) => {
    if (i < required && !got.has(p)) throw typeError(`${name}() missing required argument '${p}' (pos ${i + 1})`);
  });
  const unknown = keywords.find(([k]) => !params.includes(k));
  if (unknown) throw typeError(`'${unknown[0]}' is an invalid keyword argument for ${name}()`);
  return got;
}

/** `PyArg_ParseTupleAndKeywords` with optional parameters only: count, then the first unknown name. */
function optionalKeywords(name: string, params: readonly string[], keywords: Keywords, countFirst = true): Map<string, PyValue> {
  if (countFirst && keywords.length > params.length)
    throw typeError(`${name}() takes at most ${plural(params.length, "keyword argument")} (${keywords.length} given)`);
  const unknown = keywords.find(([k]) => !params.includes(k));
  if (unknown) throw typeError(`'${unknown[0]}' is an invalid keyword argument for ${name}()`);
  return new Map(keywords.map(([k, v]) => [k, v] as const));
}

/** A Python function's keyword binding: an unknown name → "f() got an unexpected keyword argument 'x'". */
function pythonKeywords(qualname: string, params: readonly string[], keywords: Keywords): Map<string, PyValue> {
  const unknown = keywords.find(([k]) => !params.includes(k));
  if (unknown) throw typeError(`${qualname}() got an unexpected keyword argument '${unknown[0]}'`);
  return new Map(keywords.map(([k, v]) => [k, v] as const));
}

/**
 * A builtin's behaviour with no arguments and with keywords only; positional arguments
 * (which no BFCL decoder writes) are not emulated.
 */
function builtin(
  pyTypeName: string,
  name: string,
  reprText: string,
  zero: (frame: ExecutorFrame) => PyValue,
  withKeywords: ((keywords: Keywords, frame: ExecutorFrame) => PyValue) | "none" = "none",
  shownName = name,
): EmulatedCallable {
  return new EmulatedCallable(pyTypeName, name, reprText, (positional, keywords, frame) => {
    if (positional.length > 0) {
      frame.note("not-emulated", `${name}() with positional arguments`);
      throw typeError(`${shownName}() with positional arguments is not emulated`);
    }
    if (keywords.length === 0) return zero(frame);
    if (withKeywords === "none") throw typeError(`${shownName}() takes no keyword arguments`);
    return withKeywords(keywords, frame);
  });
}

const fn = (name: string, zero: (frame: ExecutorFrame) => PyValue, kw: ((k: Keywords, f: ExecutorFrame) => PyValue) | "none" = "none") =>
  builtin("builtin_function_or_method", name, `<built-in function ${name}>`, zero, kw);
const type = (
  name: string,
  zero: (frame: ExecutorFrame) => PyValue,
  kw: ((k: Keywords, f: ExecutorFrame) => PyValue) | "none" = "none",
  shown = name,
) => builtin("type", name, `<class '${shown}'>`, zero, kw, shown);
const fails =
  (message: string, pyType = "TypeError") =>
  (): never => {
    throw new PyException(pyType, message);
  };

/** A set-like repr for `frozenset()`. */
const EMPTY_FROZENSET = new OpaqueValue("frozenset", "frozenset()");

/** The exception classes of Python 3.11's builtins, with the `str()` of an instance made without arguments. */
const EXCEPTION_CLASSES = [
  "ArithmeticError",
  "AssertionError",
  "AttributeError",
  "BaseException",
  "BlockingIOError",
  "BrokenPipeError",
  "BufferError",
  "BytesWarning",
  "ChildProcessError",
  "ConnectionAbortedError",
  "ConnectionError",
  "ConnectionRefusedError",
  "ConnectionResetError",
  "DeprecationWarning",
  "EOFError",
  "EncodingWarning",
  "Exception",
  "FileExistsError",
  "FileNotFoundError",
  "FloatingPointError",
  "FutureWarning",
  "GeneratorExit",
  "ImportError",
  "ImportWarning",
  "IndentationError",
  "IndexError",
  "InterruptedError",
  "IsADirectoryError",
  "KeyError",
  "KeyboardInterrupt",
  "LookupError",
  "MemoryError",
  "ModuleNotFoundError",
  "NameError",
  "NotADirectoryError",
  "NotImplementedError",
  "OSError",
  "OverflowError",
  "PendingDeprecationWarning",
  "PermissionError",
  "ProcessLookupError",
  "RecursionError",
  "ReferenceError",
  "ResourceWarning",
  "RuntimeError",
  "RuntimeWarning",
  "StopAsyncIteration",
  "StopIteration",
  "SyntaxError",
  "SyntaxWarning",
  "SystemError",
  "SystemExit",
  "TabError",
  "TimeoutError",
  "TypeError",
  "UnboundLocalError",
  "UnicodeError",
  "UnicodeWarning",
  "UserWarning",
  "ValueError",
  "Warning",
  "ZeroDivisionError",
];

/** Exception classes that take keywords: the names they accept and the name their messages use. */
const EXCEPTION_KEYWORDS: Readonly<Record<string, { readonly params: readonly string[]; readonly shown: string }>> = {
  AttributeError: { params: ["name", "obj"], shown: "AttributeError" },
  NameError: { params: ["name"], shown: "NameError" },
  UnboundLocalError: { params: ["name"], shown: "NameError" },
  ImportError: { params: ["name", "path"], shown: "ImportError" },
  ModuleNotFoundError: { params: ["name", "path"], shown: "ImportError" },
};

function exceptionClass(name: string, shown = name): EmulatedCallable {
  const text = name === "SyntaxError" || name === "IndentationError" || name === "TabError" ? "None" : "";
  const made = () => new ExceptionInstance(shown, text);
  const kw = EXCEPTION_KEYWORDS[name];
  return type(
    name,
    made,
    kw
      ? (keywords) => {
          optionalKeywords(kw.shown, kw.params, keywords);
          return made();
        }
      : "none",
    shown,
  );
}

/** The `print` keywords: `file` must have a `write` method (no literal has one), the others only print. */
function printCall(keywords: Keywords): PyValue {
  // print looks each name up in its list without counting first
  const got = optionalKeywords("print", ["sep", "end", "file", "flush"], keywords, false);
  for (const k of ["sep", "end"]) {
    const v = got.get(k);
    if (v !== undefined && v !== null && typeof v !== "string") throw typeError(`${k} must be None or a string, not ${pyTypeName(v)}`);
  }
  const file = got.get("file");
  if (file !== undefined && file !== null) throw new PyException("AttributeError", `'${pyTypeName(file)}' object has no attribute 'write'`);
  return null;
}

/** `bytes(source=…, encoding=…, errors=…)` for the literal sources BFCL's calls can carry. */
function bytesCall(name: string, keywords: Keywords, frame: ExecutorFrame): Uint8Array {
  const got = optionalKeywords(name, ["source", "encoding", "errors"], keywords);
  const source = got.get("source");
  if (source === undefined) {
    if (got.has("encoding")) throw typeError("encoding without a string argument");
    if (got.has("errors")) throw typeError("errors without a string argument");
    return new Uint8Array();
  }
  if (typeof source === "string") {
    const encoding = got.get("encoding");
    if (encoding === undefined) throw typeError("string argument without an encoding");
    if (typeof encoding === "string" && /^utf[-_]?8$/i.test(encoding)) return new TextEncoder().encode(source);
    frame.note("not-emulated", `${name}() of a str in ${pyStr(encoding)}`);
    throw typeError(`${name}() with this encoding is not emulated`);
  }
  if (got.has("encoding")) throw typeError("encoding without a string argument");
  if (got.has("errors")) throw typeError("errors without a string argument");
  if (Array.isArray(source)) {
    return Uint8Array.from(
      source.map((x) => {
        const i = asInt(x);
        if (i === undefined) throw typeError(`'${pyTypeName(x)}' object cannot be interpreted as an integer`);
        if (i < 0n || i > 255n) throw new PyException("ValueError", "bytes must be in range(0, 256)");
        return Number(i);
      }),
    );
  }
  const n = asInt(source);
  if (n !== undefined) {
    if (n < 0n) throw new PyException("ValueError", "negative count");
    if (n > 1n << 24n) {
      frame.note("not-emulated", `${name}() of ${n} zero bytes`);
      throw new PyException("MemoryError", "");
    }
    return new Uint8Array(Number(n));
  }
  if (source instanceof PyDict) {
    frame.note("not-emulated", `${name}() of a dict`);
    throw typeError(`${name}() of a dict is not emulated`);
  }
  throw typeError(`cannot convert '${pyTypeName(source)}' object to ${name}`);
}

class ByteArray implements PyObject {
  readonly pyTypeName = "bytearray";
  constructor(readonly data: Uint8Array) {}
  pyRepr(): string {
    return `bytearray(${new PyBytes(this.data).pyRepr()})`;
  }
}

/** A float literal as `float()` reads one inside a complex string (digits with `_` between, `inf`, `nan`). */
const COMPLEX_NUMBER = String.raw`(?:(?:\d(?:_?\d)*)?\.?(?:\d(?:_?\d)*)?(?:[eE][+-]?\d(?:_?\d)*)?|inf(?:inity)?|nan)`;
/** `complex(str)`: `[(] imag j [)]`, or `[(] real [±imag j] [)]`, with spaces around and inside the parentheses. */
const COMPLEX_IMAG = new RegExp(String.raw`^\s*(\()?\s*([+-]?${COMPLEX_NUMBER})[jJ]\s*(\))?\s*$`, "i");
const COMPLEX_FULL = new RegExp(String.raw`^\s*(\()?\s*([+-]?${COMPLEX_NUMBER})(?:([+-]${COMPLEX_NUMBER})[jJ])?\s*(\))?\s*$`, "i");

/** The value of one part of a complex string (empty or a bare sign stands for 1 before `j`). */
function complexPart(text: string, imaginary: boolean): number | undefined {
  const sign = text.startsWith("-") ? -1 : 1;
  const body = text.replace(/^[+-]/, "").replace(/_/g, "").toLowerCase();
  if (body === "") return imaginary ? sign : undefined;
  if (body === "inf" || body === "infinity") return sign * Infinity;
  if (body === "nan") return NaN;
  if (!/\d/.test(body)) return undefined;
  return sign * Number(body);
}

/** `complex("…")` as CPython parses it; ValueError for anything else. */
function parseComplex(text: string): PyComplex {
  const malformed = () => new PyException("ValueError", "complex() arg is a malformed string");
  const imag = COMPLEX_IMAG.exec(text);
  if (imag) {
    const im = complexPart(imag[2], true);
    if (im === undefined || Boolean(imag[1]) !== Boolean(imag[3])) throw malformed();
    return new PyComplex(0, im);
  }
  const m = COMPLEX_FULL.exec(text);
  if (!m || Boolean(m[1]) !== Boolean(m[4])) throw malformed();
  const re = complexPart(m[2], false);
  const im = m[3] === undefined ? 0 : complexPart(m[3], true);
  if (re === undefined || im === undefined) throw malformed();
  return new PyComplex(re, im);
}

/** `complex(real=…, imag=…)`. */
function complexCall(keywords: Keywords): PyValue {
  const got = optionalKeywords("complex", ["real", "imag"], keywords);
  const real = got.get("real");
  const imag = got.get("imag");
  if (typeof real === "string") {
    if (imag !== undefined) throw typeError("complex() can't take second arg if first is a string");
    return parseComplex(real);
  }
  if (typeof imag === "string") throw typeError("complex() second arg can't be a string");
  const part = (v: PyValue | undefined, which: string): number => {
    if (v === undefined) return 0;
    if (v !== null && (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean")) return pyFloat(v);
    throw typeError(`complex() ${which} argument must be a string or a number, not '${pyTypeName(v)}'`);
  };
  return new PyComplex(part(real, "first"), part(imag, "second"));
}

/** `pow(base=…, exp=…, mod=…)`. */
function powCall(keywords: Keywords, frame: ExecutorFrame): PyValue {
  const got = clinic("pow", ["base", "exp", "mod"], 2, keywords);
  const base = got.get("base") as PyValue;
  const exp = got.get("exp") as PyValue;
  const mod = got.get("mod");
  if (mod === undefined || mod === null) return pyPow(base, exp);
  const [b, e, m] = [asInt(base), asInt(exp), asInt(mod)];
  if (b === undefined || e === undefined || m === undefined)
    throw typeError("pow() 3rd argument not allowed unless all arguments are integers");
  if (m === 0n) throw new PyException("ValueError", "pow() 3rd argument cannot be 0");
  if (e < 0n) {
    frame.note("not-emulated", "pow() with a negative exponent and a modulus");
    throw new PyException("ValueError", "pow() with a negative exponent and a modulus is not emulated");
  }
  const mm = m < 0n ? -m : m;
  let result = 1n % mm;
  let x = ((b % mm) + mm) % mm;
  for (let k = e; k > 0n; k >>= 1n) {
    if (k & 1n) result = (result * x) % mm;
    x = (x * x) % mm;
  }
  return m < 0n && result !== 0n ? result + m : result;
}

/** `open(file=…, mode=…, …)`: the working directory of BFCL's process decides; the guess is that a file to read is not there. */
function openCall(keywords: Keywords, frame: ExecutorFrame): PyValue {
  const got = clinic("open", ["file", "mode", "buffering", "encoding", "errors", "newline", "closefd", "opener"], 1, keywords);
  const file = got.get("file") as PyValue;
  const mode = got.get("mode") ?? "r";
  frame.note("machine", `open(file=${pyRepr(file)}): the files of BFCL's working directory`);
  if (typeof mode === "string" && /[wax]/.test(mode)) {
    if (mode.includes("b")) return new OpaqueValue("BufferedWriter", `<_io.BufferedWriter name=${pyRepr(file)}>`);
    return new OpaqueValue("TextIOWrapper", `<_io.TextIOWrapper name=${pyRepr(file)} mode=${pyRepr(mode)} encoding='UTF-8'>`);
  }
  throw new PyException("FileNotFoundError", `[Errno 2] No such file or directory: ${pyRepr(file)}`);
}

/** The builtins module of CPython 3.11, by name (`exit` and `quit` never get here: BFCL's block list stops them). */
const BUILTINS: ReadonlyMap<string, PyValue> = (() => {
  const m = new Map<string, PyValue>();
  const exactlyOne = (name: string) => fails(`${name}() takes exactly one argument (0 given)`);
  for (const n of ["abs", "aiter", "all", "any", "ascii", "bin", "callable", "chr", "hash", "hex", "id", "len", "oct", "ord", "repr"])
    m.set(n, fn(n, exactlyOne(n)));
  // called bare, these say how many arguments they expected
  const expected = (n: string, what: string) => fails(`${n} expected ${what}, got 0`);
  const expectedArguments: readonly (readonly [string, string])[] = [
    ["anext", "at least 1 argument"],
    ["delattr", "2 arguments"],
    ["divmod", "2 arguments"],
    ["eval", "at least 1 argument"],
    ["format", "at least 1 argument"],
    ["getattr", "at least 2 arguments"],
    ["hasattr", "2 arguments"],
    ["isinstance", "2 arguments"],
    ["issubclass", "2 arguments"],
    ["iter", "at least 1 argument"],
    ["next", "at least 1 argument"],
    ["setattr", "3 arguments"],
  ];
  for (const [n, what] of expectedArguments) m.set(n, fn(n, expected(n, what)));
  // these refuse a call without positional arguments with one message, keywords or not
  const noPositional: readonly (readonly [string, string])[] = [
    ["exec", "exec() takes at least 1 positional argument (0 given)"],
    ["max", "max expected at least 1 argument, got 0"],
    ["min", "min expected at least 1 argument, got 0"],
    ["sorted", "sorted expected 1 argument, got 0"],
    ["sum", "sum() takes at least 1 positional argument (0 given)"],
    ["__build_class__", "__build_class__: not enough arguments"],
  ];
  for (const [n, message] of noPositional) m.set(n, fn(n, fails(message), fails(message)));
  m.set(
    "print",
    fn("print", () => null, printCall),
  );
  m.set(
    "round",
    fn("round", fails("round() missing required argument 'number' (pos 1)"), (kw) => {
      const got = clinic("round", ["number", "ndigits"], 1, kw);
      const nd = got.get("ndigits");
      return pyRound(got.get("number") as PyValue, nd === undefined || nd === null ? undefined : nd);
    }),
  );
  m.set("pow", fn("pow", fails("pow() missing required argument 'base' (pos 1)"), powCall));
  m.set("open", fn("open", fails("open() missing required argument 'file' (pos 1)"), openCall));
  m.set(
    "compile",
    fn("compile", fails("compile() missing required argument 'source' (pos 1)"), (kw, frame) => {
      const got = clinic("compile", ["source", "filename", "mode", "flags", "dont_inherit", "optimize", "_feature_version"], 3, kw);
      return machineText(
        frame,
        "compile(): a code object's address",
        `<code object <module> at 0x…, file ${JSON.stringify(pyStr(got.get("filename") as PyValue))}, line 1>`,
      );
    }),
  );
  m.set(
    "__import__",
    fn("__import__", fails("__import__() missing required argument 'name' (pos 1)"), (kw, frame) => {
      const got = clinic("__import__", ["name", "globals", "locals", "fromlist", "level"], 1, kw);
      const name = got.get("name") as PyValue;
      frame.note("machine", `__import__(name=${pyRepr(name)}): the modules installed with BFCL`);
      throw new PyException("ModuleNotFoundError", `No module named ${pyRepr(name)}`);
    }),
  );
  m.set(
    "breakpoint",
    fn(
      "breakpoint",
      (frame) => {
        frame.note("machine", "breakpoint(): the debugger reads BFCL's stdin");
        throw new PyException("BdbQuit", "");
      },
      (kw, frame) => {
        pythonKeywords("set_trace", ["header"], kw);
        frame.note("machine", "breakpoint(): the debugger reads BFCL's stdin");
        throw new PyException("BdbQuit", "");
      },
    ),
  );
  m.set(
    "input",
    fn("input", (frame) => {
      frame.note("machine", "input(): BFCL's stdin");
      throw new PyException("EOFError", "EOF when reading a line");
    }),
  );
  m.set(
    "dir",
    fn("dir", (frame) => localNames(frame)),
  );
  for (const n of ["globals", "locals", "vars"]) {
    m.set(
      n,
      fn(n, (frame) => machineText(frame, `${n}(): object addresses and installation paths`, `<${n}() of BFCL's executor>`)),
    );
  }
  // the types
  m.set(
    "bool",
    type("bool", () => false),
  );
  m.set(
    "float",
    type("float", () => 0),
  );
  m.set(
    "list",
    type("list", () => []),
  );
  m.set(
    "tuple",
    type("tuple", () => new PyTuple([])),
  );
  m.set(
    "set",
    type("set", () => new PySet()),
  );
  m.set(
    "frozenset",
    type("frozenset", () => EMPTY_FROZENSET),
  );
  m.set("filter", type("filter", expected("filter", "2 arguments")));
  m.set("reversed", type("reversed", expected("reversed", "1 argument")));
  m.set("range", type("range", expected("range", "at least 1 argument")));
  m.set("slice", type("slice", expected("slice", "at least 1 argument")));
  m.set("classmethod", type("classmethod", expected("classmethod", "1 argument")));
  m.set("staticmethod", type("staticmethod", expected("staticmethod", "1 argument")));
  m.set("map", type("map", fails("map() must have at least two arguments.")));
  m.set("super", type("super", fails("super(): no arguments", "RuntimeError")));
  m.set("type", type("type", fails("type() takes 1 or 3 arguments"), fails("type() takes 1 or 3 arguments")));
  m.set(
    "object",
    type(
      "object",
      (frame) => machineText(frame, "object(): a memory address", "<object object at 0x…>"),
      fails("object() takes no arguments"),
    ),
  );
  m.set(
    "dict",
    type(
      "dict",
      () => new PyDict(),
      (kw) => new PyDict(kw.map(([k, v]) => [k, v] as const)),
    ),
  );
  m.set(
    "int",
    type(
      "int",
      () => 0n,
      (kw) => {
        const unknown = kw.find(([k]) => k !== "base");
        if (kw.length > 2) throw typeError(`int() takes at most 2 keyword arguments (${kw.length} given)`);
        if (unknown) throw typeError(`'${unknown[0]}' is an invalid keyword argument for int()`);
        throw typeError("int() missing string argument");
      },
    ),
  );
  m.set(
    "str",
    type(
      "str",
      () => "",
      (kw, frame) => {
        const got = optionalKeywords("str", ["object", "encoding", "errors"], kw);
        const object = got.get("object");
        if (object === undefined) return "";
        if (!got.has("encoding") && !got.has("errors")) return pyStr(object);
        if (typeof object === "string") throw typeError("decoding str is not supported");
        frame.note("not-emulated", "str() with an encoding");
        throw typeError("str() with an encoding is not emulated");
      },
    ),
  );
  m.set(
    "bytes",
    type(
      "bytes",
      () => new PyBytes(new Uint8Array()),
      (kw, frame) => new PyBytes(bytesCall("bytes", kw, frame)),
    ),
  );
  m.set(
    "bytearray",
    type(
      "bytearray",
      () => new ByteArray(new Uint8Array()),
      (kw, frame) => new ByteArray(bytesCall("bytearray", kw, frame)),
    ),
  );
  m.set(
    "complex",
    type("complex", () => new PyComplex(0, 0), complexCall),
  );
  m.set(
    "memoryview",
    type("memoryview", fails("memoryview() missing required argument 'object' (pos 1)"), (kw) => {
      const got = clinic("memoryview", ["object"], 1, kw);
      throw typeError(`memoryview: a bytes-like object is required, not '${pyTypeName(got.get("object") as PyValue)}'`);
    }),
  );
  m.set(
    "enumerate",
    type("enumerate", fails("enumerate() missing required argument 'iterable'"), (kw, frame) => {
      if (kw.length > 2) throw typeError(`enumerate() takes at most 2 arguments (${kw.length} given)`);
      if (kw[0][0] !== "iterable") throw typeError(`'${kw[0][0]}' is an invalid keyword argument for enumerate()`);
      if (kw.length === 2 && kw[1][0] !== "start") throw typeError(`'${kw[1][0]}' is an invalid keyword argument for enumerate()`);
      return machineText(frame, "enumerate(): a memory address", "<enumerate object at 0x…>");
    }),
  );
  m.set(
    "zip",
    type(
      "zip",
      (frame) => machineText(frame, "zip(): a memory address", "<zip object at 0x…>"),
      (kw, frame) => {
        optionalKeywords("zip", ["strict"], kw);
        return machineText(frame, "zip(): a memory address", "<zip object at 0x…>");
      },
    ),
  );
  m.set(
    "property",
    type(
      "property",
      (frame) => machineText(frame, "property(): a memory address", "<property object at 0x…>"),
      (kw, frame) => {
        optionalKeywords("property", ["fget", "fset", "fdel", "doc"], kw);
        return machineText(frame, "property(): a memory address", "<property object at 0x…>");
      },
    ),
  );
  // the exceptions
  for (const n of EXCEPTION_CLASSES) m.set(n, exceptionClass(n));
  m.set("EnvironmentError", exceptionClass("OSError"));
  m.set("IOError", exceptionClass("OSError"));
  for (const n of ["BaseExceptionGroup", "ExceptionGroup"]) {
    m.set(
      n,
      type(
        n,
        fails("BaseExceptionGroup.__new__() takes exactly 2 arguments (0 given)"),
        fails("BaseExceptionGroup.__new__() takes exactly 2 arguments (0 given)"),
      ),
    );
  }
  m.set("UnicodeDecodeError", type("UnicodeDecodeError", fails("function takes exactly 5 arguments (0 given)")));
  m.set("UnicodeEncodeError", type("UnicodeEncodeError", fails("function takes exactly 5 arguments (0 given)")));
  m.set("UnicodeTranslateError", type("UnicodeTranslateError", fails("function takes exactly 4 arguments (0 given)")));
  // site's helpers: they print (to stdout, which the result never shows) and return None
  const printer = (n: string, zero: (frame: ExecutorFrame) => PyValue) =>
    new EmulatedCallable("_Printer", n, `<${n}>`, (positional, kw, frame) => {
      if (positional.length > 0) throw typeError(`_Printer.__call__() takes 1 positional argument but ${positional.length + 1} were given`);
      if (kw.length > 0) throw typeError(`_Printer.__call__() got an unexpected keyword argument '${kw[0][0]}'`);
      return zero(frame);
    });
  m.set(
    "copyright",
    printer("copyright", () => null),
  );
  m.set(
    "credits",
    printer("credits", () => null),
  );
  m.set(
    "license",
    printer("license", (frame) => {
      frame.note("machine", "license(): the pager reads BFCL's stdin");
      throw new PyException("EOFError", "EOF when reading a line");
    }),
  );
  m.set(
    "help",
    new EmulatedCallable(
      "_Helper",
      "help",
      "Type help() for interactive help, or help(object) for help about object.",
      (positional, kw, frame) => {
        if (positional.length > 0) {
          frame.note("not-emulated", "help() with positional arguments");
          return null;
        }
        pythonKeywords("Helper.__call__", ["request"], kw);
        if (kw.length === 0) frame.note("machine", "help(): interactive help reads BFCL's stdin");
        return null;
      },
    ),
  );
  m.set("Ellipsis", new OpaqueValue("ellipsis", "Ellipsis"));
  m.set("NotImplemented", new OpaqueValue("NotImplementedType", "NotImplemented"));
  m.set("__debug__", true);
  m.set("None", null);
  m.set("True", true);
  m.set("False", false);
  return m;
})();

const MODULE = "bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils";
const PACKAGE = "bfcl_eval.eval_checker.multi_turn_eval";

/** A function of BFCL's executor module, bound like a Python function (keywords only). */
function moduleFunction(
  name: string,
  params: readonly string[],
  required: number,
  body: (args: Map<string, PyValue>, frame: ExecutorFrame) => PyValue,
): EmulatedCallable {
  return new EmulatedCallable("function", name, `<function ${name} at 0x…>`, (positional, kw, frame) => {
    if (positional.length > 0) {
      frame.note("not-emulated", `${name}() with positional arguments`);
      throw typeError(`${name}() with positional arguments is not emulated`);
    }
    const got = pythonKeywords(name, params, kw);
    const missing = params.slice(0, required).filter((p) => !got.has(p));
    if (missing.length > 0) {
      const q = missing.map((p) => `'${p}'`);
      const list = q.length === 1 ? q[0] : q.length === 2 ? `${q[0]} and ${q[1]}` : `${q.slice(0, -1).join(", ")}, and ${q[q.length - 1]}`;
      throw typeError(`${name}() missing ${missing.length} required positional argument${missing.length === 1 ? "" : "s"}: ${list}`);
    }
    return body(got, frame);
  });
}

/** The globals of BFCL's `multi_turn_utils` module (the same names in v3 final and in v4). */
const MODULE_GLOBALS: ReadonlyMap<string, PyValue> = new Map<string, PyValue>([
  ["__name__", MODULE],
  ["__doc__", null],
  ["__package__", PACKAGE],
  ["__loader__", new OpaqueValue("SourceFileLoader", "<_frozen_importlib_external.SourceFileLoader object at 0x…>")],
  ["__spec__", new OpaqueValue("ModuleSpec", `ModuleSpec(name='${MODULE}')`)],
  ["__file__", `…/${MODULE.replace(/\./g, "/")}.py`],
  ["__cached__", `…/${PACKAGE.replace(/\./g, "/")}/__pycache__/multi_turn_utils.pyc`],
  ["__builtins__", new OpaqueValue("dict", "{'__name__': 'builtins', …}")],
  ...["copy", "importlib", "inspect", "json", "re"].map((n) => [n, new OpaqueValue("module", `<module '${n}'>`)] as const),
  [
    "CLASS_FILE_PATH_MAPPING",
    new PyDict(
      Object.entries(CLASS_MODULES).map(([c, mod]) => [c, `bfcl_eval.eval_checker.multi_turn_eval.func_source_code.${mod}`] as const),
    ),
  ],
  ["STATELESS_CLASSES", ["MathAPI"]],
  [
    "execute_multi_turn_func_call",
    moduleFunction(
      "execute_multi_turn_func_call",
      ["func_call_list", "initial_config", "involved_classes", "model_name", "test_entry_id", "long_context", "is_evaL_run"],
      5,
      (_a, frame) => {
        frame.note("not-emulated", "a call of execute_multi_turn_func_call itself");
        throw typeError("execute_multi_turn_func_call() called from a call string is not emulated");
      },
    ),
  ],
  [
    "is_empty_execute_response",
    moduleFunction("is_empty_execute_response", ["input_list"], 1, (a) => {
      const list = a.get("input_list") as PyValue;
      const n = pyLen(list);
      if (n === 0) return true;
      return n === 1 && pyLen(pyIter(list)[0]) === 0;
    }),
  ],
  [
    "_process_method_calls",
    moduleFunction("_process_method_calls", ["function_call_string", "instance_mapping"], 2, (_a, frame) => {
      frame.note("not-emulated", "a call of _process_method_calls itself");
      throw typeError("_process_method_calls() called from a call string is not emulated");
    }),
  ],
]);

const FUNC_SOURCE = "bfcl_eval.eval_checker.multi_turn_eval.func_source_code";

/** The last involved class that the executor loop ended on (its locals describe it). */
function lastClass(frame: ExecutorFrame): { cls: string; inst: ApiInstance } | undefined {
  const cls = frame.involvedClasses[frame.involvedClasses.length - 1];
  const inst = cls === undefined ? undefined : frame.instances.get(cls);
  return inst ? { cls, inst } : undefined;
}

/** `method` after the loop over `inspect.getmembers`: the last method in name order of the last class. */
function lastMethod(inst: ApiInstance): [string, MethodSpec] | undefined {
  let best: [string, MethodSpec] | undefined;
  for (const [name, spec] of inst.methods) if (best === undefined || name > best[0]) best = [name, spec];
  return best;
}

/**
 * The local variables of `execute_multi_turn_func_call` bound when it `eval`s a call, in
 * the order they were bound (`dir()` sorts them). `module`, `class_` and
 * `class_initial_config` exist only in the call that created the instances;
 * `func_call_result` once a call of the same batch has succeeded.
 */
function locals(frame: ExecutorFrame): Map<string, () => PyValue> {
  const out = new Map<string, () => PyValue>();
  out.set("func_call_list", () => [...frame.batch]);
  out.set("initial_config", () => frame.initialConfig);
  out.set("involved_classes", () => [...frame.involvedClasses]);
  out.set("model_name", () => frame.modelName);
  out.set("test_entry_id", () => frame.entryId);
  out.set("long_context", () => frame.longContext);
  out.set("is_evaL_run", () => frame.evalRun);
  out.set("class_method_name_mapping", () => new PyDict([...frame.methodOwner()]));
  out.set("involved_instances", () => new PyDict([...frame.instances].map(([c, i]) => [c, new InstanceObject(i, i.className)] as const)));
  const last = lastClass(frame);
  if (last) {
    out.set("class_name", () => last.cls);
    out.set("module_name", () => `${FUNC_SOURCE}.${CLASS_MODULES[last.cls] ?? last.cls}`);
    out.set("instance_name", () => frame.instanceNames.get(last.cls) ?? "");
    if (frame.created) {
      out.set("module", () => new OpaqueValue("module", `<module '${FUNC_SOURCE}.${CLASS_MODULES[last.cls] ?? last.cls}'>`));
      out.set("class_", () => classObject(last.cls));
      const configured = [...frame.involvedClasses].reverse().find((c) => c !== "MathAPI");
      if (configured !== undefined) {
        out.set("class_initial_config", () => {
          const c = frame.initialConfig.get(configured);
          return c === undefined ? new PyDict() : c;
        });
      }
    }
    out.set("class_instance", () => new InstanceObject(last.inst, last.cls));
    const m = lastMethod(last.inst);
    if (m) {
      out.set("method_name", () => m[0]);
      out.set("method", () => new BoundMethod(last.cls, m[0], m[1], last.inst));
    }
  }
  out.set("execution_results", () => [...frame.resultsSoFar]);
  out.set("func_call", () => frame.funcCall);
  out.set("func_call_copy", () => frame.funcCallCopy);
  if (frame.lastResult !== undefined) {
    const r = frame.lastResult;
    out.set("func_call_result", () => r);
  }
  return out;
}

/** An API class itself (`class_`): calling it with arguments fails in `__init__`; without, a new instance at some address. */
function classObject(cls: string): EmulatedCallable {
  return new EmulatedCallable("type", cls, `<class '${FUNC_SOURCE}.${CLASS_MODULES[cls] ?? cls}.${cls}'>`, (positional, kw, frame) => {
    if (positional.length > 0) throw typeError(`${cls}.__init__() takes 1 positional argument but ${positional.length + 1} were given`);
    if (kw.length > 0) throw typeError(`${cls}.__init__() got an unexpected keyword argument '${kw[0][0]}'`);
    return machineText(frame, `${cls}(): a memory address`, `<${FUNC_SOURCE}.${CLASS_MODULES[cls] ?? cls}.${cls} object at 0x…>`);
  });
}

/** `dir()` in the executor: the sorted names of its bound locals. */
function localNames(frame: ExecutorFrame): PyValue[] {
  return [...locals(frame).keys()].sort();
}

/**
 * What `name` means in BFCL's `eval` of the current call (locals, then the module's
 * globals, then builtins), or undefined for a NameError. Instance names are resolved by
 * the caller first.
 */
export function scopeValue(name: string, frame: ExecutorFrame): PyValue | undefined {
  const local = locals(frame).get(name);
  if (local) return local();
  const global = MODULE_GLOBALS.get(name);
  if (global !== undefined) return global;
  return BUILTINS.get(name);
}

/**
 * `value.attr` for the values this module supplies: a builtin's `__name__`, CPython's
 * AttributeError for a builtin function; anything else (module contents, methods of types
 * and plain values) is not emulated. Undefined when `value` is not one of them.
 */
export function scopeAttribute(value: PyValue, attr: string, frame: ExecutorFrame): PyValue | undefined {
  if (value instanceof EmulatedCallable) {
    if (attr === "__name__" || attr === "__qualname__") return value.name;
    if (value.pyTypeName === "builtin_function_or_method" && !attr.startsWith("__")) {
      throw new PyException("AttributeError", `'builtin_function_or_method' object has no attribute '${attr}'`);
    }
  }
  if (value instanceof BoundMethod) {
    if (attr === "__name__") return value.methodName;
    if (!attr.startsWith("__")) throw new PyException("AttributeError", `'function' object has no attribute '${attr}'`);
  }
  frame.note("not-emulated", `the attribute ${strRepr(attr)} of a ${pyTypeName(value)}`);
  return undefined;
}
