/**
 * The file side of `twinscore check`: find result files, read the BFCL data they need,
 * run the pure checker (`simulator/run-check.ts`) in one evaluator process (like one
 * `bfcl evaluate` run), write BFCL-format score files, and compare with stored ones.
 *
 * Layout: every `BFCL_v{3,4}_multi_turn_<category>_result.json` below `--results`.
 * The model name (BFCL's `model_name`, used in instance names and score lines) is the
 * folder holding the file, or the folder above a `multi_turn/` group folder. Score files
 * go to `<out>/<model>/<group>/…_score.json` as BFCL writes them; stored ones are looked
 * up the same way under `--scores` (a BFCL score root).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import type { MultiTurnCategory } from "../bfcl/data.js";
import type { DecodeHealth, DecoderChoiceSummary, DecoderName } from "../bfcl/decode/index.js";
import { err, ok, problem, type Problem, type Result } from "../messages/index.js";
import type { EmptyTurnReading } from "../simulator/irrelevance.js";
import type { Agreement } from "../simulator/scorefile.js";
import { CheckJobCache, failedJob, runCheckJob, type CheckedFileData, type CheckJob, type CheckJobSettings } from "./check-job.js";
import { runJobs, type JobWorker } from "./worker-pool.js";
import { findLongContextModule, readLongContext } from "./long-context.js";

const RESULT_FILE = /^BFCL_(v3|v4)_multi_turn_(base|miss_func|miss_param|long_context)_result\.json$/;
const GROUP_DIRS = new Set(["multi_turn", "non_live", "live", "agentic", "format_sensitivity"]);

/** One result file found under `--results`. */
export interface FoundResultFile {
  readonly path: string;
  /** Path relative to the results folder. */
  readonly relative: string;
  readonly model: string;
  /** The model's folder (one evaluator process per model folder, like one BFCL evaluation). */
  readonly modelDir: string;
  /** `<model>/<group>/BFCL_vN_<category>_score.json`: where BFCL would write the score file. */
  readonly scoreRelative: string;
  readonly version: "v3" | "v4";
  readonly category: MultiTurnCategory;
}

/**
 * Where a model folder's score files go, relative to `--out` (and are looked up under
 * `--scores`): the model name when `--results` is a result root or the model folder
 * itself (BFCL's `score/<model>/…`); in a deeper tree (several runs,
 * `<run>/result/<model>/…`) the path from `--results` with its `result` folder named
 * `score`, so runs with the same model names do not overwrite each other and a tree of
 * BFCL project roots finds its stored score files.
 */
function scoreFolderOf(resultsDir: string, modelDir: string): string {
  const rel = relative(resultsDir, modelDir);
  if (rel === "" || !rel.includes(sep)) return basename(modelDir);
  return rel
    .split(sep)
    .map((part, i, all) => (part === "result" && i < all.length - 1 ? "score" : part))
    .join(sep);
}

/**
 * Find every multi-turn result file below `dir`, sorted by path. The model is the
 * folder holding the file, or the one above when that folder is a BFCL group folder
 * (`multi_turn`, …) — so a tree of several runs (`run/result/<model>/multi_turn/…`)
 * names each model correctly.
 */
export function findResultFiles(dir: string): FoundResultFile[] {
  const out: FoundResultFile[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const m = RESULT_FILE.exec(name);
        if (!m) continue;
        const parent = dirname(p);
        const modelDir = GROUP_DIRS.has(basename(parent)) ? dirname(parent) : parent;
        out.push({
          path: p,
          relative: relative(dir, p),
          model: basename(modelDir),
          modelDir,
          scoreRelative: join(scoreFolderOf(dir, modelDir), relative(modelDir, p).replace(/_result\.json$/, "_score.json")),
          version: m[1] as "v3" | "v4",
          category: m[2] as MultiTurnCategory,
        });
      }
    }
  };
  walk(dir);
  return out;
}

/** What `check` asks for. */
export interface CheckRunRequest {
  readonly resultsDir: string;
  readonly bfclDataDir: string;
  readonly scoresDir?: string;
  readonly outDir?: string;
  /** A bfcl_eval folder (or checkout) holding long_context.py; else found beside the data or via python3. */
  readonly bfclEvalDir?: string;
  /** `--decoder`: one decoder for every model folder; absent, each folder's is chosen (BFCL's registry, else detected). */
  readonly decoder?: DecoderName | null;
  /** Also score the turns whose reference is empty: BFCL's irrelevance checker (`strict`) or the world-changing reading. */
  readonly emptyTurns?: EmptyTurnReading;
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
}

/** The outcome for one result file. */
export interface CheckedFile {
  readonly file: string;
  readonly model: string;
  /** The model's folder relative to `--results` (just the model name unless `--results` holds several runs). */
  readonly folder: string;
  readonly category: MultiTurnCategory;
  readonly entries: number;
  readonly correct: number;
  readonly accuracy: number;
  /** Where the score file was written, if `--out` was given. */
  readonly written: string | null;
  /** Agreement with the stored score file, if `--scores` was given and it exists. */
  readonly agreement: Agreement | null;
  /** Stored score file path compared against. */
  readonly storedScoreFile: string | null;
  /** The model folder's decoder and why it was chosen. */
  readonly decoder: DecoderChoiceSummary;
  /** How the file's steps decoded: tool-looking steps and how many of them failed. */
  readonly decodeHealth: DecodeHealth;
}

/** The whole run. */
export interface CheckRunReport {
  readonly files: CheckedFile[];
  /** Problems that skipped a file (missing data, missing long_context module …). */
  readonly problems: Problem[];
}

/** `check-worker.js` beside this module (only in the built `dist/`, where workers can run). */
// node:worker_threads is loaded only when a second thread is asked for (it costs a one-thread run about 6 ms to load)
const spawnCheckWorker = (settings: CheckJobSettings) => (): JobWorker<CheckJob, Result<CheckedFileData>[]> => {
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
  return new Worker(new URL("./check-worker.js", import.meta.url), { workerData: settings });
};

/**
 * Run the checker over every result file below `resultsDir`: one job per model folder,
 * spread over `threads` threads — each model folder is one evaluator process, so the
 * output does not depend on the thread count. One thread by default: on the 2-core
 * machine this was measured on, a second thread made runs of 2 and 4 model folders
 * slower (each thread loads the data and warms up the checker on its own; bench/RESULTS.md).
 */
export async function runCheck(req: CheckRunRequest, threads = 1): Promise<Result<CheckRunReport>> {
  const resultsDir = resolve(req.cwd, req.resultsDir);
  if (!existsSync(resultsDir) || !statSync(resultsDir).isDirectory()) {
    return err(problem("results-missing", "results directory not found", { file: resultsDir }));
  }
  const found = findResultFiles(resultsDir);
  if (found.length === 0) return err(problem("results-missing", "no BFCL_v{3,4}_multi_turn_*_result.json files below the results directory", { file: resultsDir }));
  const dataDir = resolve(req.cwd, req.bfclDataDir);
  const problems: Problem[] = [];
  let longContextModule: string | null = null;
  const cache = new CheckJobCache(); // this thread's: the data read here serves its jobs
  if (found.some((f) => f.category === "long_context")) {
    const module = findLongContextModule({ flag: req.bfclEvalDir, env: req.env, cwd: req.cwd, dataDir });
    if (module === null) {
      problems.push(problem("long-context-missing", "long_context result files need BFCL's long_context.py: pass --bfcl-eval DIR (the bfcl_eval folder) or set BFCL_EVAL_DIR", { severity: "error" }));
    } else {
      // read once here so a bad module is one problem, not one per file
      const read = readLongContext(module);
      if (read.ok) {
        longContextModule = module;
        cache.filler = read;
      } else problems.push(...read.problems);
    }
  }
  // one job (one evaluator process) per model folder; files are sorted by path, so a folder's files are adjacent
  const groups: FoundResultFile[][] = [];
  for (const f of found) {
    if (f.category === "long_context" && longContextModule === null) continue;
    const last = groups[groups.length - 1];
    if (last && last[0].modelDir === f.modelDir) last.push(f);
    else groups.push([f]);
  }
  const jobs: CheckJob[] = groups.map((g) => ({
    model: g[0].model,
    files: g.map((f) => ({ path: f.path, version: f.version, category: f.category, scoreRelative: f.scoreRelative })),
  }));
  const settings: CheckJobSettings = {
    dataDir,
    longContextModule,
    decoder: req.decoder ?? null,
    emptyTurns: req.emptyTurns ?? null,
    outDir: req.outDir === undefined ? null : resolve(req.cwd, req.outDir),
    scoresDir: req.scoresDir === undefined ? null : resolve(req.cwd, req.scoresDir),
  };
  const outcomes = await runJobs(
    jobs,
    {
      threads,
      spawn: import.meta.url.endsWith(".js") ? spawnCheckWorker(settings) : null,
      inline: (job) => runCheckJob(job, settings, cache),
      failed: failedJob,
    },
  );
  const files: CheckedFile[] = [];
  const reported = new Set<string>();
  groups.forEach((group, gi) => {
    outcomes[gi].forEach((checked, fi) => {
      const f = group[fi];
      if (!checked.ok) {
        // a category's missing data is one problem, however many files need it
        for (const p of checked.problems) {
          const key = `${p.code}\u0000${p.file ?? ""}\u0000${p.line ?? ""}\u0000${p.message}`;
          if (!reported.has(key)) problems.push(p);
          reported.add(key);
        }
        return;
      }
      const c = checked.value;
      problems.push(...c.problems);
      files.push({
        file: f.path,
        model: f.model,
        folder: relative(resultsDir, f.modelDir) || f.model,
        category: f.category,
        entries: c.total,
        correct: c.correct,
        accuracy: c.total === 0 ? 0 : c.correct / c.total,
        written: c.written,
        agreement: c.agreement,
        storedScoreFile: c.storedScoreFile,
        decoder: c.decoder,
        decodeHealth: c.decodeHealth,
      });
    });
  });
  return ok({ files, problems });
}
