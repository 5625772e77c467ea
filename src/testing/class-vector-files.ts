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
import { type CaseOutcome, type MakeInstance, type VectorIo, parseSyntheticFiller, replayVectorFile } from "../simulator/classes/class-vectors.js";
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
