/**
 * The BFCL data commits after a release that changed items twinscore reads: BFCL fixes its data in place, so
 * two runs that are both "BFCL v4" by their file names can differ on the items those commits edited. More in
 * this folder's README.md.
 */
import * as v from "valibot";
import { err, ok, problem, type Result } from "../messages/index.js";
import type { Manifest, ManifestPair } from "./types.js";

/** A data commit, as people name it. */
export interface DataCommit {
  /** Short sha (8 hex digits). */
  readonly commit: string;
  /** Commit date, YYYY-MM-DD. */
  readonly date: string;
  /** First line of the commit message. */
  readonly subject: string;
}

/** One change of one item. */
export interface ItemChange {
  readonly commit: string;
  /** The fields that changed (`question`, `initial_config`, `involved_classes`, `missed_function`, `ground_truth`; `added`/`removed` for an item that came or went). */
  readonly fields: readonly string[];
  /** The digests of the user text BFCL sent at each turn before the change (null: a holdout or empty turn), or null when the item did not exist. */
  readonly turnsBefore: readonly (string | null)[] | null;
  readonly turnsAfter: readonly (string | null)[] | null;
}

/** The record of one BFCL version. */
export interface DataRevisions {
  readonly format: 1;
  readonly bfclVersion: "v3" | "v4";
  /** The commit that released the version's data. */
  readonly release: DataCommit;
  /** The revision the package's manifest is built from. */
  readonly supported: string;
  /** Every commit after the release that touched the data files, oldest first, with how many items it changed. */
  readonly commits: readonly (DataCommit & { readonly items: number; readonly unreadable?: readonly string[] })[];
  /** By item id, its changes, oldest first (items never changed are absent). */
  readonly items: Readonly<Record<string, readonly ItemChange[]>>;
}

const sha = v.pipe(v.string(), v.regex(/^[0-9a-f]{8}$/));
const commit = v.object({ commit: sha, date: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)), subject: v.string() });
const turns = v.nullable(v.array(v.nullable(v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/)))));
const schema = v.object({
  format: v.literal(1),
  bfclVersion: v.picklist(["v3", "v4"]),
  release: commit,
  supported: sha,
  commits: v.array(
    v.object({ ...commit.entries, items: v.pipe(v.number(), v.integer(), v.minValue(0)), unreadable: v.optional(v.array(v.string())) }),
  ),
  items: v.record(v.string(), v.array(v.object({ commit: sha, fields: v.array(v.string()), turnsBefore: turns, turnsAfter: turns }))),
});

/** Parse and validate a revision record; `file` names it in the problem. */
export function parseDataRevisions(text: string, file: string): Result<DataRevisions> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return err(problem("json-malformed", `malformed revision record: ${e instanceof Error ? e.message : String(e)}`, { file }));
  }
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = (issue.path ?? []).map((p) => String((p as { key: unknown }).key)).join(".");
    return err(problem("revisions-schema", `invalid revision record at ${where || "(root)"}: ${issue.message}`, { file }));
  }
  const record = parsed.output as DataRevisions;
  const known = new Set(record.commits.map((c) => c.commit));
  for (const [id, changes] of Object.entries(record.items)) {
    const stray = changes.find((c) => !known.has(c.commit));
    if (stray)
      return err(
        problem("revisions-schema", `invalid revision record: ${id} names commit ${stray.commit}, which the record does not list`, {
          file,
        }),
      );
  }
  return ok(record);
}

/** The data commits (short shas, oldest first) that changed each twin of a pair; the manifest's `revisions.commits` names them. */
export interface PairRevisions {
  readonly base: readonly string[];
  readonly miss: readonly string[];
}

/** An older state of an item's question turns: what BFCL sent before `commit`. */
export interface ItemRevision {
  readonly commit: string;
  readonly turns: readonly (string | null)[];
}

/** The revisions the manifest records: where its data comes from in BFCL's history. */
export interface ManifestRevisions {
  readonly release: DataCommit;
  readonly supported: string;
  /** Every data commit since the release, oldest first. */
  readonly commits: readonly DataCommit[];
}

/**
 * Why a record does not belong to a manifest's data, or null when it does: its version
 * differs, or an item's turns after its last change are not the manifest's (the data
 * folder is another revision than the record's `supported`).
 */
export function recordMismatch(manifest: Pick<Manifest, "source" | "items">, record: DataRevisions): string | null {
  if (record.bfclVersion !== manifest.source.bfclVersion)
    return `the record is of BFCL ${record.bfclVersion}, the data of ${manifest.source.bfclVersion}`;
  const turnsOf = new Map(manifest.items.map((i) => [i.id, i.turns]));
  for (const [id, changes] of Object.entries(record.items)) {
    const last = changes[changes.length - 1].turnsAfter;
    const mine = turnsOf.get(id);
    if (mine === undefined ? last !== null : JSON.stringify(mine) !== JSON.stringify(last))
      return `${id} differs from its state at ${record.supported}`;
  }
  return null;
}

/** The commits that changed each twin of a pair, oldest first. */
export function pairRevisions(pair: Pick<ManifestPair, "baseId" | "missId">, record: DataRevisions): PairRevisions {
  const commitsOf = (id: string) => (record.items[id] ?? []).map((c) => c.commit);
  return { base: commitsOf(pair.baseId), miss: commitsOf(pair.missId) };
}

/** The commits that changed either twin of a pair, oldest first, as the manifest names them ([] when it records none). */
export function pairCommits(pair: Pick<ManifestPair, "revisions">, revisions: ManifestRevisions | undefined): DataCommit[] {
  if (pair.revisions === undefined || revisions === undefined) return [];
  const changed = new Set([...pair.revisions.base, ...pair.revisions.miss]);
  return revisions.commits.filter((c) => changed.has(c.commit));
}

/** The older turns of an item that a log can tell from its current ones, newest first (a change that left the turns as they were is not listed). */
export function itemRevisions(changes: readonly ItemChange[]): ItemRevision[] {
  return changes
    .filter((c) => c.turnsBefore !== null && JSON.stringify(c.turnsBefore) !== JSON.stringify(c.turnsAfter))
    .map((c) => ({ commit: c.commit, turns: c.turnsBefore! }))
    .reverse();
}

/**
 * The manifest with the record in it: the data commits since the release, each pair's
 * (and restored pair's) commits, and each changed item's older turns. The caller has
 * checked that the record belongs to the manifest's data (`recordMismatch`).
 */
export function withRevisions(manifest: Manifest, record: DataRevisions): Manifest {
  const pair = (p: ManifestPair): ManifestPair => ({ ...p, revisions: pairRevisions(p, record) });
  const revisions: ManifestRevisions = {
    release: record.release,
    supported: record.supported,
    commits: record.commits.map(({ commit, date, subject }) => ({ commit, date, subject })),
  };
  // the commits come after the source in the file, before the funnel: where the data comes from, then what was made of it
  return {
    version: manifest.version,
    source: manifest.source,
    revisions,
    funnel: manifest.funnel,
    pairs: manifest.pairs.map(pair),
    restoredPairs: manifest.restoredPairs.map(pair),
    dropped: manifest.dropped,
    unusable: manifest.unusable,
    notApplied: manifest.notApplied,
    items: manifest.items.map((i) => {
      const older = itemRevisions(record.items[i.id] ?? []);
      return older.length === 0 ? i : { ...i, revisions: older };
    }),
  };
}

/** The pairs (by should-ask id) neither of whose twins changed since the release; null when the manifest records no revisions. */
export function unchangedPairIds(manifest: Pick<Manifest, "pairs" | "revisions">): Set<string> | null {
  if (manifest.revisions === undefined) return null;
  return new Set(
    manifest.pairs.filter((p) => p.revisions === undefined || p.revisions.base.length + p.revisions.miss.length === 0).map((p) => p.missId),
  );
}
