/**
 * The evaluator process wired to the real re-implemented classes: what `check`, the gold
 * replay and the workaround credit run on. One process per evaluation run, like BFCL's
 * single Python process (module-level state of the classes is shared within it).
 */
import type { BfclVersion } from "../bfcl/data.js";
import { evaluatorRevision } from "../bfcl/evaluator-versions.js";
import type { ApiClass } from "../catalog/types.js";
import { apiFactories, PythonProcess } from "./classes/index.js";
import type { DefaultSeeds } from "./classes/process.js";
import { EvaluatorProcess } from "./executor.js";
import type { LongContextData } from "./types.js";

/**
 * A fresh evaluator process over the eight classes of a BFCL release (v4 unless told). `filler`: for
 * long_context entries only; `exact`: keep every instance; `seeds`: what the shared default lists start with;
 * `classSource`: run another release's class sources, as BFCL's code between two releases did. More in this
 * folder's README.md.
 */
export function newEvaluatorProcess(
  filler?: LongContextData,
  exact = false,
  version: BfclVersion = "v4",
  seeds?: DefaultSeeds,
  classSource?: BfclVersion,
): EvaluatorProcess {
  const revision = evaluatorRevision(version);
  const python = new PythonProcess(classSource ?? revision.classSource, seeds);
  const factories = apiFactories(python);
  return new EvaluatorProcess((cls) => factories.get(cls as ApiClass)?.(), filler, exact, revision, python);
}
