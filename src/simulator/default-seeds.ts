/**
 * What BFCL's process had left in `post_tweet`'s shared default lists before it reached a file. More in this
 * folder's README.md.
 */
import type { ScoreFileContent } from "../bfcl/scores.js";
import type { PyValue } from "../python/value.js";
import type { DefaultSeeds } from "./classes/process.js";
import { POST_TWEET_DEFAULTS } from "./classes/twitter-api.js";
import type { OurVerdict } from "./scorefile.js";

/** Marker strings no model or reference writes (a NUL first). */
const MARKERS = { tags: "\u0000twinscore-default:tags", mentions: "\u0000twinscore-default:mentions" } as const;
type Param = keyof typeof MARKERS;

/** Seeds that put one marker at the start of each shared list. */
export function markerSeeds(): DefaultSeeds {
  return new Map([[POST_TWEET_DEFAULTS, { tags: [MARKERS.tags], mentions: [MARKERS.mentions] }]]);
}

const markerParam = (v: unknown): Param | null => (v === MARKERS.tags ? "tags" : v === MARKERS.mentions ? "mentions" : null);

function parseContainer(s: string): unknown {
  const c = s.trimStart()[0];
  if (c !== "{" && c !== "[") return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/**
 * Walk our (marked) value beside BFCL's: a list starting with a marker is the shared list,
 * and BFCL's list there is the start plus what ours holds after the marker. Strings that
 * hold JSON (call results) are walked inside. Records each start found in `found`.
 */
function collectStarts(ours: unknown, theirs: unknown, found: Map<Param, string[]>): void {
  if (Array.isArray(ours)) {
    if (!Array.isArray(theirs)) return;
    const param = markerParam(ours[0]);
    if (param !== null) {
      const rest = JSON.stringify(ours.slice(1));
      const cut = theirs.length - (ours.length - 1);
      if (cut >= 0 && JSON.stringify(theirs.slice(cut)) === rest) {
        const list = found.get(param) ?? [];
        list.push(JSON.stringify(theirs.slice(0, cut)));
        found.set(param, list);
      }
      return;
    }
    if (ours.length === theirs.length) ours.forEach((v, i) => collectStarts(v, theirs[i], found));
    return;
  }
  if (typeof ours === "string") {
    if (typeof theirs !== "string" || !ours.includes("\u0000twinscore-default:")) return;
    const a = parseContainer(ours);
    const b = parseContainer(theirs);
    if (a !== undefined && b !== undefined) collectStarts(a, b, found);
    return;
  }
  if (ours !== null && typeof ours === "object" && theirs !== null && typeof theirs === "object" && !Array.isArray(theirs)) {
    const t = theirs as Record<string, unknown>;
    for (const [k, v] of Object.entries(ours)) if (k in t) collectStarts(v, t[k], found);
  }
}

/**
 * The start of each shared list that BFCL's stored error objects show, read against our
 * error objects from a run with `markerSeeds()`; null when they show none, or disagree
 * about it (then the lists are not what explains the difference).
 */
export function inferDefaultSeeds(marked: readonly OurVerdict[], stored: ScoreFileContent): DefaultSeeds | null {
  const found = new Map<Param, string[]>();
  const seen = new Map<string, number>();
  for (const v of marked) {
    if (v.valid || v.errorJson === undefined) continue;
    const k = seen.get(v.id) ?? 0;
    seen.set(v.id, k + 1);
    const first = stored.failed.get(v.id);
    const theirs = first === undefined ? undefined : [first, ...(first.more ?? [])][k];
    if (theirs === undefined) continue;
    collectStarts(JSON.parse(v.errorJson), JSON.parse(theirs.errorJson), found);
  }
  const seed: Partial<Record<Param, PyValue[]>> = {};
  let any = false;
  for (const [param, starts] of found) {
    if (new Set(starts).size !== 1) return null;
    const start = JSON.parse(starts[0]) as PyValue[];
    if (start.some((x) => typeof x !== "string")) return null;
    if (start.length > 0) any = true;
    seed[param] = start;
  }
  return any ? new Map([[POST_TWEET_DEFAULTS, seed]]) : null;
}

/** The seeds in words: `mentions` started as ["@a"], for the agreement report. */
export function describeSeeds(seeds: DefaultSeeds): string {
  const parts: string[] = [];
  for (const [, lists] of seeds)
    for (const [param, start] of Object.entries(lists)) if (start.length > 0) parts.push(`${param}=${JSON.stringify(start)}`);
  return parts.join(", ");
}
