/**
 * `twinscore/core`: the pure core, for programs that read their files themselves. Nothing
 * here touches the file system, a process or the network: pass text and parsed values in.
 * The use cases with file access (`scoreRuns`, `checkRuns`, …) are the package's main
 * entry, `twinscore`.
 *
 * @example
 * import { decodeResultLine, parseManifest, readingPairs, readings } from "twinscore/core";
 * const manifest = parseManifest(manifestText);
 * if (manifest.ok) console.log(readingPairs(manifest.value, readings[0]).length); // 223
 */
import { parseBfclFileName as parseBfclFileNameImpl, parseItemId as parseItemIdImpl } from "./bfcl/categories.js";
import { parseScoreFile as parseScoreFileImpl, verdictsOf as verdictsOfImpl } from "./bfcl/scores.js";
import { isWorldChanging as isWorldChangingImpl } from "./catalog/world-changing.js";
import { kindOf as kindOfImpl } from "./catalog/catalog.js";
import { readTwin as readTwinImpl } from "./decision/read-twin.js";
import { scoreModel as scoreModelImpl, scorePair as scorePairImpl } from "./decision/score.js";
import {
  headlineOf as headlineOfImpl,
  pairUnder as pairUnderImpl,
  readingPairs as readingPairsImpl,
  readingRates as readingRatesImpl,
  readings as readingsImpl,
  summarize as summarizeImpl,
} from "./decision/readings.js";
import { extractTurn as extractTurnImpl } from "./extract/extract.js";
import { problem as problemImpl, renderProblemLine as renderProblemLineImpl } from "./messages/problem.js";
import { compareArms as compareArmsImpl } from "./official/compare.js";
import { metricsByName as metricsByNameImpl } from "./official/metric-names.js";
import { computeRunMetrics as computeRunMetricsImpl } from "./official/metrics.js";
import { parseManifest as parseManifestImpl } from "./pairs/manifest-json.js";
import { parseExpression as parseExpressionImpl } from "./python/parse.js";
import { assembleReport as assembleReportImpl } from "./report/assemble.js";
import { renderReport as renderReportImpl } from "./report/render.js";
import { convertToTools as convertToToolsImpl, prepareEntry as prepareEntryImpl } from "./rollout/entry.js";
import { injectionCheck as injectionCheckImpl } from "./rollout/inject-check.js";
import { renderLine as renderLineImpl } from "./rollout/lines.js";
import { runEntry as runEntryImpl, scriptedTurns as scriptedTurnsImpl } from "./rollout/loop.js";
import { selectItems as selectItemsImpl } from "./rollout/selection.js";
import {
  chooseDecoder as chooseDecoderImpl,
  decoderByName as decoderByNameImpl,
  DECODER_NAMES as DECODER_NAMES_IMPL,
} from "./bfcl/decode/index.js";
import { prepareCategory as prepareCategoryImpl, checkResultFile as checkResultFileImpl } from "./simulator/run-check.js";
import { newEvaluatorProcess as newEvaluatorProcessImpl } from "./simulator/runtime.js";
import { decodeResult as decodeResultImpl } from "./bfcl/results.js";
import { checkPairPrefixes as checkPairPrefixesImpl, twinCompletions as twinCompletionsImpl } from "./simulator/prefix-check.js";
import { alignedScore as alignedScoreImpl } from "./official/aligned.js";
import { countReadings as countReadingsImpl, emptyTurnTable as emptyTurnTableImpl } from "./official/empty-turns.js";
import {
  llmUser as llmUserImpl,
  parseUserSimPrompt as parseUserSimPromptImpl,
  NO_QUESTION as NO_QUESTION_IMPL,
} from "./rollout/user-sim.js";

export { multiTurnCategories, shouldAskCategories, scoredResultCategories, bfclVersions } from "./bfcl/categories.js";
export type { BfclVersion, MultiTurnCategory, ShouldAskCategory, ScoredResultCategory } from "./bfcl/categories.js";
export { decodeResultLine, type RecordedRollout } from "./bfcl/results.js";
export type { ScoreFileContent, ScoreHeader, FailedEntry, OfficialVerdict } from "./bfcl/scores.js";
export type { Problem, ProblemCode, Severity } from "./messages/problem.js";
export type { Result } from "./messages/result.js";
export type { Manifest, ManifestPair } from "./pairs/types.js";
export type {
  ScoreOptions,
  PairSet,
  PairRecord,
  TwinReading,
  AnchorCall,
  ModelScore,
  DecisionNumbers,
  ReadingCounts,
  SideRule,
  SideStatus,
  UndecidedCounts,
} from "./decision/types.js";
export type { Reading, ReadingSpec, ReadingRates, PairUnderReading, Headline } from "./decision/readings.js";
export type { ModelRollouts } from "./decision/score.js";
export type { FunctionKind } from "./catalog/types.js";
export type { ExtractedCall, TurnExtraction } from "./extract/types.js";
export type { RunMetrics, ModelMetrics, ManifestCounts, RunMetricsOptions, ModelInputs } from "./official/metrics.js";
export type { MetricValue, MetricsByName } from "./official/metric-names.js";
export type { Arm, ArmComparison } from "./official/compare.js";
export type { BootstrapOptions } from "./stats/bootstrap.js";
export type { AssembleInput, ReportRunInput, ReportModelInput } from "./report/assemble.js";
export type { ReportData } from "./report/types.js";
export type {
  ChatEndpoint,
  ChatRequest,
  ChatOutcome,
  UserTurns,
  LoopOptions,
  EntryExecutor,
  RolloutEntry,
  InjectionCheck,
} from "./rollout/index.js";
export type { Decoder, DecoderName, DecoderChoice, ChooseDecoderInput, DecodeOutcome } from "./bfcl/decode/index.js";
export type { InteractiveUser, UserSimEndpoint, UserSimPrompt, WithheldFacts } from "./rollout/index.js";
export type { CategoryInputs, EntryReadings, FileCheck } from "./simulator/run-check.js";
export type { PairPrefixes, PrefixOutcome, PrefixSources, PrefixCheckOptions } from "./simulator/prefix-check.js";
export type { AlignedScore, AlignedOutcome, AlignedRow, TwinCompletion, WithheldCell, NotCompletedWhy } from "./official/aligned.js";
export type { EmptyTurnCounts, EmptyTurnRow, EmptyTurnCell, EmptyTurnScore, EntryUnderReadings } from "./official/empty-turns.js";

/**
 * Build a problem: the coded, located message every reader returns instead of throwing.
 *
 * @example
 * const p = problem("json-malformed", "line is not JSON", { file: "r.json", line: 3, severity: "warning" });
 */
export const problem: typeof problemImpl = problemImpl;

/**
 * A problem as the one line a terminal shows: `file:line: severity: message [code]`.
 *
 * @example
 * renderProblemLine(problem("file-missing", "manifest not found", { file: "m.json" })); // "m.json: error: manifest not found [file-missing]"
 */
export const renderProblemLine: typeof renderProblemLineImpl = renderProblemLineImpl;

/**
 * The category and index of a BFCL multi-turn item id; null for any other string.
 *
 * @example
 * parseItemId("multi_turn_miss_param_12"); // { category: "miss_param", index: 12 }
 */
export const parseItemId: typeof parseItemIdImpl = parseItemIdImpl;

/**
 * What a BFCL per-model file name holds: version, category and kind (result or score).
 *
 * @example
 * parseBfclFileName("BFCL_v4_multi_turn_base_result.json"); // { version: "v4", category: "base", kind: "result" }
 */
export const parseBfclFileName: typeof parseBfclFileNameImpl = parseBfclFileNameImpl;

/**
 * Parse a BFCL score file's text: its header and its failed entries (a passing entry is
 * one the result file has and this file does not). Malformed lines are problems.
 *
 * @example
 * const parsed = parseScoreFile(text, "BFCL_v4_multi_turn_base_score.json");
 * if (parsed.content) console.log(parsed.content.header.correctCount, parsed.content.failed.size);
 */
export const parseScoreFile: typeof parseScoreFileImpl = parseScoreFileImpl;

/**
 * The official verdict of every id of a result file, from its parsed score file; a header
 * that disagrees with the result file is a problem.
 *
 * @example
 * const { verdicts } = verdictsOf(parsed.content, ids, { scoreFile: "s.json", resultFile: "r.json" });
 * verdicts.get("multi_turn_base_0")?.pass;
 */
export const verdictsOf: typeof verdictsOfImpl = verdictsOfImpl;

/**
 * Read and validate a pair manifest (the package's `data/manifest.json`, or one `pairs` wrote).
 *
 * @example
 * const manifest = parseManifest(text);
 * if (manifest.ok) console.log(manifest.value.pairs.length); // 365
 */
export const parseManifest: typeof parseManifestImpl = parseManifestImpl;

/**
 * Every reading of the decision table (Table 1 first, then each sensitivity): its pair
 * set, login and hold rules, filter and side rule, with its name and meaning.
 *
 * @example
 * readings.map((r) => r.id); // ["table-1", "credited", "logins", …, "release", "bfcl-decoded"]
 */
export const readings: typeof readingsImpl = readingsImpl;

/**
 * The pairs of a reading: Table 1's 223 (`certified`), the 231 before certification, or
 * all 365; `countLogin` adds the two login-only pairs, `restored` the bad-key pairs.
 *
 * @example
 * readingPairs(manifest, { pairSet: "certified", countLogin: false }).length; // 223
 */
export const readingPairs: typeof readingPairsImpl = readingPairsImpl;

/**
 * Score one model on the pairs from its decoded rollouts (by item id, per category): one
 * record per pair, each side with its status (a twin with no rollout is `missing`).
 *
 * @example
 * const pairs = readingPairs(manifest, readings[0]);
 * const score = scoreModel("my-model", pairs, { base, miss_func, miss_param });
 * console.log(summarize(score.records, manifest, readings[0], "decided").decision);
 */
export const scoreModel: typeof scoreModelImpl = scoreModelImpl;

/**
 * Read both twins of one pair (an absent rollout is a missing side): acted on the
 * complete turn, held back on the incomplete one, and the pair's status.
 *
 * @example
 * const record = scorePair(pair, baseRollout, missRollout);
 * console.log(record.status, record.actedOnBase, record.heldBack);
 */
export const scorePair: typeof scorePairImpl = scorePairImpl;

/**
 * One pair as a reading reads it: its status, whether it is scored, act and hold.
 *
 * @example
 * pairUnder(record, readings[0], "decided").scored; // false for a pair with an inference-error side
 */
export const pairUnder: typeof pairUnderImpl = pairUnderImpl;

/**
 * A reading's rates on a model's records: n, act, hold, decision, both, the pairs left
 * out by status, and the 95% cluster-bootstrap intervals when resamples are given.
 *
 * @example
 * readingRates(score.records, manifest, readings[0], "decided", { resamples: 10000, seed: 20260612 }).ci95;
 */
export const readingRates: typeof readingRatesImpl = readingRatesImpl;

/**
 * The decision table's row under a reading (act, hold, decision, the compound credit, the
 * pair rate, per category, in %); NaN with no pair scored.
 *
 * @example
 * summarize(score.records, manifest, readings[0], "decided").decision;
 */
export const summarize: typeof summarizeImpl = summarizeImpl;

/**
 * A model's headline under a reading: its row, interval and undecided pairs, and why it
 * has none when more than `maxUndecided` % of its pairs are not decided.
 *
 * @example
 * headlineOf(score.records, manifest, readings[0], "decided", 10, null).noHeadline; // null for a sound run
 */
export const headlineOf: typeof headlineOfImpl = headlineOfImpl;

/**
 * What one twin's rollout holds on the anchor turn: its status, the on-list calls
 * (world-changing or not), the text and the decode failures.
 *
 * @example
 * const twin = readTwin(rollout, pair.anchorTurn, new Set(pair.tools));
 * twin.status; // "decided"
 */
export const readTwin: typeof readTwinImpl = readTwinImpl;

/**
 * Whether a call changes the state BFCL's checker compares (`echo` only when it writes a
 * file; logins only when asked).
 *
 * @example
 * isWorldChanging({ name: "mv", positional: [], keywords: [] }); // true
 * isWorldChanging({ name: "ls", positional: [], keywords: [] }); // false
 */
export const isWorldChanging: typeof isWorldChangingImpl = isWorldChangingImpl;

/**
 * A function's label in the catalog of the eight API classes: `mutate`, `read` or `login`.
 *
 * @example
 * kindOf("cd"); // "read"
 */
export const kindOf: typeof kindOfImpl = kindOfImpl;

/**
 * The calls of one recorded turn (FC records, `<tool_call>` blocks or Python call text,
 * parsed, never evaluated), restricted to the tool list, with the steps that failed to decode.
 *
 * @example
 * const x = extractTurn(rollout.turns[2], new Set(pair.tools));
 * x.calls.map((c) => c.name);
 */
export const extractTurn: typeof extractTurnImpl = extractTurnImpl;

/**
 * Parse one Python expression (a call string of BFCL's references or a model's text) into
 * a syntax tree, the way CPython's parser reads it; never evaluated.
 *
 * @example
 * const parsed = parseExpression("mv(source='a.txt', destination='b')");
 * if (parsed.ok) console.log(parsed.expr.kind); // "call"
 */
export const parseExpression: typeof parseExpressionImpl = parseExpressionImpl;

/**
 * Every number the paper reports about a run (the table under each reading, rank-1,
 * official raw, where held-back items were lost, …) as one typed object.
 *
 * @example
 * const run = computeRunMetrics(manifest, [{ model: "m", records, loginRecords, verdicts: null, turnCounts: null }], { bootstrap: { resamples: 0, seed: 0 } });
 * run.models[0].tables.C.decision;
 */
export const computeRunMetrics: typeof computeRunMetricsImpl = computeRunMetricsImpl;

/**
 * A run's numbers by the dotted names expected-numbers files use (`tables.C.<model>.decision`, …).
 *
 * @example
 * metricsByName(run).get("counts.scored_pairs"); // 223
 */
export const metricsByName: typeof metricsByNameImpl = metricsByNameImpl;

/**
 * Two arms of one model on the same pairs: act and hold shifts with McNemar tests, the
 * decision change with a paired bootstrap interval, and the official change with flips.
 *
 * @example
 * const c = compareArmRecords({ label: "A", records: a, verdicts: null }, { label: "B", records: b, verdicts: null }, { resamples: 10000, seed: 20260612 });
 * console.log(c.decision.change, c.decision.ci95);
 */
export const compareArmRecords: typeof compareArmsImpl = compareArmsImpl;

/**
 * Gather a report's data from loaded runs (records, verdicts, rollouts), for `renderReport`.
 *
 * @example
 * const data = assembleReport({ title: "runs", manifest, runs, compare: null, labels: null, bootstrap: { resamples: 0, seed: 0 } });
 * if (data.ok) writeFileSync("report.html", renderReport(data.value));
 */
export const assembleReport: typeof assembleReportImpl = assembleReportImpl;

/**
 * The self-contained HTML report of assembled data (inline CSS and SVG, no network; the
 * same data gives the same bytes).
 *
 * @example
 * const html = renderReport(data);
 */
export const renderReport: typeof renderReportImpl = renderReportImpl;

/**
 * Turn one BFCL question line and the function docs of its classes into a rollout entry
 * (turns, tools, initial state) for the generation loop.
 *
 * @example
 * const entry = prepareEntry(questionLine, docsByClass, { file: "BFCL_v4_multi_turn_base.json", line: 1 });
 * if (entry.ok) console.log(entry.value.id);
 */
export const prepareEntry: typeof prepareEntryImpl = prepareEntryImpl;

/**
 * BFCL function docs as the tools of a function-calling request, as BFCL converts them.
 *
 * @example
 * const tools = convertToTools(docs);
 */
export const convertToTools: typeof convertToToolsImpl = convertToToolsImpl;

/**
 * The user turns of an entry as BFCL scripts them (the question's turns, the holdout
 * turn's functions given back), for `runEntry`.
 *
 * @example
 * const turns = scriptedTurns(entry);
 */
export const scriptedTurns: typeof scriptedTurnsImpl = scriptedTurnsImpl;

/**
 * BFCL's multi-turn loop for one entry against a chat endpoint you bring: steps, tool
 * executions on the simulated classes, state snapshots; the result line's content.
 *
 * @example
 * const outcome = await runEntry(entry, { endpoint, userTurns: scriptedTurns(entry), newExecutor });
 */
export const runEntry: typeof runEntryImpl = runEntryImpl;

/**
 * A result line as BFCL writes it (`json.dumps` of the line's dict, key order kept).
 *
 * @example
 * writeFileSync(file, renderLine(outcome.line) + "\n", { flag: "a" });
 */
export const renderLine: typeof renderLineImpl = renderLineImpl;

/**
 * Which items a run generates: all, the scored pairs' twins, or a list of ids.
 *
 * @example
 * const chosen = selectItems("pairs", manifest.pairs, allIds);
 */
export const selectItems: typeof selectItemsImpl = selectItemsImpl;

/**
 * Whether an injected prompt block reached the model, from the first-step input token
 * counts of two arms: the typical difference and the items where it breaks.
 *
 * @example
 * const check = injectionCheck(new Map([["a", 10], ["b", 3]]), new Map([["a", 25], ["b", 18]]));
 * check.mode; // 15
 */
export const injectionCheck: typeof injectionCheckImpl = injectionCheckImpl;

// The aligned numbers: BFCL's checker on turn prefixes ("asked, then did it") and on the
// turns whose reference is empty (the skipped turn, scored), from file texts you read.

/**
 * One category's BFCL data (questions, references, function docs) ready for the checker.
 *
 * @example
 * const inputs = prepareCategory(questionsText, questionsPath, answersText, answersPath, docsByClass);
 * if (inputs.ok) console.log(inputs.value);
 */
export const prepareCategory: typeof prepareCategoryImpl = prepareCategoryImpl;

/**
 * Check one result file as BFCL's multi-turn checker does; with `emptyTurns` every entry is
 * also read with its empty-reference turns scored (strict and world-changing).
 *
 * @example
 * const checked = checkResultFile(bytes, file, { modelName, testCategory: "multi_turn_base", inputs, process: newEvaluatorProcess(), renderScore: false, emptyTurns: "strict" });
 */
export const checkResultFile: typeof checkResultFileImpl = checkResultFileImpl;

/**
 * A fresh emulated Python process for the checker: BFCL's state shared between evaluations
 * of one process (class defaults, caches) starts clean here.
 *
 * @example
 * const process = newEvaluatorProcess(undefined, true, "v4");
 */
export const newEvaluatorProcess: typeof newEvaluatorProcessImpl = newEvaluatorProcessImpl;

/**
 * Decode the `result` of one result line (its JSON text) into a recorded rollout, keeping
 * at most `keepTurns` turns; a problem when it is not one.
 *
 * @example
 * const r = decodeResult(JSON.stringify(line.result), 99, { file: "r.json", line: 1 });
 */
export const decodeResult: typeof decodeResultImpl = decodeResultImpl;

/**
 * BFCL's checker on each twin's prefix up to its answer turn: did the model complete the
 * request (on the withheld twin, once the information was given back)?
 *
 * @example
 * const prefixes = checkPairPrefixes(pairs, { inputs, results }, { modelName, newProcess: () => newEvaluatorProcess(undefined, true) });
 */
export const checkPairPrefixes: typeof checkPairPrefixesImpl = checkPairPrefixesImpl;

/**
 * The completion of both twins of every pair, by base id, from the prefix checks.
 *
 * @example
 * const completions = twinCompletions(prefixes.value);
 */
export const twinCompletions: typeof twinCompletionsImpl = twinCompletionsImpl;

/**
 * The aligned pair score ("asked, then did it"): right decision and completed request on
 * both twins, with the withheld twin's four cells and a cluster-bootstrap interval.
 *
 * @example
 * const s = alignedScore(score.records, completions, { resamples: 0, seed: 0 });
 * console.log(s.aligned, s.n);
 */
export const alignedScore: typeof alignedScoreImpl = alignedScoreImpl;

/**
 * One model's counts of one category under BFCL's score, the strict reading and the
 * world-changing reading of the skipped turn.
 *
 * @example
 * const counts = countReadings("my-model", "miss_func", checked.value.readings);
 */
export const countReadings: typeof countReadingsImpl = countReadingsImpl;

/**
 * The empty-turn table: per category and mean, the accuracy under each reading.
 *
 * @example
 * emptyTurnTable([baseCounts, missFuncCounts, missParamCounts]).map((r) => r.category); // [..., "mean"]
 */
export const emptyTurnTable: typeof emptyTurnTableImpl = emptyTurnTableImpl;

/**
 * The simulated user of interactive runs on an endpoint you bring: it answers the
 * question the model asked from the withheld facts, or says it saw no question.
 *
 * @example
 * const user = llmUser({ endpoint, prompt, facts, answerTurn: 2, maxClarifications: 3, model: "user-sim" });
 */
export const llmUser: typeof llmUserImpl = llmUserImpl;

/**
 * Read a simulated-user prompt file (system part, `---user---`, placeholders); a message
 * saying what is wrong when it is not one.
 *
 * @example
 * const parsed = parseUserSimPrompt(text);
 * if (!parsed.ok) console.error(parsed.message);
 */
export const parseUserSimPrompt: typeof parseUserSimPromptImpl = parseUserSimPromptImpl;

/**
 * The word the simulated user answers with when the model asked nothing.
 *
 * @example
 * reply.trim() === NO_QUESTION;
 */
export const NO_QUESTION: typeof NO_QUESTION_IMPL = NO_QUESTION_IMPL;

// BFCL's decoders: a recorded step read as the model's BFCL handler reads it.

/**
 * The decoder of that name (`fc`, `prompting`, `xlam`, …; see `DECODER_NAMES`), or undefined.
 *
 * @example
 * decoderByName("xlam")!.decode('[{"name": "cd", "arguments": {"folder": "x"}}]'); // { ok: true, calls: ["cd(folder='x')"] }
 */
export const decoderByName: typeof decoderByNameImpl = decoderByNameImpl;

/**
 * Every decoder's name, in the order `--decoder` lists them.
 *
 * @example
 * DECODER_NAMES.includes("fc"); // true
 */
export const DECODER_NAMES: typeof DECODER_NAMES_IMPL = DECODER_NAMES_IMPL;

/**
 * A model folder's decoder, chosen as BFCL chooses the handler (folder name = registry
 * key with `/` as `_`), an override first, else detected from sample steps.
 *
 * @example
 * chooseDecoder({ folder: "Salesforce_Llama-xLAM-2-8b-fc-r", samples: () => [] })!.decoder.name; // "xlam"
 */
export const chooseDecoder: typeof chooseDecoderImpl = chooseDecoderImpl;
