/**
 * The CLI run in the test's own process, on writable copies of the real runs: the commands
 * of the tests of bad input and faults, where the process boundary is not what is tested,
 * so a test pays for the command's work and not for a Node start-up per call.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryIo } from "../cli/io.js";
import { runCli } from "../cli/program.js";

/** BFCL v4's multi-turn categories of a twin pair. */
export const TWIN_CATEGORIES = ["base", "miss_func", "miss_param"] as const;
export const resultName = (category: string) => `BFCL_v4_multi_turn_${category}_result.json`;
export const scoreName = (category: string) => `BFCL_v4_multi_turn_${category}_score.json`;

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** One command line through the program, as `twinscore <argv>` in `cwd`, its stdout and stderr captured. */
export async function runCliCaptured(argv: string[], cwd: string): Promise<CliResult> {
  const io = memoryIo({}, cwd);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(""), err: io.err.join("") };
}

/** `score … --bootstrap 0 --format json`, its document parsed (null when nothing was printed). */
export async function scoreJson(argv: string[], cwd: string) {
  const r = await runCliCaptured(["score", ...argv, "--bootstrap", "0", "--format", "json"], cwd);
  return { ...r, doc: r.out === "" ? null : JSON.parse(r.out) };
}

/**
 * A writable copy of some models of a real run, as `<dest>/result/<model>/multi_turn/…`
 * (and `<dest>/score/…` with `scores`); returns `dest`.
 */
export function copyRun(from: string, dest: string, models: readonly string[], opts: { scores?: boolean } = {}): string {
  for (const model of models) {
    for (const c of TWIN_CATEGORIES) {
      const r = join(dest, "result", model, "multi_turn");
      mkdirSync(r, { recursive: true });
      writeFileSync(join(r, resultName(c)), readFileSync(join(from, "result", model, "multi_turn", resultName(c))));
      if (opts.scores) {
        const s = join(dest, "score", model, "multi_turn");
        mkdirSync(s, { recursive: true });
        writeFileSync(join(s, scoreName(c)), readFileSync(join(from, "score", model, "multi_turn", scoreName(c))));
      }
    }
  }
  return dest;
}

/**
 * A temporary folder for one test file: `fresh(name)` names a new sub-folder in it (not
 * created), and `remove()` (for `afterAll`) deletes it all.
 */
export function scratchFolder(prefix: string): { dir: string; fresh: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let n = 0;
  return { dir, fresh: (name) => join(dir, `${++n}-${name}`), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
