/**
 * `compare`, the use case: two arms of the same models (a neutral and an injected prompt,
 * two serving builds, two checkpoints) scored on Table 1's pairs. Per model: the act and
 * hold shifts with exact McNemar tests, the decision change with a paired cluster-bootstrap
 * interval and, with score trees for both arms, the official score change per category
 * with its flips. A model found in one arm only is named, never dropped silently.
 */
import { describeRun } from "../rollout/run-record.js";
import { pushAll, problem, type Problem } from "../messages/index.js";
import { compareArms as compareTwoArms, type Arm, type ArmComparison } from "../official/compare.js";
import { DEFAULT_MAX_UNDECIDED, headlineOf, noHeadlineShort, readingById, readingPairs } from "../decision/readings.js";
import type { SideRule } from "../decision/types.js";
import type { Manifest } from "../pairs/types.js";
import { sameManifest } from "../pairs/manifest-json.js";
import type { BootstrapOptions } from "../stats/index.js";
import { resolvePath } from "../io/paths.js";
import { readScoredData, type ScoredData } from "../io/bfcl-data.js";
import { injectionCheck, type InjectionCheck } from "../rollout/inject-check.js";
import type { DecoderName } from "../bfcl/decode/index.js";
import type { HistorySource } from "../bfcl/line-keys.js";
import { badArgument, bootstrapOf, contextOf, givenText, hasError, strictExitCode, type ExitCode, type RequestContext } from "./common.js";
import { readModels, walkInputs, type InputWalks } from "./pipeline.js";
import { requestShapeProblems, type RequestShape } from "./request-shape.js";

/** The two arms to compare. */
export interface CompareRequest extends RequestContext {
  /** Result tree of arm A (the reference arm). */
  readonly a: string;
  /** Result tree of arm B. */
  readonly b: string;
  /** Score trees of the arms (both or neither): adds the official score change. */
  readonly scoresA?: string;
  readonly scoresB?: string;
  /** Models to compare (default: every model found in both arms). */
  readonly models?: readonly string[];
  /** Resamples and seed of the paired interval (default: 10,000 and the paper's seed). */
  readonly bootstrap?: Partial<BootstrapOptions>;
  readonly manifest?: string;
  /** How sides that are not decisions are read (default `decided`: a pair is compared when both arms decided both its twins). */
  readonly reading?: SideRule;
  /**
   * BFCL data folder: adds the aligned comparison (each arm's twins checked on their turn
   * prefixes) and the empty-turn readings of both arms' files. Runs BFCL's checker on every
   * model of both arms (a few seconds each), so only when named.
   */
  readonly bfclData?: string;
  /** `--decoder`: one decoder for every model of both arms; absent, each model folder's own. */
  readonly decoder?: DecoderName;
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
  readonly injection: readonly { readonly model: string; readonly injectedLines: { readonly a: number; readonly b: number }; readonly check: InjectionCheck }[];
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

/** Compare the two arms. Never throws on bad input: problems are in the document.
 *
 * @example
 * import { compareArms } from "twinscore";
 * const doc = await compareArms({ a: "runs/main", b: "runs/fixes", scoresA: "runs/main", scoresB: "runs/fixes" });
 * for (const m of doc.models) console.log(m.model, m.comparison.decision.change, m.comparison.decision.ci95);
 */
export async function compareArms(request: CompareRequest): Promise<CompareDocument> {
  const shape = requestShapeProblems(request, compareShape, '{ a: "runs/main", b: "runs/fixes" }');
  // a request of the wrong shape is answered with its problems alone, from an empty request
  const req: CompareRequest = shape.length > 0 ? ({} as CompareRequest) : request;
  const ctx = contextOf(req);
  const boot = bootstrapOf(req.bootstrap);
  const bootstrap = boot.ok ? boot.value : { resamples: 0, seed: 0 };
  const a = req.a === undefined ? "" : resolvePath(ctx.cwd, req.a);
  const b = req.b === undefined ? "" : resolvePath(ctx.cwd, req.b);
  /** The score folders read beside the arms' result/, once the arguments are good. */
  let scoresBeside: string[] = [];
  let noHeadline: { model: string; arm: "A" | "B"; why: string }[] = [];
  /** Why a model has no headline in an arm, said once the models found in both arms are known. */
  const headlineLines = new Map<string, string>();
  const done = (
    problems: Problem[],
    models: CompareDocument["models"] = [],
    onlyInA: string[] = [],
    onlyInB: string[] = [],
    exitCode: ExitCode = 2,
    injection: CompareDocument["injection"] = [],
    modelFiles: CompareDocument["modelFiles"] = [],
  ): CompareDocument => ({
    command: "compare",
    a,
    b,
    bootstrap,
    models,
    onlyInA,
    onlyInB,
    noHeadline,
    injection,
    scoresBeside,
    modelFiles,
    problems,
    exitCode: strictExitCode(exitCode, problems, req.strict),
  });
  if (shape.length > 0) return done(shape);
  // every argument before any input is read
  const bad: Problem[] = boot.ok ? [] : [...boot.problems];
  if (req.a === undefined || req.b === undefined) bad.push(badArgument("give both --a DIR and --b DIR (the two arms' result trees)"));
  if (req.maxUndecided !== undefined && !(Number.isFinite(req.maxUndecided) && req.maxUndecided >= 0 && req.maxUndecided <= 100)) {
    bad.push(badArgument(`--max-undecided must be a percentage from 0 to 100${givenText(req.maxUndecided)}`));
  }
  if ((req.scoresA === undefined) !== (req.scoresB === undefined)) bad.push(badArgument("give --scores-a and --scores-b together (or neither)"));
  // each arm walked once: its result tree, and its score tree (given, else the score/ folder beside its result/)
  const walkArm = (dir: string | undefined, scores: string | undefined): InputWalks | null => (dir === undefined ? null : walkInputs(ctx, [dir], scores === undefined ? [] : [scores]));
  const walks = { A: walkArm(req.a, req.scoresA), B: walkArm(req.b, req.scoresB) };
  for (const w of [walks.A, walks.B]) if (w !== null) bad.push(...w.results.problems.filter((p) => p.severity === "error"), ...(w.scores?.problems ?? []).filter((p) => p.severity === "error"));
  // the official change needs both arms' verdicts: score folders found beside one arm only are not used
  const beside = walks.A !== null && walks.B !== null && walks.A.scoresBeside.length > 0 && walks.B.scoresBeside.length > 0;
  for (const arm of ["A", "B"] as const) {
    const w = walks[arm];
    if (w !== null && w.scoresBeside.length > 0 && !beside) walks[arm] = { ...w, scores: null, scoresBeside: [] };
  }
  let data: ScoredData | null = null;
  if (req.bfclData !== undefined && bad.length === 0) {
    const read = readScoredData(resolvePath(ctx.cwd, req.bfclData));
    if (read.ok) data = read.value;
    else pushAll(bad, read.problems);
  }
  if (bad.length > 0) return done(bad);
  scoresBeside = [...(walks.A?.scoresBeside ?? []), ...(walks.B?.scoresBeside ?? [])];
  const models = req.models ?? [];
  const table1 = readingById("table-1")!;
  const rule = req.reading ?? "decided";
  const maxUndecided = req.maxUndecided ?? DEFAULT_MAX_UNDECIDED;
  const problems: Problem[] = [];
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
  const replaysOf = data === null ? null : (await import("./replays.js")).replaysOf;
  const modelFiles: { model: string; files: string[] }[] = [];
  const readArm = (arm: "A" | "B", dir: string, scores: string | undefined, files = modelFiles) =>
    readModels<ArmModel | null>(
      {
        ctx,
        results: [dir],
        scores: scores === undefined ? [] : [scores],
        walked: walks[arm]!,
        models,
        manifest: req.manifest,
        oneManifest: "compare",
        pairs: { headline: table1 },
        keep: "all",
        needs: { census: walks[arm]!.scores !== null, texts: data !== null, wholeFiles: data !== null, firstStepTokens: true, injected: true },
        decoder: req.decoder,
      },
      (m) => {
        // the arms' routine warnings are left out, unless --strict makes them findings (then they say why the exit is 1)
        // a folder of lines made with different blocks (or some without one) is named with its arm
        pushAll(problems, m.problems.filter((p) => p.severity === "error" || req.strict === true).map((p) => (p.code === "run-mixed" ? { ...p, message: `arm ${arm} (${dir}): ${p.message}` } : p)));
        files.push({ model: `${m.model} (arm ${arm})`, files: [...Object.values(m.filesUsed).map((f) => f.file), ...Object.values(m.official?.scoreFiles ?? {})] });
        if (m.score === null) return null;
        // one rule with score and report: an arm past --max-undecided gives the model no headline, so no comparison
        const headline = headlineOf(m.score.records, m.manifest, table1, rule, maxUndecided, null);
        if (headline.noHeadline !== null) {
          noHeadline.push({ model: m.model, arm, why: noHeadlineShort(headline.undecided, maxUndecided) });
          headlineLines.set(`${m.model}\u0000${arm}`, `model ${m.model} (arm ${arm}): ${headline.noHeadline}; it is not compared`);
        }
        const records = headline.selection.scored.map((x) => x.record);
        const complete = m.official !== null && m.official.categories.length === 3;
        // said whatever --strict: why an arm read from the reference has no official score change
        pushAll(problems, (m.official?.problems ?? []).filter((p) => p.severity === "error" || p.code === "official-meaningless" || req.strict === true));
        let checked: Pick<Arm, "completions" | "emptyTurns"> = {};
        if (data !== null && replaysOf !== null) {
          // what BFCL's checker says on this arm's model: its twins' completions and its entries under the empty-turn readings
          const replays = replaysOf(m, records, readingPairs(m.manifest, table1), data, { workaround: false, checker: true });
          pushAll(problems, replays.problems);
          checked = { completions: replays.completions, emptyTurns: replays.emptyTurns };
        }
        const history: HistorySource = m.history.protocol === "reference" ? "reference" : "own";
        return { model: m.model, manifest: m.manifest, arm: { records, verdicts: complete ? m.official!.verdicts : null, ...checked }, tokens: m.firstStepTokens, injectedLines: m.injectedLines ?? 0, history, run: m.runRecord === null ? null : describeRun(m.runRecord) };
      },
    );
  const armA = await readArm("A", req.a!, req.scoresA);
  if (!armA.ok) return done([...armA.problems]);
  const armB = await readArm("B", req.b!, req.scoresB);
  if (!armB.ok) return done([...armB.problems]);
  // both arms on one manifest: the BFCL version their result files name
  if (!sameManifest(armA.value.manifest, armB.value.manifest) && armA.value.selected.length > 0 && armB.value.selected.length > 0) {
    const [va, vb] = [armA.value.manifest.source.bfclVersion, armB.value.manifest.source.bfclVersion];
    const why = va === vb ? `their pair manifests differ (both BFCL ${va})` : `their result files are of different BFCL versions (${va} and ${vb})`;
    return done([problem("bfcl-version-mixed", `compare puts both arms on one pair manifest, and ${why}; give one version's runs, or --manifest FILE to force one`)]);
  }
  // a model named and found in one arm only is said below, once
  problems.unshift(...[...armA.value.problems, ...armB.value.problems].filter((p) => p.code !== "model-missing"));
  const inA = armA.value.outputs.filter((m): m is ArmModel => m !== null);
  const inB = armB.value.outputs.filter((m): m is ArmModel => m !== null);
  const namesA = inA.map((m) => m.model);
  const namesB = inB.map((m) => m.model);
  // one rule with score and report: a model found in both arms with no headline in either is not compared, and said so
  const common = namesA.filter((m) => namesB.includes(m));
  noHeadline = noHeadline.filter((x) => common.includes(x.model));
  for (const x of noHeadline) problems.push(problem("no-headline", headlineLines.get(`${x.model}\u0000${x.arm}`)!));
  const withoutHeadline = new Set(noHeadline.map((x) => x.model));
  const names = common.filter((m) => !withoutHeadline.has(m));
  const onlyInA = namesA.filter((m) => !namesB.includes(m));
  const onlyInB = namesB.filter((m) => !namesA.includes(m));
  for (const m of onlyInA) problems.push(problem("model-one-arm", `model ${m} is scored in arm A only; it is not compared`, { file: a, severity: "warning" }));
  for (const m of onlyInB) problems.push(problem("model-one-arm", `model ${m} is scored in arm B only; it is not compared`, { file: b, severity: "warning" }));
  if (names.length === 0 && withoutHeadline.size > 0 && !hasError(problems.filter((p) => p.code !== "no-headline"))) {
    // every common model lacks a headline in an arm: nothing compared, said per model, a finding (exit 1) as in score
    return done(problems, [], onlyInA, onlyInB, 1, [], modelFiles);
  }
  if (names.length === 0) {
    problems.push(problem("no-common-model", `no model scored in both arms${models.length > 0 ? ` (asked for ${models.join(", ")})` : ""}`));
    return done(problems, [], onlyInA, onlyInB, 2, [], modelFiles);
  }
  const results = names.map((name) => {
    const ma = inA.find((m) => m.model === name)!;
    const mb = inB.find((m) => m.model === name)!;
    return { model: name, comparison: compareTwoArms({ label: "A", ...ma.arm }, { label: "B", ...mb.arm }, bootstrap) };
  });
  const histories = names.map((n) => ({ model: n, a: inA.find((m) => m.model === n)!.history, b: inB.find((m) => m.model === n)!.history }));
  // the paper's check that an injected block reached the model (one token difference on every paired item),
  // for the models whose arms record one (`run --inject`), or every model when asked; between two histories
  // the first requests differ by the played turns, so it is not made there
  const injection = names.flatMap((n, i) => {
    if (histories[i].a !== histories[i].b) return [];
    const ma = inA.find((m) => m.model === n)!;
    const mb = inB.find((m) => m.model === n)!;
    const injectedLines = { a: ma.injectedLines, b: mb.injectedLines };
    if (injectedLines.a + injectedLines.b === 0 && req.injectionCheck !== true) return [];
    if (ma.tokens === null || mb.tokens === null) return [];
    return [{ model: n, injectedLines, check: injectionCheck(ma.tokens as Map<string, number | null>, mb.tokens as Map<string, number | null>) }];
  });
  const exitCode: ExitCode = hasError(problems.filter((p) => p.code !== "no-headline")) ? 2 : onlyInA.length + onlyInB.length + noHeadline.length > 0 ? 1 : 0;
  const doc = done(problems, results, onlyInA, onlyInB, exitCode, injection, modelFiles);
  const runs = names.map((n) => ({ model: n, a: inA.find((m) => m.model === n)!.run, b: inB.find((m) => m.model === n)!.run }));
  const withRuns = runs.some((r) => r.a !== null || r.b !== null) ? { ...doc, runs } : doc;
  return histories.some((h) => h.a === "reference" || h.b === "reference") ? { ...withRuns, histories } : withRuns;
}
