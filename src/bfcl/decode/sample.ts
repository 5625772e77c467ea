/**
 * Sample steps out of result-file bytes, for detecting an unknown folder's decoder: the
 * steps of the first lines, in order, as Python values (what `decode_execute` receives).
 * What detection reads of one step is bounded (`MAX_SAMPLED_STEP`): a longer step is left
 * out of the sample, so a reply of many megabytes costs a byte scan, not a parse and a
 * trial decode with every decoder.
 */
import type { PyValue } from "../../python/value.js";
import { CLOSE_BRACKET, COMMA, OPEN_BRACKET, skipSpace, skipValue } from "../json-bytes.js";
import { scanLineHead } from "../results.js";
import { plainToPy } from "./fc.js";
import { DETECTION_SAMPLE, isEmptyStep } from "./select.js";

const utf8 = new TextDecoder("utf-8");

/**
 * The longest step detection samples, in bytes of its JSON (or UTF-16 units of its texts).
 * The real runs' steps are at most 1,341 characters of text and 57 kB of records; trying
 * all eighteen decoders on nine 20 MB text steps took 21 s and 950 MB.
 */
export const MAX_SAMPLED_STEP = 64 * 1024;

/**
 * Call `onStep(start, end)` for each step of a `result` list of turns (`bytes[start, end)`),
 * found at the byte level; a turn that is not a list holds no step. Stops when `onStep`
 * returns false, or where the list is not well-formed.
 */
function forEachStepRange(bytes: Uint8Array, start: number, end: number, onStep: (start: number, end: number) => boolean): void {
  const items = (from: number, each: (start: number, end: number) => boolean): number => {
    // the values of the list opening at `from`; returns the index past it, or -1
    let i = skipSpace(bytes, from + 1, end);
    if (bytes[i] === CLOSE_BRACKET) return i + 1;
    for (;;) {
      const next = skipValue(bytes, i, end);
      if (next < 0 || next === i) return -1;
      if (!each(i, next)) return -1;
      i = skipSpace(bytes, next, end);
      if (bytes[i] === CLOSE_BRACKET) return i + 1;
      if (bytes[i] !== COMMA) return -1;
      i = skipSpace(bytes, i + 1, end);
    }
  };
  const first = skipSpace(bytes, start, end);
  if (bytes[first] !== OPEN_BRACKET) return;
  items(first, (turnStart) => (bytes[turnStart] === OPEN_BRACKET ? items(turnStart, onStep) >= 0 : true));
}

/** Up to `limit` non-empty steps from the lines of result files (each file's bytes), file by file. */
export function sampleSteps(files: Iterable<Uint8Array>, limit = DETECTION_SAMPLE): PyValue[] {
  const out: PyValue[] = [];
  for (const bytes of files) {
    for (let start = 0; start < bytes.length && out.length < limit;) {
      let end = bytes.indexOf(0x0a, start);
      if (end < 0) end = bytes.length;
      const head = scanLineHead(bytes, start, end);
      start = end + 1;
      if ("error" in head || head.resultStart < 0) continue;
      forEachStepRange(bytes, head.resultStart, head.resultEnd, (a, b) => {
        if (b - a > MAX_SAMPLED_STEP) return true;
        let v: PyValue;
        try {
          v = plainToPy(JSON.parse(utf8.decode(bytes.subarray(a, b))));
        } catch {
          return true; // not JSON, or nested past json.loads' limit: no sample
        }
        if (!isEmptyStep(v)) out.push(v);
        return out.length < limit;
      });
    }
    if (out.length >= limit) break;
  }
  return out;
}

/** Whether a step (as `JSON.parse` gave it) is within `MAX_SAMPLED_STEP`: its texts and keys counted, a few units per value. */
function withinSampleBound(step: unknown): boolean {
  let budget = MAX_SAMPLED_STEP;
  const stack: unknown[] = [step];
  while (stack.length > 0) {
    const v = stack.pop();
    budget -= typeof v === "string" ? v.length + 2 : 4;
    if (budget < 0) return false;
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        budget -= k.length + 3;
        stack.push(x);
      }
    }
  }
  return true;
}

/**
 * The steps of recorded turns (turns × steps, as `JSON.parse` gave them) as Python values,
 * what `decode_execute` receives. A turn that is not a list holds no step; a step nested
 * past `json.loads`' limit, or longer than `MAX_SAMPLED_STEP`, is no sample.
 */
export function* pyStepsOf(turns: readonly unknown[]): Generator<PyValue> {
  for (const turn of turns) {
    if (!Array.isArray(turn)) continue;
    for (const step of turn) {
      if (!withinSampleBound(step)) continue;
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
