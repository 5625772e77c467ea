/**
 * Tests that run the built package (the bin, the packed library) need a `dist/` built from
 * the current sources: a stale build would test yesterday's code and pass or fail for the
 * wrong reason. They call this first and stop with the command that fixes it.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "./shared.js";

/** The newest modification time of the sources the build compiles (tests and test helpers left out). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== "testing") newest = Math.max(newest, newestSource(p));
    } else if (p.endsWith(".ts") && !p.endsWith(".test.ts")) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** Throw unless `dist/<built>` exists and is newer than every source under `src/`. */
export function requireFreshBuild(built: string): void {
  const file = join(projectRoot, "dist", built);
  if (!existsSync(file) || statSync(file).mtimeMs < newestSource(join(projectRoot, "src"))) {
    throw new Error("dist/ is missing or older than src/: run `npm run build` (npm ci does) before this test");
  }
}
