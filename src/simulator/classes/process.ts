/**
 * Module-level ("process-global") state of BFCL's Python classes. In BFCL one Python
 * process evaluates every entry, so a mutable default argument or a module constant that
 * a method mutates is shared by all instances, model and ground truth alike. A
 * `PythonProcess` stands for that process: whoever runs a checker creates one and hands it
 * to every class constructor, so results stay reproducible (same order → same output).
 * It also says which BFCL release's class sources the process imported: the classes of
 * v3 final and of v4 differ in results, messages and methods.
 */
import type { BfclVersion } from "../../bfcl/data.js";

export class PythonProcess {
  private readonly globals = new Map<string, unknown>();

  constructor(
    /** The release of the class sources (`func_source_code/`) this process runs. */
    readonly classSource: BfclVersion = "v4",
  ) {}

  /** The module-level value named `key`, created by `init` the first time it is asked for. */
  global<T>(key: string, init: () => T): T {
    if (!this.globals.has(key)) this.globals.set(key, init());
    return this.globals.get(key) as T;
  }
}
