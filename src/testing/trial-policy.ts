/**
 * A scripted model that samples: on each anchor turn it acts with probability p, by a seeded coin over the
 * trial, the item and the anchor, so K trials differ as K samples of a model do, yet every outcome is known in
 * advance (tools/gen-trial-vectors.py flips the same coin). More in this folder's README.md.
 */
import type { ManifestPair } from "../pairs/types.js";
import type { CallScript } from "./policies.js";
import type { ReplayAnswer } from "./replay.js";

type Msg = Record<string, unknown>;

/** FNV-1a, 32-bit, over the UTF-8 bytes of `text`. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Whether the policy acts on an item's anchor turn in a trial. */
export function trialCoin(seed: number, trial: number, itemId: string, anchorTurn: number, p: number): boolean {
  return fnv1a32(`${seed}:${trial}:${itemId}@${anchorTurn}`) / 2 ** 32 < p;
}

/** The policy's settings: the coin's seed, the trial, and the chance to act on each side. */
export interface TrialPolicy {
  readonly seed: number;
  readonly trial: number;
  /** Chance to act on a base (complete) twin's anchor turn. */
  readonly pBase: number;
  /** Chance to act on a should-ask (withheld) twin's anchor turn. */
  readonly pMiss: number;
}

/** The call script of one trial of the policy over the manifest's pairs; turns that are no anchor get the reference's calls. */
export function trialPolicyScript(
  reference: ReadonlyMap<string, readonly (readonly string[])[]>,
  pairs: readonly ManifestPair[],
  policy: TrialPolicy,
): CallScript {
  const baseAnchors = new Set(pairs.map((p) => `${p.baseId}@${p.anchorTurn}`));
  const missPairs = new Map(pairs.map((p) => [p.missId, p]));
  return (id, turn) => {
    const miss = missPairs.get(id);
    if (miss !== undefined && miss.anchorTurn === turn)
      return trialCoin(policy.seed, policy.trial, id, turn, policy.pMiss) ? miss.goldAnchorCalls : [];
    const calls = reference.get(id)?.[turn] ?? [];
    if (baseAnchors.has(`${id}@${turn}`)) return trialCoin(policy.seed, policy.trial, id, turn, policy.pBase) ? calls : [];
    return calls;
  };
}

/**
 * The policy over all the trials of one run (`run --trials K --seed S`): the trial of a
 * request is its `seed` less S (run sends seed S + t in trial t), and each trial answers
 * with its own script, so one server plays the K endpoints K separate runs would have.
 * A request without a seed, or with one outside S … S + K − 1, gets HTTP 400.
 */
export function trialPolicyBySeed(
  reference: ReadonlyMap<string, readonly (readonly string[])[]>,
  pairs: readonly ManifestPair[],
  policy: Omit<TrialPolicy, "trial">,
  run: { readonly seed: number; readonly trials: number },
  responderOf: (script: CallScript) => (body: Msg, itemId: string) => ReplayAnswer,
): (body: Msg, itemId: string) => ReplayAnswer {
  const byTrial = Array.from({ length: run.trials }, (_, trial) => responderOf(trialPolicyScript(reference, pairs, { ...policy, trial })));
  return (body, itemId) => {
    const trial = typeof body.seed === "number" ? body.seed - run.seed : -1;
    const respond = byTrial[trial];
    if (respond === undefined)
      return {
        status: 400,
        body: { error: { message: `seed ${String(body.seed)} is no trial's seed (${run.seed} to ${run.seed + run.trials - 1})` } },
      };
    return respond(body, itemId);
  };
}
