/**
 * BFCL's `execute_multi_turn_func_call`, without `eval`: a call string is rewritten exactly as BFCL rewrites
 * it, parsed with the project's Python grammar and interpreted on the live simulated instances, with Python's
 * binding, results and error strings. Nothing escapes: hostile input yields an error string. More in this
 * folder's README.md.
 */
import type { PyExpr, PySyntaxError } from "../python/ast.js";
import { PyDict, PyTuple } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { jsonDumps } from "../python/json.js";
import { evalLiteral, type LiteralEvalHooks } from "../python/literal-eval.js";
import { pyTypeName } from "../python/kinds.js";
import { pyIter } from "../python/iterables.js";
import { parseExpression } from "../python/parse.js";
import { isPrintableCodePoint, pyStr } from "../python/repr.js";
import type { PyValue } from "../python/value.js";
import { bfclInstanceName, evaluatorRevision, instanceEntryKey, type EvaluatorRevision } from "../bfcl/evaluator-versions.js";
import type { ApiInstance, LongContextData, MethodSpec } from "./types.js";
import type { PythonProcess } from "./classes/process.js";
import { BoundMethod, InstanceObject, moduleQualname } from "./eval-objects.js";
import { EmulatedCallable, scopeAttribute, scopeValue, type EvalNoteKind, type ExecutorFrame } from "./eval-scope.js";

/** A call whose result may differ from BFCL's: it depends on BFCL's machine, or twinscore does not emulate it. */
export interface EvalNote {
  readonly entryId: string;
  /** The call as decoded. */
  readonly call: string;
  readonly kind: EvalNoteKind;
  readonly detail: string;
}

/** Creates a fresh instance of a class by name (BFCL's class constructor), or undefined for an unknown class. */
export type InstanceFactory = (className: string) => ApiInstance | undefined;

/** Classes BFCL never loads a scenario into (`STATELESS_CLASSES`). */
export const STATELESS_CLASSES: ReadonlySet<string> = new Set(["MathAPI"]);

/** BFCL's evaluator blocks these names before evaluating a call. */
export const BLOCKED_NAMES: ReadonlySet<string> = new Set(["kill", "exit", "quit", "remove", "unlink", "popen", "Popen", "run"]);

/**
 * The Python process BFCL's evaluator runs in: the instances it has created so far, by instance name, the
 * model's and the reference's side by side under different names. How its process-global behaviour follows
 * BFCL's (one process per model folder here) is in this folder's README.md.
 */
export class EvaluatorProcess {
  /** `globals()` entries holding instances, by BFCL instance name. */
  readonly instances = new Map<string, ApiInstance>();

  constructor(
    readonly factory: InstanceFactory,
    /** long_context filler, handed to every instance loaded with `long_context=True`. */
    readonly filler?: LongContextData,
    /**
     * Keep every instance for the whole run, as BFCL's globals do. Only needed when a
     * call names an instance by its global name (see `InstanceNamedInCall`); off,
     * finished entries are released and the checker is faster.
     */
    readonly exact: boolean = false,
    /** The BFCL release whose evaluator this process stands for (instance names, runner, score files). */
    readonly revision: EvaluatorRevision = evaluatorRevision("v4"),
    /** The module-level state of the classes (shared mutable defaults), when the caller knows it. */
    readonly moduleState?: PythonProcess,
  ) {}

  private readonly known = new Map<string, boolean>();

  /** Calls whose results may differ from BFCL's (machine-dependent or not emulated), until the caller takes them. */
  readonly notes: EvalNote[] = [];

  /** Instances and method map per (model, entry, classes): BFCL rebuilds them per call, identically. */
  readonly bindings = new Map<string, EntryBinding>();

  /** Public method → class per class list (the last class wins, as in BFCL's map); the same for every entry with those classes. */
  readonly methodClasses = new Map<string, ReadonlyMap<string, string>>();

  /** What each entry created (instance names, binding keys), by `entryKey`, so a finished entry can be released. */
  private readonly createdFor = new Map<string, { names: string[]; keys: string[] }>();

  /** Remember that an entry owns this instance name / binding key (executeCalls calls this). */
  noteCreated(entryId: string, kind: "names" | "keys", value: string): void {
    const owner = this.entryKey(entryId);
    let c = this.createdFor.get(owner);
    if (!c) {
      c = { names: [], keys: [] };
      this.createdFor.set(owner, c);
    }
    c[kind].push(value);
  }

  /**
   * Forget every instance and binding of the entries with this `entryKey`: once no later line of the run has an
   * id with that key they are unreachable, and holding thousands of finished instances made garbage collection
   * about a third of the checker's time. More in this folder's README.md.
   */
  releaseEntry(key: string): void {
    if (this.exact) return;
    const c = this.createdFor.get(key);
    if (!c) return;
    for (const n of c.names) this.instances.delete(n);
    for (const k of c.keys) this.bindings.delete(k);
    this.createdFor.delete(key);
  }

  /** The part of an instance name an entry id becomes: ids with the same key share instances, so they are released together. */
  entryKey(entryId: string): string {
    return instanceEntryKey(this.revision, entryId);
  }

  /** Whether the factory can build `className` (callers check before running an entry). */
  canCreate(className: string): boolean {
    let k = this.known.get(className);
    if (k === undefined) {
      k = this.factory(className) !== undefined;
      this.known.set(className, k);
    }
    return k;
  }
}

/**
 * Thrown through every catch of the executor when a call names an instance by its global name and this process,
 * which releases finished entries, no longer holds it. The caller reruns the model's files in an exact process,
 * so the outcome is BFCL's either way. More in this folder's README.md.
 */
export class InstanceNamedInCall extends Error {
  constructor(readonly instanceName: string) {
    super(`a call names the instance ${instanceName}`);
  }
}

/** What one `execute_multi_turn_func_call` needs to know about the entry. */
export interface ExecutionContext {
  /** `initial_config` of the entry (class name → scenario dict), as Python values. */
  readonly initialConfig: PyDict;
  readonly involvedClasses: readonly string[];
  /** The result directory name (e.g. `openai_gpt-oss-120b`), plus `_ground_truth` for the reference side. */
  readonly modelName: string;
  readonly entryId: string;
  /** True when the category contains `long_context` or `composite`. */
  readonly longContext: boolean;
  /** `is_evaL_run`: appends `_eval` to the model name (the checker always passes true). */
  readonly evalRun: boolean;
}

/** The results of one batch of calls and the instances they ran on, in `involved_classes` order. */
export interface ExecutionOutcome {
  readonly results: string[];
  readonly instances: Map<string, ApiInstance>;
}

/** BFCL's instance name (`modelName` with its `_eval` suffix); v4's form unless another revision is given. */
export function instanceName(
  modelName: string,
  entryId: string,
  className: string,
  revision: EvaluatorRevision = evaluatorRevision("v4"),
): string {
  return bfclInstanceName(revision, modelName, entryId, className);
}

/**
 * Python's `\w` for str patterns (Unicode letters and numbers plus `_`) and `\s`
 * (Unicode whitespace as `str.isspace` defines it); JavaScript's `\w`/`\s` differ.
 */
const PY_WORD = "\\p{L}\\p{N}_";
const PY_SPACE = "\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
/** BFCL's `\b([a-zA-Z_]\w*)\s*(?=\()`, with Python's Unicode-aware classes. */
const METHOD_CALL = new RegExp(`(?<![${PY_WORD}])([a-zA-Z_][${PY_WORD}]*)[${PY_SPACE}]*(?=\\()`, "gu");

/**
 * BFCL's `_process_method_calls`: prefix `instance.` to every `name(` that is a public
 * method — anywhere in the text, string literals included — and drop the whitespace
 * between any identifier and its `(`.
 */
export function rewriteMethodCalls(call: string, methodOwner: ReadonlyMap<string, string>): string {
  if (!call.includes("(")) return call;
  return call.replace(METHOD_CALL, (_m, name: string) => {
    const owner = methodOwner.get(name);
    return owner === undefined ? name : `${owner}.${name}`;
  });
}

/** The name BFCL checks against its block list: text before the first `(`, then after the first `.`. */
export function blockedCheckName(rewritten: string): string {
  let s = rewritten;
  const paren = s.indexOf("(");
  if (paren >= 0) s = s.slice(0, paren);
  if (s.includes(".")) s = s.split(".")[1];
  return s;
}

function quoteList(names: readonly string[]): string {
  const q = names.map((n) => `'${n}'`);
  if (q.length === 1) return q[0];
  if (q.length === 2) return `${q[0]} and ${q[1]}`;
  return `${q.slice(0, -1).join(", ")}, and ${q[q.length - 1]}`;
}

/**
 * Bind arguments to a method signature as CPython does for a bound method: positional
 * arguments fill parameters in order; then each keyword (unexpected → TypeError, already
 * filled → "multiple values"); then too many positionals; then missing required ones.
 * Defaults are produced only after binding succeeds. Counts include `self`.
 */
export function bindArguments(
  qualname: string,
  spec: MethodSpec,
  positional: readonly PyValue[],
  keywords: readonly (readonly [string, PyValue])[],
): PyValue[] {
  const params = spec.params;
  const count = params.length;
  const args = new Array<PyValue>(count);
  const filled = new Uint8Array(count);
  const n = Math.min(positional.length, count);
  for (let i = 0; i < n; i++) {
    args[i] = positional[i];
    filled[i] = 1;
  }
  for (const [k, v] of keywords) {
    let idx = -1;
    for (let j = 0; j < count; j++) {
      if (params[j].name === k) {
        idx = j;
        break;
      }
    }
    if (idx < 0) {
      if (k === "self") throw new PyException("TypeError", `${qualname}() got multiple values for argument 'self'`);
      throw new PyException("TypeError", `${qualname}() got an unexpected keyword argument '${k}'`);
    }
    if (filled[idx] === 1) throw new PyException("TypeError", `${qualname}() got multiple values for argument '${k}'`);
    args[idx] = v;
    filled[idx] = 1;
  }
  if (positional.length > count) {
    const required = params.filter((p) => p.default === undefined).length;
    const max = count + 1;
    const min = required + 1;
    const given = positional.length + 1;
    const takes = min === max ? `${max} positional argument${max === 1 ? "" : "s"}` : `from ${min} to ${max} positional arguments`;
    throw new PyException("TypeError", `${qualname}() takes ${takes} but ${given} ${given === 1 ? "was" : "were"} given`);
  }
  let missing: string[] | null = null;
  for (let i = 0; i < count; i++) if (filled[i] === 0 && params[i].default === undefined) (missing ??= []).push(params[i].name);
  if (missing !== null) {
    throw new PyException(
      "TypeError",
      `${qualname}() missing ${missing.length} required positional argument${missing.length === 1 ? "" : "s"}: ${quoteList(missing)}`,
    );
  }
  // defaults are made only once binding has succeeded (each call gets its own value)
  for (let i = 0; i < count; i++) if (filled[i] === 0) args[i] = (params[i].default as () => PyValue)();
  return args;
}

/**
 * CPython's `SyntaxError` text for an `eval`'d string: `{msg} (<string>, line N)`; a
 * RecursionError or MemoryError of the compiler (too deep a tree, parser stack overflow)
 * is its message alone.
 */
function syntaxErrorText(source: string, error: PySyntaxError): string {
  if (error.type !== undefined) return error.message;
  const offset = error.offset;
  let msg = error.message;
  // CPython names a non-printable stray character differently from a printable one.
  const m = /^invalid character '(.+)' \(U\+([0-9A-F]{4,6})\)$/u.exec(msg);
  if (m && !isPrintableCodePoint(parseInt(m[2], 16))) msg = `invalid non-printable character U+${m[2]}`;
  if (source.trim() === "") return "invalid syntax (<string>, line 0)";
  let line = 1;
  for (let i = 0; i < offset && i < source.length; i++) if (source.charCodeAt(i) === 10) line++;
  return `${msg} (<string>, line ${line})`;
}

/**
 * Compile-time checks `ast.parse` lets through but `eval` rejects (repeated keyword),
 * walking the tree with an explicit stack (a parsed tree can be thousands of levels deep).
 */
function compileCheck(expr: PyExpr): string | null {
  const stack: PyExpr[] = [expr];
  while (stack.length > 0) {
    const e = stack.pop()!;
    switch (e.kind) {
      case "call": {
        const seen = new Set<string>();
        for (const kw of e.keywords) {
          if (kw.arg === null) continue;
          if (seen.has(kw.arg)) return `keyword argument repeated: ${kw.arg}`;
          seen.add(kw.arg);
        }
        // pushed in reverse so the first repeated keyword in source order is the one reported
        for (let i = e.keywords.length - 1; i >= 0; i--) stack.push(e.keywords[i].value);
        for (let i = e.args.length - 1; i >= 0; i--) stack.push(e.args[i]);
        stack.push(e.func);
        break;
      }
      case "list":
      case "tuple":
      case "set":
        for (let i = e.elts.length - 1; i >= 0; i--) stack.push(e.elts[i]);
        break;
      case "dict":
        for (let i = e.values.length - 1; i >= 0; i--) stack.push(e.values[i]);
        for (let i = e.keys.length - 1; i >= 0; i--) {
          const k = e.keys[i];
          if (k) stack.push(k);
        }
        break;
      case "attribute":
      case "starred":
        stack.push(e.value);
        break;
      case "subscript":
        stack.push(e.index, e.value);
        break;
      case "unary":
        stack.push(e.operand);
        break;
      case "binary":
        stack.push(e.right, e.left);
        break;
      case "boolop":
        for (let i = e.values.length - 1; i >= 0; i--) stack.push(e.values[i]);
        break;
      case "compare":
        for (let i = e.comparators.length - 1; i >= 0; i--) stack.push(e.comparators[i]);
        stack.push(e.left);
        break;
      case "ifexp":
        stack.push(e.orelse, e.body, e.test);
        break;
    }
  }
  return null;
}

/**
 * An entry's instances on one side (the model's or the reference's), as BFCL's
 * `execute_multi_turn_func_call` maps them: class → instance, and each public method to
 * the instance of the last involved class that has it.
 */
export class EntryBinding {
  private owners: Map<string, string> | null = null;
  /** The call evaluator for this binding's calls (made at the first call). */
  hooks: CallHooks | null = null;
  /** Executor calls run on this binding so far (BFCL creates the instances in the first). */
  batches = 0;

  constructor(
    /** Class → instance, in `involved_classes` order. */
    readonly instances: Map<string, ApiInstance>,
    private readonly methodClass: ReadonlyMap<string, string>,
    /** Class → BFCL instance name. */
    readonly instanceNames: ReadonlyMap<string, string>,
    /** The entry and side it was bound for. */
    readonly context: ExecutionContext,
    /** `model_name` with `_eval` when it is an evaluation run. */
    readonly modelName: string,
  ) {
    const names = instanceNames;
    for (const n of names.values()) if (!PLAIN_IDENTIFIER.test(n)) this.plainNames = false;
  }

  /**
   * Every instance name is a plain identifier, so `name(` rewritten to `instance.name(`
   * parses as an attribute call; v3 keeps the entry id in the name as it is, and an id
   * with `-` or `:` makes the rewritten text mean something else (the fast path is off).
   */
  readonly plainNames: boolean = true;

  /** The instance a method name goes to (the fast path of `executeOne`), if any. */
  methodInstance(name: string): ApiInstance | undefined {
    const cls = this.methodClass.get(name);
    return cls === undefined ? undefined : this.instances.get(cls);
  }

  /** Method → instance name, built the first time a call needs BFCL's text rewriting. */
  methodOwner(): ReadonlyMap<string, string> {
    if (this.owners === null) {
      this.owners = new Map();
      for (const [method, cls] of this.methodClass) this.owners.set(method, this.instanceNames.get(cls) as string);
    }
    return this.owners;
  }
}

/**
 * The interpreter's view of the process: instance names → objects, method calls bound
 * like Python. One per entry binding (kept for the entry's calls, so nothing is rebuilt per
 * call); `head` is set per call to the un-rewritten head name of the fast path.
 */
class CallHooks implements LiteralEvalHooks, ExecutorFrame {
  head: PyExpr | null = null;
  /** The current executor call: its calls, whether it created the instances, the results so far. */
  batch: readonly string[] = [];
  created = false;
  resultsSoFar: string[] = [];
  lastResult: string | undefined = undefined;
  /** The call being evaluated, as decoded. */
  current = "";

  constructor(
    private readonly process: EvaluatorProcess,
    private readonly binding: EntryBinding,
  ) {}

  get modelName(): string {
    return this.binding.modelName;
  }
  get entryId(): string {
    return this.binding.context.entryId;
  }
  get initialConfig(): PyDict {
    return this.binding.context.initialConfig;
  }
  get involvedClasses(): readonly string[] {
    return this.binding.context.involvedClasses;
  }
  get longContext(): boolean {
    return this.binding.context.longContext;
  }
  get evalRun(): boolean {
    return this.binding.context.evalRun;
  }
  get instances(): ReadonlyMap<string, ApiInstance> {
    return this.binding.instances;
  }
  get instanceNames(): ReadonlyMap<string, string> {
    return this.binding.instanceNames;
  }
  methodOwner(): ReadonlyMap<string, string> {
    return this.binding.methodOwner();
  }
  get funcCall(): string {
    return rewriteMethodCalls(this.current, this.binding.methodOwner());
  }
  get funcCallCopy(): string {
    return blockedCheckName(this.funcCall);
  }
  note(kind: EvalNoteKind, detail: string): void {
    this.process.notes.push({ entryId: this.binding.context.entryId, call: this.current, kind, detail });
  }

  name(id: string, node: PyExpr): PyValue {
    const process = this.process;
    // fast path: the un-rewritten head `name(` stands for `instance.name(`
    if (node === this.head) {
      const inst = this.binding.methodInstance(id);
      const spec = inst?.methods.get(id);
      if (inst && spec) return new BoundMethod(inst.className, id, spec, inst);
    }
    const inst = process.instances.get(id);
    if (inst) return new InstanceObject(inst, inst.className);
    if (!process.exact && id.endsWith("_instance")) throw new InstanceNamedInCall(id);
    // the executor's locals, its module's globals and Python's builtins
    const v = scopeValue(id, this);
    if (v !== undefined) return v;
    throw new PyException("NameError", `name '${id}' is not defined`);
  }

  attribute(node: Extract<PyExpr, { kind: "attribute" }>, evaluate: (e: PyExpr) => PyValue): PyValue {
    const base = evaluate(node.value);
    if (base instanceof InstanceObject) {
      const spec = base.instance.methods.get(node.attr);
      if (spec) return new BoundMethod(base.pyTypeName, node.attr, spec, base.instance);
      const state = base.instance.publicState().find(([k]) => k === node.attr);
      if (state) return state[1];
      // the instance's private attributes and Python's own (`__class__` …) exist in BFCL
      if (node.attr.startsWith("_")) this.note("not-emulated", `the attribute '${node.attr}' of an API instance`);
    } else {
      const v = scopeAttribute(base, node.attr, this);
      if (v !== undefined) return v;
    }
    throw new PyException("AttributeError", `'${pyTypeName(base)}' object has no attribute '${node.attr}'`);
  }

  call(node: Extract<PyExpr, { kind: "call" }>, evaluate: (e: PyExpr) => PyValue): PyValue {
    const f = evaluate(node.func);
    // the qualified name only appears in the messages of `*`/`**` argument errors
    const module = () => (f instanceof BoundMethod ? moduleQualname(f.className, f.qualname) : f instanceof EmulatedCallable ? f.name : "");
    const positional: PyValue[] = [];
    for (const a of node.args) {
      if (a.kind === "starred") {
        const v = evaluate(a.value);
        let items: PyValue[];
        try {
          items = pyIter(v);
        } catch {
          throw new PyException("TypeError", `${module()}() argument after * must be an iterable, not ${pyTypeName(v)}`);
        }
        positional.push(...items);
      } else positional.push(evaluate(a));
    }
    const keywords: [string, PyValue][] = [];
    for (const kw of node.keywords) {
      const v = evaluate(kw.value);
      if (kw.arg !== null) {
        keywords.push([kw.arg, v]);
        continue;
      }
      if (!(v instanceof PyDict))
        throw new PyException("TypeError", `${module()}() argument after ** must be a mapping, not ${pyTypeName(v)}`);
      for (const [k, x] of v.entries()) {
        if (typeof k !== "string") throw new PyException("TypeError", "keywords must be strings");
        if (keywords.some(([e]) => e === k))
          throw new PyException("TypeError", `${module()}() got multiple values for keyword argument '${k}'`);
        keywords.push([k, x]);
      }
    }
    if (f instanceof EmulatedCallable) return f.invoke(positional, keywords, this);
    if (!(f instanceof BoundMethod)) throw new PyException("TypeError", `'${pyTypeName(f)}' object is not callable`);
    const args = bindArguments(f.qualname, f.spec, positional, keywords);
    return f.spec.invoke(args, f.self, this);
  }

  /** Evaluate one call; `fastHead` marks the parse of an un-rewritten call, whose head is a method name. */
  evaluate(expr: PyExpr, fastHead: boolean): PyValue {
    const outer = this.head;
    this.head = fastHead && expr.kind === "call" ? expr.func : null;
    try {
      return evalLiteral(expr, this);
    } finally {
      this.head = outer;
    }
  }
}

/** BFCL's result-to-string rule. */
export function resultToString(value: PyValue): string {
  if (typeof value === "string") return value;
  if (value instanceof PyDict) {
    try {
      return jsonDumps(value);
    } catch (e) {
      if (!(e instanceof PyException) && !(e instanceof RangeError)) throw e;
      return pyStr(value);
    }
  }
  return pyStr(value);
}

/** Text of an exception raised by the simulation, as `str(e)`; JS stack exhaustion is Python's RecursionError. */
function exceptionText(e: unknown): string {
  if (e instanceof PyException) return e.pyMessage;
  if (e instanceof RangeError) {
    // JavaScript's stack exhaustion is Python's RecursionError; other RangeErrors (BigInt size …) are resource limits
    return /call stack/i.test(e.message) ? "maximum recursion depth exceeded" : `MemoryError: ${e.message}`;
  }
  return `internal error in the simulator: ${e instanceof Error ? e.message : String(e)}`;
}

/** A call whose only `(` follows its leading ASCII name: BFCL's rewriting can only prefix that name. */
const SIMPLE_HEAD = /^([A-Za-z_][A-Za-z0-9_]*)\(/;
const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLAN_CACHE_LIMIT = 200_000;

/**
 * How a call text is run, decided once per text: blocked by name, parsed as it is (the
 * fast path), or rewritten and parsed per call (`null`).
 */
type CallPlan = { readonly blocked: string } | { readonly expr: PyExpr } | null;

/**
 * Plans of call texts seen so far. A plan is a pure function of the text, and the parsed
 * tree is never mutated (evaluation builds fresh values), so one cache serves every
 * process; the same calls recur in every entry and run.
 */
const callPlans = new Map<string, CallPlan>();

function planCall(call: string): CallPlan {
  const head = SIMPLE_HEAD.exec(call);
  if (!head || call.indexOf("(", head[0].length) >= 0) return null;
  if (BLOCKED_NAMES.has(head[1])) return { blocked: head[1] };
  const parsed = parseExpression(call, "eval");
  return parsed.ok && compileCheck(parsed.expr) === null ? { expr: parsed.expr } : null;
}

/**
 * Run one call string against the mapped instances; always returns BFCL's result string. A call with a single
 * `(` right after its leading name takes a cached fast path with the same results; everything else is rewritten
 * and parsed exactly as BFCL does. More in this folder's README.md.
 */
function executeOne(call: string, binding: EntryBinding, process: EvaluatorProcess, hooks: CallHooks): string {
  hooks.current = call;
  try {
    let plan = callPlans.get(call);
    if (plan === undefined) {
      plan = planCall(call);
      if (callPlans.size >= PLAN_CACHE_LIMIT) callPlans.clear();
      callPlans.set(call, plan);
    }
    if (plan !== null && ("blocked" in plan || binding.plainNames)) {
      if ("blocked" in plan) return `Error during execution: Function call ${plan.blocked} is not allowed.`;
      return (hooks.lastResult = resultToString(hooks.evaluate(plan.expr, true)));
    }
    const rewritten = rewriteMethodCalls(call, binding.methodOwner());
    const checkName = blockedCheckName(rewritten);
    if (BLOCKED_NAMES.has(checkName)) return `Error during execution: Function call ${checkName} is not allowed.`;
    const parsed = parseExpression(rewritten, "eval");
    if (!parsed.ok) return `Error during execution: ${syntaxErrorText(rewritten, parsed.error)}`;
    const compileError = compileCheck(parsed.expr);
    if (compileError !== null) return `Error during execution: ${compileError} (<string>, line 1)`;
    return (hooks.lastResult = resultToString(hooks.evaluate(parsed.expr, false)));
  } catch (e) {
    if (e instanceof InstanceNamedInCall) throw e;
    return `Error during execution: ${exceptionText(e)}`;
  }
}

/**
 * BFCL's instance set-up in `execute_multi_turn_func_call`, once per entry and side:
 * create (first time) or reuse the entry's instances under their BFCL names and map the
 * public method names to them. Instances persist in the process, so binding the same
 * (model, entry, classes) again gives the same instances.
 */
export function bindEntry(process: EvaluatorProcess, ctx: ExecutionContext): EntryBinding {
  const model = ctx.evalRun ? `${ctx.modelName}_eval` : ctx.modelName;
  const classList = ctx.involvedClasses.join(",");
  const key = `${model}\u0000${ctx.entryId}\u0000${classList}`;
  const known = process.bindings.get(key);
  if (known) return known;
  const instances = new Map<string, ApiInstance>();
  const names = new Map<string, string>();
  for (const cls of ctx.involvedClasses) {
    const name = bfclInstanceName(process.revision, model, ctx.entryId, cls);
    let inst = process.instances.get(name);
    if (!inst) {
      const created = process.factory(cls);
      // BFCL would stop with a KeyError; callers validate classes first (`canCreate`), so this only skips.
      if (!created) continue;
      inst = created;
      if (!STATELESS_CLASSES.has(cls)) {
        const cfg = ctx.initialConfig.get(cls);
        const config = cfg instanceof PyDict ? (inst.keepsNoConfigReference ? cfg : deepCopyDict(cfg)) : new PyDict();
        inst.loadScenario(config, ctx.longContext, process.filler);
      }
      process.instances.set(name, inst);
      process.noteCreated(ctx.entryId, "names", name);
    }
    instances.set(cls, inst);
    names.set(cls, name);
  }
  // in `involved_classes` order, repeats included, so the last class with a method wins as in BFCL
  // (which classes the factory can build is fixed per process, so the list is the key)
  let methodClass = process.methodClasses.get(classList);
  if (methodClass === undefined) {
    const m = new Map<string, string>();
    for (const cls of ctx.involvedClasses) {
      const inst = instances.get(cls);
      if (inst) for (const method of inst.methods.keys()) if (!method.startsWith("_")) m.set(method, cls);
    }
    methodClass = m;
    process.methodClasses.set(classList, methodClass);
  }
  const binding = new EntryBinding(instances, methodClass, names, ctx, model);
  process.bindings.set(key, binding);
  process.noteCreated(ctx.entryId, "keys", key);
  return binding;
}

/** Run each call in order on a binding's instances (one executor call); BFCL's result strings. */
export function runCalls(process: EvaluatorProcess, calls: readonly string[], binding: EntryBinding): string[] {
  const hooks = (binding.hooks ??= new CallHooks(process, binding));
  hooks.batch = calls;
  hooks.created = binding.batches++ === 0;
  hooks.lastResult = undefined;
  const results = (hooks.resultsSoFar = new Array<string>());
  for (let i = 0; i < calls.length; i++) results.push(executeOne(calls[i], binding, process, hooks));
  return results;
}

/**
 * BFCL's `execute_multi_turn_func_call`: bind the entry's instances (`bindEntry`) and run
 * each call in order.
 */
export function executeCalls(process: EvaluatorProcess, calls: readonly string[], ctx: ExecutionContext): ExecutionOutcome {
  const binding = bindEntry(process, ctx);
  return { results: runCalls(process, calls, binding), instances: binding.instances };
}

/** `copy.deepcopy` of a JSON-loaded config (dicts, lists and scalars only). */
function deepCopyDict(d: PyDict): PyDict {
  return d.mapValues(copyConfigValue);
}

function copyConfigValue(v: PyValue): PyValue {
  if (typeof v !== "object" || v === null) return v; // str, int, float, bool, None: most of a config
  if (Array.isArray(v)) return v.map(copyConfigValue);
  if (v instanceof PyDict) return v.mapValues(copyConfigValue);
  if (v instanceof PyTuple) return new PyTuple(v.items.map(copyConfigValue));
  return v;
}
