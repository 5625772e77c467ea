import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadReferenceTurns, loadRunEntries } from "../dist/app/run/index.js";
import { loadManifest } from "../dist/io/manifest.js";
import { paramNamesOf } from "../dist-testing/testing/policies.js";

/**
 * The run request the run benches share: what `twinscore run` is given by default for a
 * benchmark (FC, temperature 0.001, no retries, no key, no injection), so each bench names
 * only what it varies.
 */
export function benchRunRequest(fields) {
  return {
    items: "pairs",
    mode: "fc",
    temperature: 0.001,
    concurrency: 8,
    timeoutMs: 60_000,
    retries: 0,
    apiKey: null,
    untilAnchor: false,
    retryErrors: false,
    inject: null,
    ...fields,
  };
}

/**
 * What the run benches read before they start: the real v4 data (TWINSCORE_SHARED, default
 * ../shared), the committed manifest, BFCL's entries and reference turns, the parameter
 * names the scripted policies fill, Table 1's pair count, and the server delay and
 * concurrency (DELAY_MS, CONCURRENCY).
 */
export function benchInputs() {
  const here = dirname(fileURLToPath(import.meta.url));
  const dataDir = join(process.env.TWINSCORE_SHARED ?? resolve(here, "..", "..", "shared"), "bfcl-v4");
  const manifest = loadManifest();
  if (!manifest.ok) throw new Error("manifest");
  const entries = loadRunEntries(dataDir);
  const references = loadReferenceTurns(dataDir);
  if (!entries.ok || !references.ok) throw new Error("BFCL data");
  return {
    dataDir,
    delayMs: Number(process.env.DELAY_MS ?? 50),
    concurrency: Number(process.env.CONCURRENCY ?? 8),
    manifest,
    references,
    paramNames: paramNamesOf(entries.value),
    pairs: manifest.value.pairs.filter((p) => p.status === "scored").length,
  };
}
