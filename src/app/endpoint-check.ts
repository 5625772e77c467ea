/**
 * The check every command that sends requests makes before it spends anything: the endpoint's URL, then a probe
 * of what answers there, one line per refusal naming the flag and the endpoint. More in this folder's
 * README.md.
 */
import { problem, err, ok, type Problem, type Result } from "../messages/index.js";
import { endpointUrlProblem, MAX_TIMER_MS, probeEndpoint, shownUrl } from "../io/openai-chat.js";

/** The longest `--timeout`: Node's timers hold at most 2^31 - 1 ms, and a longer delay fires at once. */
export const MAX_TIMEOUT_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/**
 * The HTTP client's defaults, one set for every command that sends requests (run, judge):
 * items in flight at once, the per-request deadline (a generation may think for minutes),
 * and the retries on 429, 5xx, timeouts and network errors.
 */
export const HTTP_CLIENT_DEFAULTS = { concurrency: 4, timeoutSeconds: 600, retries: 5 } as const;

/** One endpoint to check: the flag that named it, its URL, the model asked for there, and its key. */
export interface EndpointTarget {
  readonly flag: string;
  readonly endpoint: string;
  readonly model: string;
  readonly apiKey: string | null;
}

/** Why the endpoint's URL cannot be used, as a bad argument, or null. */
export function endpointArgumentProblem(endpoint: string, flag: string): Problem | null {
  const bad = endpointUrlProblem(endpoint, flag);
  return bad === null ? null : problem("bad-argument", bad);
}

/** The problem code of each way the probe refuses an endpoint. */
const refusalCodes = {
  model: "model-not-served",
  path: "endpoint-path",
  key: "key-refused",
  "plain-http": "endpoint-plain-http",
  unusable: "endpoint-unusable",
  network: "endpoint-unreachable",
  timeout: "endpoint-unreachable",
} as const;

/**
 * Probe each endpoint in turn: the first refusal as an error (`consequence` says what was
 * not done, e.g. "nothing was generated"), else the probes' notes as warnings.
 */
export async function checkEndpoints(
  targets: readonly EndpointTarget[],
  client: { readonly otherKeys: readonly (string | null)[]; readonly timeoutMs: number; readonly maxReplyBytes?: number },
  consequence: string,
): Promise<Result<Problem[]>> {
  const notes: Problem[] = [];
  for (const t of targets) {
    const out = await probeEndpoint({
      endpoint: t.endpoint,
      model: t.model,
      apiKey: t.apiKey,
      otherKeys: client.otherKeys,
      timeoutMs: client.timeoutMs,
      maxReplyBytes: client.maxReplyBytes,
    });
    if (!out.ok) return err(problem(refusalCodes[out.kind], `${t.flag} ${shownUrl(t.endpoint)}: ${out.message}; ${consequence}`));
    if (out.note !== null) notes.push(problem("probe-note", `${t.flag} ${shownUrl(t.endpoint)}: ${out.note}`, { severity: "warning" }));
  }
  return ok(notes);
}
