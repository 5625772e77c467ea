/**
 * Reading BFCL score files from disk for the official-score companion (`--scores DIR`),
 * bounded in size; what they say, and whether they agree with the result files, is
 * `app/official-scores.ts`'s.
 */
import { nodeFileSystem, type FileSystem } from "./file-system.js";

/**
 * The largest score file read: a JavaScript string holds at most about 512 MiB, and a BFCL
 * score file of a few hundred lines is well under a megabyte. A larger file is reported
 * in one line instead of failing inside the read.
 */
export const MAX_SCORE_FILE_BYTES = 512 * 1024 * 1024;

/**
 * A score file's text; null when nothing regular is at `path` (missing, a folder, a FIFO);
 * the reason, when it is larger than `limit` bytes or cannot be read.
 */
export function readScoreFileText(
  path: string,
  limit = MAX_SCORE_FILE_BYTES,
  fs: FileSystem = nodeFileSystem,
): { text: string } | { reason: string } | null {
  try {
    const stat = fs.statIfAny(path);
    if (stat === undefined || !stat.isFile()) return null;
    if (stat.size > limit)
      return { reason: `a file of ${megabytes(stat.size)} MB: more than the ${megabytes(limit)} MB a score file is read up to` };
    return { text: fs.readText(path) };
  } catch (e) {
    return { reason: e instanceof Error ? e.message : String(e) };
  }
}

function megabytes(bytes: number): string {
  return String(Math.round((bytes / (1024 * 1024)) * 10) / 10);
}
