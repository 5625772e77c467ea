/**
 * Module-level ("process-global") state of BFCL's Python classes. In BFCL one Python process evaluates every
 * entry, so a mutable default argument or a module constant that a method mutates is shared by all instances,
 * model and ground truth alike; a `PythonProcess` stands for that process. More in this folder's README.md.
 */
import type { BfclVersion } from "../../bfcl/data.js";
import type { PyValue } from "../../python/value.js";
import { PyDict, PyTuple } from "../../python/containers.js";

/** What a shared mutable default held when a process started (key: the default's qualified name, as `global` is asked). */
export type DefaultSeeds = ReadonlyMap<string, Readonly<Record<string, readonly PyValue[]>>>;

export class PythonProcess {
  private readonly globals = new Map<string, unknown>();

  /**
   * Objects every instance of the process may mutate and every error object may hold: a
   * mutable default argument's list. An error object that holds one is not final until
   * BFCL writes its score file (see `holdsSharedObject`).
   */
  private readonly sharedObjects = new Set<object>();

  constructor(
    /** The release of the class sources (`func_source_code/`) this process runs. */
    readonly classSource: BfclVersion = "v4",
    /**
     * Contents the shared default lists start with: what BFCL's process had put there
     * before it reached the entries checked here (another file or model it evaluated
     * first). Empty: a fresh process.
     */
    private readonly seeds: DefaultSeeds = new Map(),
  ) {}

  /** The module-level value named `key`, created by `init` the first time it is asked for. */
  global<T>(key: string, init: () => T): T {
    if (!this.globals.has(key)) this.globals.set(key, init());
    return this.globals.get(key) as T;
  }

  /**
   * A function's mutable default lists (`def f(…, tags=[], mentions=[])`), one list per
   * parameter, created once per process (as Python evaluates defaults once, when `def`
   * runs) and shared by every call that omits the argument. `qualname` is the function's
   * module-qualified name; the lists start with the process's seeds for it.
   */
  mutableDefaults<K extends string>(qualname: string, params: readonly K[]): Record<K, PyValue[]> {
    return this.global(qualname, () => {
      const seed = this.seeds.get(qualname) ?? {};
      const lists = Object.fromEntries(params.map((p) => [p, [...(seed[p] ?? [])]])) as Record<K, PyValue[]>;
      for (const p of params) this.sharedObjects.add(lists[p]);
      return lists;
    });
  }

  /**
   * Whether `value` holds (at any depth) one of the process's shared mutable objects. BFCL
   * keeps error objects as live references and writes the score file after the whole
   * file, so a later entry that extends a shared default changes how an earlier error
   * object is written.
   */
  holdsSharedObject(value: PyValue): boolean {
    if (this.sharedObjects.size === 0) return false;
    const seen = new Set<object>();
    const stack: PyValue[] = [value];
    while (stack.length > 0) {
      const v = stack.pop() as PyValue;
      if (v === null || typeof v !== "object" || seen.has(v)) continue;
      seen.add(v);
      if (this.sharedObjects.has(v)) return true;
      if (Array.isArray(v)) stack.push(...v);
      else if (v instanceof PyDict) for (const [k, x] of v.entries()) stack.push(k, x);
      else if (v instanceof PyTuple) stack.push(...v.items);
    }
    return false;
  }
}
