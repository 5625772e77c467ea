/**
 * Which data were these rollouts generated on? A manifest keeps a digest of every
 * question turn of every item; a result line's `inference_log` keeps the user messages
 * BFCL sent at the start of each turn. Comparing the two per item tells a run on BFCL v3
 * data from one on v4 data (about a third of the items differ in their question turns)
 * before any number is computed from the wrong pairs. Pure: the caller reads the lines
 * and groups them (per file or per model).
 */
import type { BfclVersion } from "../bfcl/data.js";
import type { TurnQueries } from "../bfcl/inference-log.js";
import { shortDigest, turnText } from "./digest.js";
import type { Manifest } from "./types.js";

/** One result line as the check needs it: the item id and what BFCL recorded (null: no log, e.g. an inference error). */
export interface RecordedItem {
  readonly id: string;
  readonly turns: TurnQueries | null;
}

/** A data set to compare against: a manifest's version and its per-item turn digests. */
export interface DataCandidate {
  readonly version: BfclVersion;
  readonly turnsById: ReadonlyMap<string, readonly (string | null)[]>;
}

/** The candidate a manifest stands for. */
export function dataCandidate(manifest: Pick<Manifest, "source" | "items">): DataCandidate {
  return { version: manifest.source.bfclVersion, turnsById: new Map(manifest.items.map((i) => [i.id, i.turns])) };
}

/**
 * Whether a recorded turn carries the digest `expected`: its user messages joined by a
 * blank line, or a tail of that text after a blank line — handlers that cannot send a
 * system prompt turn it into a user message and merge it in front of the question's
 * first one. The whole text is tried first; the tails only when it does not match.
 */
function carriesDigest(messages: TurnQueries[number], expected: string): boolean {
  // a handler that folds the question into its system prompt (Nemotron) logs no user message
  const text = turnText(messages) ?? (messages.length > 0 ? messages.map((m) => m.content).join("\n\n") : null);
  if (text === null) return false;
  if (shortDigest(text) === expected) return true;
  for (let i = text.indexOf("\n\n"); i >= 0; i = text.indexOf("\n\n", i + 1)) if (shortDigest(text.slice(i + 2)) === expected) return true;
  return false;
}

/** How one recorded item compares with one data set. */
export type ItemComparison =
  | { readonly kind: "equal"; readonly turnsCompared: number }
  | { readonly kind: "differs"; readonly turn: number }
  | { readonly kind: "unknown-item" }
  | { readonly kind: "no-log" };

/** Which recorded turns are compared: the first (what every logged line has) or every one BFCL ran. */
export type TurnScope = "first" | "all";

/**
 * Compare one recorded item with a data set: every compared turn the log holds must carry
 * the data's digest. Turns the data leaves without a user message (miss_func's holdout
 * turn, where BFCL writes its own prompt) are skipped.
 */
export function compareItem(item: RecordedItem, data: DataCandidate, scope: TurnScope = "all"): ItemComparison {
  if (item.turns === null || item.turns.length === 0) return { kind: "no-log" };
  const digests = data.turnsById.get(item.id);
  if (digests === undefined) return { kind: "unknown-item" };
  const last = scope === "first" ? 1 : Math.min(item.turns.length, digests.length);
  let turnsCompared = 0;
  for (let t = 0; t < last; t++) {
    const expected = digests[t];
    if (expected === null || expected === undefined) continue;
    if (!carriesDigest(item.turns[t], expected)) return { kind: "differs", turn: t };
    turnsCompared++;
  }
  return { kind: "equal", turnsCompared };
}

/** How a group of rollouts compares with one data set. */
export interface VersionMatch {
  readonly version: BfclVersion;
  /** Items with a log that the data set has. */
  readonly compared: number;
  readonly equal: number;
  /** Items whose recorded questions differ, with the first differing turn, in input order. */
  readonly differing: readonly { readonly id: string; readonly turn: number }[];
  /** Items with a log that the data set does not have. */
  readonly unknown: number;
  /** Whether the rollouts fit this data: at most `allowedDifferences(compared)` differ, and something was compared. */
  readonly matches: boolean;
}

/** The outcome for one group of rollouts. */
export interface RolloutDataCheck {
  readonly lines: number;
  /** Lines without a log to compare (inference errors). */
  readonly noLog: number;
  readonly byVersion: readonly VersionMatch[];
  /** The one data set the rollouts fit best, or null (none fits, or nothing could be compared). */
  readonly looksLike: BfclVersion | null;
}

/**
 * How many items may differ while the rollouts still count as generated on the data: a
 * few, for edits made to a release's data after a run (BFCL fixes items in place). Two
 * releases differ far more: v3 and v4 on 45 of 200 first turns per category, ~70 overall.
 */
export function allowedDifferences(compared: number): number {
  return Math.max(3, Math.floor(compared * 0.02));
}

/**
 * The check of a group of rollouts built one item at a time: each item is compared when
 * it is read and only the outcome is kept, so a reader can stream a model's lines
 * without holding every recorded turn until the end.
 */
export interface RolloutDataCheckBuilder {
  add(item: RecordedItem): void;
  result(): RolloutDataCheck;
}

/** Start a check of a group of rollouts against every data set in `candidates`. */
export function rolloutDataCheckBuilder(candidates: readonly DataCandidate[], scope: TurnScope = "all"): RolloutDataCheckBuilder {
  let lines = 0;
  let noLog = 0;
  const tallies = candidates.map(() => ({ equal: 0, unknown: 0, differing: [] as { id: string; turn: number }[] }));
  return {
    add(item) {
      lines++;
      if (item.turns === null || item.turns.length === 0) noLog++;
      candidates.forEach((data, k) => {
        const c = compareItem(item, data, scope);
        if (c.kind === "equal") tallies[k].equal++;
        else if (c.kind === "differs") tallies[k].differing.push({ id: item.id, turn: c.turn });
        else if (c.kind === "unknown-item") tallies[k].unknown++;
      });
    },
    result() {
      const byVersion = candidates.map((data, k): VersionMatch => {
        const { equal, unknown, differing } = tallies[k];
        const compared = equal + differing.length;
        return { version: data.version, compared, equal, differing: [...differing], unknown, matches: compared > 0 && differing.length <= allowedDifferences(compared) };
      });
      const fitting = byVersion.filter((v) => v.matches).sort((a, b) => a.differing.length / a.compared - b.differing.length / b.compared);
      const looksLike = fitting.length === 0 ? null : fitting.length > 1 && sameShare(fitting[0], fitting[1]) ? null : fitting[0].version;
      return { lines, noLog, byVersion, looksLike };
    },
  };
}

/** Compare a group of rollouts (one file, or one model's files) with every data set available. */
export function checkRolloutData(items: readonly RecordedItem[], candidates: readonly DataCandidate[], scope: TurnScope = "all"): RolloutDataCheck {
  const check = rolloutDataCheckBuilder(candidates, scope);
  for (const item of items) check.add(item);
  return check.result();
}

const sameShare = (a: VersionMatch, b: VersionMatch) => a.differing.length * b.compared === b.differing.length * a.compared;

/** Whether the rollouts may be scored with the data of `expected`, and the one line to print when not. */
export interface DataVerdict {
  readonly ok: boolean;
  /** The line to print (null when there is nothing to say). */
  readonly line: string | null;
}

/**
 * The verdict for scoring a group (`label`: a file or model) with the data of `expected`
 * (from the result file names, or the manifest given): fine when the rollouts fit it, or
 * when no log could be compared (said in the line); otherwise one line naming how many
 * items differ and the data the rollouts look like.
 */
export function dataVerdict(check: RolloutDataCheck, expected: BfclVersion, label: string): DataVerdict {
  const mine = check.byVersion.find((v) => v.version === expected);
  if (mine === undefined) return { ok: false, line: `${label}: no BFCL ${expected} manifest to check the rollouts against` };
  if (mine.compared === 0) {
    return { ok: true, line: `${label}: no recorded question to check against BFCL ${expected} data (${check.noLog} of ${check.lines} lines have no inference_log)` };
  }
  if (mine.matches) return { ok: true, line: null };
  const first = mine.differing[0];
  const head = `${label}: ${mine.differing.length} of ${mine.compared} rollouts were not generated on BFCL ${expected} data (first: ${first.id}, turn ${first.turn})`;
  const other = check.looksLike !== null && check.looksLike !== expected ? check.looksLike : null;
  return { ok: false, line: other ? `${head}; rollouts look like BFCL ${other} data; pass --manifest to force` : `${head}; pass --manifest to force` };
}
