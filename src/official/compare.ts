/**
 * Two arms of the same model (paper §5.4): a neutral and an injected prompt, two serving
 * builds, two checkpoints — the same items under both. On the anchor turns: the act and
 * hold shifts with exact two-sided McNemar tests (per side and per category); the change
 * in decision accuracy with a paired cluster-bootstrap interval (one stream, the same base
 * twins drawn for both arms); and, with score files, the official score change per
 * category over every item both arms have, with McNemar and the fail→pass / pass→fail
 * flips, plus official raw on the scored items. Pure: the io layer supplies the arms.
 */
import { categoryOfItemId, scoredResultCategories, shouldAskCategories, type ShouldAskCategory } from "../bfcl/categories.js";
import type { OfficialVerdict } from "../bfcl/scores.js";
import type { PairRecord } from "../decision/types.js";
import { clusterOrder, clusterTotals, mcnemarPaired, pairedDifferenceInterval, type BootstrapOptions, type McNemarResult, type PairOutcome } from "../stats/index.js";
import { alignedClusterTotals, alignedOutcome, alignedPairOutcomes, withheldCells, type AlignedOutcome, type TwinCompletion, type WithheldCell } from "./aligned.js";
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

function shift(a: readonly boolean[], b: readonly boolean[]): Shift {
  const n = a.length;
  const rate = (xs: readonly boolean[]) => (n === 0 ? Number.NaN : (100 * xs.filter(Boolean).length) / n);
  const ra = rate(a);
  const rb = rate(b);
  return { n, a: ra, b: rb, change: rb - ra, test: mcnemarPaired(a, b) };
}

function sides(pairs: readonly (readonly [PairRecord, PairRecord])[]): SideShifts {
  return {
    act: shift(pairs.map(([a]) => a.actedOnBase), pairs.map(([, b]) => b.actedOnBase)),
    hold: shift(pairs.map(([a]) => a.heldBack), pairs.map(([, b]) => b.heldBack)),
    attempt: shift(pairs.map(([a]) => a.actedOnMiss), pairs.map(([, b]) => b.actedOnMiss)),
  };
}

function officialShift(ids: readonly string[], a: ReadonlyMap<string, OfficialVerdict>, b: ReadonlyMap<string, OfficialVerdict>): OfficialShift {
  const both = ids.filter((id) => a.has(id) && b.has(id));
  const pa = both.map((id) => a.get(id)!.pass);
  const pb = both.map((id) => b.get(id)!.pass);
  const s = shift(pa, pb);
  return { ...s, failToPass: s.test.bOnly, passToFail: s.test.aOnly };
}

const decisionOf = (rs: readonly PairRecord[]) => {
  const n = rs.length;
  return ((100 * rs.filter((r) => r.actedOnBase).length) / n + (100 * rs.filter((r) => r.heldBack).length) / n) / 2;
};

/** The aligned comparison on the pairs both arms have a completion for (null when either arm has none). */
function alignedComparison(pairs: readonly (readonly [PairRecord, PairRecord])[], a: Arm, b: Arm, bootstrap: BootstrapOptions): AlignedComparison | null {
  if (!a.completions || !b.completions) return null;
  const both: [AlignedOutcome, AlignedOutcome][] = [];
  for (const [ra, rb] of pairs) {
    const ca = a.completions.get(ra.missId);
    const cb = b.completions.get(rb.missId);
    if (ca && cb) both.push([alignedOutcome(ra, ca), alignedOutcome(rb, cb)]);
  }
  const of = (f: (o: AlignedOutcome) => boolean, subset = both) => shift(subset.map(([x]) => f(x)), subset.map(([, y]) => f(y)));
  const oa = both.map(([x]) => x);
  const ob = both.map(([, y]) => y);
  const keys = clusterOrder(alignedPairOutcomes(oa));
  const ci95 = bootstrap.resamples > 0 && both.length > 0 ? pairedDifferenceInterval(alignedClusterTotals(oa, keys), alignedClusterTotals(ob, keys), bootstrap) : null;
  const cat = (c: ShouldAskCategory) => of((o) => o.aligned, both.filter(([x]) => x.category === c));
  return {
    pairs: both.length,
    aligned: { ...of((o) => o.aligned), ci95 },
    byCategory: Object.fromEntries(shouldAskCategories.map((c) => [c, cat(c)])) as Record<ShouldAskCategory, Shift>,
    cells: Object.fromEntries(withheldCells.map((c) => [c, of((o) => o.withheld === c)])) as Record<WithheldCell, Shift>,
    baseActedCompleted: of((o) => o.baseActedCompleted),
  };
}

/** Compare two arms on the pairs both scored. */
export function compareArms(a: Arm, b: Arm, bootstrap: BootstrapOptions): ArmComparison {
  const byMiss = new Map(b.records.map((r) => [r.missId, r]));
  const pairs = a.records.filter((r) => byMiss.has(r.missId)).map((r) => [r, byMiss.get(r.missId)!] as const);
  const cat = (c: ShouldAskCategory) => sides(pairs.filter(([r]) => r.category === c));
  const ra = pairs.map(([r]) => r);
  const rb = pairs.map(([, r]) => r);
  const outcomes = (rs: readonly PairRecord[]): PairOutcome[] => rs.map((r) => ({ cluster: r.baseId, act: r.actedOnBase, hold: r.heldBack }));
  const keys = clusterOrder(outcomes(ra));
  const ci95 = bootstrap.resamples > 0 && pairs.length > 0 ? pairedDifferenceInterval(clusterTotals(outcomes(ra), keys), clusterTotals(outcomes(rb), keys), bootstrap) : null;
  const da = decisionOf(ra);
  const db = decisionOf(rb);
  let official: ArmComparison["official"] = null;
  if (a.verdicts !== null && b.verdicts !== null) {
    const ids = [...a.verdicts.keys()].filter((id) => b.verdicts!.has(id)).sort();
    const byCategory: Record<string, OfficialShift> = {};
    for (const c of scoredResultCategories) {
      const inCat = ids.filter((id) => categoryOfItemId(id) === c);
      if (inCat.length > 0) byCategory[c] = officialShift(inCat, a.verdicts, b.verdicts);
    }
    official = {
      byCategory,
      rawMiss: officialShift(ra.map((r) => r.missId), a.verdicts, b.verdicts),
      rawBase: officialShift([...new Set(ra.map((r) => r.baseId))], a.verdicts, b.verdicts),
    };
  }
  return {
    labels: [a.label, b.label],
    pairs: pairs.length,
    all: sides(pairs),
    byCategory: Object.fromEntries(shouldAskCategories.map((c) => [c, cat(c)])) as Record<ShouldAskCategory, SideShifts>,
    decision: { a: da, b: db, change: db - da, ci95 },
    official,
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
export const emptyTurnLabel: Readonly<Record<EmptyTurnScore, string>> = { bfcl: "BFCL checker", strict: "strict", worldChanging: "world-changing" };

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
  const push = (measure: string, slice: string, s: Shift) =>
    rows.push({ measure, slice, n: s.n, a: s.a, b: s.b, change: s.change, aOnly: s.test.aOnly, bOnly: s.test.bOnly, p: s.test.p, ci95: null });
  for (const [slice, s] of [["all", c.all] as const, ...shouldAskCategories.map((k) => [k, c.byCategory[k]] as const)]) {
    push("act (base anchor)", slice, s.act);
    push("hold (miss anchor)", slice, s.hold);
  }
  rows.push({ measure: "decision", slice: "all", n: c.pairs, a: c.decision.a, b: c.decision.b, change: c.decision.change, aOnly: null, bOnly: null, p: null, ci95: c.decision.ci95 });
  if (c.official !== null) {
    for (const [category, s] of Object.entries(c.official.byCategory)) push("official (all items)", category, s);
    push("official raw", "scored miss items", c.official.rawMiss);
    push("official raw", "their base twins", c.official.rawBase);
  }
  if (c.aligned !== null) {
    const al = c.aligned;
    rows.push({ measure: "aligned pair", slice: "all", n: al.pairs, a: al.aligned.a, b: al.aligned.b, change: al.aligned.change, aOnly: al.aligned.test.aOnly, bOnly: al.aligned.test.bOnly, p: al.aligned.test.p, ci95: al.aligned.ci95 });
    for (const category of shouldAskCategories) push("aligned pair", category, al.byCategory[category]);
    for (const cell of withheldCells) push(`withheld ${cellLabel[cell]}`, "all", al.cells[cell]);
    push("base acted+done", "all", al.baseActedCompleted);
  }
  if (c.emptyTurns !== null) {
    for (const [category, byScore] of Object.entries(c.emptyTurns)) {
      for (const score of emptyTurnScores) push(`empty turns: ${emptyTurnLabel[score]}`, category, byScore[score]);
    }
  }
  return rows;
}
