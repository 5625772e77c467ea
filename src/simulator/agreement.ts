/**
 * How far `check`'s verdicts agree with the score file BFCL wrote for the same result
 * file, entry by entry: the verdict, the error type, the message and the whole error
 * object. The stored file is read by the one score-file parser (`bfcl/scores.ts`).
 */
import type { ScoreFileContent } from "../bfcl/scores.js";
import type { OurVerdict } from "./scorefile.js";

/** Agreement between our verdicts and a stored score file, for one category file. */
export interface Agreement {
  readonly entries: number;
  readonly verdictAgree: number;
  readonly errorTypeAgree: number;
  readonly messageAgree: number;
  /** Entries both sides fail whose full error objects are identical (null when not compared). */
  readonly errorObjectAgree: number | null;
  readonly bothFailed: number;
  /** Entries whose verdict, error type, message or (when compared) error object differ, in our order. */
  readonly disagreeingIds: string[];
  /** Of those, the entries whose verdict differs (pass on one side, fail on the other): `check`'s finding. */
  readonly verdictDisagreeingIds: string[];
  /** Differences with a named cause (`difference-causes.ts`), each with the entries it explains; the rest of `disagreeingIds` is unexplained. */
  readonly explained: readonly ExplainedDifference[];
}

/** What makes some entries differ from BFCL's stored score file: a named class of difference. */
export interface ExplainedDifference {
  readonly cause: "python-suggestion" | "shared-default-start" | "executor-change";
  /** The cause in one line (the suffix, the lists' start, the changes by commit). */
  readonly detail: string;
  readonly ids: readonly string[];
}

/** `JSON.stringify(JSON.parse(text))`, or the text itself when JavaScript cannot read it (NaN, Infinity). */
export function canonicalJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/**
 * Compare verdicts entry by entry: pass/fail, error type and message, and (for entries both sides fail) the
 * whole `error` object; an id disagrees when any of the four differ. `ours` holds one verdict per passing entry
 * and one per score line of a failing one (adjacent). More in this folder's README.md.
 */
export function compareVerdicts(ours: readonly OurVerdict[], stored: ScoreFileContent): Agreement {
  let verdictAgree = 0;
  let errorTypeAgree = 0;
  let messageAgree = 0;
  let objectAgree = 0;
  let bothFailed = 0;
  let compared = false;
  let entries = 0;
  const disagreeing: string[] = [];
  const verdictDisagreeing: string[] = [];
  for (let i = 0; i < ours.length;) {
    const id = ours[i].id;
    let j = i + 1;
    while (j < ours.length && ours[j].id === id) j++;
    const mine = ours.slice(i, j).filter((v) => !v.valid);
    i = j;
    entries++;
    const first = stored.failed.get(id);
    const theirs = first === undefined ? [] : [first, ...(first.more ?? [])];
    const sameCount = mine.length === theirs.length;
    const vOk = (mine.length === 0) === (theirs.length === 0);
    const tOk = sameCount && mine.every((v, k) => v.errorType === theirs[k].errorType);
    const mOk = sameCount && mine.every((v, k) => v.errorMessage === theirs[k].errorMessage);
    if (vOk) verdictAgree++;
    if (tOk) errorTypeAgree++;
    if (mOk) messageAgree++;
    let oOk = true;
    if (mine.length > 0 && theirs.length > 0) {
      bothFailed++;
      if (mine.every((v) => v.errorJson !== undefined)) {
        compared = true;
        oOk = sameCount && mine.every((v, k) => canonicalJson(v.errorJson as string) === theirs[k].errorJson);
        if (oOk) objectAgree++;
      }
    }
    if (!(vOk && tOk && mOk && oOk)) disagreeing.push(id);
    if (!vOk) verdictDisagreeing.push(id);
  }
  return {
    entries,
    verdictAgree,
    errorTypeAgree,
    messageAgree,
    errorObjectAgree: compared ? objectAgree : null,
    bothFailed,
    disagreeingIds: disagreeing,
    verdictDisagreeingIds: verdictDisagreeing,
    explained: [],
  };
}
