/**
 * `verify`, the use case: recompute every number of an expected-numbers file from the
 * given result (and score) trees, one PASS / FAIL / SKIP line per number. A number whose
 * rollouts (or score files) are not under the trees is SKIPped, and a SKIP is never a
 * PASS; a verify that checked nothing ends with exit 1.
 */
import { pushAll, problem, type Problem } from "../messages/index.js";
import { computeRunMetrics } from "../official/metrics.js";
import { metricsByName } from "../official/metric-names.js";
import { checkRun, parseExpectedFile, summaryLine, type CheckLine, type ExpectedRun } from "../official/verify.js";
import { pathHasComponent, resolvePath } from "../io/paths.js";
import { walkPart, type TreeModel } from "../io/tree.js";
import type { DecoderName } from "../bfcl/decode/index.js";
import {
  badArgument,
  contextOf,
  strictExitCode,
  type Context,
  type ExitCode,
  type RequestContext,
  type ModelsOption,
  type ManifestOption,
  type DecoderOption,
} from "./common.js";
import { readModels, walkInputs, type InputWalks } from "./pipeline.js";
import { metricsInputs } from "./run-metrics.js";

/** The expected file and the trees to recompute it from. */
export interface VerifyRequest extends RequestContext, ModelsOption, ManifestOption, DecoderOption {
  /** The expected-numbers JSON (e.g. the package's `data/expected/paper.json`). */
  readonly expected: string;
  readonly results?: readonly string[];
  readonly scores?: readonly string[];
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
}

/**
 * How `verify` reads sides that are not decisions: the published numbers were computed by
 * the paper's released scorer, which reads an inference-error line and a rollout that
 * ended before the anchor as no call there.
 */
export const VERIFY_READING = "release" as const;

/** What the document says of the reading it recomputed the numbers under. */
export const verifyReadingNote =
  "numbers recomputed under the release reading (inference-error lines and rollouts that ended before the anchor read as no call), as the published numbers were computed";

/** A run of the expected file whose folders were not among those given. */
export interface UnmatchedRun {
  readonly run: string;
  readonly match: string;
  /** Its numbers that SKIPped. */
  readonly skipped: number;
}

/** One line per expected number, and the counts. */
export interface VerifyDocument {
  readonly command: "verify";
  /** The reading the numbers were recomputed under (`release`), and what it means. */
  readonly reading: { readonly rule: typeof VERIFY_READING; readonly note: string };
  /** The expected file, as an absolute path. */
  readonly expected: string;
  readonly summary: { readonly pass: number; readonly fail: number; readonly skip: number; readonly line: string };
  readonly lines: readonly CheckLine[];
  /** Each model read (`<run>/<model>` when the file has several runs) and its result and score files: its problems are located in them. */
  readonly modelFiles: readonly { readonly model: string; readonly files: readonly string[] }[];
  /** The runs with a `match` that no model folder found has in its path: each SKIPs every number that needs rollouts (said once per run, not on each line). */
  readonly unmatchedRuns: readonly UnmatchedRun[];
  /** With no `--scores`: the `score/` folders beside `result/` whose BFCL verdicts were read, as score reads them (absolute). */
  readonly scoresBeside: readonly string[];
  readonly problems: readonly Problem[];
  readonly exitCode: ExitCode;
}

/** Whether a model folder found belongs to a run: every one does, unless the run has a `match`, which must be one of its path's components. */
function belongsTo(run: ExpectedRun, model: TreeModel): boolean {
  return run.match === null || pathHasComponent(model.dir, run.match);
}

/** The expected file read and parsed, and the models kept (`--model`, each one the file names); else the problems. */
function readExpected(req: VerifyRequest, ctx: Context, file: string): { runs: readonly ExpectedRun[] } | Problem[] {
  if (req.expected === undefined) return [badArgument("give --expected FILE (e.g. data/expected/paper.json)")];
  const text = ctx.host.readTextIfFile(file);
  if (text === null) return [problem("file-missing", "expected file not found", { file })];
  const parsed = parseExpectedFile(text, file);
  if (!parsed.ok) return [...parsed.problems];
  const kept = req.models ?? [];
  const known = [...new Set(parsed.value.runs.flatMap((r) => r.models.map((m) => m.name)))];
  const unknown = kept.filter((m) => !known.includes(m));
  if (unknown.length > 0)
    return unknown.map((m) => badArgument(`--model ${m}: not a model of the expected file (its models: ${known.join(", ")})`));
  return { runs: parsed.value.runs };
}

/** Whether `--model` keeps a model of the file (no `--model`: every one). */
function keeps(req: VerifyRequest, model: string): boolean {
  return req.models === undefined || req.models.length === 0 || req.models.includes(model);
}

/** What verifying the runs of the file gathers, run by run. */
interface Gathered {
  readonly lines: CheckLine[];
  readonly problems: Problem[];
  readonly modelFiles: { model: string; files: string[] }[];
  readonly unmatchedRuns: UnmatchedRun[];
}

/** The walks of the trees given, with the run's models kept: those in its folders. */
function walkedFor(run: ExpectedRun, inputs: InputWalks) {
  return {
    results: walkPart(inputs.results, (m) => belongsTo(run, m)),
    scores: inputs.scores === null ? null : walkPart(inputs.scores, (m) => belongsTo(run, m)),
  };
}

/** Read one run's models (on one manifest: the BFCL version its result files name) and compute its metrics; the problems when it cannot be read. */
function runMetrics(
  req: VerifyRequest,
  ctx: Context,
  run: ExpectedRun,
  named: boolean,
  walked: ReturnType<typeof walkedFor>,
  into: Gathered,
) {
  const models = run.models.map((m) => m.name).filter((m) => keeps(req, m));
  const read = readModels(
    {
      ctx,
      results: req.results ?? [],
      scores: req.scores ?? [],
      walked,
      models,
      manifest: req.manifest,
      decoder: req.decoder,
      oneManifest: "verify",
      pairs: "every",
      keep: "all",
      needs: { census: true },
    },
    (m) => {
      // the result files' routine warnings are left out, unless --strict makes them findings
      pushAll(
        into.problems,
        m.problems.filter((p) => p.severity === "error" || req.strict === true),
      );
      // why a run played from the reference has no official numbers to verify
      pushAll(
        into.problems,
        (m.official?.problems ?? []).filter((p) => p.code === "official-meaningless"),
      );
      into.modelFiles.push({
        model: named ? `${run.name}/${m.model}` : m.model,
        files: [...Object.values(m.filesUsed).map((f) => f.file), ...Object.values(m.official?.scoreFiles ?? {})],
      });
      return { inputs: metricsInputs(m), official: m.official };
    },
  );
  if (!read.ok) return read;
  // a model the run names and the trees lack is a SKIP, not an error
  pushAll(
    into.problems,
    read.value.problems.filter((p) => (p.severity === "error" || req.strict === true) && p.code !== "model-missing"),
  );
  const loaded = read.value.outputs.filter((o) => o.inputs.records.length > 0);
  const metrics = computeRunMetrics(
    read.value.manifest,
    loaded.map((m) => m.inputs),
    {
      bootstrap: { resamples: run.bootstrap.resamples, seed: run.bootstrap.seed },
      rule: VERIFY_READING,
      displayNames: new Map(run.models.filter((m) => m.display !== null).map((m) => [m.name, m.display!])),
    },
  );
  const available = {
    rollouts: new Set(loaded.map((m) => m.inputs.model)),
    scores: new Set(loaded.filter((m) => m.inputs.verdicts !== null).map((m) => m.inputs.model)),
  };
  return { ok: true as const, checked: checkRun(run, metricsByName(metrics), available) };
}

/** Check one run of the file against the trees: its lines (a SKIP says when `--model` left its model out), and why it matched no folder. */
function verifyRun(
  req: VerifyRequest,
  ctx: Context,
  run: ExpectedRun,
  named: boolean,
  inputs: InputWalks,
  into: Gathered,
): Problem[] | null {
  const walked = walkedFor(run, inputs);
  const computed = runMetrics(req, ctx, run, named, walked, into);
  if (!computed.ok) return [...computed.problems];
  const { checked } = computed;
  const leftOut = run.models.map((m) => m.name).filter((m) => !keeps(req, m));
  // a SKIP because of --model says so (its note lists the absent models: `rollouts absent: a, b`)
  const byFlag = (l: CheckLine) => leftOut.filter((m) => l.note.split(/[:,] /).includes(m));
  const skipNote = (l: CheckLine) => (byFlag(l).length > 0 ? ` (left out by --model: ${byFlag(l).join(", ")})` : "");
  pushAll(
    into.lines,
    checked.map((l) => (l.status === "SKIP" ? { ...l, note: l.note + skipNote(l) } : l)),
  );
  // the trees hold models, and none in this run's folders: why is said once, for the run
  const unmatched = run.match !== null && inputs.results.models.length > 0 && walked.results.models.length === 0;
  if (unmatched) into.unmatchedRuns.push({ run: run.name, match: run.match!, skipped: checked.filter((l) => l.status === "SKIP").length });
  return null;
}

/** Recompute and compare. Never throws on bad input: problems are in the document.
 *
 * @example
 * import { verifyExpected } from "twinscore";
 * const doc = await verifyExpected({ expected: "data/expected/gpt-oss.json", results: ["runs/main"], scores: ["runs/main"] });
 * console.log(doc.summary, doc.lines.filter((l) => l.status === "FAIL"));
 */
export async function verifyExpected(req: VerifyRequest): Promise<VerifyDocument> {
  const ctx = contextOf(req);
  const file = req.expected === undefined ? "" : resolvePath(ctx.cwd, req.expected);
  const into: Gathered = { lines: [], problems: [], modelFiles: [], unmatchedRuns: [] };
  let scoresBeside: readonly string[] = [];
  const done = (problems: Problem[], lines: CheckLine[] = [], exitCode: ExitCode = 2): VerifyDocument => {
    const count = (s: CheckLine["status"]) => lines.filter((l) => l.status === s).length;
    return {
      command: "verify",
      expected: file,
      reading: { rule: VERIFY_READING, note: verifyReadingNote },
      summary: { pass: count("PASS"), fail: count("FAIL"), skip: count("SKIP"), line: summaryLine(lines) },
      lines,
      modelFiles: into.modelFiles,
      unmatchedRuns: into.unmatchedRuns,
      scoresBeside,
      problems,
      exitCode: strictExitCode(exitCode, problems, req.strict),
    };
  };
  const expected = readExpected(req, ctx, file);
  if (Array.isArray(expected)) return done(expected);
  // one walk of each tree (the score trees given, else the score/ folders beside result/, as score reads them);
  // each run of the file reads the models found in its folders
  const inputs = walkInputs(ctx, req.results ?? [], req.scores ?? []);
  scoresBeside = inputs.scoresBeside;
  const walkProblems = [...inputs.results.problems, ...(inputs.scores?.problems ?? [])];
  const missing = walkProblems.filter((p) => p.severity === "error");
  if (missing.length > 0) return done(missing);
  if (req.strict === true) pushAll(into.problems, walkProblems);
  for (const run of expected.runs) {
    const stopped = verifyRun(req, ctx, run, expected.runs.length > 1, inputs, into);
    if (stopped !== null) return done(stopped);
  }
  const { lines, problems } = into;
  const failed = lines.some((l) => l.status === "FAIL");
  const checkedAny = lines.some((l) => l.status !== "SKIP");
  if (!checkedAny && lines.length > 0)
    problems.push(
      problem("nothing-checked", "every number was skipped: no rollouts the expected file names were found under the given folders", {
        file,
        severity: "warning",
      }),
    );
  const exitCode: ExitCode = failed ? 1 : problems.some((p) => p.severity === "error") ? 2 : !checkedAny ? 1 : 0;
  return done(problems, lines, exitCode);
}
