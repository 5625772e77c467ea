/**
 * Two arms of the same model (paper §5.4) — a neutral and an injected prompt, two serving builds, two
 * checkpoints — compared on the same items: the act and hold shifts, the change in decision with its interval
 * and, with score files, the change in the official score. More in this folder's README.md.
 */
import { categoryOfItemId, scoredResultCategories, shouldAskCategories, type ShouldAskCategory } from "../bfcl/categories.js";
import type { OfficialVerdict } from "../bfcl/scores.js";
import { outcomesOf, pairRates, rateOf, scoredUnder, type ScoredPair } from "../decision/readings.js";
import type { PairRecord } from "../decision/types.js";
import {
  clusterOrder,
  clusterTotals,
  mcnemarPaired,
  pairedDifferenceInterval,
  type BootstrapOptions,
  type McNemarResult,
} from "../stats/index.js";
import {
  alignedClusterTotals,
  alignedOutcome,
  alignedPairOutcomes,
  withheldCells,
  type AlignedOutcome,
  type TwinCompletion,
  type WithheldCell,
} from "./aligned.js";
import { emptyTurnScores, emptyTurnShifts, type EmptyTurnScore, type EmptyTurnShift, type EntryUnderReadings } from "./empty-turns.js";

/** One arm: its per-pair records on Table 1's pairs and, optionally, its official verdicts and what BFCL's checker says with BFCL data. */
export interface Arm {
  readonly label: string;
  readonly records: readonly PairRecord[];
  readonly verdicts: ReadonlyMap<string, OfficialVerdict> | null;
  /** Each pair's twin completions (BFCL's checker on turn prefixes), by should-ask id; absent or null: no aligned comparison. */
  readonly completions?: ReadonlyMap<string, TwinCompletion> | null;
  /** Every entry of its result files under the three readings of the empty-reference turns, by category; absent or null: none. */
  readonly emptyTurns?: ReadonlyMap<string, readonly EntryUnderReadings[]> | null;
}

/** A 0/1 rate in both arms and the McNemar test of its shift. */
export interface Shift {
  readonly n: number;
  /** Rates in %, arm A and arm B, and B − A in points. */
  readonly a: number;
  readonly b: number;
  readonly change: number;
  /** Discordant counts: aOnly = 1 in A and 0 in B (e.g. fail→pass is bOnly for a pass rate). */
  readonly test: McNemarResult;
}

/** The behaviour shifts on one slice of the pairs. */
export interface SideShifts {
  /** Acted on the complete (base) anchor turn. */
  readonly act: Shift;
  /** Held back on the incomplete (miss) anchor turn. */
  readonly hold: Shift;
  /** Attempted a world-changing call on the incomplete anchor turn (100 − hold). */
  readonly attempt: Shift;
}

/** The official score change on one set of items. */
export interface OfficialShift extends Shift {
  /** Items that fail in A and pass in B. */
  readonly failToPass: number;
  readonly passToFail: number;
}

/**
 * The aligned comparison: does arm B trade resolution for restraint? Per pair both arms
 * have a completion for: the aligned outcome (both twins decided right and completed)
 * with McNemar and the paired cluster-bootstrap interval of its change, and each cell of
 * the withheld twin and the base twin's acted-and-completed with McNemar.
 */
export interface AlignedComparison {
  readonly pairs: number;
  readonly aligned: Shift & { readonly ci95: readonly [number, number] | null };
  readonly byCategory: Readonly<Record<ShouldAskCategory, Shift>>;
  readonly cells: Readonly<Record<WithheldCell, Shift>>;
  readonly baseActedCompleted: Shift;
}

/** The whole comparison. */
export interface ArmComparison {
  readonly labels: readonly [string, string];
  /** Pairs present in both arms. */
  readonly pairs: number;
  readonly all: SideShifts;
  readonly byCategory: Readonly<Record<ShouldAskCategory, SideShifts>>;
  readonly decision: { readonly a: number; readonly b: number; readonly change: number; readonly ci95: readonly [number, number] | null };
  /** With score files in both arms: per result category over every item both arms have, and on the scored items. */
  readonly official: {
    readonly byCategory: Readonly<Record<string, OfficialShift>>;
    readonly rawMiss: OfficialShift;
    readonly rawBase: OfficialShift;
  } | null;
  /** With completions in both arms: the aligned comparison. */
  readonly aligned: AlignedComparison | null;
  /** With empty-turn readings in both arms: per category, each reading's pass rate in both arms with McNemar (entries matched by id). */
  readonly emptyTurns: Readonly<Record<string, Readonly<Record<EmptyTurnScore, EmptyTurnShift>>>> | null;
}

/** One pair both arms scored: arm A's reading of it and arm B's. */
type ArmPair = readonly [ScoredPair, ScoredPair];

/** A 0/1 outcome's rate in both arms, on the same items in the same order, with the McNemar test of its shift. */
function shift(a: readonly boolean[], b: readonly boolean[]): Shift {
  const ra = rateOf(a);
  const rb = rateOf(b);
  return { n: a.length, a: ra, b: rb, change: rb - ra, test: mcnemarPaired(a, b) };
}

/** The shift of one flag of paired items. */
function shiftOf<T>(pairs: readonly (readonly [T, T])[], flag: (x: T) => boolean): Shift {
  return shift(
    pairs.map(([x]) => flag(x)),
    pairs.map(([, y]) => flag(y)),
  );
}

/** Act, hold and the withheld-side attempt (under Table 1's strict hold, the opposite of holding back). */
function sides(pairs: readonly ArmPair[]): SideShifts {
  return { act: shiftOf(pairs, (s) => s.act), hold: shiftOf(pairs, (s) => s.hold), attempt: shiftOf(pairs, (s) => !s.hold) };
}

/** The pairs both arms scored, in arm A's order, each read as Table 1 reads it. */
function pairArms(a: Arm, b: Arm): ArmPair[] {
  const byMiss = new Map(scoredUnder(b.records).map((s) => [s.record.missId, s]));
  return scoredUnder(a.records)
    .filter((s) => byMiss.has(s.record.missId))
    .map((s) => [s, byMiss.get(s.record.missId)!] as const);
}

/** The decision in both arms and its change, with the paired cluster-bootstrap interval (the same base twins drawn for both). */
function decisionChange(pairs: readonly ArmPair[], bootstrap: BootstrapOptions): ArmComparison["decision"] {
  const sa = pairs.map(([x]) => x);
  const sb = pairs.map(([, y]) => y);
  const keys = clusterOrder(outcomesOf(sa));
  const ci95 =
    bootstrap.resamples > 0 && pairs.length > 0
      ? pairedDifferenceInterval(clusterTotals(outcomesOf(sa), keys), clusterTotals(outcomesOf(sb), keys), bootstrap)
      : null;
  const da = pairRates(sa).decision;
  const db = pairRates(sb).decision;
  return { a: da, b: db, change: db - da, ci95 };
}

function officialShift(
  ids: readonly string[],
  a: ReadonlyMap<string, OfficialVerdict>,
  b: ReadonlyMap<string, OfficialVerdict>,
): OfficialShift {
  const both = ids.filter((id) => a.has(id) && b.has(id));
  const s = shiftOf(
    both.map((id) => [a.get(id)!, b.get(id)!] as const),
    (v) => v.pass,
  );
  return { ...s, failToPass: s.test.bOnly, passToFail: s.test.aOnly };
}

/** The official score change (null unless both arms have verdicts): per result category over every item both have, and on the scored items and their base twins. */
function officialChange(pairs: readonly ArmPair[], a: Arm, b: Arm): ArmComparison["official"] {
  if (a.verdicts === null || b.verdicts === null) return null;
  const va = a.verdicts;
  const vb = b.verdicts;
  const ids = [...va.keys()].filter((id) => vb.has(id)).sort();
  const byCategory: Record<string, OfficialShift> = {};
  for (const c of scoredResultCategories) {
    const inCat = ids.filter((id) => categoryOfItemId(id) === c);
    if (inCat.length > 0) byCategory[c] = officialShift(inCat, va, vb);
  }
  const records = pairs.map(([x]) => x.record);
  return {
    byCategory,
    rawMiss: officialShift(
      records.map((r) => r.missId),
      va,
      vb,
    ),
    rawBase: officialShift([...new Set(records.map((r) => r.baseId))], va, vb),
  };
}

/** The aligned comparison on the pairs both arms have a completion for (null when either arm has none). */
function alignedComparison(pairs: readonly ArmPair[], a: Arm, b: Arm, bootstrap: BootstrapOptions): AlignedComparison | null {
  if (!a.completions || !b.completions) return null;
  const both: [AlignedOutcome, AlignedOutcome][] = [];
  for (const [sa, sb] of pairs) {
    const ca = a.completions.get(sa.record.missId);
    const cb = b.completions.get(sb.record.missId);
    if (ca && cb) both.push([alignedOutcome(sa, ca), alignedOutcome(sb, cb)]);
  }
  const oa = both.map(([x]) => x);
  const ob = both.map(([, y]) => y);
  const keys = clusterOrder(alignedPairOutcomes(oa));
  const ci95 =
    bootstrap.resamples > 0 && both.length > 0
      ? pairedDifferenceInterval(alignedClusterTotals(oa, keys), alignedClusterTotals(ob, keys), bootstrap)
      : null;
  const cat = (c: ShouldAskCategory) =>
    shiftOf(
      both.filter(([x]) => x.category === c),
      (o) => o.aligned,
    );
  return {
    pairs: both.length,
    aligned: { ...shiftOf(both, (o) => o.aligned), ci95 },
    byCategory: Object.fromEntries(shouldAskCategories.map((c) => [c, cat(c)])) as Record<ShouldAskCategory, Shift>,
    cells: Object.fromEntries(withheldCells.map((c) => [c, shiftOf(both, (o) => o.withheld === c)])) as Record<WithheldCell, Shift>,
    baseActedCompleted: shiftOf(both, (o) => o.baseActedCompleted),
  };
}

/** Compare two arms on the pairs both scored (each arm's records read as Table 1 reads them). */
export function compareArms(a: Arm, b: Arm, bootstrap: BootstrapOptions): ArmComparison {
  const pairs = pairArms(a, b);
  const cat = (c: ShouldAskCategory) => sides(pairs.filter(([s]) => s.record.category === c));
  return {
    labels: [a.label, b.label],
    pairs: pairs.length,
    all: sides(pairs),
    byCategory: Object.fromEntries(shouldAskCategories.map((c) => [c, cat(c)])) as Record<ShouldAskCategory, SideShifts>,
    decision: decisionChange(pairs, bootstrap),
    official: officialChange(pairs, a, b),
    aligned: alignedComparison(pairs, a, b, bootstrap),
    emptyTurns: a.emptyTurns && b.emptyTurns ? emptyTurnShifts(a.emptyTurns, b.emptyTurns) : null,
  };
}

/** Short names of the withheld twin's cells, as the tables print them. */
export const cellLabel: Readonly<Record<WithheldCell, string>> = {
  "held-completed": "held+done (asked, then did it)",
  "held-not-completed": "held+not",
  "acted-completed": "acted+done (lucky guess)",
  "acted-not-completed": "acted+not",
};

/** Short names of the empty-turn readings, as the tables print them. */
export const emptyTurnLabel: Readonly<Record<EmptyTurnScore, string>> = {
  bfcl: "BFCL checker",
  strict: "strict",
  worldChanging: "world-changing",
};

/** One printable row of a comparison: what is compared, the two arms, the change and the test. */
export interface ComparisonRow {
  readonly measure: string;
  readonly slice: string;
  readonly n: number;
  readonly a: number;
  readonly b: number;
  readonly change: number;
  readonly aOnly: number | null;
  readonly bOnly: number | null;
  readonly p: number | null;
  readonly ci95: readonly [number, number] | null;
}

/** Flatten a comparison into rows (behaviour, decision, official), for every output format. */
export function comparisonRows(c: ArmComparison): ComparisonRow[] {
  const rows: ComparisonRow[] = [];
  for (const [slice, s] of [["all", c.all] as const, ...shouldAskCategories.map((k) => [k, c.byCategory[k]] as const)]) {
    rows.push(shiftRow("act (base anchor)", slice, s.act), shiftRow("hold (miss anchor)", slice, s.hold));
  }
  rows.push({
    measure: "decision",
    slice: "all",
    n: c.pairs,
    a: c.decision.a,
    b: c.decision.b,
    change: c.decision.change,
    aOnly: null,
    bOnly: null,
    p: null,
    ci95: c.decision.ci95,
  });
  if (c.official !== null) {
    for (const [category, s] of Object.entries(c.official.byCategory)) rows.push(shiftRow("official (all items)", category, s));
    rows.push(
      shiftRow("official raw", "scored miss items", c.official.rawMiss),
      shiftRow("official raw", "their base twins", c.official.rawBase),
    );
  }
  if (c.aligned !== null) rows.push(...alignedRows(c.aligned));
  if (c.emptyTurns !== null) {
    for (const [category, byScore] of Object.entries(c.emptyTurns)) {
      for (const score of emptyTurnScores) rows.push(shiftRow(`empty turns: ${emptyTurnLabel[score]}`, category, byScore[score]));
    }
  }
  return rows;
}

/** One paired shift as a row: no interval. */
function shiftRow(measure: string, slice: string, s: Shift): ComparisonRow {
  return { measure, slice, n: s.n, a: s.a, b: s.b, change: s.change, aOnly: s.test.aOnly, bOnly: s.test.bOnly, p: s.test.p, ci95: null };
}

/** The aligned comparison's rows: the pair score with its interval, by category, the withheld cells and the base twins done. */
function alignedRows(al: NonNullable<ArmComparison["aligned"]>): ComparisonRow[] {
  return [
    {
      measure: "aligned pair",
      slice: "all",
      n: al.pairs,
      a: al.aligned.a,
      b: al.aligned.b,
      change: al.aligned.change,
      aOnly: al.aligned.test.aOnly,
      bOnly: al.aligned.test.bOnly,
      p: al.aligned.test.p,
      ci95: al.aligned.ci95,
    },
    ...shouldAskCategories.map((category) => shiftRow("aligned pair", category, al.byCategory[category])),
    ...withheldCells.map((cell) => shiftRow(`withheld ${cellLabel[cell]}`, "all", al.cells[cell])),
    shiftRow("base acted+done", "all", al.baseActedCompleted),
  ];
}
