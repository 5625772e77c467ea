/**
 * Every user turn BFCL recorded in each line of a model's result files, read and checked
 * against the data's candidates (`src/pairs/rollout-data.ts`) as the lines stream by.
 */
import { scoredResultCategories } from "../bfcl/categories.js";
import { turnQueriesAt, type TurnQueries } from "../bfcl/inference-log.js";
import { scanLineHead, type LineHead } from "../bfcl/results.js";
import { OWN_KEYS_TAIL, SIMULATOR_KEY_TEXT, simulatedAnswerTurn } from "../bfcl/line-keys.js";
import { problem, type Problem } from "../messages/index.js";
import { rolloutDataCheckBuilder, type DataCandidate, type RecordedItem, type RolloutDataCheck } from "../pairs/rollout-data.js";
import { lastIndexOfBytes, readFailure, sameBytes } from "../io/results-read.js";
import type { Host } from "../io/host.js";
import type { LineVisitor } from "./result-lines.js";
import type { TreeModel } from "../io/tree.js";

/**
 * The turns BFCL recorded on every line of a model's base, miss_func and miss_param
 * result files (each id once, the first line wins). Lines that cannot be read are left
 * to the scorer, which reports them; a file that cannot be read is one problem.
 */
export function readRecordedTurns(model: TreeModel, host: Host): { items: RecordedItem[]; problems: Problem[] } {
  const items: RecordedItem[] = [];
  const problems = forEachRecordedItem(model, (item) => void items.push(item), host);
  return { items, problems };
}

/**
 * A line visitor handing `onItem` the recorded turns of each id's first line, for a
 * reader that goes through a model's files in the order `readRecordedTurns` does
 * (categories in order, each category's files in order): the scorer runs the data check
 * in its own pass over the files with it.
 */
export function recordedTurnsVisitor(onItem: (item: RecordedItem) => void, memo: LoggedTurnsMemo = new LoggedTurnsMemo()): LineVisitor {
  const seen = new Set<string>();
  return (id, bytes, start, end, head) => {
    if (seen.has(id)) return;
    seen.add(id);
    const turns = memo.turnsOf(id, bytes, start, end, head);
    const answerTurn = turns === null ? null : simulatedAnswerTurn(bytes, start, end, simulatorKeyAt(bytes, start, end, head));
    onItem({ id, turns: answerTurn === null ? turns : turns!.slice(0, answerTurn) });
  };
}

const SIMULATOR_KEY = new TextEncoder().encode(SIMULATOR_KEY_TEXT);

/**
 * Where the simulator's key starts in the line's tail (-1: nowhere): where the head scan found it as a top-level key,
 * else (no scan, or one stopped early) by a native search of the tail's bytes.
 */
function simulatorKeyAt(bytes: Uint8Array, start: number, end: number, head: LineHead | undefined): number {
  const tail = Math.max(start, end - OWN_KEYS_TAIL);
  if (head !== undefined && head.simulatorKeyStart !== -2) return head.simulatorKeyStart >= tail ? head.simulatorKeyStart : -1;
  return lastIndexOfBytes(bytes, SIMULATOR_KEY, tail, end);
}

/** The most items a memo keeps (the ids come from the files read: bounded, as a manifest's items are). */
const MEMO_ITEMS = 4096;

/**
 * The turns last read from each item's log, with the query bytes they were parsed from: models run on the same data
 * log the same questions byte for byte, so a line whose query bytes equal the last ones of its id gets the same
 * turns object, parsed and compared with the data once. More in this folder's README.md.
 */
export class LoggedTurnsMemo {
  private readonly byId = new Map<
    string,
    { readonly bytes: Uint8Array; readonly queries: readonly number[]; readonly turns: TurnQueries }
  >();

  /** The turns of the line `bytes[start, end)` of item `id` (see `turnQueriesAt`); `head`: its head scan. */
  turnsOf(id: string, bytes: Uint8Array, start: number, end: number, head: LineHead | undefined): TurnQueries | null {
    const queries = head?.logQueries ?? null;
    if (head === undefined || queries === null) return turnQueriesAt(bytes, start, end, head);
    const known = this.byId.get(id);
    if (known !== undefined && sameQueries(known, bytes, queries)) return known.turns;
    const turns = turnQueriesAt(bytes, start, end, head);
    if (turns === null) return turns;
    if (this.byId.size >= MEMO_ITEMS) this.byId.clear();
    this.byId.set(id, { ...copyQueries(bytes, queries), turns });
    return turns;
  }
}

/** The query bytes of a line (`queries`: start and end pairs) copied end to end, with their extents in the copy. */
function copyQueries(bytes: Uint8Array, queries: readonly number[]): { bytes: Uint8Array; queries: number[] } {
  let length = 0;
  for (let q = 0; q < queries.length; q += 2) length += queries[q + 1] - queries[q];
  const copy = new Uint8Array(length);
  const extents: number[] = [];
  let at = 0;
  for (let q = 0; q < queries.length; q += 2) {
    copy.set(bytes.subarray(queries[q], queries[q + 1]), at);
    extents.push(at, at + queries[q + 1] - queries[q]);
    at += queries[q + 1] - queries[q];
  }
  return { bytes: copy, queries: extents };
}

/** Whether a line's query bytes are, query by query, the ones `known` was copied from. */
function sameQueries(
  known: { readonly bytes: Uint8Array; readonly queries: readonly number[] },
  bytes: Uint8Array,
  queries: readonly number[],
): boolean {
  if (known.queries.length !== queries.length) return false;
  for (let q = 0; q < queries.length; q += 2) {
    const from = queries[q];
    const length = queries[q + 1] - from;
    const at = known.queries[q];
    if (known.queries[q + 1] - at !== length) return false;
    if (!sameBytes(known.bytes, at, bytes, from, length)) return false;
  }
  return true;
}

/** Call `onItem` with the recorded turns of every line, in the order `readRecordedTurns` lists them; the problems met. */
function forEachRecordedItem(model: TreeModel, onItem: (item: RecordedItem) => void, host: Host): Problem[] {
  const visit = recordedTurnsVisitor(onItem);
  const problems: Problem[] = [];
  for (const category of scoredResultCategories) {
    for (const file of model.files[category] ?? []) {
      try {
        host.forEachLine(file.path, (bytes, start, end) => {
          const head = scanLineHead(bytes, start, end, true);
          if (!("error" in head)) visit(head.id, bytes, start, end, head);
        });
      } catch (e) {
        problems.push(problem("file-unreadable", `cannot read result file (${readFailure(e)})`, { file: file.path }));
      }
    }
  }
  return problems;
}

/**
 * The check of every recorded turn of a model's rollouts against `candidates`, the same
 * as `checkRolloutData(readRecordedTurns(model).items, candidates)` but streamed: each
 * line is compared when read, so memory and garbage stay one line's worth (holding every
 * model's recorded turns until its check made scoring many models slower and larger).
 * Files that cannot be read are left to the scorer.
 */
export function checkRecordedTurns(model: TreeModel, candidates: readonly DataCandidate[], host: Host): RolloutDataCheck {
  const check = rolloutDataCheckBuilder(candidates, "all");
  forEachRecordedItem(model, (item) => check.add(item), host);
  return check.result();
}

/**
 * A streamed check against one data set in which lines that logged no turn (inference
 * errors) wait until the end: then they are compared with the turns `prompts` gives them,
 * the prompt BFCL's score file keeps for a failed entry, when the caller has read it.
 */
export function dataCheckWithPrompts(candidate: DataCandidate): {
  readonly onItem: (item: RecordedItem) => void;
  readonly result: (prompts?: ReadonlyMap<string, TurnQueries>) => RolloutDataCheck;
  readonly unlogged: () => number;
} {
  const builder = rolloutDataCheckBuilder([candidate], "all");
  const unlogged: string[] = [];
  return {
    onItem: (item) => (item.turns === null || item.turns.length === 0 ? void unlogged.push(item.id) : builder.add(item)),
    result: (prompts) => {
      for (const id of unlogged) builder.add({ id, turns: prompts?.get(id) ?? null });
      return builder.result();
    },
    unlogged: () => unlogged.length,
  };
}

/**
 * `checkRecordedTurns` against the one data set a model is checked on, with its lines
 * that logged no turn compared with the prompts of its score files' failed entries:
 * `prompts` is called only when the model has such lines.
 */
export function checkRecordedTurnsWithPrompts(
  model: TreeModel,
  candidate: DataCandidate,
  prompts: () => ReadonlyMap<string, TurnQueries>,
  host: Host,
): RolloutDataCheck {
  const check = dataCheckWithPrompts(candidate);
  forEachRecordedItem(model, check.onItem, host);
  return check.result(check.unlogged() > 0 ? prompts() : undefined);
}
