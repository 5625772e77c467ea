/**
 * `compare`, the use case: two arms of the same models (a neutral and an injected prompt,
 * two serving builds, two checkpoints) scored on Table 1's pairs. Per model: the act and
 * hold shifts with exact McNemar tests, the decision change with a paired cluster-bootstrap
 * interval and, with score trees for both arms, the official score change per category
 * with its flips. A model found in one arm only is named, never dropped silently.
 */
import { problem, type Problem } from "../messages/index.js";
import { compareArms as compareTwoArms, type Arm, type ArmComparison } from "../official/compare.js";
import { readingById, readingPairs, selectUnder } from "../decision/readings.js";
import type { SideRule } from "../decision/types.js";
import type { BootstrapOptions } from "../stats/index.js";
import { resolvePath } from "../io/paths.js";
import { modelCompletions, modelEmptyTurns, readAlignedData, type AlignedData } from "../io/aligned-run.js";
import { loadRunInputs, type LoadedModel } from "../io/scores-run.js";
import { twinCompletions } from "../simulator/prefix-check.js";
import { walkBfclTree } from "../io/tree.js";
import { selectModels } from "../io/results.js";
import { firstStepTokensByModel } from "../io/run-output.js";
import { injectionCheck, type InjectionCheck } from "../rollout/inject-check.js";
import type { DecoderName } from "../bfcl/decode/index.js";
import { badArgument, bootstrapOf, contextOf, hasError, strictExitCode, type ExitCode, type RequestContext } from "./common.js";
import { oneManifestForModels } from "./data-version.js";

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
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
}

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
   * Per compared model with token counts in both arms: whether an injected prompt block
   * reached the model (first-step input tokens B − A, its distribution, the items off it).
   */
  readonly injection: readonly { readonly model: string; readonly check: InjectionCheck }[];
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
export async function compareArms(req: CompareRequest): Promise<CompareDocument> {
  const ctx = contextOf(req);
  const boot = bootstrapOf(req.bootstrap);
  const bootstrap = boot.ok ? boot.value : { resamples: 0, seed: 0 };
  const a = req.a === undefined ? "" : resolvePath(ctx.cwd, req.a);
  const b = req.b === undefined ? "" : resolvePath(ctx.cwd, req.b);
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
    injection,
    modelFiles,
    problems,
    exitCode: strictExitCode(exitCode, problems, req.strict),
  });
  // every argument before any input is read
  const bad: Problem[] = boot.ok ? [] : [...boot.problems];
  if (req.a === undefined || req.b === undefined) bad.push(badArgument("give both --a DIR and --b DIR (the two arms' result trees)"));
  if ((req.scoresA === undefined) !== (req.scoresB === undefined)) bad.push(badArgument("give --scores-a and --scores-b together (or neither)"));
  for (const dirs of [[req.a], [req.b]]) if (dirs[0] !== undefined) bad.push(...walkBfclTree(dirs, ctx.cwd, "result").problems.filter((p) => p.severity === "error"));
  for (const dir of [req.scoresA, req.scoresB]) if (dir !== undefined) bad.push(...walkBfclTree([dir], ctx.cwd, "score").problems.filter((p) => p.severity === "error"));
  let data: AlignedData | null = null;
  if (req.bfclData !== undefined && bad.length === 0) {
    const read = readAlignedData(resolvePath(ctx.cwd, req.bfclData));
    if (read.ok) data = read.value;
    else bad.push(...read.problems);
  }
  if (bad.length > 0) return done(bad);
  const models = req.models ?? [];
  // both arms on one manifest: the BFCL version their result files name, their rollouts checked against it
  const armModels = [req.a, req.b].flatMap((dir) => selectModels(walkBfclTree([dir], ctx.cwd, "result"), models).models);
  const loaded = oneManifestForModels(armModels, req.manifest, ctx, "compare");
  if (!loaded.ok) return done([...loaded.problems]);
  const manifest = loaded.value.manifest;
  const load = (dir: string, scores: string | undefined) =>
    loadRunInputs({ resultDirs: [dir], scoreDirs: scores === undefined ? [] : [scores], models, manifest, cwd: ctx.cwd, ...(req.decoder !== undefined ? { decoder: req.decoder } : {}) });
  const armA = load(req.a, req.scoresA);
  const armB = load(req.b, req.scoresB);
  // the arms' routine warnings are left out, unless --strict makes them findings (then they say why the exit is 1)
  const problems: Problem[] = [...loaded.value.warnings, ...[...armA.problems, ...armB.problems].filter((p) => p.severity === "error" || req.strict === true)];
  const armFiles = (arm: string, models: readonly LoadedModel[]) =>
    models.map((m) => ({ model: `${m.inputs.model} (arm ${arm})`, files: [...Object.values(m.resultFiles), ...Object.values(m.official.scoreFiles)] }));
  const modelFiles = [...armFiles("A", armA.models), ...armFiles("B", armB.models)];
  const namesA = armA.models.map((m) => m.inputs.model);
  const namesB = armB.models.map((m) => m.inputs.model);
  const names = namesA.filter((m) => namesB.includes(m));
  const onlyInA = namesA.filter((m) => !namesB.includes(m));
  const onlyInB = namesB.filter((m) => !namesA.includes(m));
  for (const m of onlyInA) problems.push(problem("model-one-arm", `model ${m} is scored in arm A only; it is not compared`, { file: a, severity: "warning" }));
  for (const m of onlyInB) problems.push(problem("model-one-arm", `model ${m} is scored in arm B only; it is not compared`, { file: b, severity: "warning" }));
  if (names.length === 0) {
    problems.push(problem("no-common-model", `no model scored in both arms${models.length > 0 ? ` (asked for ${models.join(", ")})` : ""}`));
    return done(problems, [], onlyInA, onlyInB, 2, [], modelFiles);
  }
  const table1 = readingById("table-1")!;
  const rule = req.reading ?? "decided";
  const scoredPairs = readingPairs(manifest, table1);
  const scoredOf = (m: LoadedModel) => selectUnder(m.inputs.records, manifest, table1, rule).scored.map((x) => x.record);
  /** What BFCL's checker says on one arm's model: its twins' completions and its entries under the empty-turn readings. */
  const checked = (m: LoadedModel): Pick<Arm, "completions" | "emptyTurns"> => {
    if (data === null) return {};
    const files = { modelName: m.folder, files: m.resultFiles, decoder: m.decoder };
    const prefixes = modelCompletions(files, scoredPairs, data);
    const entries = modelEmptyTurns(files, data);
    problems.push(...(prefixes.ok ? prefixes.value.problems : prefixes.problems), ...(entries.ok ? entries.value.problems : entries.problems));
    return { completions: prefixes.ok ? twinCompletions(prefixes.value.prefixes) : null, emptyTurns: entries.ok ? entries.value.readings : null };
  };
  const results = names.map((name) => {
    const la = armA.models.find((m) => m.inputs.model === name)!;
    const lb = armB.models.find((m) => m.inputs.model === name)!;
    const ma = la.inputs;
    const mb = lb.inputs;
    const comparison = compareTwoArms(
      { label: "A", records: scoredOf(la), verdicts: ma.verdicts, ...checked(la) },
      { label: "B", records: scoredOf(lb), verdicts: mb.verdicts, ...checked(lb) },
      bootstrap,
    );
    return { model: name, comparison };
  });
  // the paper's check that an injected block reached the model: one token difference on every paired item
  const tokensA = firstStepTokensByModel(a);
  const tokensB = firstStepTokensByModel(b);
  const injection = names
    .filter((n) => tokensA.has(n) && tokensB.has(n))
    .map((n) => ({ model: n, check: injectionCheck(tokensA.get(n) as Map<string, number | null>, tokensB.get(n) as Map<string, number | null>) }));
  const exitCode: ExitCode = hasError(problems) ? 2 : onlyInA.length + onlyInB.length > 0 ? 1 : 0;
  return done(problems, results, onlyInA, onlyInB, exitCode, injection, modelFiles);
}
