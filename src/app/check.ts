/**
 * `check`, the use case: re-score BFCL multi-turn result files with twinscore's own
 * executor and checker (no Python), as `bfcl evaluate` does; write BFCL-format score
 * files when asked; and, given the stored score files, say how far the verdicts agree.
 */
import type { EmptyTurnReading } from "../simulator/irrelevance.js";
import type { BfclVersion } from "../bfcl/categories.js";
import { problem, type Problem } from "../messages/index.js";
import { emptyTurnTable, type EmptyTurnCounts, type EmptyTurnRow } from "../official/empty-turns.js";
import type { BfclDataLocation } from "../io/bfcl-data.js";
import { questionsFile } from "../bfcl/categories.js";
import { runCheck, type CheckedFile, type CheckRunRequest, type CheckWorkerSpawner } from "./check-run.js";
import { matchingModel, resultRunsOf, type TreeModel } from "../io/tree.js";
import { dataCandidate, type RolloutDataCheck } from "../pairs/rollout-data.js";
import { checkRecordedTurnsWithPrompts } from "./recorded-turns.js";
import { readScorePrompts } from "./official-scores.js";
import { resolvePath } from "../io/paths.js";
import {
  badArgument,
  contextOf,
  givenText,
  hasError,
  strictExitCode,
  type Context,
  type ExitCode,
  type RequestContext,
  type ModelsOption,
  type DecoderOption,
} from "./common.js";
import { selectModels, walkInputs, type InputWalks } from "./pipeline.js";
import { manifestsForModels } from "./data-version.js";
import { requestShapeProblems, type RequestShape } from "./request-shape.js";

export type { CheckedFile } from "./check-run.js";

/** What a library caller's check request must hold (see `request-shape.ts`); `bfclVersion` and `emptyTurns` are named values, checked where they are read. */
const checkShape: RequestShape = {
  results: { rule: "string" },
  bfclData: { rule: "string" },
  bfclEval: { rule: "string" },
  scores: { rule: "string" },
  out: { rule: "string" },
  bfclVersion: { rule: "string" },
  emptyTurns: { rule: "string" },
  threads: { rule: "number" },
  strict: { rule: "boolean" },
  beforeChecking: { rule: "function" },
};

/** What to check. */
export interface CheckRequest extends RequestContext, ModelsOption, DecoderOption {
  /** A result tree (a model folder, a result root, a run, or a folder of runs). */
  readonly results: string;
  /** BFCL data folder (else `BFCL_DATA_DIR`, else a `bfcl_eval` installation). */
  readonly bfclData?: string;
  /** `bfcl_eval` folder holding long_context.py (only for long_context files). */
  readonly bfclEval?: string;
  /** Stored BFCL score tree to compare verdicts with. */
  readonly scores?: string;
  /** Folder to write BFCL-format score files into. */
  readonly out?: string;
  /** Also score the turns whose reference is empty: BFCL's irrelevance checker (`strict`) or the world-changing reading. */
  readonly emptyTurns?: EmptyTurnReading;
  /** The BFCL release to emulate for every file (data file names, executor, classes, runner, score files); else each file's name says. */
  readonly bfclVersion?: BfclVersion;
  /** Threads in all (default 1). */
  readonly threads?: number;
  /** Starts a worker thread for `threads` > 1 on the node host (the CLI and the library entry give one); without it, or on another host, every job runs on this thread. */
  readonly spawnWorker?: CheckWorkerSpawner | null;
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
  /** Called once before the first entry is checked (the CLI tunes V8 for a short run there). */
  readonly beforeChecking?: () => void;
}

/** Per result file: entries, passes, where its score file went and the agreement with the stored one. */
export interface CheckDocument {
  readonly command: "check";
  readonly files: readonly CheckedFile[];
  /**
   * With `emptyTurns`: BFCL's score, the strict and the world-changing counterfactual per
   * category and model, each with the models' ranking under it (whichever reading the
   * written score files follow); null otherwise.
   */
  readonly emptyTurns: readonly EmptyTurnRow[] | null;
  /** With `out`: the folder the score files went into (absolute), how many were written, and of how many models. */
  readonly written: { readonly dir: string; readonly files: number; readonly models: number } | null;
  /** With no `scores`: the `score/` folders beside `result/` whose stored verdicts were compared, as score reads them (absolute). */
  readonly scoresBeside: readonly string[];
  readonly problems: readonly Problem[];
  readonly exitCode: ExitCode;
}

/** The empty-turn table of the files checked with their empty-reference turns scored (null when none was). */
function emptyTurnRowsOf(files: readonly CheckedFile[]): EmptyTurnRow[] | null {
  const counts: EmptyTurnCounts[] = files.flatMap((f) =>
    f.emptyTurns === null ? [] : [{ model: f.folder, category: f.category, entries: f.entries, correct: f.emptyTurns }],
  );
  return counts.length === 0 ? null : emptyTurnTable(counts);
}

/**
 * The one line for result files checked as one BFCL version against a data folder of
 * another (each version names its data files after itself, so every file would be
 * missing): which version the results are, and which data to give. Null when the data
 * folder is of the version checked, or is no BFCL data folder at all (its missing files
 * are then named one by one).
 */
function dataOfOtherVersion(
  models: readonly TreeModel[],
  location: BfclDataLocation,
  forced: BfclVersion | undefined,
  ctx: Context,
): Problem | null {
  const held = ctx.host.dataFolderVersion(location.dir);
  if (held === null) return null;
  const versionsOf = (m: TreeModel) => new Set(Object.values(m.files).flatMap((files) => (files ?? []).map((f) => forced ?? f.version)));
  const others = models.filter((m) => [...versionsOf(m)].some((v) => v !== held));
  if (others.length === 0) return null;
  const wanted = [...new Set(others.flatMap((m) => [...versionsOf(m)].filter((v) => v !== held)))].sort();
  const named =
    others.length <= 3
      ? others.map((m) => m.name).join(", ")
      : `${others
          .slice(0, 3)
          .map((m) => m.name)
          .join(", ")} and ${others.length - 3} more`;
  const what =
    forced !== undefined
      ? `--bfcl-version ${forced} checks the results as BFCL ${forced}`
      : `these are BFCL ${wanted.join(" and ")} results (${named})`;
  const from =
    location.origin === "--bfcl-data"
      ? "--bfcl-data"
      : location.origin === "BFCL_DATA_DIR"
        ? "BFCL_DATA_DIR"
        : "the bfcl_eval installation";
  return problem(
    "bfcl-version-differs",
    `${what}, and this BFCL data (${from}) is ${held}: give the ${wanted.join(" or ")} data with --bfcl-data DIR (the folder holding ${wanted.map((v) => questionsFile(v, "base")).join(" or ")})`,
    { file: location.dir },
  );
}

/**
 * Each model's manifest, its rollouts checked against that data first (a model generated
 * on other data stops the command before anything is checked or written): one streamed
 * pass over its files (the job's read is the second), its lines without a log compared
 * with the prompts its score files keep for failed entries, as `score` compares them.
 */
function checkedAgainstData(
  models: readonly TreeModel[],
  inputs: InputWalks,
  ctx: Context,
  version: BfclVersion | undefined,
): ReturnType<typeof manifestsForModels> {
  const choice = {
    version,
    forceHint: "check them with the BFCL data they were generated on",
    missingHint: `put it at that path (check compares each rollout's recorded user turns with it)`,
    source: ctx.host.committedManifestSource(),
  };
  const named = manifestsForModels(models, undefined, ctx, { ...choice, rollouts: "defer" });
  // stopped by the file names: every model's problems, its rollouts checked too
  if (!named.ok || hasError(named.value.problems)) return manifestsForModels(models, undefined, ctx, choice);
  const checks = new Map<string, RolloutDataCheck>();
  const runs = resultRunsOf(inputs.results.models);
  for (const model of models) {
    const manifest = named.value.manifestOf.get(model.name);
    if (manifest === undefined) continue;
    const scores = inputs.scores === null ? null : matchingModel(model, runs, inputs.scores.models);
    checks.set(
      model.name,
      checkRecordedTurnsWithPrompts(model, dataCandidate(manifest), () => readScorePrompts(scores, ctx.host), ctx.host),
    );
  }
  return manifestsForModels(models, undefined, ctx, { ...choice, checks });
}

/** What went into the out folder. */
function writtenOf(dir: string, files: readonly CheckedFile[]): CheckDocument["written"] {
  const written = files.filter((f) => f.written !== null);
  return { dir, files: written.length, models: new Set(written.map((f) => f.folder)).size };
}

/** The request's settings checked and its BFCL data folder found: the folder, else the problems that stop the check. */
function checkedSettings(req: CheckRequest, ctx: Context): BfclDataLocation | Problem[] {
  const bad: Problem[] = [];
  if (req.threads !== undefined && (!Number.isInteger(req.threads) || req.threads < 1))
    bad.push(badArgument(`--threads must be an integer >= 1${givenText(req.threads)}`));
  if (req.results === undefined) bad.push(badArgument("give --results DIR (a BFCL result tree)"));
  if (bad.length > 0) return bad;
  const location = ctx.host.resolveBfclDataDir({ flag: req.bfclData, env: ctx.env, cwd: ctx.cwd });
  if (!location) return [problem("bfcl-data-missing", "check needs the BFCL data: pass --bfcl-data DIR or set BFCL_DATA_DIR")];
  // a data folder that is not there is one line, not one per category file
  const absent = ctx.host.missingDataFolder(location.dir);
  if (absent !== null) return [absent];
  return location;
}

/** What the checker runs on: the walked result tree (and score tree), the data folder and the request's options. */
function checkRunRequestOf(req: CheckRequest, inputs: InputWalks, location: BfclDataLocation, ctx: Context): CheckRunRequest {
  return {
    resultsDir: req.results,
    walked: inputs.results,
    bfclDataDir: location.dir,
    scoresDir: req.scores,
    scoresWalked: inputs.scores,
    outDir: req.out,
    bfclEvalDir: req.bfclEval,
    decoder: req.decoder,
    emptyTurns: req.emptyTurns,
    bfclVersion: req.bfclVersion,
    ...(req.models !== undefined && req.models.length > 0 ? { models: req.models } : {}),
    env: { ...ctx.env },
    cwd: ctx.cwd,
    host: ctx.host,
  };
}

/** Check every result file. Never throws on bad input: problems are in the document.
 *
 * @example
 * import { checkRuns } from "twinscore";
 * const doc = await checkRuns({ results: "runs/main", bfclData: "bfcl-v4", scores: "runs/main" });
 * for (const f of doc.files) console.log(f.folder, f.category, f.correct, f.entries, f.agreement?.disagreeingIds);
 */
export async function checkRuns(req: CheckRequest): Promise<CheckDocument> {
  const shape = requestShapeProblems(req, checkShape, '{ results: "runs/main", bfclData: "bfcl-v4" }');
  if (shape.length > 0)
    return { command: "check", files: [], emptyTurns: null, written: null, scoresBeside: [], problems: shape, exitCode: 2 };
  const ctx = contextOf(req);
  const done = (problems: Problem[], files: CheckedFile[] = [], exitCode: ExitCode = 2): CheckDocument => ({
    command: "check",
    files,
    emptyTurns: emptyTurnRowsOf(files),
    written: req.out === undefined ? null : writtenOf(resolvePath(ctx.cwd, req.out), files),
    scoresBeside,
    problems,
    exitCode: strictExitCode(exitCode, problems, req.strict),
  });
  let scoresBeside: readonly string[] = [];
  const location = checkedSettings(req, ctx);
  if (Array.isArray(location)) return done(location);
  // the rollouts must have been generated on the data of the version checked: --bfcl-version's, else their file names'
  // the score tree given, else the run's score/ beside its result/ (as score reads it)
  const inputs = walkInputs(
    { ...ctx, cwd: "/" },
    [resolvePath(ctx.cwd, req.results)],
    req.scores === undefined ? [] : [resolvePath(ctx.cwd, req.scores)],
  );
  const walk = inputs.results;
  scoresBeside = inputs.scoresBeside;
  const selected = selectModels(walk, req.models ?? []);
  if (selected.problems.length > 0) return done([...selected.problems]);
  const data = checkedAgainstData(selected.models, inputs, ctx, req.bfclVersion);
  if (!data.ok) return done([...data.problems]);
  if (hasError(data.value.problems)) return done([...data.value.problems]);
  const otherData = dataOfOtherVersion(selected.models, location, req.bfclVersion, ctx);
  if (otherData !== null) return done([otherData]);
  req.beforeChecking?.();
  const run = await runCheck(checkRunRequestOf(req, inputs, location, ctx), req.threads, req.spawnWorker ?? null);
  if (!run.ok) return done([...data.value.problems, ...run.problems]);
  const { files } = run.value;
  // the data check's warnings (rollouts that follow older data of the version, say) first: they were found first
  const problems = [...data.value.problems, ...run.value.problems, ...agreementProblems(files)];
  // verdicts that disagree are the finding; so is a file whose tool-call steps mostly fail to decode
  // with a decoder that may be the wrong one (never a silent 0 %). Differences in the error alone are counted, not findings.
  const findings = problems.some((p) => p.code === "verdicts-disagree" || p.code === "decode-failures");
  const exitCode: ExitCode = problems.some((p) => p.severity === "error") ? 2 : findings ? 1 : 0;
  return done(problems, files, exitCode);
}

/** Ids in a line: the first five, then how many more. */
function idsText(ids: readonly string[]): string {
  return ids.length <= 5 ? ids.join(", ") : `${ids.slice(0, 5).join(", ")} and ${ids.length - 5} more`;
}

/**
 * One line per file whose verdicts differ from the stored score file's (the exit-1
 * finding), and one per file whose verdicts all agree on some entries whose error type,
 * message or error object differ (counted and named; not a finding, except under
 * --strict): so every exit 1 says why on stderr, in every format.
 */
export function agreementProblems(files: readonly CheckedFile[]): Problem[] {
  const problems: Problem[] = [];
  for (const f of files) {
    const a = f.agreement;
    if (a === null) continue;
    const verdicts = a.verdictDisagreeingIds;
    if (verdicts.length > 0) {
      problems.push(
        problem(
          "verdicts-disagree",
          `${verdicts.length} of ${a.entries} verdicts differ from the stored score file (${f.storedScoreFile ?? "--scores"}): ${idsText(verdicts)}`,
          {
            file: f.file,
            severity: "warning",
          },
        ),
      );
    }
    const details = a.disagreeingIds.filter((id) => !verdicts.includes(id));
    if (details.length > 0) {
      problems.push(
        problem(
          "error-details-differ",
          `${details.length} of ${a.entries} entries have the stored verdict but differ in the error's type, message or object: ${idsText(details)}; not a disagreement of verdicts (no finding by itself; one under --strict)`,
          { file: f.file, severity: "warning" },
        ),
      );
    }
  }
  return problems;
}
