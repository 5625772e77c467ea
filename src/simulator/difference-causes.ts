/**
 * Named causes for the entries where `check` and a stored BFCL score file differ, so the agreement report says
 * why instead of leaving a difference unexplained. More in this folder's README.md.
 */
import type { BfclVersion } from "../bfcl/data.js";
import type { FailedEntry, ScoreFileContent } from "../bfcl/scores.js";
import { canonicalJson, compareVerdicts, type ExplainedDifference } from "./agreement.js";
import type { DefaultSeeds } from "./classes/process.js";
import { describeSeeds, inferDefaultSeeds, markerSeeds } from "./default-seeds.js";
import type { ExecutorChange } from "./executor-change-types.js";
import { executorChanges, releaseClasses } from "./executor-changes.js";
import type { OurVerdict } from "./scorefile.js";

export type DifferenceCause = ExplainedDifference["cause"];

/** A process to check the file again in: shared lists seeded, and/or another release's class sources. */
export interface CheckVariant {
  readonly seeds?: DefaultSeeds;
  readonly classSource?: BfclVersion;
}

const SUGGESTION = /\. (?:Did you mean:? |Did you forget to import )[^"\\?\n]{1,200}\?/g;

/** A message or error object without the suggestion suffixes of newer Pythons. */
export function withoutSuggestions(text: string): string {
  return text.replace(SUGGESTION, "");
}

/** Our lines and BFCL's for one entry. */
function linesOf(ours: readonly OurVerdict[], stored: ScoreFileContent, id: string): { mine: OurVerdict[]; theirs: FailedEntry[] } {
  const mine = ours.filter((v) => v.id === id && !v.valid);
  const first = stored.failed.get(id);
  return { mine, theirs: first === undefined ? [] : [first, ...(first.more ?? [])] };
}

/** Whether an entry's lines agree on both sides once `normalize` is applied to messages and error objects. */
function agreesWhen(ours: readonly OurVerdict[], stored: ScoreFileContent, id: string, normalize: (s: string) => string): boolean {
  const { mine, theirs } = linesOf(ours, stored, id);
  if (mine.length !== theirs.length) return false;
  return mine.every(
    (v, k) =>
      v.errorType === theirs[k].errorType &&
      normalize(v.errorMessage ?? "") === normalize(theirs[k].errorMessage) &&
      (v.errorJson === undefined || normalize(canonicalJson(v.errorJson)) === normalize(theirs[k].errorJson)),
  );
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A message template as a pattern: `{name}` fields match any text. */
function templatePattern(template: string): RegExp {
  return new RegExp(escapeRegex(template).replace(/\\\{[^}]*\\\}/g, ".*?"));
}

/** The changes of a release whose new message shows only in ours, or whose old one only in BFCL's. */
export function changesShown(version: BfclVersion, ours: readonly string[], theirs: readonly string[]): ExecutorChange[] {
  const inAny = (texts: readonly string[], p: RegExp) => texts.some((t) => p.test(t));
  return executorChanges.filter((c) => {
    if (c.version !== version) return false;
    const after = c.after === null ? null : templatePattern(c.after);
    const before = c.before === null ? null : templatePattern(c.before);
    return (
      (after !== null && inAny(ours, after) && !inAny(theirs, after)) || (before !== null && inAny(theirs, before) && !inAny(ours, before))
    );
  });
}

/** A change in a few words, for the report. */
export function describeChange(c: ExecutorChange): string {
  const now = c.after === null ? "message dropped" : `now "${c.after}"`;
  const was = c.before !== null ? `was "${c.before}"` : c.beforeCode !== null ? `was: ${c.beforeCode}` : "new";
  return `${c.commit} (${c.date}) ${c.className}.${c.method}: ${now}, ${was}`;
}

/**
 * Explain what differs between our verdicts of a file and BFCL's stored ones. `recheck`
 * checks the same file again in a fresh process of the given variant and returns its
 * verdicts (null when it cannot). Returns the causes found, each with the ids it explains;
 * an id is explained once, by the first cause that makes it agree.
 */
export function explainDifferences(
  ours: readonly OurVerdict[],
  stored: ScoreFileContent,
  disagreeing: readonly string[],
  version: BfclVersion,
  recheck: (variant: CheckVariant) => readonly OurVerdict[] | null,
): ExplainedDifference[] {
  const x: Explaining = { ours, stored, version, recheck, out: [], left: [...disagreeing] };
  take(
    x,
    "python-suggestion",
    `the messages differ only by the "Did you mean …?" suffix that newer Pythons add to AttributeError/NameError`,
    x.left.filter((id) => agreesWhen(ours, stored, id, withoutSuggestions)),
  );
  if (x.left.length === 0) return x.out;
  const seeds = explainBySharedDefaults(x);
  if (x.left.length === 0) return x.out;
  explainByExecutorChanges(x, seeds);
  return x.out;
}

/** The differences of one file being explained: the causes found so far and the ids still left. */
interface Explaining {
  readonly ours: readonly OurVerdict[];
  readonly stored: ScoreFileContent;
  readonly version: BfclVersion;
  readonly recheck: (variant: CheckVariant) => readonly OurVerdict[] | null;
  readonly out: ExplainedDifference[];
  left: string[];
}

function take(x: Explaining, cause: DifferenceCause, detail: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  x.out.push({ cause, detail, ids });
  x.left = x.left.filter((id) => !ids.includes(id));
}

/** The ids still left that agree under a recheck's verdicts. */
function agreeing(x: Explaining, verdicts: readonly OurVerdict[] | null): string[] {
  if (verdicts === null) return [];
  const still = new Set(compareVerdicts(verdicts, x.stored).disagreeingIds);
  return x.left.filter((id) => !still.has(id));
}

/** post_tweet's shared default list as BFCL's process had it, inferred from marked seeds; the seeds found, if any. */
function explainBySharedDefaults(x: Explaining): ReturnType<typeof inferDefaultSeeds> {
  const marked = x.recheck({ seeds: markerSeeds() });
  const seeds = marked === null ? null : inferDefaultSeeds(marked, x.stored);
  if (seeds !== null) {
    take(
      x,
      "shared-default-start",
      `post_tweet's shared default list held ${describeSeeds(seeds)} when BFCL's process reached this file (added by files or models it evaluated before); checked with it so, these agree`,
      agreeing(x, x.recheck({ seeds })),
    );
  }
  return seeds;
}

/** BFCL's classes as released (when they changed since), then the messages that a known class change explains. */
function explainByExecutorChanges(x: Explaining, seeds: ReturnType<typeof inferDefaultSeeds>): void {
  const { ours, version } = x;
  const released = releaseClasses[version];
  const shown = (ids: readonly string[]) => {
    const mine = ours.filter((v) => ids.includes(v.id) && v.errorJson !== undefined).map((v) => v.errorJson as string);
    const theirs = ids.flatMap((id) => linesOf(ours, x.stored, id).theirs.map((t) => t.errorJson));
    return changesShown(version, mine, theirs);
  };
  if (released.classesSameAs !== null) {
    const ids = agreeing(x, x.recheck({ seeds: seeds ?? undefined, classSource: released.classesSameAs }));
    const named = shown(ids);
    take(
      x,
      "executor-change",
      `BFCL's classes changed after the ${version} release (${released.release}, ${released.date}); checked with the classes as released, these agree` +
        (named.length > 0 ? `; the changes they show: ${named.map(describeChange).join("; ")}` : ""),
      ids,
    );
  }
  const named = shown(x.left);
  if (named.length > 0 && x.left.length > 0) {
    const ids = x.left.filter((id) => shown([id]).length > 0);
    take(
      x,
      "executor-change",
      `the differing messages are ones BFCL's classes changed after the ${version} release: ${named.map(describeChange).join("; ")}`,
      ids,
    );
  }
}
