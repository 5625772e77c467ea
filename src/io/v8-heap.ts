/**
 * Keeping V8's heap small while one process scores many models. Each model's files are
 * read, scored and dropped, so little stays alive (under 15 MB at 200 models); left to its
 * defaults, V8 still grows the young generation to 2 × 16 MB and lets the old one reach
 * several times what is alive before collecting it: the bin peaked at 140 MB for 200
 * models. Two of V8's sizing flags are read while the process runs (the semi-space sizes
 * are not), so they are set here: the old generation is collected once it has grown by a
 * tenth, and the young generation stops growing at the size it reached by the end of the
 * first model (8 MB on the project machine) — smaller sizes made a model's rollouts
 * outlive two young collections and cost 30–50 % more time. Measured in bench/RESULTS.md.
 * The bin sets this for `score` (the CLI's `tuneForManyModels`); library callers' own
 * processes are left alone. `TWINSCORE_V8_DEFAULTS=1` keeps V8's defaults.
 */
import { createRequire } from "node:module";

/**
 * Start bounding the heap; returns what to call after each model scored in this thread
 * (the first call stops the young generation's growth). A no-op where V8's flags may
 * differ (outside Node 20–24's V8 11–13) or with `TWINSCORE_V8_DEFAULTS=1`.
 */
export function boundHeapPerModel(env: Record<string, string | undefined> = process.env): () => void {
  const v8Major = Number(process.versions.v8.split(".")[0]);
  if (v8Major < 11 || v8Major > 13 || env.TWINSCORE_V8_DEFAULTS === "1") return () => {};
  const v8 = createRequire(import.meta.url)("node:v8") as typeof import("node:v8");
  v8.setFlagsFromString("--heap-growing-percent=10");
  let held = false;
  return () => {
    if (held) return;
    v8.setFlagsFromString("--semi-space-growth-factor=1");
    held = true;
  };
}
