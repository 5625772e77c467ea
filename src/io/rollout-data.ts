/**
 * The file side of checking rollouts against their data: the first user turn BFCL
 * recorded in each line of a model's result files, and the package's manifests of every
 * BFCL version to compare them with. The comparison itself is `src/pairs/rollout-data.ts`.
 */
import { readdirSync } from "node:fs";
import { scoredResultCategories, type BfclVersion } from "../bfcl/categories.js";
import { detectVersion } from "../bfcl/data.js";
import { scanTurnQueries } from "../bfcl/inference-log.js";
import { scanLineHead } from "../bfcl/results.js";
import { bfclVersionInfo } from "../bfcl/versions.js";
import { problem, type Problem } from "../messages/index.js";
import type { RecordedItem } from "../pairs/rollout-data.js";
import type { Manifest } from "../pairs/types.js";
import { committedManifestPath, loadManifest } from "./manifest.js";
import { forEachLine, readFailure } from "./results-read.js";
import type { TreeModel } from "./tree.js";

/**
 * The first turn BFCL recorded on every line of a model's base, miss_func and miss_param
 * result files (each id once, the first line wins). Lines that cannot be read are left
 * to the scorer, which reports them; a file that cannot be read is one problem.
 */
export function readRecordedFirstTurns(model: TreeModel): { items: RecordedItem[]; problems: Problem[] } {
  const items: RecordedItem[] = [];
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const category of scoredResultCategories) {
    for (const file of model.files[category] ?? []) {
      try {
        forEachLine(file.path, (bytes, start, end) => {
          const head = scanLineHead(bytes, start, end, true);
          if ("error" in head || seen.has(head.id)) return;
          seen.add(head.id);
          items.push({ id: head.id, turns: scanTurnQueries(bytes, start, end, 1) });
        });
      } catch (e) {
        problems.push(problem("file-unreadable", `cannot read result file (${readFailure(e)})`, { file: file.path }));
      }
    }
  }
  return { items, problems };
}

/** The package's manifest of each BFCL version that ships one, in version order; a version whose file is missing or invalid is left out. */
export function committedManifests(): Map<BfclVersion, Manifest> {
  const out = new Map<BfclVersion, Manifest>();
  for (const { version } of Object.values(bfclVersionInfo)) {
    const loaded = loadManifest(committedManifestPath(version));
    if (loaded.ok) out.set(version, loaded.value);
  }
  return out;
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
