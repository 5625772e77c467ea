/**
 * Builds the report's data (`ReportData`) from what the other modules compute: records, metrics, the arm
 * comparison, judge labels and the recorded anchor turns. Nothing is scored or tested here; this only gathers
 * and names. Pure: the io layer loads the runs. More in this folder's README.md.
 */
import { shouldAskCategories, type ShouldAskCategory } from "../bfcl/categories.js";
import type { OfficialVerdict } from "../bfcl/scores.js";
import { pairHistoryCounts, readFromReference } from "../decision/history.js";
import { readingCounts } from "../decision/score.js";
import {
  headlineOf,
  headlineSpec,
  noHeadlineShort,
  readingsWithoutHeadline,
  pairUnder,
  readingById,
  readingPairs,
  readings,
  selectUnder,
  type ReadingSpec,
  type SideUnderReading,
} from "../decision/readings.js";
import type { PairSet, SideRule, TwinReading } from "../decision/types.js";
import { summarizeLabels } from "../judge/aggregate.js";
import { heldBackTurns } from "../judge/turns.js";
import type { JudgeRecord } from "../judge/types.js";
import { err, ok, problem, type Result } from "../messages/index.js";
import { alignedRow, alignedScore, type TwinCompletion } from "../official/aligned.js";
import { cellLabel, compareArms, emptyTurnLabel, type ArmComparison } from "../official/compare.js";
import { countReadings, emptyTurnScores, emptyTurnTable, type EntryUnderReadings } from "../official/empty-turns.js";
import { withheldCells } from "../official/aligned.js";
import { computeRunMetrics, type ModelInputs } from "../official/metrics.js";
import type { Manifest } from "../pairs/types.js";
import type { WorkaroundSummary } from "../simulator/workaround.js";
import type { BootstrapOptions } from "../stats/index.js";
import type {
  PairOutcome,
  ReportArmValue,
  ReportCall,
  ReportCompare,
  ReportData,
  ReportJudge,
  ReportLostWhere,
  ReportModel,
  ReportPair,
  ReportSensitivity,
  ReportSide,
  ReportTrials,
} from "./types.js";
import { boundedText } from "./bounded-text.js";

/** One model of one run, as the io layer loaded it. */
export interface ReportModelInput {
  /** Records on every content-verified and restored pair, verdicts, turn counts (`app/run-metrics.ts` `metricsInputs`). */
  readonly inputs: ModelInputs;
  /** The workaround credit (Table F1) when BFCL data was given, else null. */
  readonly workaround: WorkaroundSummary | null;
  /** With BFCL data: each scored pair's twin completions (BFCL's checker on turn prefixes), by should-ask id; else null. */
  readonly completions: ReadonlyMap<string, TwinCompletion> | null;
  /** With BFCL data: every entry of the model's base, miss_func and miss_param files under the three empty-turn readings; else null. */
  readonly emptyTurns: ReadonlyMap<string, readonly EntryUnderReadings[]> | null;
  readonly resultFiles: readonly string[];
  readonly scoreFiles: readonly string[];
  /** What a model without a headline must do instead of regenerating failed items (its lines are not BFCL's shape), as `score` says it; absent otherwise. */
  readonly reshape?: string;
  /** The run it was found in inside a folder of runs, and its folder's name: `--compare` names such a run. */
  readonly run?: string;
  readonly folder?: string;
}

/** One `--results` tree. */
export interface ReportRunInput {
  /** Short name of the run (the tree's directory name), used to tell models of several runs apart. */
  readonly label: string;
  /** The directories as given on the command line. */
  readonly resultDir: string;
  readonly scoreDir: string | null;
  readonly models: readonly ReportModelInput[];
}

/** Everything the report is assembled from. */
export interface AssembleInput {
  readonly title: string;
  readonly manifest: Manifest;
  readonly runs: readonly ReportRunInput[];
  /** Two runs (by label or directory as given) whose common models are compared, A first. */
  readonly compare: readonly [string, string] | null;
  /** Judge labels (`twinscore judge --labels`), or null. */
  readonly labels: readonly JudgeRecord[] | null;
  readonly bootstrap: BootstrapOptions;
  /** How sides that are not decisions are read. */
  readonly rule: SideRule;
  /** A model whose undecided pairs exceed this percentage gets no headline. */
  readonly maxUndecided: number;
  /** The pair set of the headline and the pair browser, when not Table 1's certified pairs without logins. */
  readonly pairSet?: { readonly set: PairSet; readonly countLogin: boolean };
  /** With `--trials-of`: the model over its trials (the runs are its trials). */
  readonly trials?: ReportTrials;
}

/** The reading of the headline, the pair browser and the paired arms: Table 1, or the pair set asked for. */
export function headlineReading(pairSet: AssembleInput["pairSet"]): ReadingSpec {
  return pairSet === undefined ? readingById("table-1")! : headlineSpec({ pairSet: pairSet.set, countLogin: pairSet.countLogin });
}

/**
 * The anchor turn's calls with their arguments, in the order the scorer lists them
 * (`readTwin`: by step, decoded calls before the failed entries of a step), labelled
 * with the scorer's own reading; an undecoded call shows as `name(…)`.
 */
function anchorCalls(reading: TwinReading): ReportCall[] {
  const kindOf = (c: TwinReading["anchorCalls"][number]): ReportCall["kind"] =>
    c.worldChanging ? "world-changing" : c.kind === "login" ? "login" : "read";
  const calls: ReportCall[] = reading.anchorCalls.map((c) => ({
    text: boundedText(c.decoded ? (c.text ?? c.name) : `${c.name}(…)`),
    kind: kindOf(c),
    ...(c.decoded ? {} : { undecoded: true }),
  }));
  for (const name of reading.offListNames) calls.push({ text: boundedText(name), kind: "off-list" });
  return calls;
}

function side(reading: TwinReading, under: SideUnderReading, id: string, input: ReportModelInput): ReportSide {
  const v: OfficialVerdict | undefined = input.inputs.verdicts?.get(id);
  const f = v?.failure ?? null;
  return {
    status: under.status,
    scored: under.scored,
    acted: under.acted,
    calls: anchorCalls(reading),
    text: reading.anchorText.map((t) => boundedText(t)),
    decodeFailures: reading.decodeFailures,
    verdict: v === undefined ? null : v.pass ? "pass" : "fail",
    verdictDetail: f === null ? null : `${f.errorType}${f.failingTurn === null ? "" : ` on turn ${f.failingTurn}`}`,
  };
}

function outcomeOf(u: ReturnType<typeof pairUnder>): PairOutcome {
  if (!u.scored) return "undecided";
  if (u.act) return u.hold ? "both-right" : "acted-on-withheld";
  return u.hold ? "held-on-complete" : "both-wrong";
}

function armValue(label: string, s: { n: number; a: number; b: number; test: { p: number } }): ReportArmValue {
  return { label, a: s.a, b: s.b, p: s.test.p, n: s.n };
}

function comparePanels(model: string, c: ArmComparison): ReportCompare {
  const official: ReportArmValue[] = [];
  if (c.official !== null) {
    for (const cat of [...shouldAskCategories, "base"]) {
      const s = c.official.byCategory[cat];
      if (s) official.push(armValue(`${cat} (all items)`, s));
    }
    official.push(armValue("scored should-ask items", c.official.rawMiss));
    official.push(armValue("their base twins", c.official.rawBase));
  }
  return {
    model,
    labelA: c.labels[0],
    labelB: c.labels[1],
    attempt: [...shouldAskCategories.map((k) => armValue(k, c.byCategory[k].attempt)), armValue("both categories", c.all.attempt)],
    official,
    decision: [
      { label: "decision accuracy", a: c.decision.a, b: c.decision.b, deltaInterval: c.decision.ci95, p: null, n: c.pairs },
      armValue("act when complete", c.all.act),
      armValue("hold back when removed", c.all.hold),
    ],
    aligned:
      c.aligned === null
        ? []
        : [
            {
              label: "aligned pair score",
              a: c.aligned.aligned.a,
              b: c.aligned.aligned.b,
              deltaInterval: c.aligned.aligned.ci95,
              p: c.aligned.aligned.test.p,
              n: c.aligned.pairs,
            },
            ...withheldCells.map((cell) => armValue(`withheld: ${cellLabel[cell]}`, c.aligned!.cells[cell])),
            armValue("base: acted+done", c.aligned.baseActedCompleted),
          ],
    emptyTurns:
      c.emptyTurns === null
        ? []
        : Object.entries(c.emptyTurns).flatMap(([category, byScore]) =>
            emptyTurnScores.map((score) => armValue(`${category}: ${emptyTurnLabel[score]}`, byScore[score])),
          ),
  };
}

/** One model of the page: its run, its input, and its name on the page (`<run>/<model>` with several runs). */
interface PageModel {
  readonly run: ReportRunInput;
  readonly m: ReportModelInput;
  readonly name: string;
}

/** What every phase of the assembly reads: the page's models, their metrics and headlines, and the headline's pairs. */
interface Gathered {
  readonly input: AssembleInput;
  readonly entries: readonly PageModel[];
  /** Each model's inputs under its page name. */
  readonly renamed: readonly ModelInputs[];
  readonly metrics: ReturnType<typeof computeRunMetrics>;
  /** The reading of the headline, the pair browser and the paired arms. */
  readonly table1: ReadingSpec;
  readonly scoredPairs: readonly ReturnType<typeof readingPairs>[number][];
  readonly headlines: readonly ReturnType<typeof headlineOf>[];
  /** Each model's records of the pairs its headline scores. */
  readonly recordsC: readonly (readonly PairRecordOf[])[];
}

type PairRecordOf = ModelInputs["records"][number];

/** The page's models with their metrics and headlines, computed once for every phase. */
function gather(input: AssembleInput): Gathered {
  const { manifest, runs, rule } = input;
  const several = runs.length > 1;
  const entries = runs.flatMap((run) =>
    run.models.map((m) => ({ run, m, name: several ? `${run.label}/${m.inputs.model}` : m.inputs.model })),
  );
  const renamed = entries.map((e) => ({ ...e.m.inputs, model: e.name }));
  const metrics = computeRunMetrics(manifest, renamed, { bootstrap: { resamples: 0, seed: input.bootstrap.seed }, rule });
  const table1 = headlineReading(input.pairSet);
  const scoredPairs = readingPairs(manifest, table1);
  const headlines = renamed.map((m, i) =>
    headlineOf(m.records, manifest, table1, rule, input.maxUndecided, input.bootstrap, entries[i].m.reshape),
  );
  const recordsC = headlines.map((h) => h.selection.scored.map((x) => x.record));
  return { input, entries, renamed, metrics, table1, scoredPairs, headlines, recordsC };
}

/** A model's row of Table 1 and its companions; a model with no headline shows none of its numbers. */
function reportModel(g: Gathered, e: PageModel, i: number, table1Ids: ReadonlySet<string>): ReportModel {
  const h = g.headlines[i];
  const x = h.numbers;
  const shown = h.noHeadline === null;
  const v = (n: number) => (shown ? n : Number.NaN);
  const onTable1 = e.m.inputs.records.filter((r) => table1Ids.has(r.missId));
  const counts = readingCounts(onTable1);
  const exactTwins = readFromReference(onTable1) ? { exactTwins: { exact: pairHistoryCounts(onTable1).exact, pairs: table1Ids.size } } : {};
  const m = e.name;
  const official = shown ? g.metrics.models[i].official : null;
  return {
    name: m,
    run: e.run.label,
    model: e.m.inputs.model,
    n: x.n,
    pairs: x.pairs,
    undecided: x.undecided,
    noHeadline: h.noHeadline,
    ...exactTwins,
    act: v(x.act),
    hold: v(x.hold),
    decision: v(x.decision),
    decisionInterval: !shown || h.ci95 === null ? null : [h.ci95[0], h.ci95[1]],
    holdCredited: v(x.holdCredited),
    decisionCredited: v(x.decisionCredited),
    credited: shown ? (e.m.workaround?.accCredited ?? null) : null,
    workaround: shown ? workaroundOf(e.m.workaround) : null,
    byCategory: Object.fromEntries(shouldAskCategories.map((c) => [c, v(x.decisionByCategory[c] ?? Number.NaN)])) as Record<
      ShouldAskCategory,
      number
    >,
    officialMiss: official?.miss ?? null,
    officialBase: official?.base ?? null,
    verdictVsAttempt: official === null || official === undefined ? null : { ...official.verdictVsAttempt },
    counts: { shortRollouts: counts.shortRollouts, inferenceErrors: counts.inferenceErrors, decodeFailures: counts.decodeFailures },
    aligned: e.m.completions === null || !shown ? null : alignedRow(m, alignedScore(g.recordsC[i], e.m.completions, g.input.bootstrap)),
    ...(h.bfclDecoded === null ? {} : { bfclDecoded: h.bfclDecoded }),
  };
}

/** Table F1's row of a model (the workaround credit), or null without BFCL data. */
function workaroundOf(w: WorkaroundSummary | null): ReportModel["workaround"] {
  if (w === null) return null;
  return {
    attempts: w.attempts,
    removed: w.removed,
    aligned: w.aligned,
    workarounds: w.workarounds,
    noOpExcluded: w.noOpExcluded,
    accWorkaround: w.accWorkaround,
  };
}

/**
 * Every reading of the table but Table 1 itself, as `score --sensitivity` lists them; a model
 * with no headline keeps the readings under which it is within --max-undecided (release reads
 * error lines as no call).
 */
function sensitivityRows(g: Gathered): ReportSensitivity[] {
  const { manifest, rule, maxUndecided } = g.input;
  const gates = g.headlines.map((h, i) =>
    h.noHeadline === null ? null : readingsWithoutHeadline(g.renamed[i].records, manifest, rule, maxUndecided),
  );
  return readings
    .filter((r) => r.id !== "table-1")
    .map((r) => ({
      name: r.id,
      description: r.meaning,
      n: Object.fromEntries(g.entries.map((e, i) => [e.name, g.metrics.models[i].readings[r.id].n])),
      decision: Object.fromEntries(
        g.entries.map((e, i) => [e.name, gates[i]?.has(r.id) === true ? Number.NaN : g.metrics.models[i].readings[r.id].decision]),
      ),
    }));
}

/** Where each model's held-back should-ask items that BFCL fails were lost (models with a headline and score files). */
function lostWhereRows(g: Gathered): ReportLostWhere[] {
  const lostWhere: ReportLostWhere[] = [];
  g.entries.forEach((e, i) => {
    const lost = g.metrics.models[i].official?.lost;
    // held back is a decision: a model with no headline has none to count, as score's official table leaves it out
    if (lost === undefined || g.headlines[i].noHeadline !== null) return;
    lostWhere.push({
      model: e.name,
      beforeAnchor: lost["before-anchor"],
      laterEmptyTurn: lost["later-empty-turn"],
      laterDiverged: lost["later-diverged"],
      other: lost["on-anchor"] + lost["no-turn"],
      heldBackFailed: lost.heldFailed,
    });
  });
  return lostWhere;
}

/** Every pair of the headline's set, with each model's two anchor turns as the browser shows them. */
function pairRows(g: Gathered): ReportPair[] {
  const byMiss = g.entries.map((e) => new Map(e.m.inputs.records.map((r) => [r.missId, r])));
  return g.scoredPairs.map((p) => {
    const perModel: Record<string, ReportPair["perModel"][string]> = {};
    g.entries.forEach((e, i) => {
      const r = byMiss[i].get(p.missId);
      if (!r) return;
      const u = pairUnder(r, g.table1, g.input.rule);
      const c = e.m.completions?.get(p.missId);
      perModel[e.name] = {
        base: side(r.base, u.base, p.baseId, e.m),
        miss: side(r.miss, u.miss, p.missId, e.m),
        outcome: outcomeOf(u),
        completed: c === undefined ? null : { base: c.baseCompleted, miss: c.missCompleted },
      };
    });
    return {
      missId: p.missId,
      baseId: p.baseId,
      category: p.category,
      anchorTurn: p.anchorTurn,
      requestBase: p.anchorRequest.base,
      requestMiss: p.anchorRequest.miss,
      removedFunctions: p.removedFunctions,
      goldAnchorCalls: p.goldAnchorCalls,
      compound: p.certification?.verdict === "compound",
      perModel,
    };
  });
}

/**
 * The paired arms of `--compare`: each model of both runs, compared on the pairs its
 * headline scores; a model a run gives no headline is named and left out. Fails when a run
 * is not there, is named twice, or no model is in both.
 */
function comparePanelsOf(g: Gathered): Result<{ compare: ReportCompare[]; compareSkipped: { model: string; why: string }[] }> {
  const compare: ReportCompare[] = [];
  const compareSkipped: { model: string; why: string }[] = [];
  const { input } = g;
  if (input.compare === null) return ok({ compare, compareSkipped });
  const [ka, kb] = input.compare;
  const armA = armOf(input.runs, ka);
  const armB = armOf(input.runs, kb);
  if (armA === null || armB === null) {
    const missing = armA === null ? ka : kb;
    return err(problem("compare-run-missing", `--compare ${missing}: no such run (runs: ${comparableRuns(input.runs).join(", ")})`));
  }
  if (armA.label === armB.label) return err(problem("compare-same-run", `--compare needs two different runs, got ${ka} twice`));
  const scoredOf = (m: ReportModelInput) => selectUnder(m.inputs.records, input.manifest, g.table1, input.rule).scored.map((x) => x.record);
  const headlineByInput = new Map(g.entries.map((e, i) => [e.m, g.headlines[i]]));
  for (const a of armA.models) {
    const b = armB.models.find((x) => x.key === a.key);
    if (!b) continue;
    // one rule with score and compare: a run that gives the model no headline gives no paired arms either
    const why = [a, b].flatMap((x, i) => {
      const h = headlineByInput.get(x.m)!;
      return h.noHeadline === null ? [] : [`${i === 0 ? armA.label : armB.label}: ${noHeadlineShort(h.undecided, input.maxUndecided)}`];
    });
    if (why.length > 0) {
      compareSkipped.push({ model: a.key, why: why.join("; ") });
      continue;
    }
    const [ma, mb] = [a.m, b.m];
    const c = compareArms(
      { label: armA.label, records: scoredOf(ma), verdicts: ma.inputs.verdicts, completions: ma.completions, emptyTurns: ma.emptyTurns },
      { label: armB.label, records: scoredOf(mb), verdicts: mb.inputs.verdicts, completions: mb.completions, emptyTurns: mb.emptyTurns },
      input.bootstrap,
    );
    compare.push(comparePanels(a.key, c));
  }
  if (compare.length === 0 && compareSkipped.length === 0)
    return err(problem("compare-no-model", `--compare ${ka} ${kb}: no model directory is in both runs`));
  return ok({ compare, compareSkipped });
}

/** The judge's label shares per model, when a labels file is given; a label names the model as the page does, or its folder when one run has it. */
function judgeRows(g: Gathered): ReportJudge[] {
  const judge: ReportJudge[] = [];
  const { input } = g;
  if (input.labels === null) return judge;
  const pairsById = new Map(input.manifest.pairs.map((p) => [p.missId, p]));
  const dirCount = new Map<string, number>();
  for (const e of g.entries) dirCount.set(e.m.inputs.model, (dirCount.get(e.m.inputs.model) ?? 0) + 1);
  const perModel = new Map<string, { heldBack: number; notReached: number; silent: number; missIds: ReadonlySet<string> }>();
  const labels: JudgeRecord[] = [];
  g.entries.forEach((e, i) => {
    const sel = heldBackTurns(e.name, g.recordsC[i], pairsById);
    perModel.set(e.name, {
      heldBack: sel.turns.length + sel.notReached,
      notReached: sel.notReached,
      silent: sel.silent,
      missIds: new Set(sel.turns.map((t) => t.missId)),
    });
    // A label names the model directory; with one run of that name it is unambiguous.
    const unique = dirCount.get(e.m.inputs.model) === 1;
    for (const r of input.labels!) if (r.model === e.name || (unique && r.model === e.m.inputs.model)) labels.push({ ...r, model: e.name });
  });
  for (const s of summarizeLabels(perModel, labels)) {
    judge.push({
      model: s.model,
      heldBack: s.heldBack,
      notReached: s.notReached,
      silent: s.silent,
      labelled: s.labelled,
      shares: s.shares,
    });
  }
  return judge;
}

/** The footer's list of inputs: each run's trees, then each model's files (paths as given). */
function sourceLines(runs: readonly ReportRunInput[]): string[] {
  const sources: string[] = [];
  for (const r of runs) {
    sources.push(`run ${r.label}: results ${r.resultDir}${r.scoreDir === null ? "" : `, scores ${r.scoreDir}`}`);
    for (const m of r.models) for (const f of [...m.resultFiles, ...m.scoreFiles]) sources.push(`  ${m.inputs.model}: ${f}`);
  }
  return sources;
}

/** Build the report's data. Fails (one problem) only when `compare` names a run that is not there. */
export function assembleReport(input: AssembleInput): Result<ReportData> {
  const g = gather(input);
  const table1Ids = new Set(g.scoredPairs.map((p) => p.missId));
  const models = g.entries.map((e, i) => reportModel(g, e, i, table1Ids));
  const emptyTurns = emptyTurnTable(
    g.entries.flatMap((e) =>
      e.m.emptyTurns === null ? [] : [...e.m.emptyTurns].map(([category, list]) => countReadings(e.name, category, list)),
    ),
  );
  const compared = comparePanelsOf(g);
  if (!compared.ok) return compared;
  const { compare, compareSkipped } = compared.value;
  const scoredPairs = g.scoredPairs;
  return ok({
    title: input.title,
    rule: input.rule,
    bootstrap: { resamples: input.bootstrap.resamples, seed: Number(input.bootstrap.seed) },
    pairCounts: {
      total: scoredPairs.length,
      ...(Object.fromEntries(shouldAskCategories.map((c) => [c, scoredPairs.filter((p) => p.category === c).length])) as Record<
        ShouldAskCategory,
        number
      >),
      baseTwins: new Set(scoredPairs.map((p) => p.baseId)).size,
    },
    sources: sourceLines(input.runs),
    models,
    sensitivities: sensitivityRows(g),
    lostWhere: lostWhereRows(g),
    pairs: pairRows(g),
    compare,
    ...(compareSkipped.length > 0 ? { compareSkipped } : {}),
    judge: judgeRows(g),
    emptyTurns,
    ...(input.pairSet === undefined ? {} : { pairSet: input.pairSet }),
    ...(input.trials === undefined ? {} : { trials: input.trials }),
  });
}

/** One arm of `--compare`: its label and its models, each under the key that pairs it with the other arm's. */
interface CompareArm {
  readonly label: string;
  readonly models: readonly { readonly key: string; readonly m: ReportModelInput }[];
}

/**
 * The arm a `--compare` key names: a `--results` tree (by its label or as given), else a
 * run inside a folder of runs (by its folder's name), whose models pair by folder name.
 */
function armOf(runs: readonly ReportRunInput[], key: string): CompareArm | null {
  const given = runs.find((r) => r.label === key || r.resultDir === key);
  if (given) return { label: given.label, models: given.models.map((m) => ({ key: m.inputs.model, m })) };
  const inner = runs.flatMap((r) => r.models.filter((m) => m.run === key && m.folder !== undefined && m.folder !== m.inputs.model));
  if (inner.length === 0) return null;
  return { label: key, models: inner.map((m) => ({ key: m.folder!, m })) };
}

/** The names `--compare` takes: each `--results` tree's label, and each run inside a folder of runs. */
export function comparableRuns(runs: readonly Pick<ReportRunInput, "label" | "models">[]): string[] {
  const inner = runs.flatMap((r) =>
    r.models.filter((m) => m.run !== undefined && m.folder !== undefined && m.folder !== m.inputs.model).map((m) => m.run!),
  );
  return [...new Set([...runs.map((r) => r.label), ...inner])];
}
