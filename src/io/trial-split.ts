/**
 * A model folder of a run with K > 1 trials (`run --trials K`), laid out as K model
 * folders of one trial each in a temporary folder, so `score` reads each trial as it reads
 * any run (`score --trials-of`): every line of trial t goes, byte for byte, to trial t's
 * file of the same name, and each copy's `run.json` records one trial.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { err, ok, problem, type Result } from "../messages/index.js";
import { renderRunRecord, type RunRecord } from "../rollout/run-record.js";
import { pathExists, scanResultFile } from "./run-output.js";

/** The K one-trial folders, in trial order, and how to remove them. */
export interface SplitTrials {
  readonly folders: readonly string[];
  readonly remove: () => void;
}

/** Split a K-trial model folder (its `run.json` read as `record`) into K one-trial model folders under a new temporary folder. */
export function splitTrialFolder(modelFolder: string, record: RunRecord): Result<SplitTrials> {
  const trials = record.settings.trials;
  const source = join(modelFolder, "multi_turn");
  const names = pathExists(source) ? readdirSync(source).filter((n) => /^BFCL_.+_result\.json$/.test(n)) : [];
  const root = mkdtempSync(join(tmpdir(), "twinscore-trials-"));
  const remove = () => rmSync(root, { recursive: true, force: true });
  const model = basename(modelFolder);
  const folders = Array.from({ length: trials }, (_, t) => join(root, `trial-${t}`, model));
  const oneTrial: RunRecord = { ...record, settings: { ...record.settings, trials: 1 } };
  for (const folder of folders) {
    mkdirSync(join(folder, "multi_turn"), { recursive: true });
    writeFileSync(join(folder, "run.json"), renderRunRecord(oneTrial));
  }
  for (const name of names) {
    const path = join(source, name);
    const index = scanResultFile(path);
    const bytes = readFileSync(path);
    const parts: Buffer[][] = folders.map(() => []);
    for (const line of index.lines) {
      const trial = line.reading.kind === "result" ? line.reading.trial : undefined;
      if (trial === undefined || trial >= trials) {
        remove();
        const why =
          trial === undefined ? "has no trial index (twinscore_trial)" : `is of trial ${trial}, past the ${trials} trials run.json records`;
        return err(problem("trial-malformed", `the line ${why}, in a folder of ${trials} trials`, { file: path, line: line.lineNo }));
      }
      parts[trial].push(bytes.subarray(line.offset, line.offset + line.length));
    }
    folders.forEach((folder, t) => writeFileSync(join(folder, "multi_turn", name), Buffer.concat(parts[t])));
  }
  return ok({ folders, remove });
}

/**
 * The model folders of several trials at or just under `folder` (the folder itself, or its
 * subfolders), each with its record; and the subfolders `folder` has besides them (other
 * models of a run folder, which reading only the trials would leave out).
 */
export function trialFoldersUnder(
  folder: string,
  read: (modelFolder: string) => RunRecord | null,
): { found: { modelFolder: string; record: RunRecord }[]; others: number } {
  const candidates = [folder];
  try {
    for (const e of readdirSync(folder, { withFileTypes: true })) if (e.isDirectory()) candidates.push(join(folder, e.name));
  } catch {
    return { found: [], others: 0 };
  }
  const found = candidates.flatMap((modelFolder) => {
    const record = pathExists(join(modelFolder, "run.json")) ? read(modelFolder) : null;
    return record !== null && record.settings.trials > 1 ? [{ modelFolder, record }] : [];
  });
  const inside = found.length === 1 && found[0].modelFolder === folder;
  return { found, others: inside ? 0 : candidates.length - 1 - found.length };
}
