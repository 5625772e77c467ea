/**
 * Which data were these rollouts generated on? Comparing the question-turn digests a manifest keeps with the
 * user messages a result line's `inference_log` recorded tells a run on BFCL v3 data from one on v4 before any
 * number is computed from the wrong pairs. More in this folder's README.md.
 */
import type { BfclVersion } from "../bfcl/data.js";
import type { TurnQueries } from "../bfcl/inference-log.js";
import { shortDigest, turnText } from "./digest.js";
import type { DataCommit, ItemRevision } from "./revisions.js";
import type { Manifest } from "./types.js";
import { counted } from "../messages/index.js";

/** One result line as the check needs it: the item id and what BFCL recorded (null: no log, e.g. an inference error). */
export interface RecordedItem {
  readonly id: string;
  readonly turns: TurnQueries | null;
}

/** A data set to compare against: a manifest's version and its per-item turn digests. */
export interface DataCandidate {
  readonly version: BfclVersion;
  readonly turnsById: ReadonlyMap<string, readonly (string | null)[]>;
  /** By item: the turns BFCL sent from older data of the same version, newest first (only items whose turns changed). */
  readonly olderById?: ReadonlyMap<string, readonly ItemRevision[]>;
  /** The data commits the older turns are named by, oldest first. */
  readonly commits?: ReadonlyMap<string, DataCommit>;
}

/** The candidate a manifest stands for. */
export function dataCandidate(manifest: Pick<Manifest, "source" | "items" | "revisions">): DataCandidate {
  return {
    version: manifest.source.bfclVersion,
    turnsById: new Map(manifest.items.map((i) => [i.id, i.turns])),
    olderById: new Map(manifest.items.flatMap((i) => (i.revisions === undefined ? [] : [[i.id, i.revisions] as const]))),
    commits: new Map((manifest.revisions?.commits ?? []).map((c) => [c.commit, c])),
  };
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

/** How one recorded item compares with one data set. `before`: the item follows the data as it was before that commit. */
export type ItemComparison =
  | { readonly kind: "equal"; readonly turnsCompared: number }
  | { readonly kind: "differs"; readonly turn: number; readonly before?: string }
  | { readonly kind: "unknown-item" }
  | { readonly kind: "no-log" };

/** Which recorded turns are compared: the first (what every logged line has) or every one BFCL ran. */
export type TurnScope = "first" | "all";

/** The first compared turn that does not carry its digest (-1: none), and how many were compared. Null digests (no user text from the data) are skipped. */
function firstDifference(turns: TurnQueries, digests: readonly (string | null)[], scope: TurnScope): { turn: number; compared: number } {
  const last = scope === "first" ? 1 : Math.min(turns.length, digests.length);
  let compared = 0;
  for (let t = 0; t < last; t++) {
    const expected = digests[t];
    if (expected === null || expected === undefined) continue;
    if (!carriesDigest(turns[t], expected)) return { turn: t, compared };
    compared++;
  }
  return { turn: -1, compared };
}

/**
 * Compare one recorded item with a data set: every compared turn the log holds must carry
 * the data's digest. Turns the data leaves without a user message (miss_func's holdout
 * turn, where BFCL writes its own prompt) are skipped. An item that differs is compared
 * with the item's older states too, newest first: the first it follows is its `before`.
 */
export function compareItem(item: RecordedItem, data: DataCandidate, scope: TurnScope = "all"): ItemComparison {
  if (item.turns === null || item.turns.length === 0) return { kind: "no-log" };
  // a reader that meets the same logged turns again (the same item of another model run on the same data) hands over the same object
  const known = comparedBefore.get(item.turns);
  if (known !== undefined && known.id === item.id && known.data === data && known.scope === scope) return known.comparison;
  const comparison = compareTurns(item.id, item.turns, data, scope);
  comparedBefore.set(item.turns, { id: item.id, data, scope, comparison });
  return comparison;
}

/** The last comparison made of each turns object (held weakly: a reader's objects go when it drops them). */
const comparedBefore = new WeakMap<
  TurnQueries,
  { readonly id: string; readonly data: DataCandidate; readonly scope: TurnScope; readonly comparison: ItemComparison }
>();

/** `compareItem` on a log with turns. */
function compareTurns(id: string, turns: TurnQueries, data: DataCandidate, scope: TurnScope): ItemComparison {
  const digests = data.turnsById.get(id);
  if (digests === undefined) return { kind: "unknown-item" };
  const now = firstDifference(turns, digests, scope);
  if (now.turn < 0) return { kind: "equal", turnsCompared: now.compared };
  const older = (data.olderById?.get(id) ?? []).find((r) => firstDifference(turns, r.turns, scope).turn < 0);
  return older === undefined ? { kind: "differs", turn: now.turn } : { kind: "differs", turn: now.turn, before: older.commit };
}

/** How a group of rollouts compares with one data set. */
export interface VersionMatch {
  readonly version: BfclVersion;
  /** Items with a log that the data set has. */
  readonly compared: number;
  readonly equal: number;
  /** Items whose recorded questions differ, with the first differing turn, in input order; `before`: the data commit before which the item was as recorded. */
  readonly differing: readonly { readonly id: string; readonly turn: number; readonly before?: string }[];
  /** Items with a log that the data set does not have. */
  readonly unknown: number;
  /**
   * Whether the rollouts fit this data: something was compared, and at most
   * `allowedDifferences(compared)` items differ from every revision of it known (items
   * that follow an older revision exactly are named in `olderData`, not counted).
   */
  readonly matches: boolean;
  /** Whether at most `allowedDifferences(compared)` items differ at all, older revisions or not (the data as they are now fit). */
  readonly fitsAsNow: boolean;
  /**
   * The older data the differing items follow, when some do: the earliest data commit
   * the run was generated before (the items follow the data as it was before it, or
   * before a later commit that changed them again), and those items in input order.
   */
  readonly olderData: { readonly before: DataCommit; readonly items: readonly string[] } | null;
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
  const tallies = candidates.map(() => ({ equal: 0, unknown: 0, differing: [] as { id: string; turn: number; before?: string }[] }));
  return {
    add(item) {
      lines++;
      if (item.turns === null || item.turns.length === 0) noLog++;
      candidates.forEach((data, k) => {
        const c = compareItem(item, data, scope);
        if (c.kind === "equal") tallies[k].equal++;
        else if (c.kind === "differs")
          tallies[k].differing.push(
            c.before === undefined ? { id: item.id, turn: c.turn } : { id: item.id, turn: c.turn, before: c.before },
          );
        else if (c.kind === "unknown-item") tallies[k].unknown++;
      });
    },
    result() {
      const byVersion = candidates.map((data, k): VersionMatch => {
        const { equal, unknown, differing } = tallies[k];
        const compared = equal + differing.length;
        const matches = compared > 0 && unexplained(differing) <= allowedDifferences(compared);
        const fitsAsNow = compared > 0 && differing.length <= allowedDifferences(compared);
        return {
          version: data.version,
          compared,
          equal,
          differing: [...differing],
          unknown,
          matches,
          fitsAsNow,
          olderData: olderData(differing, data),
        };
      });
      // the closest data: fewest items differing at all (a v3 run follows v4's data from before its first fixes on every item v3 and v4 differ on)
      const fitting = byVersion.filter((v) => v.matches).sort((a, b) => a.differing.length / a.compared - b.differing.length / b.compared);
      const looksLike = fitting.length === 0 ? null : fitting.length > 1 && sameShare(fitting[0], fitting[1]) ? null : fitting[0].version;
      return { lines, noLog, byVersion, looksLike };
    },
  };
}

/** The older data the differing items follow (see `VersionMatch.olderData`), or null when none does. */
function olderData(differing: readonly { id: string; before?: string }[], data: DataCandidate): VersionMatch["olderData"] {
  const older = differing.filter((d) => d.before !== undefined);
  if (older.length === 0) return null;
  const order = [...(data.commits?.keys() ?? [])];
  const earliest = older.map((d) => d.before!).reduce((a, b) => (order.indexOf(b) < order.indexOf(a) ? b : a));
  const before = data.commits?.get(earliest) ?? { commit: earliest, date: "", subject: "" };
  return { before, items: older.map((d) => d.id) };
}

/** Compare a group of rollouts (one file, or one model's files) with every data set available. */
export function checkRolloutData(
  items: readonly RecordedItem[],
  candidates: readonly DataCandidate[],
  scope: TurnScope = "all",
): RolloutDataCheck {
  const check = rolloutDataCheckBuilder(candidates, scope);
  for (const item of items) check.add(item);
  return check.result();
}

/** How many differing items follow no known revision of the data. */
const unexplained = (differing: readonly { before?: string }[]) => differing.filter((d) => d.before === undefined).length;

const sameShare = (a: VersionMatch, b: VersionMatch) => a.differing.length * b.compared === b.differing.length * a.compared;

/** Whether the rollouts may be scored with the data of `expected`, and the one line to print when not. */
export interface DataVerdict {
  readonly ok: boolean;
  /** The line to print (null when there is nothing to say). */
  readonly line: string | null;
  /** The line naming the older data of the version that some items follow, also when they are few enough to score the run (null: none do). */
  readonly olderData: string | null;
}

/** `multi_turn_miss_func 101, 102; multi_turn_base 7`: item ids by category, in the order given. */
export function itemList(ids: readonly string[]): string {
  const byPrefix = new Map<string, string[]>();
  for (const id of ids) {
    const cut = id.lastIndexOf("_");
    const prefix = cut > 0 ? id.slice(0, cut) : id;
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), cut > 0 ? id.slice(cut + 1) : ""]);
  }
  return [...byPrefix].map(([prefix, numbers]) => `${prefix} ${numbers.join(", ")}`).join("; ");
}

/** The one line naming the older data a group of rollouts follows on some items. */
export function olderDataLine(match: VersionMatch, label: string): string | null {
  if (match.olderData === null) return null;
  const { before, items } = match.olderData;
  const commit = before.subject === "" ? before.commit : `${before.commit} '${before.subject}' (${before.date})`;
  const others = match.differing.length - items.length;
  const rest = others > 0 ? `; ${others} other item${others === 1 ? "" : "s"} differ from every revision known` : "";
  return `${label}: generated on BFCL ${match.version} data from before ${commit}: ${items.length === 1 ? "1 item differs" : `${items.length} items differ`}: ${itemList(items)}${rest}`;
}

/**
 * The verdict for scoring a group (`label`: a file or model) with the data of `expected`
 * (from the result file names, or the manifest given): fine when the rollouts fit it, or
 * when no log could be compared (said in the line); otherwise one line naming how many
 * items differ and the data the rollouts look like. Items that follow older data of the
 * version are named in `olderData` either way.
 */
export function dataVerdict(check: RolloutDataCheck, expected: BfclVersion, label: string): DataVerdict {
  const mine = check.byVersion.find((v) => v.version === expected);
  if (mine === undefined)
    return { ok: false, line: `${label}: no BFCL ${expected} manifest to check the rollouts against`, olderData: null };
  if (mine.compared === 0) {
    return {
      ok: true,
      line: `${label}: no recorded question to check against BFCL ${expected} data (${check.noLog} of ${counted(check.lines, "line")} ${check.noLog === 1 ? "has" : "have"} no inference_log)`,
      olderData: null,
    };
  }
  const older = olderDataLine(mine, label);
  const other = check.looksLike !== null && check.looksLike !== expected ? check.looksLike : null;
  // fitting only through older revisions is not enough when another version's data fit closer
  if (mine.matches && (mine.fitsAsNow || other === null)) return { ok: true, line: null, olderData: older };
  const first = mine.differing[0];
  const head = `${label}: ${mine.differing.length} of ${mine.compared} rollouts were not generated on BFCL ${expected} data (first: ${first.id}, turn ${first.turn})`;
  if (other === null && older !== null)
    return { ok: false, line: `${head}; ${older.slice(label.length + 2)}; pass --manifest to force`, olderData: older };
  return {
    ok: false,
    line: other ? `${head}; rollouts look like BFCL ${other} data; pass --manifest to force` : `${head}; pass --manifest to force`,
    olderData: older,
  };
}
