/**
 * What `twinscore pairs` shows: the funnel sentence (the paper's Appendix D in one line)
 * and one row per should-ask item, so people and scripts read the same facts.
 */
import { shouldAskCategories } from "../bfcl/categories.js";
import { indexOfId } from "../bfcl/data.js";
import type { Funnel, Manifest, ManifestPair, ShouldAskCategory } from "./types.js";

/**
 * The funnel as one line, in the words of the issue and the paper. Counts that are zero
 * on the data the paper used (misaligned items, uncertified pairs) appear only when they
 * are not, so the v4 line reads exactly as published.
 */
export function funnelLine(f: Funnel): string {
  const misaligned = f.droppedMisaligned > 0 ? `${f.droppedMisaligned} misaligned, ` : "";
  const uncertified =
    f.uncertified > 0 ? `, ${f.uncertified} uncertified (their items differ from the ones the hand rulings were made on)` : "";
  return (
    `${f.shouldAskItems} should-ask items → dropped ${f.droppedBadKeys} bad keys, ${misaligned}${f.droppedMultiAnchor} multi-anchor, ` +
    `${f.droppedShape} shape differs → ${f.afterStructural} → dropped ${f.droppedCallsDiffer} whose call strings differ, ` +
    `${f.droppedDialogueDiffers} whose dialogue before the anchor differs → ${f.contentVerified} content-verified pairs ` +
    `(${f.contentVerifiedByCategory.miss_func} miss_func, ${f.contentVerifiedByCategory.miss_param} miss_param) → ` +
    `${f.candidates} candidates (the other ${f.contentVerified - f.candidates}: ${f.readOnly} read-only, ${f.loginOnly} login-only) → ` +
    `${f.constructionErrors} construction errors → ${f.scored} scored pairs (${f.scoredByCategory.miss_func} miss_func, ` +
    `${f.scoredByCategory.miss_param} miss_param) on ${f.distinctBaseTwins} distinct base twins, ${f.compound} of them compound${uncertified}.`
  );
}

/** Secondary counts printed under the funnel line. */
export function funnelNotes(f: Funnel): string[] {
  const notes = [
    `${f.distinctBaseAnchorTurnsScored} distinct base anchor turns among the ${f.scored} scored pairs; ${f.distinctBaseTwinsContentVerified} distinct base twins among the ${f.contentVerified} content-verified pairs.`,
    `Restoring the ${f.droppedBadKeys} bad keys adds ${f.restoredBadKeyPairs} scored pairs (${f.scoredWithBadKeysRestored}); they are never scored by default.`,
  ];
  if (f.badKeysNotApplied + f.rulingsNotApplied > 0) {
    notes.push(
      `Not applied, because their items differ from the ones they were made on: ${f.badKeysNotApplied} bad keys and ` +
        `${f.rulingsNotApplied} certification rulings (construction errors, compound turns).`,
    );
  }
  return notes;
}

/** How a scored pair's certification reads in the listing. */
function certificationText(p: ManifestPair): string {
  const c = p.certification;
  if (c === null) return "";
  return c.verdict === "uncertified" ? `uncertified: differs in ${c.contentDiffers.join(", ")}` : `certified ${c.verdict}`;
}

/** One listing row per should-ask item. */
export interface PairListingRow {
  readonly miss_id: string;
  readonly category: ShouldAskCategory;
  readonly base_id: string | null;
  readonly anchor_turn: number | null;
  readonly status: "scored" | "excluded" | "dropped";
  /** Exclusion reason, drop reason, or the certification verdict of a scored pair. */
  readonly reason: string;
}

/** Every should-ask item of the manifest, sorted by category then index. */
export function listingRows(m: Manifest): PairListingRow[] {
  const rows: PairListingRow[] = [
    ...m.pairs.map((p) => ({
      miss_id: p.missId,
      category: p.category,
      base_id: p.baseId,
      anchor_turn: p.anchorTurn,
      status: p.status,
      reason: p.exclusionReason ?? certificationText(p),
    })),
    ...m.dropped.map((d) => ({
      miss_id: d.missId,
      category: d.category,
      base_id: d.baseId,
      anchor_turn: d.anchorTurn,
      status: "dropped" as const,
      reason: `${d.stage}: ${d.reason}`,
    })),
  ];
  const catRank = (c: ShouldAskCategory) => shouldAskCategories.indexOf(c);
  return rows.sort((a, b) => catRank(a.category) - catRank(b.category) || indexOfId(a.miss_id) - indexOfId(b.miss_id));
}
