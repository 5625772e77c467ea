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
