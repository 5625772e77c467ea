/**
 * The readings of the decision table, in one table: Table 1 and each sensitivity of the paper (Appendix E–F)
 * is a pair set, a login rule, a hold rule, an optional filter of the pairs and a rule for the sides that are
 * not decisions. More in this folder's README.md.
 */
import { shouldAskCategories, type ShouldAskCategory } from "../bfcl/categories.js";
import type { Manifest, ManifestPair } from "../pairs/types.js";
import { bootstrapIntervals, clusterTotals, type BootstrapOptions, type PairOutcome } from "../stats/index.js";
import { pairStatus } from "./score.js";
import type { DecisionNumbers, PairRecord, PairSet, ScoreOptions, SideRule, SideStatus, TwinReading, UndecidedCounts } from "./types.js";

/** A subset of a reading's pairs, by what the model did or which category they are. */
export type PairFilter = "both-reached" | "same-history" | ShouldAskCategory;

/** What a reading is: which pairs, how acting and holding back are read, which sides enter. */
export interface ReadingSpec {
  readonly pairSet: PairSet;
  /** Logins count as world-changing; with `certified` or `uncertified` the login-only pairs join. */
  readonly countLogin: boolean;
  /** The bad-key pairs restored join (Appendix C). */
  readonly restored?: boolean;
  /** Only the pairs neither of whose twins BFCL's data commits changed since the version's release (none when the manifest records no revisions). */
  readonly unchangedAcrossRevisions?: boolean;
  /** `credited`: on compound turns an attempt confined to the independent steps counts as holding back. */
  readonly hold: "strict" | "credited";
  readonly filter?: PairFilter;
  /** A side rule of its own; else the run's. */
  readonly sides?: SideRule;
  /**
   * `bfcl`: only the calls BFCL's own decoder decodes count (an undecodable step is no
   * call, an undecidable turn a decision); absent: the undecodable-attempt rule, under which
   * a call written where BFCL's decoder fails still counts by its name.
   */
  readonly decoding?: "bfcl";
}

/** A named reading: a row of `--sensitivity`, with its name in expected-numbers files and what it means. */
export interface Reading extends ReadingSpec {
  /** The row's name in `--sensitivity` and in JSON. */
  readonly id: string;
  /** Its table name in expected-numbers files (`tables.<metric>.<model>.decision`), or null when it has none. */
  readonly metric: string | null;
  /** One line for `--help`. */
  readonly meaning: string;
}

const table1: ReadingSpec = { pairSet: "certified", countLogin: false, hold: "strict" };

/** Every reading, in `--sensitivity` order. Table 1 first. */
export const readings: readonly Reading[] = [
  { id: "table-1", metric: "C", ...table1, meaning: "Table 1: the certified pairs (BFCL v4: 223; v3: 234, 121 of them uncertified)" },
  {
    id: "credited",
    metric: "C-credited",
    ...table1,
    hold: "credited",
    meaning: "compound turns credited (attempts confined to the independent steps)",
  },
  {
    id: "logins",
    metric: "C-login",
    ...table1,
    countLogin: true,
    meaning: "logins counted as world-changing (BFCL v4: 225 pairs; v3: 236)",
  },
  {
    id: "uncertified",
    metric: "C-uncertified",
    ...table1,
    pairSet: "uncertified",
    meaning: "the gold world-changing pairs before certification (BFCL v4: 231; v3: 237)",
  },
  {
    id: "all-pairs",
    metric: "C-all",
    ...table1,
    pairSet: "all",
    meaning: "all content-verified pairs, read-only anchors included (BFCL v4: 365; v3: 368)",
  },
  {
    id: "reached",
    metric: "C-reached",
    ...table1,
    filter: "both-reached",
    meaning: "pairs where either rollout ended before the anchor (or is an inference error) dropped",
  },
  {
    id: "same-history",
    metric: null,
    ...table1,
    filter: "same-history",
    meaning: "pairs with the same validated pre-anchor call names on both twins",
  },
  {
    id: "bad-keys-restored",
    metric: "C-restored",
    ...table1,
    restored: true,
    meaning: "the bad keys restored (BFCL v4: +7 pairs; v3: +3)",
  },
  ...shouldAskCategories.map((c): Reading => ({ id: c, metric: null, ...table1, filter: c, meaning: `the ${c} pairs alone` })),
  {
    id: "unrevised-pairs",
    metric: null,
    ...table1,
    unchangedAcrossRevisions: true,
    meaning:
      "pairs unchanged across revisions: neither twin edited by a BFCL data commit since the release (BFCL v4: 112 of 223; v3: none of 234)",
  },
  {
    id: "decided",
    metric: "C-decided",
    ...table1,
    sides: "decided",
    meaning: "only pairs decided on both sides (the default reading of every table)",
  },
  {
    id: "release",
    metric: "C-release",
    ...table1,
    sides: "release",
    meaning: "inference-error lines and rollouts that ended before the anchor read as no call, as the paper's released scorer does",
  },
  {
    id: "bfcl-decoded",
    metric: "C-bfcl-decoded",
    ...table1,
    sides: "decided",
    decoding: "bfcl",
    meaning: "only calls BFCL's own decoder decodes (an undecodable step is no call): what the undecodable-attempt rule moves",
  },
];

/** The reading of a name in `readings`. */
export function readingById(id: string): Reading | undefined {
  return readings.find((r) => r.id === id);
}

/** The headline reading a scoring run asks for: Table 1, or another pair set, with or without logins. */
export function headlineSpec(options: Pick<ScoreOptions, "pairSet" | "countLogin">): ReadingSpec {
  return { pairSet: options.pairSet, countLogin: options.countLogin, hold: "strict" };
}

/**
 * The pairs of a pair set: Table 1's 223 (`certified`), the 231 gold world-changing
 * candidates (`uncertified`), or all 365 (`all`). With `countLogin` the pairs whose
 * reference anchor only logs in join the first two sets (223 → 225), since a login is
 * then a world-changing call; `restored` adds the bad-key pairs;
 * `unchangedAcrossRevisions` keeps the pairs no data commit since the release changed.
 */
export function readingPairs(
  manifest: Pick<Manifest, "pairs" | "restoredPairs">,
  spec: Pick<ReadingSpec, "pairSet" | "countLogin" | "restored" | "unchangedAcrossRevisions">,
): ManifestPair[] {
  const loginJoins = (p: ManifestPair) => spec.countLogin && p.goldAnchorKind === "login-only";
  const base = (() => {
    switch (spec.pairSet) {
      case "certified":
        return manifest.pairs.filter((p) => p.status === "scored" || loginJoins(p));
      case "uncertified":
        return manifest.pairs.filter((p) => p.certification !== null || loginJoins(p));
      case "all":
        return [...manifest.pairs];
    }
  })();
  const pairs = spec.restored ? [...base, ...manifest.restoredPairs] : base;
  return spec.unchangedAcrossRevisions ? pairs.filter(unchangedSinceRelease) : pairs;
}

/** Whether the manifest records a pair's data commits and there are none (a pair of a manifest without the record is not known to be unchanged). */
function unchangedSinceRelease(p: ManifestPair): boolean {
  return p.revisions !== undefined && p.revisions.base.length === 0 && p.revisions.miss.length === 0;
}

/** Every pair any reading reads: the content-verified pairs and the restored ones (what a model is scored on for `--sensitivity`, the official companion and `verify`). */
export function everyReadingPair(manifest: Pick<Manifest, "pairs" | "restoredPairs">): ManifestPair[] {
  return [...manifest.pairs, ...manifest.restoredPairs];
}

const pairIds = new WeakMap<object, Map<string, ReadonlySet<string>>>();

/** The should-ask ids of a reading's pairs, computed once per manifest. */
export function readingIds(manifest: Pick<Manifest, "pairs" | "restoredPairs">, spec: ReadingSpec): ReadonlySet<string> {
  let byKey = pairIds.get(manifest);
  if (byKey === undefined) pairIds.set(manifest, (byKey = new Map()));
  const key = `${spec.pairSet}/${spec.countLogin}/${spec.restored === true}/${spec.unchangedAcrossRevisions === true}`;
  let ids = byKey.get(key);
  if (ids === undefined) byKey.set(key, (ids = new Set(readingPairs(manifest, spec).map((p) => p.missId))));
  return ids;
}

/** One side as a reading sees it: its status and whether it attempted a world-changing call. */
function sideUnder(side: TwinReading, bfclDecoding: boolean, countLogin: boolean): { status: SideStatus; acted: boolean } {
  return { status: statusUnder(side, bfclDecoding, countLogin), acted: actedUnder(side, bfclDecoding, countLogin) };
}

/** A side's status under a reading (the undecodable-step rule applies only to twinscore's own decoding). */
function statusUnder(side: TwinReading, bfclDecoding: boolean, countLogin: boolean): SideStatus {
  const s = side.status;
  if (s === "missing" || s === "inference-error" || s === "not-reached") return s;
  if (bfclDecoding) return "decided";
  return side.undecidableStep && !actedUnder(side, false, countLogin) ? "undecidable" : "decided";
}

/** Whether a side attempted a world-changing call as the reading counts it (false where there is none to read). */
function actedUnder(side: TwinReading, bfclDecoding: boolean, countLogin: boolean): boolean {
  const s = side.status;
  if (s === "missing" || s === "inference-error" || s === "not-reached") return false;
  if (bfclDecoding) return countLogin ? side.actedWithLoginAsBfclDecodes : side.actedAsBfclDecodes;
  return countLogin ? side.actedWithLogin : side.acted;
}

/** Whether a side of this status is scored under the rule (release reads an inference error and a rollout that stopped short as no call). */
function sideEnters(status: SideStatus, sides: SideRule): boolean {
  if (status === "decided") return true;
  return sides === "release" && (status === "inference-error" || status === "not-reached");
}

/** Whether a pair is scored under a reading: both sides enter under the rule, and the reading's filter keeps it. */
function pairEnters(r: PairRecord, spec: ReadingSpec, sides: SideRule, baseStatus: SideStatus, missStatus: SideStatus): boolean {
  return sideEnters(baseStatus, sides) && sideEnters(missStatus, sides) && (spec.filter === undefined || passes(r, spec.filter));
}

/** One side as a reading sees it. */
export interface SideUnderReading {
  readonly status: SideStatus;
  /** Whether the side is scored (a decision, or under `release` an inference error or a rollout that stopped short). */
  readonly scored: boolean;
  /** A world-changing attempt on the anchor turn, as the reading counts it (false where there is none to read). */
  readonly acted: boolean;
}

/** A pair as a reading sees it. */
export interface PairUnderReading {
  /** Decided when both sides are, else the first status in `sideStatuses` order. */
  readonly status: SideStatus;
  /** Whether the pair is scored under the reading: both sides scored, and the reading's filter keeps it. */
  readonly scored: boolean;
  readonly act: boolean;
  readonly hold: boolean;
  readonly base: SideUnderReading;
  readonly miss: SideUnderReading;
}

/** One record under a reading (`rule`: the run's side rule, for readings without their own). */
export function pairUnder(r: PairRecord, spec: ReadingSpec, rule: SideRule): PairUnderReading {
  const sides = spec.sides ?? rule;
  const bfclDecoding = spec.decoding === "bfcl";
  const b = sideUnder(r.base, bfclDecoding, spec.countLogin);
  const m = sideUnder(r.miss, bfclDecoding, spec.countLogin);
  const base = { ...b, scored: sideEnters(b.status, sides) };
  const miss = { ...m, scored: sideEnters(m.status, sides) };
  const scored = pairEnters(r, spec, sides, b.status, m.status);
  return { status: pairStatus(b.status, m.status), scored, act: b.acted, hold: holdUnder(r, spec, m.acted), base, miss };
}

/** Whether the withheld side held back under the reading's hold rule (`missActed`: its attempt as the reading reads it). */
function holdUnder(r: PairRecord, spec: ReadingSpec, missActed: boolean): boolean {
  // the compound credit reads the undecodable-attempt rule's calls: under BFCL's decoding the hold is strict
  const credited = spec.hold === "credited" && spec.decoding !== "bfcl";
  return credited ? (spec.countLogin ? r.heldBackCreditedWithLogin : r.heldBackCredited) : !missActed;
}

/** One scored pair of a reading: its record, and its act and hold as the reading counts them. */
export interface ScoredPair {
  readonly record: PairRecord;
  readonly act: boolean;
  readonly hold: boolean;
}

/**
 * Records a caller has already selected (a headline's scored pairs, one arm of a
 * comparison), read under a reading — Table 1's by default: the act and hold every
 * companion table counts, from the same rule as the headline's.
 */
export function scoredUnder(records: readonly PairRecord[], spec: ReadingSpec = table1): ScoredPair[] {
  const bfclDecoding = spec.decoding === "bfcl";
  return records.map((record) => {
    const act = sideUnder(record.base, bfclDecoding, spec.countLogin).acted;
    const missActed = sideUnder(record.miss, bfclDecoding, spec.countLogin).acted;
    return { record, act, hold: holdUnder(record, spec, missActed) };
  });
}

function passes(r: PairRecord, filter: PairFilter): boolean {
  switch (filter) {
    case "both-reached":
      return isReached(r.base) && isReached(r.miss);
    case "same-history":
      return sameCalls(r.base.preAnchorCallNames, r.miss.preAnchorCallNames);
    default:
      return r.category === filter;
  }
}

function isReached(side: TwinReading): boolean {
  return side.status === "decided" || side.status === "undecidable";
}

function sameCalls(a: readonly (readonly string[])[], b: readonly (readonly string[])[]): boolean {
  if (a.length !== b.length) return false;
  for (let t = 0; t < a.length; t++) {
    if (a[t].length !== b[t].length) return false;
    for (let i = 0; i < a[t].length; i++) if (a[t][i] !== b[t][i]) return false;
  }
  return true;
}

/** A model's records under a reading: the ones it scores, with their outcomes, and every selected pair's status. */
export interface ReadingSelection {
  /** Pairs of the reading's set (a pair the caller has no record of counts as missing). */
  readonly pairs: number;
  /** The scored records, in record order, with their act and hold under the reading. */
  readonly scored: readonly ScoredPair[];
  /** Pairs not decided, by status (whether or not the reading scores them). */
  readonly undecided: UndecidedCounts;
}

/** The records of a reading's pairs as it reads them. */
export function selectUnder(
  records: readonly PairRecord[],
  manifest: Pick<Manifest, "pairs" | "restoredPairs">,
  spec: ReadingSpec,
  rule: SideRule,
): ReadingSelection {
  const ids = readingIds(manifest, spec);
  const sides = spec.sides ?? rule;
  const bfclDecoding = spec.decoding === "bfcl";
  const undecided = { missing: 0, "inference-error": 0, "not-reached": 0, undecidable: 0 };
  const scored: ScoredPair[] = [];
  let seen = 0;
  for (const r of records) {
    if (!ids.has(r.missId)) continue;
    seen++;
    // what pairUnder reads, without its objects: this runs for every record under every reading
    const baseStatus = statusUnder(r.base, bfclDecoding, spec.countLogin);
    const missStatus = statusUnder(r.miss, bfclDecoding, spec.countLogin);
    const status = pairStatus(baseStatus, missStatus);
    if (status !== "decided") undecided[status]++;
    if (!pairEnters(r, spec, sides, baseStatus, missStatus)) continue;
    const act = actedUnder(r.base, bfclDecoding, spec.countLogin);
    scored.push({ record: r, act, hold: holdUnder(r, spec, actedUnder(r.miss, bfclDecoding, spec.countLogin)) });
  }
  undecided.missing += ids.size - seen;
  return { pairs: ids.size, scored, undecided };
}

/** Pairs not decided, in all. */
export function undecidedTotal(u: UndecidedCounts): number {
  return u.missing + u["inference-error"] + u["not-reached"] + u.undecidable;
}

/**
 * The one percentage every table of the decision and its companions shows: `count` of `n`.
 * An empty set has no rate: NaN, which JSON writes as `null` and the tables show as a dash
 * or a blank — never a 0, which would read like a score.
 */
export function rate(count: number, n: number): number {
  return n === 0 ? Number.NaN : (100 * count) / n;
}

/** The share of true flags, in % (no rate on an empty list): a pass rate, an aligned share, one arm's act. */
export function rateOf(flags: readonly boolean[]): number {
  let count = 0;
  for (const f of flags) if (f) count++;
  return rate(count, flags.length);
}

/** The share of items a test holds for, in % (no rate on an empty list). */
export function rateWhere<T>(items: readonly T[], test: (item: T) => boolean): number {
  let count = 0;
  for (const x of items) if (test(x)) count++;
  return rate(count, items.length);
}

/** Act, hold, their mean and both right, in %, of scored pairs (no rate on none). */
export interface PairRates {
  readonly n: number;
  readonly act: number;
  readonly hold: number;
  readonly decision: number;
  /** Both twins decided right, %. */
  readonly both: number;
}

/** The one rate function: act, hold, decision and both-right of the pairs a reading scores. */
export function pairRates(scored: readonly Pick<ScoredPair, "act" | "hold">[]): PairRates {
  const n = scored.length;
  let acts = 0;
  let holds = 0;
  let both = 0;
  for (const s of scored) {
    if (s.act) acts++;
    if (s.hold) holds++;
    if (s.act && s.hold) both++;
  }
  const act = rate(acts, n);
  const hold = rate(holds, n);
  return { n, act, hold, decision: (act + hold) / 2, both: rate(both, n) };
}

/** The rates of one reading: act, hold, their mean, both right, with the cluster-bootstrap intervals when asked. */
export interface ReadingRates {
  readonly pairs: number;
  readonly undecided: UndecidedCounts;
  readonly n: number;
  readonly act: number;
  readonly hold: number;
  readonly decision: number;
  /** Both twins decided right, %. */
  readonly both: number;
  /** 95% cluster-bootstrap intervals of decision, act and hold (null without resamples or pairs). */
  readonly ci95: readonly [number, number] | null;
  readonly actCi95: readonly [number, number] | null;
  readonly holdCi95: readonly [number, number] | null;
}

/** The scored pairs (a selection's, or records read by `scoredUnder`) as bootstrap outcomes, clustered on the base twin. */
export function outcomesOf(selection: Pick<ReadingSelection, "scored"> | readonly ScoredPair[]): PairOutcome[] {
  const scored = "scored" in selection ? selection.scored : selection;
  return scored.map((s) => ({ cluster: s.record.baseId, act: s.act, hold: s.hold }));
}

/** A reading's numbers from what it scores, by `pairRates` (intervals on a fresh stream when resamples > 0). */
export function ratesOf(selection: ReadingSelection, bootstrap: BootstrapOptions | null = null): ReadingRates {
  const { n, act, hold, decision, both } = pairRates(selection.scored);
  const ci =
    bootstrap !== null && bootstrap.resamples > 0 && n > 0 ? bootstrapIntervals(clusterTotals(outcomesOf(selection)), bootstrap) : null;
  return {
    pairs: selection.pairs,
    undecided: selection.undecided,
    n,
    act,
    hold,
    decision,
    both,
    ci95: ci?.decision ?? null,
    actCi95: ci?.act ?? null,
    holdCi95: ci?.hold ?? null,
  };
}

/** A reading's rates on a model's records. */
export function readingRates(
  records: readonly PairRecord[],
  manifest: Pick<Manifest, "pairs" | "restoredPairs">,
  spec: ReadingSpec,
  rule: SideRule,
  bootstrap: BootstrapOptions | null = null,
): ReadingRates {
  return ratesOf(selectUnder(records, manifest, spec, rule), bootstrap);
}

/**
 * The decision table's row under a reading: act, hold, decision, the compound credit, the
 * pair rate and the decision per category, each the same reading with its hold rule or
 * filter changed. With no pair scored every percentage is NaN (an empty cell, `null` in
 * JSON), never a 0 that reads like a score.
 */
export function summarize(
  records: readonly PairRecord[],
  manifest: Pick<Manifest, "pairs" | "restoredPairs">,
  spec: ReadingSpec,
  rule: SideRule,
): DecisionNumbers {
  const main = readingRates(records, manifest, spec, rule);
  const credited = readingRates(records, manifest, { ...spec, hold: "credited" }, rule);
  const byCategory = Object.fromEntries(
    shouldAskCategories.map((c) => {
      const r = readingRates(records, manifest, { ...spec, filter: c }, rule);
      return [c, r.n === 0 ? null : r.decision];
    }),
  ) as Record<ShouldAskCategory, number | null>;
  return {
    pairs: main.pairs,
    undecided: main.undecided,
    n: main.n,
    act: main.act,
    hold: main.hold,
    decision: main.decision,
    holdCredited: credited.hold,
    decisionCredited: credited.decision,
    pair: main.both,
    decisionByCategory: byCategory,
  };
}

/** How far, in points of decision, BFCL's decoding must move a headline before its reading is shown beside it. */
export const BFCL_DECODED_SHOWN_FROM = 1;

/** The headline read as BFCL decodes the steps, shown beside it: percentages unrounded. */
export interface BfclDecodedReading {
  readonly n: number;
  readonly act: number;
  readonly hold: number;
  readonly decision: number;
}

/**
 * The headline's reading with BFCL's decoding (`decoding: "bfcl"`: a call written where
 * BFCL's decoder fails is no call, as BFCL executed it), when its decision differs from
 * the headline's by `BFCL_DECODED_SHOWN_FROM` points or more; null when the two agree.
 * The headline stays the undecodable-attempt rule's: it is the model's decision, and this
 * says how much of it BFCL never executed.
 */
export function bfclDecodedBeside(
  records: readonly PairRecord[],
  manifest: Pick<Manifest, "pairs" | "restoredPairs">,
  spec: ReadingSpec,
  rule: SideRule,
  headline: Pick<DecisionNumbers, "decision">,
): BfclDecodedReading | null {
  const r = readingRates(records, manifest, { ...spec, decoding: "bfcl" }, rule);
  if (r.n === 0 || !(Math.abs(r.decision - headline.decision) >= BFCL_DECODED_SHOWN_FROM)) return null;
  return { n: r.n, act: r.act, hold: r.hold, decision: r.decision };
}

/** The default `--max-undecided`: a model with more than this share of its pairs undecided gets no headline. */
export const DEFAULT_MAX_UNDECIDED = 10;

/** One model's headline: what its reading scores, the row, the interval, and why it is not shown when it is not. */
export interface Headline {
  readonly selection: ReadingSelection;
  readonly numbers: DecisionNumbers;
  readonly ci95: readonly [number, number] | null;
  /** The reading's pairs, those it leaves out (`total`, and its share in %), and the undecided pairs by status. */
  readonly undecided: { readonly pairs: number; readonly total: number; readonly share: number; readonly byStatus: UndecidedCounts };
  /** Why no act, hold or decision is shown, with the fix; null when they are. */
  readonly noHeadline: string | null;
  /** The same reading as BFCL decodes the steps, when its decision differs by a point or more (`bfclDecodedBeside`); null otherwise or without a headline. */
  readonly bfclDecoded: BfclDecodedReading | null;
}

/** Words for the undecided pairs by status: `9 with an inference-error side, 1 with a side that ended before the anchor`. */
export function undecidedWords(u: UndecidedCounts): string {
  const parts: string[] = [];
  if (u["inference-error"] > 0) parts.push(`${u["inference-error"]} with an inference-error side`);
  if (u["not-reached"] > 0) parts.push(`${u["not-reached"]} with a side that ended before the anchor`);
  if (u.missing > 0) parts.push(`${u.missing} with a missing line`);
  if (u.undecidable > 0) parts.push(`${u.undecidable} undecidable`);
  return parts.join(", ");
}

/**
 * A model's headline under a reading. No headline from a broken run: when the pairs the
 * reading leaves out exceed `maxUndecided` % of its pairs, or none is scored, there is no
 * act, hold or decision to show — what is left is not the model's decision but its run's
 * failures — and the reason says what to regenerate (`fix`: what to do instead, when the
 * caller knows the pairs were lost otherwise).
 */
export function headlineOf(
  records: readonly PairRecord[],
  manifest: Pick<Manifest, "pairs" | "restoredPairs">,
  spec: ReadingSpec,
  rule: SideRule,
  maxUndecided: number,
  bootstrap: BootstrapOptions | null,
  fix = "regenerate the failed items (twinscore run --retry-errors, or delete their lines and rerun bfcl generate)",
): Headline {
  const selection = selectUnder(records, manifest, spec, rule);
  const numbers = summarize(records, manifest, spec, rule);
  const ci95 = ratesOf(selection, bootstrap).ci95;
  // the pairs left out under the reading (release scores error and not-reached sides as no call)
  const out = selection.pairs - selection.scored.length;
  // no pair to leave out is no share past the limit: a gate, not a rate to show
  const share = selection.pairs === 0 ? 0 : rate(out, selection.pairs);
  const undecided = { pairs: selection.pairs, total: out, share, byStatus: numbers.undecided };
  const left = undecidedWords(rule === "release" ? { ...numbers.undecided, "inference-error": 0, "not-reached": 0 } : numbers.undecided);
  let noHeadline: string | null = null;
  if (selection.pairs > 0 && numbers.n === 0) {
    noHeadline = `no pair decided on both twins (${out} of ${selection.pairs} undecided: ${left}); ${fix}`;
  } else if (share > maxUndecided) {
    noHeadline = `no act, hold or decision: ${out} of ${selection.pairs} pairs undecided (${share.toFixed(1)} % > --max-undecided ${maxUndecided} %: ${left}); ${fix}`;
  }
  const bfclDecoded = noHeadline === null && numbers.n > 0 ? bfclDecodedBeside(records, manifest, spec, rule, numbers) : null;
  return { selection, numbers, ci95, undecided, noHeadline, bfclDecoded };
}

/**
 * The readings under which a model has no headline, with the short reason (`10.3 % undecided > 10 %`): the
 * headline's gate applied to each reading's own pair set and side rule. More in this folder's README.md.
 */
export function readingsWithoutHeadline(
  records: readonly PairRecord[],
  manifest: Pick<Manifest, "pairs" | "restoredPairs">,
  rule: SideRule,
  maxUndecided: number,
): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const r of readings) {
    const { filter: _filter, ...unfiltered } = r;
    const h = headlineOf(records, manifest, unfiltered, rule, maxUndecided, null);
    if (h.noHeadline !== null) out.set(r.id, noHeadlineShort(h.undecided, maxUndecided));
  }
  return out;
}

/** The short form of why a reading gives no headline, as a table's note says it. */
export function noHeadlineShort(u: Headline["undecided"], maxUndecided: number): string {
  return u.total === u.pairs ? "no headline: no pair decided" : `no headline: ${u.share.toFixed(1)} % undecided > ${maxUndecided} %`;
}
