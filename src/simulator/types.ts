/**
 * The contract between BFCL's eight API classes (re-implemented under
 * `simulator/classes/`) and the executor/checker. A class instance holds Python values
 * (see `python/value.ts`); the executor binds parsed arguments like Python and calls the
 * method; the checker compares `publicState()` between the model's and the reference's
 * instances with Python equality.
 */
import type { ApiClass } from "../catalog/types.js";
import type { PyDict, PyValue } from "../python/value.js";

/** One parameter of a public method, in signature order. */
export interface ParamSpec {
  readonly name: string;
  /**
   * The default when the caller omits it; absent means required. A function so that
   * each call gets a fresh value — except where BFCL's Python shares one mutable default
   * across calls, which the class reproduces by returning the same object.
   */
  readonly default?: () => PyValue;
}

/**
 * Where a method reports a call whose result may differ from BFCL's (the executor's frame
 * for the call): a bound the emulation keeps where BFCL's Python would not return.
 */
export interface CallNotes {
  note(kind: "machine" | "not-emulated", detail: string): void;
}

/** A public method: its Python signature and its body. */
export interface MethodSpec {
  readonly params: readonly ParamSpec[];
  /**
   * Runs the method with arguments already bound in signature order; may throw `PyException`.
   * `self` is the instance the method was looked up on: classes that share one method table
   * per class (instead of closures per instance, which dominate construction) act on it.
   */
  invoke(args: PyValue[], self: ApiInstance, notes?: CallNotes): PyValue;
}

/** Filler data of BFCL's `long_context.py`, read at run time from the user's installation. */
export type LongContextData = ReadonlyMap<string, PyValue>;

/** One live instance of an API class. */
export interface ApiInstance {
  readonly className: ApiClass;
  /**
   * True when `loadScenario` builds all its state afresh and keeps no reference into the
   * config (GorillaFileSystem builds its own tree): the executor then skips the `deepcopy`.
   */
  readonly keepsNoConfigReference?: boolean;
  /** `_load_scenario(deepcopy(config), long_context)`; MathAPI has none and ignores it. */
  loadScenario(config: PyDict, longContext: boolean, filler?: LongContextData): void;
  /** `vars(instance)` minus names starting with `_`, in attribute-definition order. */
  publicState(): [string, PyValue][];
  /** Every public method by name. */
  readonly methods: ReadonlyMap<string, MethodSpec>;
}

/** Builds a fresh instance (the class constructor). */
export type ApiFactory = () => ApiInstance;
