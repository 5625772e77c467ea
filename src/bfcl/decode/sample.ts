/**
 * Sample steps out of result-file bytes, for detecting an unknown folder's decoder: the
 * steps of the first lines, in order, as Python values (what `decode_execute` receives).
 */
import type { PyValue } from "../../python/value.js";
import { scanLineHead } from "../results.js";
import { plainToPy } from "./fc.js";
import { DETECTION_SAMPLE, isEmptyStep } from "./select.js";

const utf8 = new TextDecoder("utf-8");

/** Up to `limit` non-empty steps from the lines of result files (each file's bytes), file by file. */
export function sampleSteps(files: Iterable<Uint8Array>, limit = DETECTION_SAMPLE): PyValue[] {
  const out: PyValue[] = [];
  for (const bytes of files) {
    for (let start = 0; start < bytes.length && out.length < limit; ) {
      let end = bytes.indexOf(0x0a, start);
      if (end < 0) end = bytes.length;
      const head = scanLineHead(bytes, start, end);
      start = end + 1;
      if ("error" in head || head.resultStart < 0) continue;
      let result: unknown;
      try {
        result = JSON.parse(utf8.decode(bytes.subarray(head.resultStart, head.resultEnd)));
      } catch {
        continue;
      }
      if (!Array.isArray(result)) continue;
      for (const v of pyStepsOf(result)) {
        if (!isEmptyStep(v)) out.push(v);
        if (out.length >= limit) return out;
      }
    }
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * The steps of recorded turns (turns × steps, as `JSON.parse` gave them) as Python values,
 * what `decode_execute` receives. A turn that is not a list holds no step, and a step nested
 * past `json.loads`' limit is no sample.
 */
export function* pyStepsOf(turns: readonly unknown[]): Generator<PyValue> {
  for (const turn of turns) {
    if (!Array.isArray(turn)) continue;
    for (const step of turn) {
      let v: PyValue;
      try {
        v = plainToPy(step);
      } catch {
        continue;
      }
      yield v;
    }
  }
}
