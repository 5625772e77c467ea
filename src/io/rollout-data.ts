/**
 * The file side of checking rollouts against their data: every user turn BFCL recorded
 * in each line of a model's result files, and the package's manifests of every BFCL
 * version to compare them with. The comparison itself is `src/pairs/rollout-data.ts`.
 */
import { readdirSync } from "node:fs";
import { scoredResultCategories, type BfclVersion } from "../bfcl/categories.js";
import { detectVersion } from "../bfcl/data.js";
import { turnQueriesAt } from "../bfcl/inference-log.js";
import { scanLineHead } from "../bfcl/results.js";
import { OWN_KEYS_TAIL, SIMULATOR_KEY_TEXT, simulatedAnswerTurn } from "../bfcl/line-keys.js";
import { bfclVersionInfo } from "../bfcl/versions.js";
import { problem, type Problem } from "../messages/index.js";
import { rolloutDataCheckBuilder, type DataCandidate, type RecordedItem, type RolloutDataCheck } from "../pairs/rollout-data.js";
import type { Manifest } from "../pairs/types.js";
import { loadCommittedManifest } from "./manifest.js";
import { forEachLine, readFailure, type LineVisitor } from "./results-read.js";
import type { TreeModel } from "./tree.js";

/**
 * The turns BFCL recorded on every line of a model's base, miss_func and miss_param
 * result files (each id once, the first line wins). Lines that cannot be read are left
 * to the scorer, which reports them; a file that cannot be read is one problem.
 */
export function readRecordedTurns(model: TreeModel): { items: RecordedItem[]; problems: Problem[] } {
  const items: RecordedItem[] = [];
  const problems = forEachRecordedItem(model, (item) => void items.push(item));
  return { items, problems };
}

/**
 * A line visitor handing `onItem` the recorded turns of each id's first line, for a
 * reader that goes through a model's files in the order `readRecordedTurns` does
 * (categories in order, each category's files in order): the scorer runs the data check
 * in its own pass over the files with it.
 */
export function recordedTurnsVisitor(onItem: (item: RecordedItem) => void): LineVisitor {
  const seen = new Set<string>();
  return (id, bytes, start, end, head) => {
    if (seen.has(id)) return;
    seen.add(id);
    const turns = turnQueriesAt(bytes, start, end, head);
    const answerTurn = turns === null ? null : simulatedAnswerTurn(bytes, start, end, simulatorKeyAt(bytes, start, end));
    onItem({ id, turns: answerTurn === null ? turns : turns!.slice(0, answerTurn) });
  };
}

const SIMULATOR_KEY = Buffer.from(SIMULATOR_KEY_TEXT);

/**
 * Where the simulator's key starts in the line's tail (-1: nowhere), by a native search of
 * the bytes: decoding every line's tail to search it as text made a few kB of garbage a line.
 */
function simulatorKeyAt(bytes: Uint8Array, start: number, end: number): number {
  const from = Math.max(start, end - OWN_KEYS_TAIL);
  const at = Buffer.from(bytes.buffer, bytes.byteOffset + from, end - from).lastIndexOf(SIMULATOR_KEY);
  return at < 0 ? -1 : from + at;
}

/** Call `onItem` with the recorded turns of every line, in the order `readRecordedTurns` lists them; the problems met. */
function forEachRecordedItem(model: TreeModel, onItem: (item: RecordedItem) => void): Problem[] {
  const visit = recordedTurnsVisitor(onItem);
  const problems: Problem[] = [];
  for (const category of scoredResultCategories) {
    for (const file of model.files[category] ?? []) {
      try {
        forEachLine(file.path, (bytes, start, end) => {
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
export function checkRecordedTurns(model: TreeModel, candidates: readonly DataCandidate[]): RolloutDataCheck {
  const check = rolloutDataCheckBuilder(candidates, "all");
  forEachRecordedItem(model, (item) => check.add(item));
  return check.result();
}

/** Manifests by BFCL version, read when first asked for (each is most of a megabyte of JSON to validate). */
export interface ManifestSource {
  /** The manifest of a version, or null when there is none. */
  get(version: BfclVersion): Manifest | null;
  /** Every version's manifest there is, in version order. */
  all(): Map<BfclVersion, Manifest>;
}

/** The package's manifests (`data/manifest*.json`), each read once when first needed; a missing or invalid file counts as none. */
export function committedManifestSource(): ManifestSource {
  const cache = new Map<BfclVersion, Manifest | null>();
  const get = (version: BfclVersion): Manifest | null => {
    if (!cache.has(version)) {
      const loaded = loadCommittedManifest(version);
      cache.set(version, loaded.ok ? loaded.value : null);
    }
    return cache.get(version)!;
  };
  const all = () => {
    const out = new Map<BfclVersion, Manifest>();
    for (const { version } of Object.values(bfclVersionInfo)) {
      const m = get(version);
      if (m !== null) out.set(version, m);
    }
    return out;
  };
  return { get, all };
}

/** Every manifest the package ships, by version. */
export function committedManifests(): Map<BfclVersion, Manifest> {
  return committedManifestSource().all();
}

/** The BFCL version of a data folder, from its file names; null when it is not one. */
export function dataFolderVersion(dir: string): BfclVersion | null {
  try {
    const found = detectVersion(dir, readdirSync(dir));
    return found.ok ? found.value : null;
  } catch {
    return null;
  }
}
