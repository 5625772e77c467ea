/**
 * The pair manifest: the committed build product of the pair builder, and the only
 * thing scoring needs from BFCL's data. Field names say what things are; see the paper's
 * §4.2 and Appendices C–E for the rules that produce them.
 */

/** The two should-ask categories: a function removed, or a value removed. */
export type { ShouldAskCategory } from "../bfcl/categories.js";
import type { ShouldAskCategory } from "../bfcl/categories.js";
import type { ItemRevision, ManifestRevisions, PairRevisions } from "./revisions.js";

/**
 * The certification verdict of a candidate pair: the hand-made ones (Appendix E), or
 * `uncertified` when the pair's items differ from the items the rulings were made on, so
 * no hand ruling covers it (it is scored, and counted apart in the funnel).
 */
export type CertificationVerdict = "valid" | "construction" | "compound" | "uncertified";

/** The certification record of a candidate pair. */
export interface Certification {
  readonly verdict: CertificationVerdict;
  /** Functions removed by miss_func (empty for miss_param, which removes a value). */
  readonly withheld: readonly string[];
  /** Compound turns: world-changing steps the turn authorizes independently of what was withheld. */
  readonly independent: readonly string[];
  /** Compound turns: world-changing steps that depend on what was withheld. */
  readonly gated: readonly string[];
  /**
   * Uncertified pairs: what differs from the certified content, as `<twin>.<field>`
   * (`miss.question`, `base.reference`; `<twin>.absent` for an item never certified).
   * Empty when the hand ruling applies.
   */
  readonly contentDiffers: readonly string[];
}

/**
 * What a pair's two twins differ in, up to and including the anchor turn: `tools`, the functions miss_func
 * removed; `anchor-request`, the user's text on the anchor turn. A miss_param pair differs in its anchor
 * request only; a miss_func pair in its tools, and sometimes its anchor request too. More in this folder's
 * README.md.
 */
export type TwinDifference = "tools" | "anchor-request";

/** What the reference does on the base twin's anchor turn. */
export type GoldAnchorKind = "world-changing" | "read-only" | "login-only";

/** One content-verified twin pair. */
export interface ManifestPair {
  /** The should-ask item, e.g. `multi_turn_miss_param_122`. */
  readonly missId: string;
  /** The base twin, e.g. `multi_turn_base_122`. */
  readonly baseId: string;
  readonly category: ShouldAskCategory;
  /** 0-based turn index of the anchor, the same on both twins. */
  readonly anchorTurn: number;
  /** The should-ask item's tool list, in BFCL order, with the functions miss_func removed kept. */
  readonly tools: readonly string[];
  /** The functions miss_func removed (empty for miss_param). */
  readonly removedFunctions: readonly string[];
  /** The base twin's reference calls on the anchor turn, as BFCL writes them. */
  readonly goldAnchorCalls: readonly string[];
  readonly goldAnchorKind: GoldAnchorKind;
  /** `scored` pairs make the 223 of Table 1; `excluded` pairs carry `exclusionReason`. */
  readonly status: "scored" | "excluded";
  readonly exclusionReason: string | null;
  /** Present on candidate pairs (gold anchor turn world-changing), null otherwise. */
  readonly certification: Certification | null;
  /** The user's request on the anchor turn: complete on the base twin, incomplete on the should-ask twin. */
  readonly anchorRequest: { readonly base: string; readonly miss: string };
  /** What the twins differ in up to the anchor turn, in this order: `tools`, `anchor-request`. */
  readonly differsIn: readonly TwinDifference[];
  /** Number of turns of each twin (the should-ask twin has one more). */
  readonly turnCount: { readonly base: number; readonly miss: number };
  /** The BFCL data commits since the release that changed each twin, oldest first (absent: the manifest records no revisions). */
  readonly revisions?: PairRevisions;
}

/**
 * Why a should-ask item never became a pair. `misaligned`: its reference, or its base
 * twin's, cannot be lined up with its question (a different turn count, or none at all);
 * `multi-anchor` also covers an item with no empty reference turn.
 */
export type DropStage = "bad-key" | "misaligned" | "multi-anchor" | "shape-differs" | "calls-differ" | "dialogue-differs";

/** A should-ask item dropped before pairing, with the filter that dropped it. */
export interface DroppedItem {
  readonly missId: string;
  readonly category: ShouldAskCategory;
  readonly stage: DropStage;
  readonly reason: string;
  readonly baseId: string | null;
  readonly anchorTurn: number | null;
}

/** The counts of the pairing funnel, printed by `twinscore pairs` and kept in the manifest. */
export interface Funnel {
  readonly shouldAskItems: number;
  readonly droppedBadKeys: number;
  readonly droppedMisaligned: number;
  readonly droppedMultiAnchor: number;
  readonly droppedShape: number;
  readonly afterStructural: number;
  readonly droppedCallsDiffer: number;
  readonly droppedDialogueDiffers: number;
  readonly contentVerified: number;
  readonly contentVerifiedByCategory: Readonly<Record<ShouldAskCategory, number>>;
  readonly candidates: number;
  readonly readOnly: number;
  readonly loginOnly: number;
  readonly constructionErrors: number;
  readonly scored: number;
  readonly scoredByCategory: Readonly<Record<ShouldAskCategory, number>>;
  readonly distinctBaseTwins: number;
  readonly compound: number;
  /** Scored candidates no hand ruling covers (their items differ from the certified ones). */
  readonly uncertified: number;
  /** Bad keys not applied because the item differs from the one judged defective. */
  readonly badKeysNotApplied: number;
  /** Certification rulings not applied because the pair's items differ from the certified ones. */
  readonly rulingsNotApplied: number;
  readonly restoredBadKeyPairs: number;
  /** Scored pairs when the bad keys are restored (the 223 plus the restored ones). */
  readonly scoredWithBadKeysRestored: number;
  /** Distinct base twins among the content-verified pairs. */
  readonly distinctBaseTwinsContentVerified: number;
  /** Distinct (base twin, anchor turn) among the scored pairs: the act side's distinct turns. */
  readonly distinctBaseAnchorTurnsScored: number;
}

/**
 * An item as the manifest records it for checking rollouts: one digest per question turn
 * (see `turnDigests`; null for a turn with no user message) and one over its content.
 */
export interface ManifestItem {
  readonly id: string;
  readonly turns: readonly (string | null)[];
  /** Digest over every compared field (see `contentFields`): equal items, equal digest. */
  readonly content: string;
  /** The turns BFCL sent from older data since the release, newest first, where they differ from `turns` (absent: none). */
  readonly revisions?: readonly ItemRevision[];
}

/** An item the builder left out because its reference cannot be used with its question. */
export interface UnusableEntry {
  readonly id: string;
  readonly reason: string;
}

/** A hand ruling that was not applied: the item(s) it was made on differ here. */
export interface RulingNotApplied {
  readonly id: string;
  readonly ruling: "bad-key" | "construction" | "compound";
  /** What differs, as in `Certification.contentDiffers`. */
  readonly contentDiffers: readonly string[];
}

/** The whole manifest file (`data/manifest.json` for BFCL v4, `data/manifest-v3.json` for v3). */
export interface Manifest {
  readonly version: 3;
  /** Where it was built from: BFCL version prefix and a digest of the inputs. */
  readonly source: { readonly bfclVersion: "v3" | "v4"; readonly inputsSha256: string };
  /** The data commits since the version's release, from the package's revision record (absent: built without one). */
  readonly revisions?: ManifestRevisions;
  readonly funnel: Funnel;
  /** The content-verified pairs (365), scored and excluded, sorted by category then index. */
  readonly pairs: readonly ManifestPair[];
  /** The pairs that come back when the bad keys are restored (7); never scored by default. */
  readonly restoredPairs: readonly ManifestPair[];
  readonly dropped: readonly DroppedItem[];
  /** Items of any category read that were left out because their reference cannot be used (with why). */
  readonly unusable: readonly UnusableEntry[];
  /** Hand rulings not applied because their items differ from the certified content. */
  readonly notApplied: readonly RulingNotApplied[];
  /** Every item read (base, miss_func, miss_param), for checking that rollouts were generated on this data. */
  readonly items: readonly ManifestItem[];
}
