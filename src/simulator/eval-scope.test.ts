import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BfclVersion } from "../bfcl/data.js";
import { jsonLoadsOrThrow } from "../python/json.js";
import type { PyDict } from "../python/containers.js";
import { projectRoot, sharedPath } from "../testing/shared.js";
import { bindEntry, runCalls } from "./executor.js";
import { newEvaluatorProcess } from "./runtime.js";

/**
 * Calls that name a Python builtin, a global of BFCL's executor module or one of its local
 * variables, replayed on the executor: the vectors are what BFCL's own executor (imported
 * from a Gorilla checkout) returned for them under CPython 3.11 (`tools/gen-builtin-vectors.py`).
 */
interface BuiltinCase {
  entry: string;
  calls: string[];
  first: string[];
  again: string[];
  machine?: boolean;
}

function vectors(version: BfclVersion): { model: string; cases: BuiltinCase[] } {
  return JSON.parse(readFileSync(join(projectRoot, "src", "simulator", "testdata", `builtin-vectors.${version}.json`), "utf8"));
}

function entries(version: BfclVersion): Map<string, PyDict> {
  const text = readFileSync(sharedPath(`bfcl-${version}`, `BFCL_${version}_multi_turn_base.json`), "utf8");
  return new Map(
    text
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => {
        const e = jsonLoadsOrThrow(l) as PyDict;
        return [e.get("id") as string, e] as const;
      }),
  );
}

/** What the emulation leaves to BFCL: the contents of the modules its executor imported (json, re, copy, inspect, importlib). */
const NOT_EMULATED = /^(json|re|copy|inspect|importlib)\./;

function replay(version: BfclVersion) {
  const doc = vectors(version);
  const data = entries(version);
  const mismatches: string[] = [];
  let machine = 0;
  let notEmulated = 0;
  let exact = 0;
  doc.cases.forEach((c, k) => {
    const e = data.get(c.entry) as PyDict;
    const process = newEvaluatorProcess(undefined, true, version);
    const ctx = {
      initialConfig: e.get("initial_config") as PyDict,
      involvedClasses: e.get("involved_classes") as string[],
      modelName: doc.model,
      entryId: `${c.entry}_probe${k}`,
      longContext: false,
      evalRun: true,
    };
    const binding = bindEntry(process, ctx);
    const first = runCalls(process, c.calls, binding);
    const again = runCalls(process, c.calls, binding);
    const noted = process.notes.map((n) => n.kind);
    if (NOT_EMULATED.test(c.calls[0])) {
      notEmulated++;
      if (!noted.includes("not-emulated")) mismatches.push(`${JSON.stringify(c.calls)}: not emulated, but no note`);
      return;
    }
    if (c.machine) {
      machine++;
      if (!noted.includes("machine"))
        mismatches.push(`${JSON.stringify(c.calls)}: a machine-dependent result without a note (got ${JSON.stringify(first)})`);
      return;
    }
    exact++;
    if (JSON.stringify(first) !== JSON.stringify(c.first))
      mismatches.push(
        `${JSON.stringify(c.calls)} first: want ${JSON.stringify(c.first).slice(0, 300)} got ${JSON.stringify(first).slice(0, 300)}`,
      );
    if (JSON.stringify(again) !== JSON.stringify(c.again))
      mismatches.push(
        `${JSON.stringify(c.calls)} again: want ${JSON.stringify(c.again).slice(0, 300)} got ${JSON.stringify(again).slice(0, 300)}`,
      );
    if (noted.length > 0) mismatches.push(`${JSON.stringify(c.calls)}: noted ${JSON.stringify(process.notes)}`);
  });
  return { mismatches, machine, exact, notEmulated };
}

describe("names other than class methods in a call (builtins, the executor's globals and locals), as BFCL's eval runs them", () => {
  for (const version of ["v3", "v4"] as const) {
    it(`${version}: the same result text as CPython for every vector, and a note where the machine decides`, () => {
      const r = replay(version);
      expect(r.mismatches).toEqual([]);
      expect(r.exact).toBeGreaterThan(850);
      expect(r.machine).toBeGreaterThan(15);
      expect(r.notEmulated).toBe(7);
    });
  }
});
