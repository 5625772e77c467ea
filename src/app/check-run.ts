/**
 * The run of `twinscore check`: find result files (the one walk), choose each model folder's decoder as the
 * pipeline does, and run one job per folder (`check-job.ts`), on worker threads when given a spawner. Score
 * files go where BFCL writes them. More in this folder's README.md.
 */
import { bfclFileName, multiTurnCategories, type BfclVersion, type MultiTurnCategory } from "../bfcl/categories.js";
import { decoderByName, type DecodeHealth, type DecoderChoiceSummary, type DecoderName } from "../bfcl/decode/index.js";
import { pushAll, err, errAll, ok, problem, type Problem, type Result } from "../messages/index.js";
import type { EmptyTurnReading } from "../simulator/irrelevance.js";
import type { Agreement } from "../simulator/agreement.js";
import { countReadings, type EmptyTurnCounts } from "../official/empty-turns.js";
import { CheckJobCache, failedJob, runCheckJob, type CheckedFileData, type CheckJob, type CheckJobSettings } from "./check-job.js";
import { runJobs, type JobWorker } from "../io/worker-pool.js";
import { readLongContext } from "./bfcl-inputs.js";
import { joinPath, relativePath, resolvePath } from "../io/paths.js";
import { matchingModel, resultRunsOf, type TreeModel, type TreeWalk } from "../io/tree.js";
import { nodeHost, type Host } from "../io/host.js";
import { detectionFiles } from "./pipeline.js";
import { linesOfTrial } from "./result-lines.js";

/** One result file found under `--results`. */
export interface FoundResultFile {
  readonly path: string;
  /** Path relative to the results folder. */
  readonly relative: string;
  /** The model folder's name: BFCL's `model_name`, written into the score lines. */
  readonly model: string;
  /** How the model is named in output: the folder name, or `<run>/<model>` in a tree of several runs. */
  readonly name: string;
  /** The model's folder (one evaluator process per model folder, like one BFCL evaluation). */
  readonly modelDir: string;
  /** Where BFCL would write the score file, relative to `--out` (see `scoreRelativeOf`). */
  readonly scoreRelative: string;
  readonly version: BfclVersion;
  readonly category: MultiTurnCategory;
  /** The model as the walk found it (to look up its stored score files). */
  readonly found: TreeModel;
}

/**
 * Where a result file's score file goes, relative to `--out`: BFCL's own
 * `<model>/<group>/BFCL_vN_multi_turn_<category>_score.json` for one run; in a tree of
 * several runs `<run>/score/<model>/…` (the run's folder relative to `--results`), so
 * runs with the same model names do not overwrite each other.
 */
function scoreRelativeOf(
  m: TreeModel,
  given: string,
  runs: number,
  inModel: string,
  version: BfclVersion,
  category: MultiTurnCategory,
): string {
  const file = joinPath(inModel.includes("/") ? inModel.slice(0, inModel.lastIndexOf("/")) : "", bfclFileName(version, category, "score"));
  if (runs <= 1) return joinPath(m.model, file);
  const runRel = relativePath(given, m.runDir);
  return joinPath(runRel === "" || runRel.startsWith("..") ? m.run : runRel, "score", m.model, file);
}

/**
 * Find every multi-turn result file below `dir` (the one walk, `tree.ts`), in path order
 * per model. Problems: the folder missing, not a folder, holding no result file, or a
 * non-regular file named like one.
 */
export function findResultFiles(
  dir: string,
  walked?: TreeWalk,
  host: Host = nodeHost(),
): { files: FoundResultFile[]; problems: Problem[]; runs: number } {
  const walk = walked ?? host.walkBfclTree([dir], "/", "result");
  const files: FoundResultFile[] = [];
  for (const m of walk.models) {
    const own: FoundResultFile[] = [];
    for (const category of multiTurnCategories) {
      for (const f of m.files[category] ?? []) {
        own.push({
          path: f.path,
          relative: relativePath(dir, f.path),
          model: m.model,
          name: m.name,
          modelDir: m.dir,
          scoreRelative: scoreRelativeOf(m, m.given, walk.runs, f.inModel, f.version, category),
          version: f.version,
          category,
          found: m,
        });
      }
    }
    pushAll(
      files,
      own.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    );
  }
  return { files, problems: walk.problems, runs: walk.runs };
}

/** What `check` asks for. */
export interface CheckRunRequest {
  /** The walk of `resultsDir` when the command has made it already, so the tree is walked once. */
  readonly walked?: TreeWalk;
  readonly resultsDir: string;
  readonly bfclDataDir: string;
  readonly scoresDir?: string;
  /** The walk of the score trees when the command has made it (`--scores`, or the `score/` folders beside `result/`); overrides `scoresDir`. */
  readonly scoresWalked?: TreeWalk | null;
  readonly outDir?: string;
  /** A bfcl_eval folder (or checkout) holding long_context.py; else found beside the data or via python3. */
  readonly bfclEvalDir?: string;
  /** `--decoder`: one decoder for every model folder; absent, each folder's is chosen (BFCL's registry, else detected). */
  readonly decoder?: DecoderName | null;
  /** The BFCL release to emulate for every file (its data files, executor, runner, score files); else each file's name says. */
  readonly bfclVersion?: BfclVersion;
  /** Also score the turns whose reference is empty: BFCL's irrelevance checker (`strict`) or the world-changing reading. */
  readonly emptyTurns?: EmptyTurnReading;
  /** Only the model folders of these names (folder name or `<run>/<model>`); absent, every one found. */
  readonly models?: readonly string[];
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
  /** The files the check reads and writes (default: node's, `nodeHost()`). */
  readonly host?: Host;
}

/** The outcome for one result file. */
export interface CheckedFile {
  readonly file: string;
  readonly model: string;
  /** How the model is named: its folder's name, or `<run>/<model>` when `--results` holds several runs. */
  readonly folder: string;
  readonly category: MultiTurnCategory;
  /** The BFCL release emulated for this file. */
  readonly version: BfclVersion;
  readonly entries: number;
  readonly correct: number;
  readonly accuracy: number;
  /** With the empty-reference turns scored: the passing entries under BFCL's checker, the strict and the world-changing reading. */
  readonly emptyTurns: EmptyTurnCounts["correct"] | null;
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
  /** In a folder of `run --trials K`: the trial whose lines these are (each trial's lines are checked as a file of their own, `folder` named `trial-<t>/<model>`). */
  readonly trial?: number;
}

/** The whole run. */
export interface CheckRunReport {
  readonly files: CheckedFile[];
  /** Problems that skipped a file (missing data, missing long_context module …). */
  readonly problems: Problem[];
}

/**
 * What `check` says when no long_context.py was found. long_context is not one of the
 * scored categories, so without a module its files are skipped, said in one warning,
 * and the other categories are checked; it is an error when a folder given with
 * `--bfcl-eval` lacks the module, or when long_context files are all there is to check.
 */
function longContextMissing(found: readonly FoundResultFile[], flag: string | undefined): Problem {
  const files = found.filter((f) => f.category === "long_context");
  const where = files.length === 1 ? { file: files[0].path } : {};
  if (flag !== undefined)
    return problem(
      "long-context-missing",
      `--bfcl-eval ${flag} holds no long_context.py (give the bfcl_eval package folder, or a checkout holding it)`,
      where,
    );
  const how = "BFCL's long_context.py: pass --bfcl-eval DIR (the bfcl_eval folder) or set BFCL_EVAL_DIR";
  if (files.length === found.length) return problem("long-context-missing", `long_context result files need ${how}`, where);
  const n = files.length === 1 ? "1 long_context result file" : `${files.length} long_context result files`;
  return problem(
    "long-context-skipped",
    `${n} not checked (long_context is optional; checking it needs ${how}); the other categories are checked`,
    { ...where, severity: "warning" },
  );
}

/**
 * Starts one worker thread running `runCheckJob` with the run's settings (the CLI's
 * `cli/check-worker.ts`); without one every job runs here. A worker reads node's files,
 * so it is started only for a run on the node host: any other host's jobs run here.
 */
export type CheckWorkerSpawner = (settings: CheckJobSettings) => JobWorker<CheckJob, Result<CheckedFileData>[]>;

/**
 * Run the checker over every result file below `resultsDir`: one job per model folder, spread over `threads`
 * threads, so the output does not depend on the thread count. One thread by default: on 2 cores a second thread
 * made runs slower (bench/RESULTS.md). More in this folder's README.md.
 */
export async function runCheck(
  req: CheckRunRequest,
  threads = 1,
  spawnWorker: CheckWorkerSpawner | null = null,
): Promise<Result<CheckRunReport>> {
  const host = req.host ?? nodeHost();
  const resultsDir = resolvePath(req.cwd, req.resultsDir);
  const walked = findResultFiles(resultsDir, req.walked, host);
  const { problems: walkProblems } = walked;
  const resultRuns = resultRunsOf(walked.files.map((f) => f.found));
  const found =
    req.models === undefined ? walked.files : walked.files.filter((f) => req.models!.includes(f.name) || req.models!.includes(f.model));
  if (found.length === 0) return errAll(walkProblems);
  const dataDir = resolvePath(req.cwd, req.bfclDataDir);
  const problems: Problem[] = [...walkProblems];
  const scoresDir = req.scoresDir === undefined ? null : resolvePath(req.cwd, req.scoresDir);
  const stored =
    req.scoresWalked !== undefined ? req.scoresWalked : scoresDir === null ? null : host.walkBfclTree([scoresDir], "/", "score");
  if (stored !== null) pushAll(problems, stored.problems);
  /** The stored score file of a result file: same model (and run), category and version. */
  const storedScoreOf: StoredScoreOf = (f) => {
    if (stored === null) return null;
    const m = matchingModel(f.found, resultRuns, stored.models);
    return m?.files[f.category]?.find((s) => s.version === f.version)?.path ?? null;
  };
  const cache = new CheckJobCache(host); // this thread's: the data read here serves its jobs
  const longContextModule = longContextOf(found, req, dataDir, cache, problems);
  const groups = modelGroups(found, longContextModule);
  const clash = outClash(req, host, groups, storedScoreOf);
  if (clash !== null) return errAll(clash);
  const { jobs, checkedGroups } = jobsOf(groups, req, host, storedScoreOf, problems);
  const settings: CheckJobSettings = {
    dataDir,
    longContextModule,
    emptyTurns: req.emptyTurns ?? null,
    outDir: req.outDir === undefined ? null : resolvePath(req.cwd, req.outDir),
    compareStored: stored !== null,
  };
  const outcomes = await runJobs(jobs, {
    threads,
    spawn: spawnWorker === null || host !== nodeHost() ? null : () => spawnWorker(settings),
    inline: (job) => runCheckJob(job, settings, cache),
    failed: failedJob,
  });
  const files = checkedFilesOf(checkedGroups, outcomes, req, problems);
  return ok({ files, problems });
}

/** The stored score file of a result file: same model (and run), category and version. */
type StoredScoreOf = (f: FoundResultFile) => string | null;

/** A model folder's files checked together, as one trial of a `run --trials K` folder or whole (trial null). */
interface CheckedGroup {
  readonly files: FoundResultFile[];
  readonly trial: number | null;
}

/** BFCL's long_context.py, read into the cache, when long_context files are checked; null when none are or it is missing or bad (reported). */
function longContextOf(
  found: readonly FoundResultFile[],
  req: CheckRunRequest,
  dataDir: string,
  cache: CheckJobCache,
  problems: Problem[],
): string | null {
  if (!found.some((f) => f.category === "long_context")) return null;
  const module = cache.host.findLongContextModule({ flag: req.bfclEvalDir, env: req.env, cwd: req.cwd, dataDir });
  if (module === null) {
    problems.push(longContextMissing(found, req.bfclEvalDir));
    return null;
  }
  // read once here so a bad module is one problem, not one per file
  const read = readLongContext(module, cache.host);
  if (!read.ok) {
    pushAll(problems, read.problems);
    return null;
  }
  cache.filler = read;
  return module;
}

/** One job (one evaluator process) per model folder; files are sorted by path, so a folder's files are adjacent. */
function modelGroups(found: readonly FoundResultFile[], longContextModule: string | null): FoundResultFile[][] {
  const groups: FoundResultFile[][] = [];
  for (const f of found) {
    if (f.category === "long_context" && longContextModule === null) continue;
    const last = groups[groups.length - 1];
    if (last && last[0].modelDir === f.modelDir) last.push(f);
    else groups.push([f]);
  }
  return groups;
}

/** --out must not write a score file over a file this run reads (a stored score file, say): the problems of the first clash, or null. */
function outClash(
  req: CheckRunRequest,
  host: Host,
  groups: readonly FoundResultFile[][],
  storedScoreOf: StoredScoreOf,
): readonly Problem[] | null {
  if (req.outDir === undefined) return null;
  const outDir = resolvePath(req.cwd, req.outDir);
  for (const g of groups) {
    for (const f of g) {
      const clash = host.overwritesInput(
        joinPath(outDir, f.scoreRelative),
        [f.path, ...(storedScoreOf(f) === null ? [] : [storedScoreOf(f)!])],
        "--out",
      );
      if (clash !== null && !clash.ok) return clash.problems;
    }
  }
  return null;
}

/** The jobs of the model folders, and the group of files each job checks (in the same order). */
function jobsOf(
  groups: readonly FoundResultFile[][],
  req: CheckRunRequest,
  host: Host,
  storedScoreOf: StoredScoreOf,
  problems: Problem[],
): { jobs: CheckJob[]; checkedGroups: CheckedGroup[] } {
  // each model folder's decoder as `score` chooses it: --decoder, the registry of the version checked, else the head of
  // its files, which the job samples from the bytes it reads (so no result file is opened again for its head)
  const jobs: CheckJob[] = [];
  const checkedGroups: CheckedGroup[] = [];
  for (const g of groups) {
    if (req.decoder !== undefined && req.decoder !== null && decoderByName(req.decoder) === undefined) {
      problems.push(problem("decoder-unknown", `unknown decoder ${req.decoder}`));
      continue;
    }
    const found = g[0].found;
    const job: CheckJob = {
      model: g[0].model,
      decoder: {
        folder: { folder: found.model, dir: found.dir, detectionFiles: detectionFiles(found) },
        override: req.decoder ?? null,
        version: req.bfclVersion ?? g[0].version,
      },
      files: g.map((f) => ({
        path: f.path,
        version: req.bfclVersion ?? f.version,
        category: f.category,
        scoreRelative: f.scoreRelative,
        storedScore: storedScoreOf(f),
      })),
    };
    const trials = host.readRunRecord(found.dir).record?.settings.trials ?? 1;
    if (trials <= 1) {
      checkedGroups.push({ files: g, trial: null });
      jobs.push(job);
      continue;
    }
    // a folder of `run --trials K`: each trial's lines are checked as a file of their own (BFCL's checker reads an id once), each file read once
    const bytes = job.files.map((f) => bytesOrUndefined(f.path, host));
    for (let t = 0; t < trials; t++) {
      checkedGroups.push({ files: g, trial: t });
      jobs.push({
        ...job,
        files: job.files.map((f, i) => ({
          ...f,
          scoreRelative: joinPath(`trial-${t}`, f.scoreRelative),
          ...(bytes[i] === undefined ? {} : { bytes: linesOfTrial(bytes[i]!, t) }),
        })),
      });
    }
  }
  return { jobs, checkedGroups };
}

/** The checked files, in job order, their problems added to `problems` (a problem that stopped several files once). */
function checkedFilesOf(
  checkedGroups: readonly CheckedGroup[],
  outcomes: readonly Result<CheckedFileData>[][],
  req: CheckRunRequest,
  problems: Problem[],
): CheckedFile[] {
  const files: CheckedFile[] = [];
  const reported = new Set<string>();
  checkedGroups.forEach(({ files: group, trial }, gi) => {
    outcomes[gi].forEach((result, fi) => {
      const f = group[fi];
      const checked = trial === null ? result : inTrial(result, trial);
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
      pushAll(problems, c.problems);
      files.push({
        file: f.path,
        model: f.model,
        folder: trial === null ? f.name : `trial-${trial}/${f.name}`,
        ...(trial === null ? {} : { trial }),
        category: f.category,
        version: req.bfclVersion ?? f.version,
        entries: c.total,
        correct: c.correct,
        accuracy: c.total === 0 ? 0 : c.correct / c.total,
        emptyTurns: c.readings === null ? null : countReadings(f.name, f.category, c.readings).correct,
        written: c.written,
        agreement: c.agreement,
        storedScoreFile: c.storedScoreFile,
        decoder: c.decoder,
        decodeHealth: c.decodeHealth,
      });
    });
  });
  return files;
}

/** A file's bytes, or undefined when it cannot be read (the job that reads it then says why). */
function bytesOrUndefined(path: string, host: Host): Uint8Array | undefined {
  try {
    return host.readFileBytes(path);
  } catch {
    return undefined;
  }
}

/**
 * The outcome of one trial's lines of a file, its problems naming the trial: a line number
 * there counts that trial's lines, so it is said in the message rather than as the file's line.
 */
function inTrial<T extends { problems: Problem[] }>(r: Result<T>, trial: number): Result<T> {
  const named = (p: Problem): Problem => {
    const { line, ...rest } = p;
    return { ...rest, message: `trial ${trial}${line === undefined ? "" : ` (its line ${line})`}: ${p.message}` };
  };
  return r.ok ? ok({ ...r.value, problems: r.value.problems.map(named) }) : errAll(r.problems.map(named));
}
