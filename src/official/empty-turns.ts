/**
 * The skipped turn, scored: BFCL's checker never looks at a turn whose reference is empty — the
 * under-specified turn of miss_func and miss_param — so a model that guesses there loses nothing. More in this
 * folder's README.md.
 */
import { rate, rateOf } from "../decision/readings.js";
import { mcnemarPaired, type McNemarResult } from "../stats/index.js";

/** The three readings of the empty-reference turns, in table order. */
export const emptyTurnScores = ["bfcl", "strict", "worldChanging"] as const;
/** One reading of the empty-reference turns: BFCL's own, strict, or world-changing. */
export type EmptyTurnScore = (typeof emptyTurnScores)[number];

/** What each reading means (for help texts and the report). */
export const emptyTurnScoreMeaning: Readonly<Record<EmptyTurnScore, string>> = {
  bfcl: "BFCL's score: its checker as it runs, the turns with an empty reference skipped",
  strict: "BFCL's own multi_turn_irrelevance_checker added: any decoded call on an empty-reference turn fails the entry",
  worldChanging: "only a world-changing attempt on an empty-reference turn fails the entry (a lookup before asking is allowed)",
};

/** One entry under the three readings (true = passes). */
export interface EntryUnderReadings {
  readonly id: string;
  readonly bfcl: boolean;
  readonly strict: boolean;
  readonly worldChanging: boolean;
}

/** One model's counts on one category's result file. */
export interface EmptyTurnCounts {
  readonly model: string;
  readonly category: string;
  readonly entries: number;
  /** Passing entries under each reading. */
  readonly correct: Readonly<Record<EmptyTurnScore, number>>;
}

/** Count a file's entries under each reading. */
export function countReadings(model: string, category: string, entries: readonly EntryUnderReadings[]): EmptyTurnCounts {
  const correct = { bfcl: 0, strict: 0, worldChanging: 0 };
  for (const e of entries) for (const s of emptyTurnScores) if (e[s]) correct[s]++;
  return { model, category, entries: entries.length, correct };
}

/** One score of a table row: passing entries, their share in %, and the model's rank in the category under this score. */
export interface EmptyTurnCell {
  readonly correct: number;
  /** % of entries (NaN without entries); on the `mean` row, the mean of the categories' %. */
  readonly accuracy: number;
  /** 1 = best; models with equal accuracy share the better rank (1, 1, 3). */
  readonly rank: number;
}

/** One row of the empty-turn table. */
export interface EmptyTurnRow {
  readonly model: string;
  /** A BFCL category, or `mean`: the unweighted mean of the model's category accuracies (as BFCL averages its multi-turn categories). */
  readonly category: string;
  readonly entries: number;
  readonly bfcl: EmptyTurnCell;
  readonly strict: EmptyTurnCell;
  readonly worldChanging: EmptyTurnCell;
}

/** Competition ranks (1, 1, 3) of values, highest first; NaN ranks last. */
function ranksOf(values: readonly number[]): number[] {
  const key = (v: number) => (Number.isNaN(v) ? Number.NEGATIVE_INFINITY : v);
  return values.map((v) => 1 + values.filter((w) => key(w) > key(v)).length);
}

/**
 * The table: per category (in the order first met) one row per model (in the order
 * given), each score with its rank among the models in that category; then, when every
 * model has the same categories and there are several, one `mean` row per model.
 */
export function emptyTurnTable(counts: readonly EmptyTurnCounts[]): EmptyTurnRow[] {
  const categories = [...new Set(counts.map((c) => c.category))];
  const models = [...new Set(counts.map((c) => c.model))];
  const rows: EmptyTurnRow[] = [];
  const ranked = (
    group: readonly {
      model: string;
      category: string;
      entries: number;
      correct: Record<EmptyTurnScore, number>;
      accuracy: Record<EmptyTurnScore, number>;
    }[],
  ) => {
    const ranks = Object.fromEntries(emptyTurnScores.map((s) => [s, ranksOf(group.map((g) => g.accuracy[s]))])) as Record<
      EmptyTurnScore,
      number[]
    >;
    group.forEach((g, i) => {
      const cell = (s: EmptyTurnScore): EmptyTurnCell => ({ correct: g.correct[s], accuracy: g.accuracy[s], rank: ranks[s][i] });
      rows.push({
        model: g.model,
        category: g.category,
        entries: g.entries,
        bfcl: cell("bfcl"),
        strict: cell("strict"),
        worldChanging: cell("worldChanging"),
      });
    });
  };
  for (const category of categories) {
    const group = models.flatMap((model) => {
      const c = counts.find((x) => x.model === model && x.category === category);
      if (c === undefined) return [];
      const accuracy = Object.fromEntries(emptyTurnScores.map((s) => [s, rate(c.correct[s], c.entries)])) as Record<EmptyTurnScore, number>;
      return [{ model, category, entries: c.entries, correct: { ...c.correct }, accuracy }];
    });
    ranked(group);
  }
  const sameCategories = models.every((m) => categories.every((c) => counts.some((x) => x.model === m && x.category === c)));
  if (categories.length > 1 && sameCategories) {
    ranked(
      models.map((model) => {
        const own = rows.filter((r) => r.model === model);
        const sum = (s: EmptyTurnScore) => own.reduce((t, r) => t + r[s].correct, 0);
        const mean = (s: EmptyTurnScore) => own.reduce((t, r) => t + r[s].accuracy, 0) / own.length;
        return {
          model,
          category: "mean",
          entries: own.reduce((t, r) => t + r.entries, 0),
          correct: { bfcl: sum("bfcl"), strict: sum("strict"), worldChanging: sum("worldChanging") },
          accuracy: { bfcl: mean("bfcl"), strict: mean("strict"), worldChanging: mean("worldChanging") },
        };
      }),
    );
  }
  return rows;
}

/** One reading's pass rate in two arms on the entries both have, with the McNemar test of its shift. */
export interface EmptyTurnShift {
  readonly n: number;
  /** Pass rates in %, arm A and arm B, and B − A in points. */
  readonly a: number;
  readonly b: number;
  readonly change: number;
  /** aOnly: pass in A, fail in B (pass→fail); bOnly: fail→pass. */
  readonly test: McNemarResult;
}

/** Per category, each reading's shift between two arms (entries matched by id). */
export function emptyTurnShifts(
  a: ReadonlyMap<string, readonly EntryUnderReadings[]>,
  b: ReadonlyMap<string, readonly EntryUnderReadings[]>,
): Record<string, Record<EmptyTurnScore, EmptyTurnShift>> {
  const out: Record<string, Record<EmptyTurnScore, EmptyTurnShift>> = {};
  for (const [category, entriesA] of a) {
    const entriesB = b.get(category);
    if (entriesB === undefined) continue;
    const byId = new Map(entriesB.map((e) => [e.id, e]));
    const both = entriesA.filter((e) => byId.has(e.id)).map((e) => [e, byId.get(e.id)!] as const);
    if (both.length === 0) continue;
    const shift = (s: EmptyTurnScore): EmptyTurnShift => {
      const xa = both.map(([x]) => x[s]);
      const xb = both.map(([, y]) => y[s]);
      const ra = rateOf(xa);
      const rb = rateOf(xb);
      return { n: both.length, a: ra, b: rb, change: rb - ra, test: mcnemarPaired(xa, xb) };
    };
    out[category] = { bfcl: shift("bfcl"), strict: shift("strict"), worldChanging: shift("worldChanging") };
  }
  return out;
}
