/**
 * Writing the demo's synthetic runs as real BFCL result trees
 * (`DIR/<policy>/multi_turn/BFCL_v4_multi_turn_<category>_result.json`), so the demo
 * reads them back through exactly the discovery and reading code of `score`.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bfclFileName, scoredResultCategories, type ScoredResultCategory } from "../bfcl/categories.js";
import { err, ok, problem, type Result } from "../messages/index.js";
import { nodeFileSystem, type FileSystem } from "./file-system.js";

/** The folder for the demo's runs: `keep` (made if need be), or a fresh temporary one. */
export function makeDemoDir(keep: string | null, fs: FileSystem = nodeFileSystem): Result<string> {
  try {
    if (keep === null) return ok(fs.makeTempFolder("twinscore-demo-"));
    fs.makeFolder(keep);
    return ok(keep);
  } catch (e) {
    return err(
      problem("write-failed", `cannot make a folder for the runs: ${e instanceof Error ? e.message : String(e)}`, {
        file: keep ?? tmpdir(),
      }),
    );
  }
}

/** Remove a folder made by `makeDemoDir` (best effort). */
export function removeDemoDir(dir: string, fs: FileSystem = nodeFileSystem): void {
  fs.remove(dir);
}

/** Write one policy's files (each category's file text) under `dir/<policy>/multi_turn/`. */
export function writeDemoRun(
  dir: string,
  policy: string,
  files: Readonly<Record<ScoredResultCategory, string>>,
  fs: FileSystem = nodeFileSystem,
): Result<string> {
  const target = join(dir, policy, "multi_turn");
  try {
    fs.makeFolder(target);
    for (const category of scoredResultCategories) {
      fs.writeFile(join(target, bfclFileName("v4", category, "result")), files[category]);
    }
    return ok(target);
  } catch (e) {
    return err(problem("write-failed", `cannot write demo run: ${e instanceof Error ? e.message : String(e)}`, { file: target }));
  }
}
