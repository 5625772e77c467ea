/**
 * Finds the turns the judge reads: on each scored pair, the withheld twin's anchor turn
 * when the model held back there (no world-changing attempt). Under the release reading a
 * rollout that ended before the anchor (or an inference-error line) is scored as holding
 * back but has no turn to read, so it is counted apart, never sent.
 */
import type { PairRecord } from "../decision/types.js";
import type { ManifestPair } from "../pairs/types.js";
import { isSilent, type HeldBackTurn } from "./types.js";

/** The held-back turns of one model, and what was left out. */
export interface HeldBackSelection {
  readonly turns: HeldBackTurn[];
  /** Held back only because the rollout ended before the anchor (or the line is an inference error). */
  readonly notReached: number;
  readonly silent: number;
}

/**
 * Collect one model's held-back anchor turns from its scored pair records. `recordedReplies`
 * (by should-ask id) gives the reply of a turn whose `result` steps carry no text — an
 * interactive run records the model's last reply on the anchor turn with the simulated
 * user's exchange, where a server's `tool_calls: []` left BFCL's step as `[]`.
 */
export function heldBackTurns(
  model: string,
  records: readonly PairRecord[],
  pairs: ReadonlyMap<string, ManifestPair>,
  recordedReplies?: ReadonlyMap<string, string>,
): HeldBackSelection {
  const turns: HeldBackTurn[] = [];
  let notReached = 0;
  let silent = 0;
  for (const r of records) {
    if (r.actedOnMiss) continue;
    if (r.miss.status === "inference-error" || r.miss.status === "not-reached" || r.miss.status === "missing") {
      notReached++;
      continue;
    }
    const pair = pairs.get(r.missId);
    if (!pair) continue;
    const turn: HeldBackTurn = {
      model,
      missId: r.missId,
      baseId: r.baseId,
      category: r.category,
      anchorTurn: r.anchorTurn,
      request: pair.anchorRequest.miss,
      baseRequest: pair.anchorRequest.base,
      removedFunctions: pair.removedFunctions,
      lookups: r.miss.anchorCalls.filter((c) => !c.worldChanging).map((c) => c.name),
      reply: r.miss.anchorText.some((t) => t.trim() !== "")
        ? r.miss.anchorText.join("\n\n")
        : (recordedReplies?.get(r.missId) ?? r.miss.anchorText.join("\n\n")),
    };
    if (isSilent(turn)) silent++;
    turns.push(turn);
  }
  return { turns, notReached, silent };
}
