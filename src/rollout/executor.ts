/**
 * The executor as the generation loop sees it: one entry's live instances, created on
 * first use under BFCL's instance names (built from the API model name, so two runs of
 * the same model and entry in one process share state, as in BFCL), reused by every step
 * and turn of the entry, and their public state for the log's `state_info` snapshots.
 */
import { PyDict } from "../python/containers.js";
import type { PyValue } from "../python/value.js";
import { bindEntry, runCalls, STATELESS_CLASSES, type EntryBinding, type EvaluatorProcess } from "../simulator/executor.js";
import type { RolloutEntry } from "./entry.js";
import { makeJsonSerializable } from "./serialize.js";

/** Classes BFCL keeps out of the state log (too verbose): the memory back-ends and web search. */
export const OMIT_STATE_INFO_CLASSES: ReadonlySet<string> = new Set([
  "MemoryAPI_kv",
  "MemoryAPI_vector",
  "MemoryAPI_rec_sum",
  "WebSearchAPI",
]);

/** What the loop needs from the executor for one entry. */
export interface EntryExecutor {
  /** Run one step's decoded calls in order; one result string per call. */
  run(calls: readonly string[]): string[];
  /** The `state_info` records of the entry's instances now (a snapshot, in `involved_classes` order). */
  state(): PyDict[];
}

/** `model_name_underline_replaced`: the API model name with `/`, `-` and `.` replaced by `_`. */
export function executorModelName(apiModelName: string): string {
  return apiModelName.replace(/[/.-]/g, "_");
}

/** The entry's instances in an evaluator process, bound as BFCL binds them at generation time (`is_evaL_run=False`). */
export function processExecutor(process: EvaluatorProcess, entry: RolloutEntry, apiModelName: string): EntryExecutor {
  const binding: EntryBinding = bindEntry(process, {
    initialConfig: entry.initialConfig,
    involvedClasses: entry.involvedClasses,
    modelName: executorModelName(apiModelName),
    entryId: entry.id,
    longContext: entry.longContext,
    evalRun: false,
  });
  return {
    run: (calls) => runCalls(process, calls, binding),
    state: () => {
      const out: PyDict[] = [];
      for (const [cls, inst] of binding.instances) {
        if (STATELESS_CLASSES.has(cls) || OMIT_STATE_INFO_CLASSES.has(cls)) continue;
        const content = new PyDict();
        for (const [k, v] of inst.publicState()) content.set(k, makeJsonSerializable(v as PyValue));
        out.push(
          new PyDict([
            ["role", "state_info"],
            ["class_name", cls],
            ["content", content],
          ]),
        );
      }
      return out;
    },
  };
}

/**
 * The parameter names of each public method of an entry's classes, in signature order,
 * from the re-implemented classes (the last class with the method wins, as the executor
 * binds it): how a reference call's positional arguments are named when it is played.
 */
export function methodParameterNames(
  process: EvaluatorProcess,
  involvedClasses: readonly string[],
): (method: string) => readonly string[] | undefined {
  const names = new Map<string, readonly string[]>();
  for (const cls of involvedClasses) {
    const inst = process.factory(cls);
    if (!inst) continue;
    for (const [method, spec] of inst.methods)
      if (!method.startsWith("_"))
        names.set(
          method,
          spec.params.map((p) => p.name),
        );
  }
  return (method) => names.get(method);
}
