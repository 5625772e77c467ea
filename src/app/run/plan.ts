/**
 * What a run will do before it does it: the items selected (narrowed by `--category`,
 * `--limit` and `--ids`), the lines to write, and the fewest requests they need. `run`
 * prints this before its first request; `--dry-run` prints it and stops.
 */
import { counted, err, ok, problem, type Result } from "../../messages/index.js";
import type { Manifest, ManifestPair } from "../../pairs/types.js";
import {
  lineKey,
  runCategories,
  selectItems,
  type ItemSelection,
  type RolloutEntry,
  type RunCategory,
  type Selection,
} from "../../rollout/index.js";
import type { HistorySource } from "../../bfcl/line-keys.js";

/** How the command line narrows the selection. */
export interface Narrowing {
  /** `--category`: only pairs whose should-ask item is of this category (`--items all`: only items of it). */
  readonly category?: RunCategory;
  /** `--limit N`: the first N pairs in manifest order, both twins of each (`--items all`: the first N items). */
  readonly limit?: number;
  /** `--ids`: only these items (each must be in the selection). */
  readonly ids?: readonly string[];
}

/** One line a run writes: an item, under `--history reference` the anchor turn it is generated for, and in a run of several trials its trial. */
export interface Job {
  readonly id: string;
  readonly anchorTurn: number | null;
  /** 0 to K − 1 in a run of K > 1 trials; null in a run of one (its lines carry no trial). */
  readonly trial: number | null;
  /** `lineKey` of the three: what resume finds the line by. */
  readonly key: string;
}

/** The selection after narrowing: the ids, the jobs, the pairs. */
export interface NarrowedSelection {
  /** Where `--until-anchor` stops each id: from the whole selection, so a later wider run finds lines that reach every anchor it needs. */
  readonly selection: Selection;
  readonly ids: readonly string[];
  readonly jobs: readonly Job[];
  /** Pairs the run covers. */
  readonly pairs: number;
}

export function categoryOfId(id: string): RunCategory | null {
  for (const c of runCategories) if (new RegExp(`^multi_turn_${c}_\\d+$`).test(id)) return c;
  return null;
}

/**
 * Select the items, narrow them, and make the jobs: one per id (under `--history
 * reference` one per id and anchor of its pairs kept), each K times in a run of K > 1
 * trials, trial by trial (so a run stopped part-way holds whole trials first).
 */
export function narrowSelection(
  items: ItemSelection,
  manifest: Manifest,
  allIds: readonly string[],
  history: HistorySource,
  narrowing: Narrowing,
  trials = 1,
): Result<NarrowedSelection> {
  const selection = selectItems(items, manifest.pairs, allIds);
  const known = new Set(allIds);
  let pairs: readonly ManifestPair[] = items === "pairs" ? manifest.pairs.filter((p) => p.status === "scored") : manifest.pairs;
  let ids: string[] = selection.ids.filter((id) => known.has(id));
  if (narrowing.category !== undefined) {
    if (items !== "all" && narrowing.category === "base")
      return err(
        problem(
          "bad-argument",
          "--category base: every pair has a base item; with --items pairs or all-pairs give miss_func or miss_param (the pairs' should-ask category), or use --items all",
        ),
      );
    if (items === "all") ids = ids.filter((id) => categoryOfId(id) === narrowing.category);
    else pairs = pairs.filter((p) => categoryOfId(p.missId) === narrowing.category);
  }
  if (narrowing.limit !== undefined) {
    if (items === "all") ids = ids.slice(0, narrowing.limit);
    else pairs = pairs.slice(0, narrowing.limit);
  }
  if (items !== "all") {
    const inPairs = new Set(pairs.flatMap((p) => [p.baseId, p.missId]));
    ids = ids.filter((id) => inPairs.has(id));
  }
  if (narrowing.ids !== undefined) {
    const chosen = new Set(ids);
    const outside = narrowing.ids.filter((id) => !chosen.has(id));
    if (outside.length > 0) {
      return err(
        problem(
          "bad-argument",
          `--ids: ${outside
            .slice(0, 5)
            .map((id) => JSON.stringify(id))
            .join(
              ", ",
            )}${outside.length > 5 ? ` and ${outside.length - 5} more` : ""} not among the items selected (--items ${items}${narrowing.category ? `, --category ${narrowing.category}` : ""}${narrowing.limit !== undefined ? `, --limit ${narrowing.limit}` : ""})`,
        ),
      );
    }
    const wanted = new Set(narrowing.ids);
    ids = ids.filter((id) => wanted.has(id));
    if (items !== "all") pairs = pairs.filter((p) => wanted.has(p.baseId) || wanted.has(p.missId));
  }
  return ok({ selection, ids, jobs: jobsOf(ids, pairs, history, trials), pairs: pairs.length });
}

/** The jobs of the ids kept: one per id (per id and anchor of the pairs kept under `--history reference`), trial by trial. */
function jobsOf(ids: readonly string[], pairs: readonly ManifestPair[], history: HistorySource, trials: number): Job[] {
  // a reference line per anchor of the pairs kept: a base item twinned at anchors outside them needs no line here
  const anchors = new Map<string, Set<number>>();
  for (const p of pairs) for (const id of [p.baseId, p.missId]) anchors.set(id, (anchors.get(id) ?? new Set<number>()).add(p.anchorTurn));
  const lines: { id: string; anchorTurn: number | null }[] =
    history === "reference"
      ? ids.flatMap((id) => [...(anchors.get(id) ?? [])].sort((a, b) => a - b).map((anchorTurn) => ({ id, anchorTurn })))
      : ids.map((id) => ({ id, anchorTurn: null }));
  const trialList: (number | null)[] = trials === 1 ? [null] : Array.from({ length: trials }, (_, t) => t);
  return trialList.flatMap((trial) => lines.map((l) => ({ ...l, trial, key: lineKey(l.id, l.anchorTurn, trial) })));
}

/** What a run will do. */
export interface RunPlan {
  /** Items selected, and lines to write (one per item; under `--history reference` one per item and anchor). */
  readonly items: number;
  readonly lines: number;
  readonly pairs: number;
  /** Lines already in the output (kept), and lines to generate. */
  readonly resumed: number;
  readonly pending: number;
  /** The fewest requests to the model: one per generated turn (each tool call adds one more). */
  readonly minRequests: number;
  /** Interactive runs: should-ask items whose answer turn the simulated user speaks (at least one request each). */
  readonly simulatedTurns: number;
  /** Independent samples of each line (1: a plain run); `lines` and the requests count every trial. */
  readonly trials: number;
}

/** The turns a job generates: the anchor turn alone (a reference line without --continue), up to the stop turn, or every turn. */
export function generatedTurns(job: Job, entry: RolloutEntry, stopAfter: number | null): number {
  const count = entry.turns.length;
  const from = job.anchorTurn ?? 0;
  const last = stopAfter === null ? count - 1 : Math.min(stopAfter, count - 1);
  return Math.max(0, last - from + 1);
}

/** One line for the plan: `run: plan: … requests expected`. */
export function planText(plan: RunPlan, history: HistorySource): string {
  const per = [history === "reference" ? "one per item and anchor" : null, plan.trials > 1 ? `× ${plan.trials} trials` : null].filter(
    (x) => x !== null,
  );
  const lines = per.length > 0 ? `${counted(plan.lines, "line")} (${per.join(", ")})` : counted(plan.lines, "line");
  const sim = plan.simulatedTurns > 0 ? `, and at least ${plan.simulatedTurns} to the simulated user` : "";
  return `${counted(plan.items, "item")} of ${counted(plan.pairs, "pair")}, ${lines}: ${plan.resumed} already in the output, ${plan.pending} to generate; at least ${counted(plan.minRequests, "request")} to the model expected (one per generated turn; each tool call adds one)${sim}`;
}
