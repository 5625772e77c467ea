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
  readonly disagreeingIds: string[];
}

/**
 * Compare verdicts entry by entry. Verdict: pass/fail equal. Error type and message:
 * equal (both pass counts as agreeing). An id is listed as disagreeing when any of the
 * three differ.
 */
export function compareVerdicts(ours: readonly OurVerdict[], stored: ScoreFileContent): Agreement {
  let verdictAgree = 0;
  let errorTypeAgree = 0;
  let messageAgree = 0;
  let objectAgree = 0;
  let bothFailed = 0;
  let compared = false;
  const disagreeing: string[] = [];
  for (const v of ours) {
    const s = stored.failed.get(v.id);
    const vOk = v.valid === (s === undefined);
    const tOk = v.valid ? s === undefined : s !== undefined && s.errorType === v.errorType;
    const mOk = v.valid ? s === undefined : s !== undefined && s.errorMessage === v.errorMessage;
    if (vOk) verdictAgree++;
    if (tOk) errorTypeAgree++;
    if (mOk) messageAgree++;
    if (!v.valid && s !== undefined) {
      bothFailed++;
      if (v.errorJson !== undefined) {
        compared = true;
        if (JSON.stringify(JSON.parse(v.errorJson)) === s.errorJson) objectAgree++;
      }
    }
    if (!(vOk && tOk && mOk)) disagreeing.push(v.id);
  }
  return {
    entries: ours.length,
    verdictAgree,
    errorTypeAgree,
    messageAgree,
    errorObjectAgree: compared ? objectAgree : null,
    bothFailed,
    disagreeingIds: disagreeing,
  };
}
