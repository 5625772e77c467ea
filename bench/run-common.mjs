import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadReferenceTurns, loadRunEntries, runModel } from "../dist/app/run/index.js";
import { loadManifest } from "../dist/io/manifest.js";
import { paramNamesOf, startPolicyServer } from "../dist-testing/testing/policies.js";

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

/**
 * One bench run of the scripted model `scripted/policy`: a chat server on 127.0.0.1 answering
 * with `respond` after `inputs.delayMs`, `twinscore run` against it with the bench's request
 * and `fields`, the server closed. The run's document and its wall seconds; a run that fails
 * or writes an error line stops the bench, named by `label`.
 */
export async function benchRun(label, inputs, respond, fields) {
  const srv = await startPolicyServer(respond, { delayMs: inputs.delayMs });
  const t0 = performance.now();
  let doc;
  try {
    doc = await runModel(
      benchRunRequest({
        endpoint: srv.url,
        model: "scripted/policy",
        concurrency: inputs.concurrency,
        bfclDataDir: inputs.dataDir,
        manifest: inputs.manifest.value,
        ...fields,
      }),
    );
  } finally {
    await srv.close();
  }
  const wall = (performance.now() - t0) / 1000;
  if (!doc.ok) throw new Error(`${label}: ${doc.problems.map((p) => p.message).join("; ")}`);
  if (doc.value.errors.length > 0) throw new Error(`${label}: error lines`);
  return { doc: doc.value, wall };
}
