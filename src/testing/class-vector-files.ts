/**
 * The file-reading side of the TicketAPI, TradingBot, TravelAPI and VehicleControlAPI vector
 * tests (vectors of `tools/gen-class-vectors.py`). The replay itself is pure and lives in
 * `src/simulator/classes/class-vectors.ts`; this module hands it the shared BFCL data and the
 * synthetic long_context filler the vectors were recorded with (no BFCL checkout needed), so
 * the four test files hold only their assertions.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LongContextData } from "../simulator/types.js";
import { describe, expect, it } from "vitest";
import { type CaseOutcome, type MakeInstance, type VectorIo, parseSyntheticFiller, replayVectorFile, summarize } from "../simulator/classes/class-vectors.js";
import { projectRoot, sharedDir } from "./shared.js";

const classesDir = join(projectRoot, "src", "simulator", "classes");
const fillerFile = join(classesDir, "testdata", "synthetic-long-context.py");
let fillerCache: LongContextData | undefined;

/** Reads the real BFCL data from the shared folder and parses the synthetic filler once; also used directly by tests that load long_context scenarios by hand. */
export const classVectorIo: Required<VectorIo> = {
  readShared: (p: string) => readFileSync(join(sharedDir(), p), "utf8"),
  filler: () => (fillerCache ??= parseSyntheticFiller(readFileSync(fillerFile, "utf8"), fillerFile)),
};

/** Replays `src/simulator/classes/testdata/<name>.vectors.json` against `make`; one outcome per recorded case. */
export function replayClassVectors(name: string, make: MakeInstance): CaseOutcome[] {
  const vectorText = readFileSync(join(classesDir, "testdata", `${name}.vectors.json`), "utf8");
  return replayVectorFile(vectorText, make, classVectorIo);
}

/** What one class's vector replay must show (numbers from its stored vector file). */
export interface VectorReplay {
  /** The class as BFCL names it, e.g. `TicketAPI`. */
  readonly className: string;
  /** The vector file's stem under `src/simulator/classes/testdata/`. */
  readonly vectors: string;
  readonly make: MakeInstance;
  /** Ground-truth sequences recorded (one per reference trajectory that uses the class). */
  readonly gtCases: number;
  /** An entry named in the title (and, with `gtExampleCalls`, checked to have that many calls). */
  readonly gtExample: string;
  readonly gtExampleCalls?: number;
  /** What the inline error-path cases cover, for the title. */
  readonly inlineCovers: string;
  readonly minInlineCalls: number;
  /** gpt-oss sequences kept by the generator, of how many stored, and one of them as `run model id`. */
  readonly modelCases: number;
  readonly modelStored: number;
  readonly modelExample: readonly [run: string, model: string, id: string];
}

/**
 * The three replay tests each vector-backed class has — every ground-truth call, the
 * error paths, the gpt-oss sequences that add coverage — with no mismatch allowed.
 * Returns the outcomes for the file's own tests.
 */
export function describeVectorReplay(r: VectorReplay): CaseOutcome[] {
  const outcomes = replayClassVectors(r.vectors, r.make);
  const [run, model, id] = r.modelExample;
  describe(`${r.className} against BFCL's Python (tools/gen-class-vectors.py)`, () => {
    it(`replays every ground-truth call of base, miss_func, miss_param and long_context (e.g. ${r.gtExample})`, () => {
      const s = summarize(outcomes, "gt");
      expect(s.mismatches).toEqual([]);
      expect(s.cases).toBe(r.gtCases);
      if (r.gtExampleCalls !== undefined) expect(outcomes.some((o) => o.name === `gt ${r.gtExample}` && o.calls === r.gtExampleCalls)).toBe(true);
    });
    it(`matches on ${r.inlineCovers}`, () => {
      const s = summarize(outcomes, "inline");
      expect(s.mismatches).toEqual([]);
      expect(s.calls).toBeGreaterThan(r.minInlineCalls);
    });
    it(`matches on the gpt-oss sequences that add coverage (${r.modelCases} of the ${r.modelStored} stored ones; e.g. ${run} ${model.replace(/^openai_/, "")} ${id})`, () => {
      // the generator keeps a model sequence only when it shows something the ground-truth and error sequences did not:
      // a line arc of BFCL's class, an error text, an argument/result/state type shape, or a way its FC steps decode and parse
      const s = summarize(outcomes, "model");
      expect(s.mismatches).toEqual([]);
      expect(s.cases).toBe(r.modelCases);
      expect(outcomes.some((o) => o.name === `model ${run} ${model} ${id}` && o.calls > 0)).toBe(true);
    });
  });
  return outcomes;
}
