/**
 * The top-level keys `twinscore run` adds to BFCL's result lines (BFCL's own readers ignore keys they do not
 * know), in one place for the writer and every reader. More in this folder's README.md.
 */

/**
 * The top-level key of a line generated with an injected block (`run --inject`): where the
 * block went (`developer-message` before the first turn in FC mode, `system-prompt` appended
 * to it in prompting mode) and its text. BFCL's tools ignore unknown keys; `compare` prints
 * the injection check when an arm's lines carry it.
 */
export const INJECTED_KEY = "twinscore_injected";

/** The top-level key naming the mode a line was generated in (`fc` or `prompting`); absent on lines made before it was written. */
export const MODE_KEY = "twinscore_mode";

/** The key of a line's trial index (0 to K − 1) in a run of K > 1 trials; absent on a run of one. */
export const TRIAL_KEY = "twinscore_trial";

/** How `run` asks the model: function calling, or Python-call text under BFCL's system prompt. */
export type RunMode = "fc" | "prompting";

/** The top-level key of an interactive line (`run --user-sim llm`): where the simulated user spoke, and how often. */
export const USER_SIMULATOR_KEY = "twinscore_user_simulator";

/** The key a line stopped by `--until-anchor` (or `--history reference` without `--continue`) carries: the last turn it ran. */
export const STOPPED_AFTER_TURN_KEY = "twinscore_stopped_after_turn";

/** The key naming where a line's turns before the anchor came from; present only with the value `reference`. */
export const HISTORY_KEY = "twinscore_history";

/** The key listing the turn indices played from the reference (`[0, …, T-1]` for anchor turn T). */
export const PLAYED_TURNS_KEY = "twinscore_played_turns";

/** Where a run's turns before the anchor come from: the model's own steps (BFCL's loop), or the reference played. */
export type HistorySource = "own" | "reference";

/** The value of `HISTORY_KEY` on a reference-history line. */
export const REFERENCE_HISTORY = "reference";

/**
 * The anchor turn a parsed line was generated for under `--history reference` (the count
 * of its played turns), or null for a line of the ordinary loop. A line whose keys are
 * malformed (history not `reference`, played turns not `[0, …, T-1]`) reads as null.
 */
export function referenceAnchorOf(line: { readonly [key: string]: unknown }): number | null {
  if (line[HISTORY_KEY] !== REFERENCE_HISTORY) return null;
  const played = line[PLAYED_TURNS_KEY];
  if (!Array.isArray(played) || !played.every((t, i) => t === i || (typeof t === "bigint" && t === BigInt(i)))) return null;
  return played.length;
}

/**
 * What is malformed in a parsed line's history keys, in a sentence, or null when they are
 * well formed (absent, `own`, or `reference` with the played turns `[0, …, T-1]`): a line
 * whose keys say neither history cannot be resumed as one or the other.
 */
export function historyKeysProblem(line: { readonly [key: string]: unknown }): string | null {
  const history = line[HISTORY_KEY];
  const played = line[PLAYED_TURNS_KEY];
  if (history === undefined)
    return played === undefined ? null : `\`${PLAYED_TURNS_KEY}\` without \`${HISTORY_KEY}\`: whose calls its turns hold cannot be told`;
  if (history === "own")
    return played === undefined || (Array.isArray(played) && played.length === 0)
      ? null
      : `\`${HISTORY_KEY}\` is "own" and yet \`${PLAYED_TURNS_KEY}\` lists turns`;
  if (history !== REFERENCE_HISTORY)
    return `\`${HISTORY_KEY}\` is ${JSON.stringify(history) ?? String(history)}: neither "reference" nor "own"`;
  if (played === undefined) return `\`${HISTORY_KEY}\` is "reference" and the line has no \`${PLAYED_TURNS_KEY}\``;
  return referenceAnchorOf(line) === null
    ? `\`${PLAYED_TURNS_KEY}\` is not the list of the turns before an anchor turn T (0, 1, …, T-1)`
    : null;
}

const latin1 = new TextDecoder("latin1");
/** How far from a line's end `run` writes its own keys: they follow BFCL's, and each is short. */
export const OWN_KEYS_TAIL = 4096;
/** The simulator's key as it stands in a line, quotes included. */
export const SIMULATOR_KEY_TEXT = `"${USER_SIMULATOR_KEY}"`;

/**
 * The answer turn of an interactive line (`run --user-sim llm`), from the simulator's key at the line's end: from
 * that turn on, the logged user turns are the simulated user's, so the data check stops before it. Null on any other
 * line; `keyAt`: the key's offset when the caller searched for it. More in this folder's README.md.
 */
export function simulatedAnswerTurn(bytes: Uint8Array, start: number, end: number, keyAt?: number): number | null {
  const from = Math.max(start, end - OWN_KEYS_TAIL);
  const at = keyAt ?? lastKeyAt(latin1.decode(bytes.subarray(from, end)), from);
  if (at < 0) return null;
  const answer = /^"[a-z_]+"\s*:\s*\{[^{}]*?"answer_turn"\s*:\s*(\d+)/.exec(latin1.decode(bytes.subarray(at, end)));
  return answer === null ? null : Number(answer[1]);
}

/** Where the last simulator key of a line's tail (decoded as latin1, one character per byte, from byte `from`) starts, or -1. */
function lastKeyAt(tail: string, from: number): number {
  const at = tail.lastIndexOf(SIMULATOR_KEY_TEXT);
  return at < 0 ? -1 : from + at;
}
