/**
 * BFCL's own decoding of a run's steps, read from the result lines' `inference_log`: each
 * `step_N` holds the assistant text of step N and a `handler_log` with either the calls
 * BFCL's handler decoded (`model_response_decoded`) or the decode error. The checker can
 * then be tested on the real runs with exactly BFCL's decoding, independently of
 * twinscore's own decoders.
 */
import type { DecodeOutcome } from "../bfcl/decode/index.js";
import type { StepDecoder } from "../simulator/checker.js";
import type { PyValue } from "../python/value.js";

interface LogMessage {
  role?: string;
  content?: unknown;
  model_response_decoded?: unknown;
  error?: unknown;
}

/** Step text → BFCL's decoding of it, from every line of a result file; throws if one text was logged two ways. */
export function loggedDecodes(resultFileText: string): Map<string, DecodeOutcome> {
  const out = new Map<string, DecodeOutcome>();
  for (const raw of resultFileText.split("\n")) {
    if (raw.trim() === "") continue;
    const line = JSON.parse(raw) as { id: string; result: unknown; inference_log?: unknown };
    if (!Array.isArray(line.result) || !Array.isArray(line.inference_log)) continue;
    const turnLogs = line.inference_log.filter(
      (x): x is Record<string, LogMessage[]> => x !== null && typeof x === "object" && !Array.isArray(x),
    );
    line.result.forEach((turn, t) => {
      if (!Array.isArray(turn)) return;
      turn.forEach((step, s) => {
        if (typeof step !== "string") return;
        const messages = turnLogs[t]?.[`step_${s}`] ?? [];
        const assistant = messages.find((m) => m.role === "assistant");
        const handler = messages.find((m) => m.role === "handler_log");
        if (assistant?.content !== step || handler === undefined)
          throw new Error(`${line.id}: turn ${t} step ${s} is not in inference_log`);
        const outcome: DecodeOutcome = Array.isArray(handler.model_response_decoded)
          ? { ok: true, calls: handler.model_response_decoded as string[] }
          : { ok: false, error: String(handler.error) };
        const known = out.get(step);
        if (known !== undefined && JSON.stringify(known) !== JSON.stringify(outcome))
          throw new Error(`${line.id}: one step text logged with two decodings`);
        out.set(step, outcome);
      });
    });
  }
  return out;
}

/** A decoder that answers with BFCL's logged decoding; a step that was never logged is an error (a test fixture is wrong). */
export function loggedDecoder(decodes: ReadonlyMap<string, DecodeOutcome>): StepDecoder {
  return (step: PyValue): DecodeOutcome => {
    if (typeof step !== "string") return { ok: false, error: "TypeError: a logged step is text" };
    const d = decodes.get(step);
    if (d === undefined) throw new Error(`step not in the inference log: ${step.slice(0, 80)}`);
    return d;
  };
}
