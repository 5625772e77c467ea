/**
 * The evaluator process wired to the real re-implemented classes: what `check`, the gold
 * replay and the workaround credit run on. One process per evaluation run, like BFCL's
 * single Python process (module-level state of the classes is shared within it).
 */
import type { ApiClass } from "../catalog/types.js";
import { apiFactories, PythonProcess } from "./classes/index.js";
import { EvaluatorProcess } from "./executor.js";
import type { LongContextData } from "./types.js";

/**
 * A fresh evaluator process over the eight classes; `filler` is needed only for
 * long_context entries; `exact` keeps every instance (see `EvaluatorProcess.exact`).
 */
export function newEvaluatorProcess(filler?: LongContextData, exact = false): EvaluatorProcess {
  const factories = apiFactories(new PythonProcess());
  return new EvaluatorProcess((cls) => factories.get(cls as ApiClass)?.(), filler, exact);
}
