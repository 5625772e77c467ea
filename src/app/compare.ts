/**
 * `compare`, the use case: two arms of the same models (a neutral and an injected prompt, two serving builds,
 * two checkpoints) scored on Table 1's pairs, per model. A model found in one arm only is named, never dropped
 * silently. More in this folder's README.md.
 */
import { describeRun } from "../rollout/run-record.js";
import { pushAll, problem, type Problem, type Result } from "../messages/index.js";
import { compareArms as compareTwoArms, type Arm, type ArmComparison } from "../official/compare.js";
import { DEFAULT_MAX_UNDECIDED, headlineOf, noHeadlineShort, readingById, readingPairs } from "../decision/readings.js";
import type { SideRule } from "../decision/types.js";
import type { Manifest } from "../pairs/types.js";
import { sameManifest } from "../pairs/manifest-json.js";
import type { BootstrapOptions } from "../stats/index.js";
import { resolvePath } from "../io/paths.js";
import { readScoredData, type ScoredData } from "./bfcl-inputs.js";
import { injectionCheck, type InjectionCheck } from "../rollout/inject-check.js";
import type { HistorySource } from "../bfcl/line-keys.js";
import {
  badArgument,
  bootstrapOf,
  contextOf,
  givenText,
  hasError,
  strictExitCode,
  type Context,
  type ExitCode,
  type RequestContext,
  type ModelsOption,
  type ManifestOption,
  type DecoderOption,
} from "./common.js";
import { readModels, walkInputs, type InputWalks, type ModelRead } from "./pipeline.js";
import { requestShapeProblems, type RequestShape } from "./request-shape.js";

/** The two arms to compare. */
export interface CompareRequest extends RequestContext, ModelsOption, ManifestOption, DecoderOption {
  /** Result tree of arm A (the reference arm). */
  readonly a: string;
  /** Result tree of arm B. */
  readonly b: string;
  /** Score trees of the arms (both or neither): adds the official score change. */
  readonly scoresA?: string;
  readonly scoresB?: string;
  /** Resamples and seed of the paired interval (default: 10,000 and the paper's seed). */
  readonly bootstrap?: Partial<BootstrapOptions>;
  /** How sides that are not decisions are read (default `decided`: a pair is compared when both arms decided both its twins). */
  readonly reading?: SideRule;
  /**
   * BFCL data folder: adds the aligned comparison (each arm's twins checked on their turn
   * prefixes) and the empty-turn readings of both arms' files. Runs BFCL's checker on every
   * model of both arms (a few seconds each), so only when named.
   */
  readonly bfclData?: string;
  /** A model with more than this % of Table 1's pairs undecided in an arm has no headline there and is not compared (default 10, as `score`). */
  readonly maxUndecided?: number;
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
  /** Check the first-step token counts for every compared model; by default only where an arm's lines record an injected block (`run --inject`). */
  readonly injectionCheck?: boolean;
}

/** What a library caller's compare request must hold (see `request-shape.ts`). */
const compareShape: RequestShape = {
  a: { rule: "string" },
  b: { rule: "string" },
  scoresA: { rule: "string" },
  scoresB: { rule: "string" },
  models: { rule: "list" },
  bootstrap: { rule: "bootstrap" },
  manifest: { rule: "string" },
  reading: { rule: "string" },
  bfclData: { rule: "string" },
  decoder: { rule: "string" },
  maxUndecided: { rule: "number" },
  strict: { rule: "boolean" },
  injectionCheck: { rule: "boolean" },
};

/** What `compare` found and computed. */
export interface CompareDocument {
  readonly command: "compare";
  /** The arms' result trees, as absolute paths. */
  readonly a: string;
  readonly b: string;
  readonly bootstrap: BootstrapOptions;
  readonly models: readonly { readonly model: string; readonly comparison: ArmComparison }[];
  /** Models scored in one arm only (not compared). */
  readonly onlyInA: readonly string[];
  readonly onlyInB: readonly string[];
  /**
   * Models found in both arms and not compared, because an arm gives them no headline (more
   * than `maxUndecided` % of Table 1's pairs undecided under the reading, as `score` leaves
   * its row empty): the arm and the short reason.
   */
  readonly noHeadline: readonly { readonly model: string; readonly arm: "A" | "B"; readonly why: string }[];
  /**
   * Per compared model whose arms' lines record an injected prompt block (`run --inject`;
   * every compared model with `injectionCheck`): whether the block reached the model
   * (first-step input tokens B − A, its distribution, the items off it), and how many lines
   * of each arm record one. Empty for two arms where nothing was injected.
   */
  readonly injection: readonly {
    readonly model: string;
    readonly injectedLines: { readonly a: number; readonly b: number };
    readonly check: InjectionCheck;
  }[];
  /** With neither `scoresA` nor `scoresB`: the `score/` folders beside both arms' `result/`, whose verdicts were read as if given (absolute); else empty. */
  readonly scoresBeside: readonly string[];
  /**
   * Only when an arm's lines played the turns before the anchor from the reference (`run
   * --history reference`): each compared model's history in arm A and arm B. Where they
   * differ the comparison is the change in decision the history causes, and no injection
   * check is made (the first requests differ by the played turns, not by a prompt block).
   */
  readonly histories?: readonly { readonly model: string; readonly a: HistorySource; readonly b: HistorySource }[];
  /** Only when an arm's folder was made by `twinscore run` (its `run.json`): what each compared model's run is in each arm (null: no record). */
  readonly runs?: readonly { readonly model: string; readonly a: string | null; readonly b: string | null }[];
  /** Each model of each arm (`<model> (arm A)`) and its result and score files: its problems are located in them. */
  readonly modelFiles: readonly { readonly model: string; readonly files: readonly string[] }[];
  readonly problems: readonly Problem[];
  readonly exitCode: ExitCode;
}

/** A model found in both arms with no headline in one of them: the arm and the short reason. */
type NoHeadline = CompareDocument["noHeadline"][number];

/** What one arm's model contributes: its scored records, verdicts, first-step tokens, and what BFCL's checker says. */
interface ArmModel {
  readonly model: string;
  readonly manifest: Manifest;
  readonly arm: Omit<Arm, "label">;
  readonly tokens: ReadonlyMap<string, number | null> | null;
  readonly injectedLines: number;
  /** Where its turns before the anchor came from (a model mixing both is not scored, so not here). */
  readonly history: HistorySource;
  /** What its run is (`run.json`), or null. */
  readonly run: string | null;
}

/** The arguments checked and both arms walked, before any model is read. */
interface CompareInputs {
  readonly walks: { A: InputWalks | null; B: InputWalks | null };
  readonly data: ScoredData | null;
  /** Bad arguments and unreadable inputs: nothing is compared when there is one. */
  readonly problems: Problem[];
}

/** Every argument checked before any input is read, then each arm walked once: its result tree, and its score tree (given, else the score/ folder beside its result/). */
function compareInputs(req: CompareRequest, ctx: Context, boot: Result<BootstrapOptions>): CompareInputs {
  const bad: Problem[] = boot.ok ? [] : [...boot.problems];
  if (req.a === undefined || req.b === undefined) bad.push(badArgument("give both --a DIR and --b DIR (the two arms' result trees)"));
  if (req.maxUndecided !== undefined && !(Number.isFinite(req.maxUndecided) && req.maxUndecided >= 0 && req.maxUndecided <= 100)) {
    bad.push(badArgument(`--max-undecided must be a percentage from 0 to 100${givenText(req.maxUndecided)}`));
  }
  if ((req.scoresA === undefined) !== (req.scoresB === undefined))
    bad.push(badArgument("give --scores-a and --scores-b together (or neither)"));
  const walkArm = (dir: string | undefined, scores: string | undefined): InputWalks | null =>
    dir === undefined ? null : walkInputs(ctx, [dir], scores === undefined ? [] : [scores]);
  const walks = { A: walkArm(req.a, req.scoresA), B: walkArm(req.b, req.scoresB) };
  for (const w of [walks.A, walks.B])
    if (w !== null)
      bad.push(
        ...w.results.problems.filter((p) => p.severity === "error"),
        ...(w.scores?.problems ?? []).filter((p) => p.severity === "error"),
      );
  // the official change needs both arms' verdicts: score folders found beside one arm only are not used
  const beside = walks.A !== null && walks.B !== null && walks.A.scoresBeside.length > 0 && walks.B.scoresBeside.length > 0;
  for (const arm of ["A", "B"] as const) {
    const w = walks[arm];
    if (w !== null && w.scoresBeside.length > 0 && !beside) walks[arm] = { ...w, scores: null, scoresBeside: [] };
  }
  let data: ScoredData | null = null;
  if (req.bfclData !== undefined && bad.length === 0) {
    const read = readScoredData(resolvePath(ctx.cwd, req.bfclData), ctx.host);
    if (read.ok) data = read.value;
    else pushAll(bad, read.problems);
  }
  return { walks, data, problems: bad };
}

/** What reading both arms shares, and what it collects: the problems said, each model's files, the models without a headline. */
interface ArmReading {
  readonly req: CompareRequest;
  readonly ctx: Context;
  readonly inputs: CompareInputs;
  readonly replaysOf: typeof import("./replays.js").replaysOf | null;
  readonly rule: SideRule;
  readonly maxUndecided: number;
  readonly problems: Problem[];
  readonly modelFiles: { model: string; files: string[] }[];
  readonly noHeadline: NoHeadline[];
  /** Why a model has no headline in an arm, said once the models found in both arms are known. */
  readonly headlineLines: Map<string, string>;
  /** Folders of `run --trials K` met in an arm (by arm: the folder and its trial count): compared only as trials (`--trials-a`/`--trials-b`). */
  readonly trialFolders: Map<"A" | "B", { dir: string; trials: number }>;
}

const table1 = readingById("table-1")!;

/** Read one arm's models, each scored on Table 1's pairs. */
function readArm(env: ArmReading, arm: "A" | "B", dir: string, scores: string | undefined) {
  const { req, inputs } = env;
  const walked = inputs.walks[arm]!;
  return readModels<ArmModel | null>(
    {
      ctx: env.ctx,
      results: [dir],
      scores: scores === undefined ? [] : [scores],
      walked,
      models: req.models ?? [],
      manifest: req.manifest,
      oneManifest: "compare",
      pairs: { headline: table1 },
      keep: "all",
      needs: {
        census: walked.scores !== null,
        texts: inputs.data !== null,
        wholeFiles: inputs.data !== null,
        firstStepTokens: true,
        injected: true,
      },
      decoder: req.decoder,
    },
    (m) => armModel(env, arm, dir, m),
  );
}

/** One arm's model: its problems said, its files named, its headline gated as `score` gates it, and what BFCL's checker says on it. */
function armModel(env: ArmReading, arm: "A" | "B", dir: string, m: ModelRead): ArmModel | null {
  const { req, problems, maxUndecided } = env;
  if (m.trial !== null) {
    env.trialFolders.set(arm, { dir: m.found.dir, trials: m.trial.of });
    return null;
  }
  // the arms' routine warnings are left out, unless --strict makes them findings (then they say why the exit is 1)
  // a folder of lines made with different blocks (or some without one) is named with its arm
  pushAll(
    problems,
    m.problems
      .filter((p) => p.severity === "error" || req.strict === true)
      .map((p) => (p.code === "run-mixed" ? { ...p, message: `arm ${arm} (${dir}): ${p.message}` } : p)),
  );
  env.modelFiles.push({
    model: `${m.model} (arm ${arm})`,
    files: [...Object.values(m.filesUsed).map((f) => f.file), ...Object.values(m.official?.scoreFiles ?? {})],
  });
  if (m.score === null) return null;
  // one rule with score and report: an arm past --max-undecided gives the model no headline, so no comparison
  const headline = headlineOf(m.score.records, m.manifest, table1, env.rule, maxUndecided, null);
  if (headline.noHeadline !== null) {
    env.noHeadline.push({ model: m.model, arm, why: noHeadlineShort(headline.undecided, maxUndecided) });
    env.headlineLines.set(`${m.model}\u0000${arm}`, `model ${m.model} (arm ${arm}): ${headline.noHeadline}; it is not compared`);
  }
  const records = headline.selection.scored.map((x) => x.record);
  const complete = m.official !== null && m.official.categories.length === 3;
  // said whatever --strict: why an arm read from the reference has no official score change
  pushAll(
    problems,
    (m.official?.problems ?? []).filter((p) => p.severity === "error" || p.code === "official-meaningless" || req.strict === true),
  );
  let checked: Pick<Arm, "completions" | "emptyTurns"> = {};
  if (env.inputs.data !== null && env.replaysOf !== null) {
    // what BFCL's checker says on this arm's model: its twins' completions and its entries under the empty-turn readings
    const replays = env.replaysOf(m, records, readingPairs(m.manifest, table1), env.inputs.data, { workaround: false, checker: true });
    pushAll(problems, replays.problems);
    checked = { completions: replays.completions, emptyTurns: replays.emptyTurns };
  }
  const history: HistorySource = m.history.protocol === "reference" ? "reference" : "own";
  const run = m.runRecord === null ? null : describeRun(m.runRecord);
  return {
    model: m.model,
    manifest: m.manifest,
    arm: { records, verdicts: complete ? m.official!.verdicts : null, ...checked },
    tokens: m.firstStepTokens,
    injectedLines: m.injectedLines ?? 0,
    history,
    run,
  };
}

/** Which models are compared: those scored in both arms with a headline in each; the others are said in `problems`. */
interface ModelMatch {
  readonly names: string[];
  readonly onlyInA: string[];
  readonly onlyInB: string[];
  /** The models found in both arms without a headline in one. */
  readonly noHeadline: NoHeadline[];
}

/** Sort the arms' models into compared, in one arm only, and without a headline in an arm, each said once. */
function matchModels(env: ArmReading, inA: readonly ArmModel[], inB: readonly ArmModel[], a: string, b: string): ModelMatch {
  const { problems } = env;
  const namesA = inA.map((m) => m.model);
  const namesB = inB.map((m) => m.model);
  // one rule with score and report: a model found in both arms with no headline in either is not compared, and said so
  const common = namesA.filter((m) => namesB.includes(m));
  const noHeadline = env.noHeadline.filter((x) => common.includes(x.model));
  for (const x of noHeadline) problems.push(problem("no-headline", env.headlineLines.get(`${x.model}\u0000${x.arm}`)!));
  const withoutHeadline = new Set(noHeadline.map((x) => x.model));
  const names = common.filter((m) => !withoutHeadline.has(m));
  const onlyInA = namesA.filter((m) => !namesB.includes(m));
  const onlyInB = namesB.filter((m) => !namesA.includes(m));
  for (const m of onlyInA)
    problems.push(problem("model-one-arm", `model ${m} is scored in arm A only; it is not compared`, { file: a, severity: "warning" }));
  for (const m of onlyInB)
    problems.push(problem("model-one-arm", `model ${m} is scored in arm B only; it is not compared`, { file: b, severity: "warning" }));
  return { names, onlyInA, onlyInB, noHeadline };
}

/**
 * The paper's check that an injected block reached the model (one token difference on
 * every paired item), for the models whose arms record one (`run --inject`), or every model
 * when asked; between two histories the first requests differ by the played turns, so it is
 * not made there.
 */
function injectionChecks(req: CompareRequest, pairs: readonly (readonly [ArmModel, ArmModel])[]): CompareDocument["injection"] {
  return pairs.flatMap(([ma, mb]) => {
    if (ma.history !== mb.history) return [];
    const injectedLines = { a: ma.injectedLines, b: mb.injectedLines };
    if (injectedLines.a + injectedLines.b === 0 && req.injectionCheck !== true) return [];
    if (ma.tokens === null || mb.tokens === null) return [];
    return [
      {
        model: ma.model,
        injectedLines,
        check: injectionCheck(ma.tokens as Map<string, number | null>, mb.tokens as Map<string, number | null>),
      },
    ];
  });
}

/** The document's parts that every return shares, and the rest as far as the comparison got. */
interface DocumentParts {
  readonly head: Pick<CompareDocument, "a" | "b" | "bootstrap" | "scoresBeside" | "noHeadline">;
  readonly problems: Problem[];
  readonly models?: CompareDocument["models"];
  readonly onlyInA?: string[];
  readonly onlyInB?: string[];
  readonly exitCode?: ExitCode;
  readonly injection?: CompareDocument["injection"];
  readonly modelFiles?: CompareDocument["modelFiles"];
}

/** The document, in its key order (nothing compared, exit 2, unless said). */
function compareDocument(p: DocumentParts, strict: boolean | undefined): CompareDocument {
  const { a, b, bootstrap, noHeadline, scoresBeside } = p.head;
  return {
    command: "compare",
    a,
    b,
    bootstrap,
    models: p.models ?? [],
    onlyInA: p.onlyInA ?? [],
    onlyInB: p.onlyInB ?? [],
    noHeadline,
    injection: p.injection ?? [],
    scoresBeside,
    modelFiles: p.modelFiles ?? [],
    problems: p.problems,
    exitCode: strictExitCode(p.exitCode ?? 2, p.problems, strict),
  };
}

/** Compare each model found in both arms, and add its histories and runs when an arm records them. */
function comparedModels(
  req: CompareRequest,
  pairs: readonly (readonly [ArmModel, ArmModel])[],
  bootstrap: BootstrapOptions,
  doc: CompareDocument,
): CompareDocument {
  const models = pairs.map(([ma, mb]) => ({
    model: ma.model,
    comparison: compareTwoArms({ label: "A", ...ma.arm }, { label: "B", ...mb.arm }, bootstrap),
  }));
  const histories = pairs.map(([ma, mb]) => ({ model: ma.model, a: ma.history, b: mb.history }));
  const runs = pairs.map(([ma, mb]) => ({ model: ma.model, a: ma.run, b: mb.run }));
  const compared: CompareDocument = { ...doc, models, injection: injectionChecks(req, pairs) };
  const withRuns = runs.some((r) => r.a !== null || r.b !== null) ? { ...compared, runs } : compared;
  return histories.some((h) => h.a === "reference" || h.b === "reference") ? { ...withRuns, histories } : withRuns;
}

/** What reading either arm shares: the request and inputs, the replayer when BFCL data is given, and what the reads collect. */
async function armReading(req: CompareRequest, ctx: Context, inputs: CompareInputs, noHeadline: NoHeadline[]): Promise<ArmReading> {
  const replaysOf = inputs.data === null ? null : (await import("./replays.js")).replaysOf;
  return {
    req,
    ctx,
    inputs,
    replaysOf,
    rule: req.reading ?? "decided",
    maxUndecided: req.maxUndecided ?? DEFAULT_MAX_UNDECIDED,
    problems: [],
    modelFiles: [],
    noHeadline,
    headlineLines: new Map(),
    trialFolders: new Map(),
  };
}

/** One arm as read. */
type ReadArm = Extract<Awaited<ReturnType<typeof readArm>>, { ok: true }>["value"];

/** Why the two arms read cannot be compared at all (a run of trials read as one arm, or two manifests), or null. */
function armsMismatch(env: ArmReading, a: ReadArm, b: ReadArm): Problem | null {
  // an arm of K trials read as one run would compare its trials as models
  if (env.trialFolders.size > 0) {
    const [arm, { dir, trials }] = [...env.trialFolders][0];
    const flag = arm === "A" ? "a" : "b";
    return badArgument(
      `--${flag}: ${dir} holds ${trials} trials of one model: compare trials with --trials-${flag} (and the other arm's with --trials-${arm === "A" ? "b" : "a"})`,
    );
  }
  // both arms on one manifest: the BFCL version their result files name
  if (!sameManifest(a.manifest, b.manifest) && a.selected.length > 0 && b.selected.length > 0) {
    const [va, vb] = [a.manifest.source.bfclVersion, b.manifest.source.bfclVersion];
    const why =
      va === vb ? `their pair manifests differ (both BFCL ${va})` : `their result files are of different BFCL versions (${va} and ${vb})`;
    return problem(
      "bfcl-version-mixed",
      `compare puts both arms on one pair manifest, and ${why}; give one version's runs, or --manifest FILE to force one`,
    );
  }
  return null;
}

/** Compare the two arms. Never throws on bad input: problems are in the document.
 *
 * @example
 * import { compareArms } from "twinscore";
 * const doc = await compareArms({ a: "runs/main", b: "runs/fixes", scoresA: "runs/main", scoresB: "runs/fixes" });
 * for (const m of doc.models) console.log(m.model, m.comparison.decision.change, m.comparison.decision.ci95);
 */
export async function compareArms(req: CompareRequest): Promise<CompareDocument> {
  const shape = requestShapeProblems(req, compareShape, '{ a: "runs/main", b: "runs/fixes" }');
  if (shape.length > 0)
    return compareDocument(
      { head: { a: "", b: "", bootstrap: { resamples: 0, seed: 0 }, scoresBeside: [], noHeadline: [] }, problems: shape },
      undefined,
    );
  const ctx = contextOf(req);
  const boot = bootstrapOf(req.bootstrap);
  const bootstrap = boot.ok ? boot.value : { resamples: 0, seed: 0 };
  const head = {
    a: req.a === undefined ? "" : resolvePath(ctx.cwd, req.a),
    b: req.b === undefined ? "" : resolvePath(ctx.cwd, req.b),
    bootstrap,
    scoresBeside: [] as string[],
    noHeadline: [] as NoHeadline[],
  };
  // one folder as both arms compares a run with itself: every shift is 0 and says nothing (report --compare refuses it too)
  if (head.a !== "" && head.a === head.b)
    return compareDocument(
      { head, problems: [problem("compare-same-run", `--a and --b name the same folder (${head.a}): two different runs are needed`)] },
      req.strict,
    );
  const inputs = compareInputs(req, ctx, boot);
  if (inputs.problems.length > 0) return compareDocument({ head, problems: inputs.problems }, req.strict);
  head.scoresBeside = [...(inputs.walks.A?.scoresBeside ?? []), ...(inputs.walks.B?.scoresBeside ?? [])];
  const env = await armReading(req, ctx, inputs, head.noHeadline);
  const armA = await readArm(env, "A", req.a!, req.scoresA);
  if (!armA.ok) return compareDocument({ head, problems: [...armA.problems] }, req.strict);
  const armB = await readArm(env, "B", req.b!, req.scoresB);
  if (!armB.ok) return compareDocument({ head, problems: [...armB.problems] }, req.strict);
  const unmatched = armsMismatch(env, armA.value, armB.value);
  if (unmatched !== null) return compareDocument({ head, problems: [unmatched] }, req.strict);
  const { problems, modelFiles } = env;
  // a model named and found in one arm only is said below, once
  problems.unshift(...[...armA.value.problems, ...armB.value.problems].filter((p) => p.code !== "model-missing"));
  const inA = armA.value.outputs.filter((m): m is ArmModel => m !== null);
  const inB = armB.value.outputs.filter((m): m is ArmModel => m !== null);
  const match = matchModels(env, inA, inB, head.a, head.b);
  const { names, onlyInA, onlyInB } = match;
  head.noHeadline = match.noHeadline;
  if (names.length === 0 && match.noHeadline.length > 0 && !hasError(problems.filter((p) => p.code !== "no-headline"))) {
    // every common model lacks a headline in an arm: nothing compared, said per model, a finding (exit 1) as in score
    return compareDocument({ head, problems, onlyInA, onlyInB, exitCode: 1, modelFiles }, req.strict);
  }
  if (names.length === 0) {
    const models = req.models ?? [];
    problems.push(
      problem("no-common-model", `no model scored in both arms${models.length > 0 ? ` (asked for ${models.join(", ")})` : ""}`),
    );
    return compareDocument({ head, problems, onlyInA, onlyInB, exitCode: 2, modelFiles }, req.strict);
  }
  const exitCode: ExitCode = hasError(problems.filter((p) => p.code !== "no-headline"))
    ? 2
    : onlyInA.length + onlyInB.length + match.noHeadline.length > 0
      ? 1
      : 0;
  const pairs = names.map((n) => [inA.find((m) => m.model === n)!, inB.find((m) => m.model === n)!] as const);
  return comparedModels(req, pairs, bootstrap, compareDocument({ head, problems, onlyInA, onlyInB, exitCode, modelFiles }, req.strict));
}
