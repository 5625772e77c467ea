/**
 * `run.json` on disk: read where a model folder has one, written atomically (a reader
 * never sees half a record). The record itself is `rollout/run-record.ts`.
 */
import { dirname, join } from "node:path";
import { problem, type Problem } from "../messages/index.js";
import { parseRunRecord, renderRunRecord, RUN_RECORD_FILE, type RunRecord } from "../rollout/run-record.js";
import { readTextIfFile } from "./files.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";

/** The record of a model folder: null when it has none; a problem when it has one that cannot be read. */
export function readRunRecord(modelFolder: string, fs: FileSystem = nodeFileSystem): { record: RunRecord | null; problem: Problem | null } {
  const file = join(modelFolder, RUN_RECORD_FILE);
  if (!fs.exists(file)) return { record: null, problem: null };
  const text = readTextIfFile(file, fs);
  if (text === null)
    return { record: null, problem: problem("run-record-unreadable", "cannot read the run record (not a regular file?)", { file }) };
  const parsed = parseRunRecord(text);
  return parsed.ok
    ? { record: parsed.record, problem: null }
    : { record: null, problem: problem("run-record-malformed", `the run record cannot be read: ${parsed.why}`, { file }) };
}

/** Write the record into a model folder, atomically. */
export function writeRunRecord(modelFolder: string, record: RunRecord, fs: FileSystem = nodeFileSystem): Problem | null {
  const written = fs.writeFileAtomic(join(modelFolder, RUN_RECORD_FILE), renderRunRecord(record));
  return written.ok ? null : written.problems[0];
}

/** The record of the model folder a result file sits in (its folder, or up to two folders above: `multi_turn/`, a test-group folder), or null. */
export function runRecordAbove(resultFile: string, fs: FileSystem = nodeFileSystem): RunRecord | null {
  let dir = dirname(resultFile);
  for (let up = 0; up < 3; up++) {
    dir = dirname(dir);
    if (fs.exists(join(dir, RUN_RECORD_FILE))) return readRunRecord(dir, fs).record;
  }
  return null;
}
