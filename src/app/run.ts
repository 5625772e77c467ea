/**
 * `twinscore run`, the use case: generate BFCL result files for a model behind an
 * OpenAI-compatible endpoint. Reads the BFCL data, selects the items, runs BFCL's loop
 * (`rollout/`) on each with the project's client (`io/openai-chat.ts`) and the
 * re-implemented executor, appends each finished line to its category file, and at the
 * end rewrites each file sorted as BFCL sorts it. Resumable: ids already in the output
 * are skipped (error lines too, unless `retryErrors`).
 *
 * Interactive mode (`userSim`): on each should-ask item of the manifest's pairs, an LLM
 * behind a second endpoint plays the user on the answer turn T+1 (`rollout/user-sim.ts`);
 * base items and every other entry run on BFCL's script.
 *
 * `history: "reference"` (exact twins): each item of the selected pairs gets one line per
 * distinct anchor turn of its pairs, whose turns before the anchor are played from the
 * reference (`rollout/reference-history.ts`) and whose anchor turn is generated; the line
 * stops after it unless `continueAfterAnchor`. Each such line runs in an executor process
 * of its own, so two lines of one base item never share instances (BFCL's instance names
 * are per model and id) and no other line's calls reach its world.
 */
import { docFile, multiTurnDocFiles, questionsFile, type MultiTurnClass } from "../bfcl/data.js";
import { pushAll, err, ok, problem, type Problem, type Result } from "../messages/index.js";
import type { Manifest } from "../pairs/types.js";
import { PyDict } from "../python/containers.js";
import type { PyValue } from "../python/value.js";
import { decodeFcStep, decodePromptingStep } from "../bfcl/decode/index.js";
import { parsePyJsonLines } from "../simulator/run-check.js";
import { answersFile, type BfclVersion } from "../bfcl/categories.js";
import { parseAnswers } from "../bfcl/data.js";
import type { HistorySource } from "../bfcl/line-keys.js";
import { newEvaluatorProcess } from "../simulator/runtime.js";
import {
  modelDirName,
  prepareEntry,
  processExecutor,
  renderLine,
  resultFileName,
  runCategories,
  runEntry,
  selectItems,
  compareIds,
  errorLine,
  systemPromptFromBfcl,
  systemPromptFromFile,
  type ChatEndpoint,
  type ItemSelection,
  type RolloutEntry,
  type RunCategory,
  type SystemPromptBuilder,
  type InteractiveUser,
  type UserSimEndpoint,
  type UserSimPrompt,
  llmUser,
  parseUserSimPrompt,
  STOPPED_AFTER_TURN_KEY,
  USER_SIMULATOR_KEY,
  methodParameterNames,
  playedHistory,
  withPlayedKeys,
  type PlayedHistory,
} from "../rollout/index.js";
import { createChatClient, endpointSecrets, MAX_REPLY_BYTES_LIMIT, shownUrl, type RetryInfo } from "../io/openai-chat.js";
import { checkEndpoints, endpointArgumentProblem, MAX_TIMEOUT_SECONDS, type EndpointTarget } from "./endpoint-check.js";
import {
  acquireRunLock,
  appendLine,
  findBfclPromptsFile,
  makeOutputFolder,
  openResultFile,
  pathExists,
  readTextIfFile,
  realFileOps,
  removeInterruptedRewrites,
  rewriteSorted,
  staleLockWarning,
  type ResultFileIndex,
  type ResultFileOps,
} from "../io/run-output.js";
import { keyFromEnv, redactorOf, redactPyValue, type Redactor } from "../io/secrets.js";
import { PyException } from "../python/exception.js";
import { resolveBfclDataDir } from "../io/bfcl-data.js";
import { committedDataPath, loadManifest } from "../io/manifest.js";
import { resolvePath } from "../io/paths.js";
import { contextOf, numberProblem, type ExitCode, type RequestContext } from "./common.js";
import { MODE_KEY } from "../bfcl/line-keys.js";
import type { RunRecord, RunSettings } from "../rollout/run-record.js";
import type { LineReading } from "../rollout/lines.js";
import { readRunRecord, writeRunRecord } from "../io/run-record.js";
import { scanResultFile } from "../io/run-output.js";
import { askedSettings, resumeRefusal, runDataSha256, startedRecord } from "./run-provenance.js";
import { categoryOfId, generatedTurns, narrowSelection, type Job, type Narrowing, type RunPlan } from "./run-plan.js";

/** Everything a run needs, already validated by the caller. */
export interface RunRequest {
  readonly endpoint: string;
  /** The model name sent in each request (and, with `/` → `_`, the default result folder). */
  readonly model: string;
  readonly outDir: string;
  readonly modelDir?: string;
  readonly items: ItemSelection;
  readonly mode: "fc" | "prompting";
  readonly temperature: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly apiKey: string | null;
  readonly bfclDataDir: string;
  readonly manifest: Manifest;
  readonly untilAnchor: boolean;
  /** Where the turns before each pair's anchor come from: the model's own steps (default), or the reference played. */
  readonly history?: HistorySource;
  /** `history: "reference"`: generate the turns after the anchor too (default: stop after it). */
  readonly continueAfterAnchor?: boolean;
  readonly retryErrors: boolean;
  readonly inject: string | null;
  /** Leave the state snapshots out of `inference_log`, as `bfcl generate --exclude-state-log` does (default: BFCL's default run, with them). */
  readonly excludeStateLog?: boolean;
  /** Prompting: a system prompt file of the user's (`{functions}` marks the docs), or BFCL's prompt module. */
  readonly systemPromptFile?: string | null;
  readonly bfclPromptsFile?: string | null;
  /** Only these ids (tests and partial reruns); default every selected id. */
  readonly onlyIds?: readonly string[];
  /** `--category`, `--limit`, `--ids`: a smaller run (ids outside the selection are refused). */
  readonly narrowing?: Narrowing;
  /** Work out the plan and stop: no request, nothing written. */
  readonly dryRun?: boolean;
  /** Called with the plan before the first request (and on a dry run). */
  readonly onPlan?: (plan: RunPlan) => void;
  /** The wall clock for `run.json`'s times (tests inject a fixed one). */
  readonly clock?: () => Date;
  readonly backoffMs?: number;
  readonly retryAfterCapMs?: number;
  /** Seconds; injected by tests for deterministic latency. */
  readonly now?: () => number;
  readonly onProgress?: (p: RunProgress) => void;
  readonly onRetry?: (info: RetryInfo) => void;
  /** The endpoint, when not over HTTP (in-process test endpoints); default the project's client on `endpoint`. */
  readonly chat?: ChatEndpoint;
  /** Interactive mode: the simulated user of the should-ask items (absent or null: BFCL's script, a plain run). */
  readonly userSim?: UserSimSetup | null;
  /** The most bytes of one reply read (default the client's, 8 MiB); a longer reply makes the item an error line. */
  readonly maxReplyBytes?: number;
  /** Requests in a row that could not connect before the run stops (default 5; 0: never stop). */
  readonly maxConsecutiveErrors?: number;
  /** Probe each endpoint once before the first item (default: each endpoint reached over HTTP, not an injected one). */
  readonly probe?: boolean;
  /** The result files' write call (tests inject a full disk); default the file system's. */
  readonly fileOps?: ResultFileOps;
}

/** Requests in a row that could not connect before a run stops. */
export const DEFAULT_MAX_CONSECUTIVE_ERRORS = 5;

/** The simulated user of an interactive run: its endpoint and model, the bound on extra rounds, the prompt. */
export interface UserSimSetup {
  readonly endpoint: string;
  readonly model: string;
  readonly apiKey: string | null;
  /** Extra rounds inside the answer turn when the model asks again. */
  readonly maxClarifications: number;
  readonly prompt: UserSimPrompt;
  /** The prompt file's text, as `run.json` records it (default: the parsed prompt as JSON). */
  readonly promptText?: string;
  /** The simulator's endpoint when not over HTTP (in-process test endpoints). */
  readonly chat?: UserSimEndpoint;
}

/** What the simulated user did in a run (interactive mode). */
export interface UserSimSummary {
  readonly model: string;
  readonly maxClarifications: number;
  /** Lines generated with the simulated user on their answer turn. */
  readonly interactiveItems: number;
  /** Of those, how the answer turn opened: answered, "no question" (scripted line sent), no text to answer (scripted line sent). */
  readonly openings: { readonly answered: number; readonly noQuestion: number; readonly silent: number };
  /** Clarification rounds answered inside answer turns. */
  readonly clarifications: number;
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Progress so far (for the stderr line). */
export interface RunProgress {
  readonly done: number;
  readonly total: number;
  readonly requests: number;
  /** Error lines among the selected items so far: this run's and those kept from earlier runs (what the files hold). */
  readonly errors: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly elapsedMs: number;
  /** Requests to the simulated user (interactive mode; 0 otherwise). */
  readonly simRequests: number;
}

/** One category file of the run. */
export interface RunFileSummary {
  readonly category: RunCategory;
  readonly path: string;
  /** Lines in the file at the end (this run's and every earlier one's). */
  readonly lines: number;
  readonly generated: number;
  readonly resumed: number;
  /** Error lines in the file at the end. */
  readonly errors: number;
}

/** What a run did. */
export interface RunDocument {
  readonly command: "run";
  /** 0 every line generated; 1 done, with inference-error lines among the selected items (new or kept); 2 bad arguments or input, an endpoint that does not answer, or a run stopped early. */
  readonly exitCode: ExitCode;
  readonly model: string;
  readonly modelDir: string;
  readonly mode: "fc" | "prompting";
  readonly items: ItemSelection;
  /** Where the turns before each anchor came from. */
  readonly history: HistorySource;
  /** Pairs selected (`--items pairs`: the scored ones; `all-pairs`: every content-verified one; `all`: every one). */
  readonly pairs: number;
  /** Lines to write: one per selected id, and under `--history reference` one per id and anchor. */
  readonly selected: number;
  readonly generated: number;
  readonly resumed: number;
  readonly requests: number;
  /** Steps played from the reference (`--history reference`; no request made for them). */
  readonly playedSteps: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Lines that stopped after their anchor turn (`--until-anchor`; interactive should-ask items after their answer turn). */
  readonly stoppedAtAnchor: number;
  /** Interactive mode: what the simulated user did; null for a scripted run. */
  readonly userSimulator: UserSimSummary | null;
  readonly files: readonly RunFileSummary[];
  /** Error lines written by this run: id (and, under `--history reference`, the anchor turn) and BFCL's message. */
  readonly errors: readonly ErrorLineNote[];
  /** Error lines of the selected items already in the output and kept (not generated again without `--retry-errors`). */
  readonly keptErrors: readonly ErrorLineNote[];
  /** Why the run stopped before its end (`endpoint-down`, `write-failed`), or null. */
  readonly halted: string | null;
  /** What the run set out to do (null when it was refused before knowing). */
  readonly plan: RunPlan | null;
  /** `--dry-run`: the plan only; nothing was sent or written. */
  readonly dryRun: boolean;
  /** The folder's `run.json` as this run left it (null: refused or a dry run before any record). */
  readonly record: RunRecord | null;
  readonly problems: readonly Problem[];
}

function errorNote(job: Job, message: string): ErrorLineNote {
  return job.anchorTurn === null ? { id: job.id, message } : { id: job.id, anchorTurn: job.anchorTurn, message };
}

function byIdAndAnchor(a: ErrorLineNote, b: ErrorLineNote): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : (a.anchorTurn ?? -1) - (b.anchorTurn ?? -1);
}

/** An error line of a run: its id, its anchor turn for a `--history reference` line, and BFCL's message. */
export interface ErrorLineNote {
  readonly id: string;
  readonly anchorTurn?: number;
  readonly message: string;
}

const categoryOf = categoryOfId;

/** Read the docs and the entries of the run categories from a BFCL data folder (v4 unless told: run generates v4; the exact-twin proof also reads v3). */
export function loadRunEntries(dataDir: string, version: BfclVersion = "v4"): Result<Map<string, RolloutEntry>> {
  const docs = new Map<string, PyDict[]>();
  for (const cls of Object.keys(multiTurnDocFiles) as MultiTurnClass[]) {
    const file = `${dataDir}/${docFile(cls)}`;
    const text = readTextIfFile(file);
    if (text === null) return err(problem("file-missing", "BFCL function-doc file missing", { file }));
    const parsed = parsePyJsonLines(text, file);
    if (!parsed.ok) return parsed;
    docs.set(
      cls,
      parsed.value.map((x) => x.value as PyDict),
    );
  }
  const entries = new Map<string, RolloutEntry>();
  for (const category of runCategories) {
    const file = `${dataDir}/${questionsFile(version, category)}`;
    const text = readTextIfFile(file);
    if (text === null) return err(problem("file-missing", "BFCL questions file missing (run needs BFCL v4 data)", { file }));
    const parsed = parsePyJsonLines(text, file);
    if (!parsed.ok) return parsed;
    for (const { value, line } of parsed.value) {
      const e = prepareEntry(value, docs, { file, line });
      if (!e.ok) return e;
      entries.set(e.value.id, e.value);
    }
  }
  return ok(entries);
}

/** The reference trajectories (`possible_answer`) of the run categories: per id, per turn, the call strings. */
export function loadReferenceTurns(dataDir: string, version: BfclVersion = "v4"): Result<Map<string, readonly (readonly string[])[]>> {
  const out = new Map<string, readonly (readonly string[])[]>();
  for (const category of runCategories) {
    const file = `${dataDir}/${answersFile(version, category)}`;
    const text = readTextIfFile(file);
    if (text === null) return err(problem("file-missing", "BFCL reference file missing (--history reference plays it)", { file }));
    const parsed = parseAnswers(text, file);
    if (!parsed.ok) return parsed;
    for (const a of parsed.value) out.set(a.id, a.groundTruth);
  }
  return ok(out);
}

/** The client settings a run's endpoints share. */
type ClientSettings = Pick<RunRequest, "timeoutMs" | "retries" | "apiKey" | "backoffMs" | "retryAfterCapMs" | "onRetry" | "maxReplyBytes">;

/** The chat endpoint the loop talks to: the body BFCL's handler sends, through the project's client. */
export function endpointFor(req: Pick<RunRequest, "endpoint" | "model" | "temperature"> & ClientSettings, otherKeys: readonly (string | null)[] = []): ChatEndpoint {
  const client = createChatClient({
    endpoint: req.endpoint,
    apiKey: req.apiKey,
    otherKeys,
    timeoutMs: req.timeoutMs,
    retries: req.retries,
    backoffMs: req.backoffMs,
    retryAfterCapMs: req.retryAfterCapMs,
    maxReplyBytes: req.maxReplyBytes,
    onRetry: req.onRetry,
  });
  return async (chat) => {
    const body: Record<string, unknown> = { messages: chat.messages, model: req.model, temperature: req.temperature, store: false };
    if (chat.tools !== null && chat.tools.length > 0) body.tools = chat.tools;
    const out = await client(body, chat.itemId);
    if (!out.ok) return { ok: false, error: out.error, connectionFailed: out.kind === "network" };
    const choices = out.completion.choices;
    const first = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : undefined;
    if (first === undefined) return { ok: false, error: Array.isArray(choices) ? "list index out of range" : "'NoneType' object is not subscriptable" };
    const message = first.message;
    if (message === null || typeof message !== "object") return { ok: false, error: "'NoneType' object has no attribute 'tool_calls'" };
    return { ok: true, message: message as Record<string, unknown>, usage: out.completion.usage };
  };
}

/** The simulated user's endpoint: the simulator's request through the project's client, the reply's text. */
export function userSimEndpointFor(setup: Pick<UserSimSetup, "endpoint" | "model" | "apiKey">, client: Omit<ClientSettings, "apiKey">, otherKeys: readonly (string | null)[] = []): UserSimEndpoint {
  const post = createChatClient({
    endpoint: setup.endpoint,
    apiKey: setup.apiKey,
    otherKeys,
    timeoutMs: client.timeoutMs,
    retries: client.retries,
    backoffMs: client.backoffMs,
    retryAfterCapMs: client.retryAfterCapMs,
    maxReplyBytes: client.maxReplyBytes,
    onRetry: client.onRetry ? (info) => client.onRetry?.({ ...info, reason: `user simulator: ${info.reason}` }) : undefined,
  });
  return async (ask) => {
    const out = await post({ model: setup.model, messages: ask.messages, temperature: 0 }, ask.itemId);
    if (!out.ok) return { ok: false, error: out.error, connectionFailed: out.kind === "network" };
    const choices = out.completion.choices;
    const first = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : undefined;
    const message = first?.message;
    if (message === null || typeof message !== "object") return { ok: false, error: "the reply has no message" };
    const content = (message as Record<string, unknown>).content;
    return { ok: true, text: typeof content === "string" ? content : "", usage: out.completion.usage };
  };
}

/** The simulated user of one entry: only should-ask items of the manifest's pairs have one. */
function interactiveUserFor(entry: RolloutEntry, pairsByMiss: ReadonlyMap<string, Manifest["pairs"][number]>, setup: UserSimSetup, endpoint: UserSimEndpoint): InteractiveUser | null {
  const pair = pairsByMiss.get(entry.id);
  if (pair === undefined || pair.anchorTurn + 1 >= entry.turns.length) return null;
  return llmUser({
    endpoint,
    prompt: setup.prompt,
    facts: { request: pair.anchorRequest.miss, baseRequest: pair.anchorRequest.base, removedFunctions: pair.removedFunctions },
    answerTurn: pair.anchorTurn + 1,
    maxClarifications: setup.maxClarifications,
    model: setup.model,
  });
}

/**
 * Why a result folder name cannot be used, or null: it must be one path component, so
 * the files stay inside `--out` (`..`, `a/b` or an absolute path would not).
 */
export function modelDirProblem(name: string, flag: "--model" | "--model-dir"): Problem | null {
  const why = name === "" ? "is empty" : name === "." || name === ".." ? `is ${JSON.stringify(name)}` : /[/\\]/.test(name) ? "holds a path separator" : name.includes("\0") ? "holds a NUL character" : null;
  if (why === null) return null;
  const hint = flag === "--model" ? "; name the folder with --model-dir NAME" : "";
  return problem("bad-argument", `${flag} ${JSON.stringify(name)}: the result folder name (OUT/<model-dir>/multi_turn) ${why}, which would put files outside --out${hint}`);
}

/** Probe the model's endpoint and, in interactive mode, the simulator's (each reached over HTTP); the first refusal as a problem, notes as warnings. */
function probeEndpoints(req: RunRequest, keys: readonly (string | null)[]): Promise<Result<Problem[]>> {
  const targets: EndpointTarget[] = [];
  if (req.probe ?? req.chat === undefined) targets.push({ flag: "--endpoint", endpoint: req.endpoint, model: req.model, apiKey: req.apiKey });
  const sim = req.userSim ?? null;
  if (sim !== null && (req.probe ?? sim.chat === undefined)) targets.push({ flag: "--user-endpoint", endpoint: sim.endpoint, model: sim.model, apiKey: sim.apiKey });
  return checkEndpoints(targets, { otherKeys: keys, timeoutMs: req.timeoutMs, maxReplyBytes: req.maxReplyBytes }, "nothing was generated");
}

/** A failed request in a row of connection failures: which endpoint, and the count so far. */
interface ConnectionStreak {
  count: number;
  endpoint: string;
}

/** Run the request: generate every selected id not already in the output. */
export async function runModel(req: RunRequest): Promise<Result<RunDocument>> {
  const modelDir = req.modelDir ?? modelDirName(req.model);
  const badDir = modelDirProblem(modelDir, req.modelDir !== undefined ? "--model-dir" : "--model");
  if (badDir) return err(badDir);
  for (const [flag, url, injected] of [
    ["--endpoint", req.endpoint, req.chat !== undefined],
    ["--user-endpoint", req.userSim?.endpoint ?? null, req.userSim?.chat !== undefined],
  ] as const) {
    const bad = url === null || injected ? null : endpointArgumentProblem(url, flag);
    if (bad !== null) return err(bad);
  }
  const history: HistorySource = req.history ?? "own";
  const continueAfter = req.continueAfterAnchor === true;
  if (history === "reference" && req.items === "all") {
    return err(problem("bad-argument", "--history reference plays the turns before each pair's anchor: it needs --items pairs or all-pairs (an item in no pair has no anchor)"));
  }
  if (continueAfter && history !== "reference") return err(problem("bad-argument", "--continue only applies with --history reference (the turns after the anchor)"));
  if (continueAfter && req.untilAnchor) return err(problem("bad-argument", "give --until-anchor or --continue, not both"));
  const entries = loadRunEntries(req.bfclDataDir);
  if (!entries.ok) return entries;
  let references: Map<string, readonly (readonly string[])[]> | null = null;
  if (history === "reference") {
    const loaded = loadReferenceTurns(req.bfclDataDir);
    if (!loaded.ok) return loaded;
    references = loaded.value;
  }
  let systemPrompt: SystemPromptBuilder | undefined;
  let systemPromptText: string | null = null;
  if (req.mode === "prompting") {
    if (req.systemPromptFile) {
      const text = readTextIfFile(req.systemPromptFile);
      if (text === null) return err(problem("file-missing", "cannot read the system prompt file", { file: req.systemPromptFile }));
      systemPrompt = systemPromptFromFile(text);
      systemPromptText = text;
    } else if (req.bfclPromptsFile) {
      const text = readTextIfFile(req.bfclPromptsFile);
      if (text === null) return err(problem("file-missing", "cannot read BFCL's prompt module", { file: req.bfclPromptsFile }));
      const built = systemPromptFromBfcl(text, req.bfclPromptsFile);
      if (!built.ok) return built;
      systemPrompt = built.value;
    } else {
      return err(problem("system-prompt-missing", "prompting mode needs BFCL's system prompt: install bfcl-eval (its prompt texts are read at run time) or pass --system-prompt FILE"));
    }
  }
  // the lines to write: one per id; under --history reference one per id and distinct anchor of its pairs kept
  const narrowed = narrowSelection(req.items, req.manifest, [...entries.value.keys()], history, req.narrowing ?? {});
  if (!narrowed.ok) return narrowed;
  const { selection } = narrowed.value;
  const only = req.onlyIds ? new Set(req.onlyIds) : null;
  const jobs: readonly Job[] = only === null ? narrowed.value.jobs : narrowed.value.jobs.filter((j) => only.has(j.id));
  const pairCount = narrowed.value.pairs;
  const modelFolder = `${req.outDir}/${modelDir}`;
  const folder = `${modelFolder}/multi_turn`;
  const userSim = req.userSim ?? null;
  // the keys, and credentials in the endpoints' query strings, kept out of every line and message
  const keys = [req.apiKey, userSim?.apiKey ?? null, ...(req.chat === undefined ? endpointSecrets(req.endpoint) : []), ...(userSim !== null && userSim.chat === undefined ? endpointSecrets(userSim.endpoint) : [])];
  const redactor = redactorOf(keys);
  const fileOps = req.fileOps ?? realFileOps;
  const problems: Problem[] = [];
  const settings = askedSettings({
    ...req,
    history,
    systemPromptText,
    userSim: userSim === null ? null : { ...userSim, promptText: userSim.promptText ?? JSON.stringify(userSim.prompt) },
  });
  const stopAfter = (job: Job): number | null => {
    if (job.anchorTurn !== null) return continueAfter ? null : job.anchorTurn;
    return req.untilAnchor ? (selection.lastTurn.get(job.id) ?? null) : null;
  };
  const planOf = (pending: readonly Job[]): RunPlan => ({
    items: new Set(jobs.map((j) => j.id)).size,
    lines: jobs.length,
    pairs: pairCount,
    resumed: jobs.length - pending.length,
    pending: pending.length,
    minRequests: pending.reduce((n, j) => n + generatedTurns(j, entries.value.get(j.id) as RolloutEntry, stopAfter(j)), 0),
    simulatedTurns: userSim === null ? 0 : pending.filter((j) => pairsOfMiss.has(j.id)).length,
  });
  const pairsOfMiss = new Set(req.manifest.pairs.map((p) => p.missId));
  const recorded = readRunRecord(modelFolder);
  if (recorded.problem !== null) return err({ ...recorded.problem, message: `${recorded.problem.message}; a resume needs it to know what made the folder (remove it only if the folder's lines are yours to vouch for)` });
  if (req.dryRun === true) {
    const pending = dryRun(req, jobs, folder, (lines) => resumeRefusal(modelFolder, recorded.record, lines, settings));
    return pending.ok ? ok(dryRunDocument(req, modelDir, history, planOf(pending.value), recorded.record, problems)) : pending;
  }

  // before anything is made: a new folder only once the endpoints answered
  const existed = pathExists(modelFolder);
  if (!existed) {
    const probed = await probeEndpoints(req, keys);
    if (!probed.ok) return probed;
    pushAll(problems, probed.value);
  }
  const locked = acquireRunLock(modelFolder);
  if (!locked.ok) return locked;
  const { lock, staleFrom } = locked.value;
  if (staleFrom !== null) problems.push(staleLockWarning(lock.file, staleFrom));
  // a signal ends the run with the files in their final form: a retried line replaces its error line on disk at once
  lock.onInterrupt(() => {
    for (const c of runCategories) {
      const path = `${folder}/${resultFileName(c)}`;
      if (pathExists(path)) rewriteSorted(path, compareIds, fileOps);
    }
  });
  try {
    const leftOver = removeInterruptedRewrites(folder);
    if (!leftOver.ok) return leftOver;
    for (const file of leftOver.value) problems.push(problem("rewrite-removed", "removed the temporary file of a final rewrite that was killed part-way (the result file beside it is whole)", { file, severity: "warning" }));
    // resume: what each category file already holds
    const existing = new Map<RunCategory, ResultFileIndex>();
    for (const c of runCategories) {
      const path = `${folder}/${resultFileName(c)}`;
      const opened = openResultFile(path);
      if (!opened.ok) return opened;
      for (const l of opened.value.lines) {
        if (l.reading.kind === "other") problems.push(problem("line-malformed", "not a result line; kept as it is", { file: path, line: l.lineNo, severity: "warning" }));
        else if (l.reading.note !== null) problems.push(problem("line-kept", `${l.reading.note}; kept as it is`, { file: path, line: l.lineNo, severity: "warning" }));
      }
      // a line whose history keys are malformed is neither history: named, not taken for the other protocol
      const malformed = opened.value.lines.find((l) => l.reading.kind === "result" && l.reading.historyProblem !== undefined);
      if (malformed !== undefined && malformed.reading.kind === "result") {
        return err(
          problem("history-malformed", `${malformed.reading.id}: ${malformed.reading.historyProblem}; resume cannot tell which history the line was generated with: correct the line or remove it`, {
            file: path,
            line: malformed.lineNo,
          }),
        );
      }
      existing.set(c, opened.value);
    }
    // one folder, one set of settings: a resume that asks for others is refused before anything is written
    const refusal = resumeRefusal(modelFolder, recorded.record, [...existing.values()].flatMap((x) => x.lines.map((l) => l.reading)), settings);
    if (refusal !== null) return err(refusal);
    for (const [c, opened] of existing) {
      // one folder, one protocol: lines of both histories side by side would be read as one model's
      const other = opened.lines.find((l) => l.reading.kind === "result" && (l.reading.anchorTurn !== undefined) !== (history === "reference"));
      if (other !== undefined) {
        const theirs = history === "reference" ? "own" : "reference";
        return err(
          problem("history-mixed", `the output holds lines generated with --history ${theirs}; a --history ${history} run needs a folder of its own (another --out or --model-dir)`, {
            file: `${folder}/${resultFileName(c)}`,
            line: other.lineNo,
          }),
        );
      }
    }
    const pending: Job[] = [];
    const resumedKeys = new Set<string>();
    const keptErrors: ErrorLineNote[] = [];
    for (const job of jobs) {
      const old = existing.get(categoryOf(job.id) as RunCategory)?.byKey.get(job.key)?.reading;
      if (old?.kind === "result" && !(req.retryErrors && old.isError)) {
        resumedKeys.add(job.key);
        if (old.isError) keptErrors.push(errorNote(job, old.errorMessage ?? ""));
      } else pending.push(job);
    }
    const resumed = resumedKeys.size;
    const plan = planOf(pending);
    req.onPlan?.(plan);
    if (existed && pending.length > 0) {
      const probed = await probeEndpoints(req, keys);
      if (!probed.ok) return probed;
      pushAll(problems, probed.value);
    }
    let record = recorded.record;
    const clock = req.clock ?? (() => new Date());
    if (pending.length > 0) {
      const made = makeOutputFolder(folder);
      if (!made.ok) return made;
      record = startedRecord(record, { endpoint: req.endpoint, userEndpoint: userSim?.endpoint ?? null, manifest: req.manifest, dataSha256: runDataSha256(req.bfclDataDir) ?? "unknown" }, settings, clock());
      const wrote = writeRunRecord(modelFolder, record);
      if (wrote !== null) return err(wrote);
    }

    const process = newEvaluatorProcess(undefined, true);
    // a row of requests that could not connect at all (either endpoint) stops the run
    const streak: ConnectionStreak = { count: 0, endpoint: req.endpoint };
    const maxInRow = req.maxConsecutiveErrors ?? DEFAULT_MAX_CONSECUTIVE_ERRORS;
    // why the run stops early: set by any worker, read by all (an object, so every closure sees the same)
    const halt: { stop: Problem | null; write: Problem | null } = { stop: null, write: null };
    const watch = (endpoint: string, failed: boolean): void => {
      if (!failed) {
        streak.count = 0;
        return;
      }
      streak.count++;
      streak.endpoint = endpoint;
      if (maxInRow > 0 && streak.count >= maxInRow && halt.stop === null) {
        halt.stop = problem("endpoint-down", `${streak.count} requests in a row could not connect to ${shownUrl(endpoint)} (--max-consecutive-errors ${maxInRow}): the run stopped`);
      }
    };
    const baseChat = req.chat ?? endpointFor(req, keys);
    const chat: ChatEndpoint = async (r) => {
      const out = await baseChat(r);
      watch(req.endpoint, !out.ok && out.connectionFailed === true);
      return out;
    };
    const baseSim = userSim === null ? null : (userSim.chat ?? userSimEndpointFor(userSim, req, keys));
    const simEndpoint: UserSimEndpoint | null =
      baseSim === null || userSim === null
        ? null
        : async (r) => {
            const out = await baseSim(r);
            watch(userSim.endpoint, !out.ok && out.connectionFailed === true);
            return out;
          };
    const pairsByMiss = new Map(req.manifest.pairs.map((p) => [p.missId, p]));
    const sim = { items: 0, answered: 0, noQuestion: 0, silent: 0, clarifications: 0, requests: 0, inputTokens: 0, outputTokens: 0 };
    const now = req.now ?? (() => performance.timeOrigin / 1000 + performance.now() / 1000);
    const generatedKeys = new Set<string>();
    const errors: ErrorLineNote[] = [];
    const counts = { requests: 0, playedSteps: 0, inputTokens: 0, outputTokens: 0, stopped: 0 };
    const started = Date.now();
    let done = 0;
    const progress = () =>
      req.onProgress?.({
        done: done + resumed,
        total: jobs.length,
        requests: counts.requests,
        errors: errors.length + keptErrors.length,
        inputTokens: counts.inputTokens,
        outputTokens: counts.outputTokens,
        elapsedMs: Date.now() - started,
        simRequests: sim.requests,
      });
    progress();

    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < pending.length && halt.stop === null && halt.write === null) {
        const job = pending[next++];
        const id = job.id;
        const entry = entries.value.get(id) as RolloutEntry;
        const interactive = userSim !== null && simEndpoint !== null ? interactiveUserFor(entry, pairsByMiss, userSim, simEndpoint) : null;
        // a reference-history line stops after its own anchor (unless --continue); an own-history one after its latest under --until-anchor
        const anchorStop = job.anchorTurn ?? selection.lastTurn.get(id) ?? null;
        const stopHere = job.anchorTurn !== null ? !continueAfter : req.untilAnchor;
        // a reference-history line runs alone in its process: its world is the reference's, whatever other lines do
        const lineProcess = job.anchorTurn !== null ? newEvaluatorProcess(undefined, true) : process;
        let played: PlayedHistory | null = null;
        let playError: string | null = null;
        if (job.anchorTurn !== null) {
          const built = playedHistory(req.mode, references?.get(id) ?? [], job.anchorTurn, methodParameterNames(lineProcess, entry.involvedClasses));
          if (built.ok) played = built.value;
          else playError = built.problems.map((p) => p.message).join("; ");
        }
        const outcome =
          playError !== null && job.anchorTurn !== null
            ? { line: withPlayedKeys(errorLine(id, playError, "twinscore run: the reference could not be played (no request was sent)"), job.anchorTurn), error: playError, stats: null }
            : await runEntry(entry, {
                mode: req.mode,
                chat,
                now,
                executor: processExecutor(lineProcess, entry, req.model),
                decode: req.mode === "fc" ? decodeFcStep : (step: PyValue) => decodePromptingStep(step),
                systemPrompt,
                inject: req.inject,
                excludeStateLog: req.excludeStateLog === true,
                // interactive should-ask items run through their answer turn, where "asked, then did it" is read
                lastTurn: stopHere && anchorStop !== null ? (interactive !== null ? Math.max(anchorStop, interactive.answerTurn) : anchorStop) : null,
                interactive,
                played,
              });
        const written = writableLine(id, outcome.line, redactor, job.anchorTurn, req.mode);
        const error = written.error ?? outcome.error;
        if (halt.write !== null) break;
        const category = categoryOf(id) as RunCategory;
        const appended = appendLine(`${folder}/${resultFileName(category)}`, written.text, fileOps);
        if (!appended.ok) {
          halt.write = appended.problems[0];
          break;
        }
        generatedKeys.add(job.key);
        if (written.error === null && outcome.line.has(STOPPED_AFTER_TURN_KEY)) counts.stopped++;
        if (outcome.stats !== null) {
          counts.requests += outcome.stats.requests;
          counts.playedSteps += outcome.stats.playedSteps;
          counts.inputTokens += outcome.stats.inputTokens;
          counts.outputTokens += outcome.stats.outputTokens;
          sim.requests += outcome.stats.simRequests;
          sim.inputTokens += outcome.stats.simInputTokens;
          sim.outputTokens += outcome.stats.simOutputTokens;
        }
        const summary = written.error === null ? outcome.line.get(USER_SIMULATOR_KEY) : undefined;
        if (summary instanceof PyDict) {
          sim.items++;
          const opened = summary.get("opening");
          if (opened === "answered") sim.answered++;
          else if (opened === "no-question") sim.noQuestion++;
          else sim.silent++;
          sim.clarifications += Number(summary.get("clarifications") ?? 0n);
        }
        if (error !== null) errors.push(errorNote(job, error));
        done++;
        progress();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(req.concurrency, pending.length)) }, worker));

    // the final order: BFCL's sort of what is on disk now, every id once (a retried error line replaced by its rerun)
    const files: RunFileSummary[] = [];
    if (halt.write === null) {
      for (const c of runCategories) {
        const path = `${folder}/${resultFileName(c)}`;
        if (!pathExists(path)) continue;
        const rewritten = rewriteSorted(path, compareIds, fileOps);
        if (!rewritten.ok) {
          halt.write = rewritten.problems[0];
          break;
        }
        if (rewritten.value.lines === 0) continue;
        const inCategory = (job: Job) => categoryOf(job.id) === c;
        files.push({
          category: c,
          path,
          lines: rewritten.value.lines,
          generated: jobs.filter((j) => inCategory(j) && generatedKeys.has(j.key)).length,
          resumed: jobs.filter((j) => inCategory(j) && resumedKeys.has(j.key)).length,
          errors: rewritten.value.errors,
        });
      }
    }
    errors.sort(byIdAndAnchor);
    keptErrors.sort(byIdAndAnchor);
    const halted: Problem | null = halt.write ?? halt.stop;
    if (halted !== null && halted === halt.stop) {
      const notGenerated = pending.length - generatedKeys.size;
      const inRow = errors.filter((e) => e.message === "Connection error." || e.message === "user simulator: Connection error.").length;
      problems.unshift(
        problem(
          halted.code,
          `${halted.message} after ${generatedKeys.size} of ${pending.length} ${history === "reference" ? "lines" : "items"}; ${notGenerated} not generated. The lines written are kept${halt.write === null ? ", whole and in BFCL's order" : ""}; rerun the same command to go on${inRow > 0 ? ` (add --retry-errors to generate the ${inRow} connection-error lines again)` : ""}`,
        ),
      );
    } else if (halted !== null) problems.unshift(halted);
    if (record !== null && pending.length > 0) {
      // the session's end: a run stopped early keeps endedAt null, so a reader can tell
      record = { ...record, endedAt: halted === null ? clock().toISOString() : null };
      const wrote = writeRunRecord(modelFolder, record);
      if (wrote !== null) problems.push(wrote);
    }
    return ok({
      command: "run",
      exitCode: halted !== null ? 2 : errors.length + keptErrors.length > 0 ? 1 : 0,
      model: req.model,
      modelDir,
      mode: req.mode,
      items: req.items,
      history,
      pairs: pairCount,
      selected: jobs.length,
      generated: generatedKeys.size,
      resumed,
      requests: counts.requests,
      playedSteps: counts.playedSteps,
      inputTokens: counts.inputTokens,
      outputTokens: counts.outputTokens,
      stoppedAtAnchor: counts.stopped,
      userSimulator:
        userSim === null
          ? null
          : {
              model: userSim.model,
              maxClarifications: userSim.maxClarifications,
              interactiveItems: sim.items,
              openings: { answered: sim.answered, noQuestion: sim.noQuestion, silent: sim.silent },
              clarifications: sim.clarifications,
              requests: sim.requests,
              inputTokens: sim.inputTokens,
              outputTokens: sim.outputTokens,
            },
      files,
      errors,
      keptErrors,
      halted: halted === null ? null : halted.code,
      plan,
      dryRun: false,
      record,
      problems,
    });
  } finally {
    lock.release();
  }
}

/**
 * A generated line as written: rendered, with every key redacted from it (a key a tool
 * echoed, or one split across values, never reaches the file); a line that cannot be
 * rendered — nested deeper than `json.dumps` goes, or longer than a JavaScript string —
 * becomes the entry's error line instead, so one entry never stops the run.
 */
function writableLine(id: string, line: PyDict, redactor: Redactor, anchorTurn: number | null, mode: RunSettings["mode"]): { text: string; error: string | null } {
  let text: string;
  // the mode ends every line: it chooses the decoder its steps are read with
  line.set(MODE_KEY, mode);
  try {
    text = renderLine(line);
  } catch (e) {
    let message: string;
    if (e instanceof PyException) message = e.pyMessage;
    else if (e instanceof RangeError) message = /call stack/i.test(e.message) ? "maximum recursion depth exceeded while encoding a JSON object" : `MemoryError: the result line is too long to write (${e.message})`;
    else throw e;
    const failed = errorLine(id, message, "twinscore run: the entry's result line could not be written (no Python traceback; BFCL records one)");
    const keyed = anchorTurn === null ? failed : withPlayedKeys(failed, anchorTurn);
    keyed.set(MODE_KEY, mode);
    return { text: renderLine(keyed), error: message };
  }
  if (redactor.finds(text)) text = renderLine(redactPyValue(line, redactor) as PyDict);
  return { text, error: null };
}

/**
 * `twinscore run` as a command: flags as given (unchecked), the folder and environment
 * they are read in (default: the process's).
 *
 * ```ts
 * const doc = await runCommand({ endpoint: "http://127.0.0.1:8000/v1", model: "Qwen/Qwen3-8B", out: "runs/qwen", bfclData: "bfcl-v4", untilAnchor: true });
 * console.log(doc.exitCode, doc.requests, doc.files.map((f) => f.path));
 * ```
 */
export interface RunCommandRequest extends RequestContext {
  readonly endpoint: string;
  readonly model: string;
  readonly out: string;
  readonly modelDir?: string;
  readonly items?: ItemSelection;
  readonly mode?: "fc" | "prompting";
  readonly temperature?: number;
  readonly concurrency?: number;
  /** Per-request deadline in seconds, body included: 0.001 to `MAX_TIMEOUT_SECONDS` (default 600). */
  readonly timeoutSeconds?: number;
  readonly retries?: number;
  /** The most bytes of one reply read: 1024 to 256 MiB (default 8 MiB). */
  readonly maxReplyBytes?: number;
  /** Requests in a row that could not connect before the run stops (default 5; 0: never stop). */
  readonly maxConsecutiveErrors?: number;
  /** Name of the environment variable holding the key; none: no Authorization header. */
  readonly keyEnv?: string;
  readonly bfclData?: string;
  readonly untilAnchor?: boolean;
  /** `own` (default): the model's own turns before the anchor, BFCL's loop; `reference`: the reference played before each pair's anchor (exact twins). */
  readonly history?: HistorySource;
  /** With `history: "reference"`: generate the turns after the anchor too. */
  readonly continueAfterAnchor?: boolean;
  readonly retryErrors?: boolean;
  /** Leave the state snapshots out of `inference_log` (`bfcl generate --exclude-state-log`). */
  readonly excludeStateLog?: boolean;
  readonly inject?: string;
  readonly injectFile?: string;
  readonly systemPrompt?: string;
  /** `scripted` (default): BFCL's script, a plain run; `llm`: a simulated user on the should-ask items' answer turns. */
  readonly userSim?: "scripted" | "llm";
  /** The simulated user's OpenAI-compatible base URL and model (required with `userSim: "llm"`). */
  readonly userEndpoint?: string;
  readonly userModel?: string;
  /** Name of the environment variable holding the simulator endpoint's key; none: no Authorization header. */
  readonly userKeyEnv?: string;
  /** Extra rounds inside the answer turn (default 2). */
  readonly maxClarifications?: number;
  /** A user-simulator prompt file instead of the package's `data/user-sim-prompt.md`. */
  readonly userPrompt?: string;
  /** `--limit N`: the first N pairs in manifest order, both twins of each (`items: "all"`: the first N items). */
  readonly limit?: number;
  /** `--ids`: only these items of the selection. */
  readonly ids?: readonly string[];
  /** `--category`: only the pairs whose should-ask item is of it (`items: "all"`: its items). */
  readonly category?: string;
  /** `--dry-run`: print the plan and stop; nothing is sent or written. */
  readonly dryRun?: boolean;
  /** Seconds, for the latency lists (default the wall clock; tests inject a fake for byte-equal files). */
  readonly now?: () => number;
  readonly onProgress?: (p: RunProgress) => void;
  readonly onRetry?: (info: RetryInfo) => void;
  /** Called with the plan before the first request. */
  readonly onPlan?: (plan: RunPlan) => void;
}

/** The document of a run that stopped before generating anything. */
function refused(req: Pick<RunCommandRequest, "model" | "mode" | "items" | "history">, problems: Problem[]): RunDocument {
  return {
    command: "run",
    exitCode: 2,
    model: req.model,
    modelDir: modelDirName(req.model),
    mode: req.mode ?? "fc",
    items: req.items ?? "pairs",
    history: req.history ?? "own",
    pairs: 0,
    selected: 0,
    generated: 0,
    resumed: 0,
    requests: 0,
    playedSteps: 0,
    inputTokens: 0,
    outputTokens: 0,
    stoppedAtAnchor: 0,
    userSimulator: null,
    files: [],
    errors: [],
    keptErrors: [],
    halted: null,
    plan: null,
    dryRun: false,
    record: null,
    problems,
  };
}

export { MAX_TIMEOUT_SECONDS };

/**
 * `--dry-run`: the plan from what the output holds, read without changing anything (not
 * even a torn last line), and the resume check a real run would make.
 */
function dryRun(req: RunRequest, jobs: readonly Job[], folder: string, check: (lines: readonly LineReading[]) => Problem | null): Result<readonly Job[]> {
  const indexes = new Map<RunCategory, ReturnType<typeof scanResultFile>>();
  for (const c of runCategories) {
    const path = `${folder}/${resultFileName(c)}`;
    if (pathExists(path)) indexes.set(c, scanResultFile(path));
  }
  const refusal = check([...indexes.values()].flatMap((x) => x.lines.map((l) => l.reading)));
  if (refusal !== null) return err(refusal);
  return ok(
    jobs.filter((job) => {
      const old = indexes.get(categoryOf(job.id) as RunCategory)?.byKey.get(job.key)?.reading;
      return !(old?.kind === "result" && !(req.retryErrors && old.isError));
    }),
  );
}

/** The document of `--dry-run`: the plan, nothing sent or written. */
function dryRunDocument(req: RunRequest, modelDir: string, history: HistorySource, plan: RunPlan, record: RunRecord | null, problems: Problem[]): RunDocument {
  req.onPlan?.(plan);
  return { ...refused({ model: req.model, mode: req.mode, items: req.items, history }, problems), exitCode: 0, modelDir, pairs: plan.pairs, selected: plan.lines, resumed: plan.resumed, plan, dryRun: true, record };
}

/**
 * Check every argument (before reading any input), resolve the BFCL data folder, the key,
 * the injected block and the prompting system prompt, then run.
 *
 * @example
 * import { runCommand } from "twinscore";
 * const doc = await runCommand({ endpoint: "http://127.0.0.1:8000/v1", model: "my-model", out: "runs/mine", bfclData: "bfcl-v4" });
 * console.log(doc.exitCode);
 */
export async function runCommand(req: RunCommandRequest): Promise<RunDocument> {
  const ctx = contextOf(req);
  const bad: Problem[] = [];
  for (const p of [
    numberProblem(req.temperature, "--temperature", 0, false),
    numberProblem(req.concurrency, "--concurrency", 1, true),
    numberProblem(req.timeoutSeconds, "--timeout", 0.001, false, MAX_TIMEOUT_SECONDS),
    numberProblem(req.retries, "--retries", 0, true),
    numberProblem(req.maxReplyBytes, "--max-reply-bytes", 1024, true, MAX_REPLY_BYTES_LIMIT),
    numberProblem(req.maxConsecutiveErrors, "--max-consecutive-errors", 0, true),
    numberProblem(req.limit, "--limit", 1, true),
  ]) {
    if (p) bad.push(p);
  }
  const badUrl = endpointArgumentProblem(req.endpoint, "--endpoint");
  if (badUrl !== null) bad.push(badUrl);
  const dir = modelDirProblem(req.modelDir ?? modelDirName(req.model), req.modelDir !== undefined ? "--model-dir" : "--model");
  if (dir) bad.push(dir);
  if (req.inject !== undefined && req.injectFile !== undefined) bad.push(problem("bad-argument", "give --inject or --inject-file, not both"));
  if (req.category !== undefined && !(runCategories as readonly string[]).includes(req.category)) bad.push(problem("bad-argument", `--category must be one of ${runCategories.join(", ")}, got ${JSON.stringify(req.category)}`));
  if (req.ids !== undefined && req.ids.length === 0) bad.push(problem("bad-argument", "--ids needs at least one id"));
  let apiKey: string | null = null;
  if (req.keyEnv !== undefined) {
    const found = keyFromEnv(ctx.env, req.keyEnv, "--key-env");
    apiKey = found.key;
    if (found.problem) bad.push(found.problem);
  }
  const interactive = req.userSim === "llm";
  if (req.userSim !== undefined && req.userSim !== "scripted" && req.userSim !== "llm") bad.push(problem("bad-argument", `--user-sim must be scripted or llm, got ${String(req.userSim)}`));
  if (interactive) {
    if (!req.userEndpoint) bad.push(problem("bad-argument", "--user-sim llm needs --user-endpoint URL (the simulated user's OpenAI-compatible endpoint)"));
    if (!req.userModel) bad.push(problem("bad-argument", "--user-sim llm needs --user-model NAME (the model that plays the user)"));
    const badUserUrl = req.userEndpoint ? endpointArgumentProblem(req.userEndpoint, "--user-endpoint") : null;
    if (badUserUrl !== null) bad.push(badUserUrl);
  } else {
    const stray = (
      [
        ["--user-endpoint", req.userEndpoint],
        ["--user-model", req.userModel],
        ["--user-key-env", req.userKeyEnv],
        ["--max-clarifications", req.maxClarifications],
        ["--user-prompt", req.userPrompt],
      ] as const
    ).filter(([, v]) => v !== undefined);
    if (stray.length > 0) bad.push(problem("bad-argument", `${stray.map(([f]) => f).join(", ")} only apply with --user-sim llm`));
  }
  const mc = numberProblem(req.maxClarifications, "--max-clarifications", 0, true);
  if (mc) bad.push(mc);
  let userKey: string | null = null;
  if (interactive && req.userKeyEnv !== undefined) {
    const found = keyFromEnv(ctx.env, req.userKeyEnv, "--user-key-env");
    userKey = found.key;
    if (found.problem) bad.push(found.problem);
  }
  if (bad.length > 0) return refused(req, bad);
  let userSim: UserSimSetup | null = null;
  if (interactive) {
    const file = req.userPrompt !== undefined ? resolvePath(ctx.cwd, req.userPrompt) : committedDataPath("user-sim-prompt.md");
    const text = readTextIfFile(file);
    if (text === null) return refused(req, [problem("file-missing", "cannot read the user-simulator prompt file", { file })]);
    const parsed = parseUserSimPrompt(text);
    if (!parsed.ok) return refused(req, [problem("prompt-malformed", parsed.message, { file })]);
    userSim = { endpoint: req.userEndpoint as string, model: req.userModel as string, apiKey: userKey, maxClarifications: req.maxClarifications ?? 2, prompt: parsed.prompt, promptText: text };
  }
  let inject: string | null = req.inject ?? null;
  if (req.injectFile !== undefined) {
    const file = resolvePath(ctx.cwd, req.injectFile);
    inject = readTextIfFile(file);
    if (inject === null) return refused(req, [problem("file-missing", "cannot read the injection file", { file })]);
  }
  const location = resolveBfclDataDir({ flag: req.bfclData, env: { ...ctx.env }, cwd: ctx.cwd });
  if (!location) return refused(req, [problem("bfcl-data-missing", "run needs the BFCL data: pass --bfcl-data DIR or set BFCL_DATA_DIR")]);
  const systemPromptFile = req.systemPrompt !== undefined ? resolvePath(ctx.cwd, req.systemPrompt) : null;
  const bfclPromptsFile = req.mode === "prompting" && systemPromptFile === null ? findBfclPromptsFile(ctx.env.TWINSCORE_PYTHON || "python3") : null;
  const manifest = loadManifest();
  if (!manifest.ok) return refused(req, [...manifest.problems]);
  const done = await runModel({
    endpoint: req.endpoint,
    model: req.model,
    outDir: resolvePath(ctx.cwd, req.out),
    modelDir: req.modelDir,
    items: req.items ?? "pairs",
    mode: req.mode ?? "fc",
    temperature: req.temperature ?? 0.001,
    concurrency: req.concurrency ?? 4,
    timeoutMs: Math.round((req.timeoutSeconds ?? 600) * 1000),
    retries: req.retries ?? 5,
    maxReplyBytes: req.maxReplyBytes,
    maxConsecutiveErrors: req.maxConsecutiveErrors,
    apiKey,
    bfclDataDir: location.dir,
    manifest: manifest.value,
    untilAnchor: req.untilAnchor === true,
    history: req.history ?? "own",
    continueAfterAnchor: req.continueAfterAnchor === true,
    retryErrors: req.retryErrors === true,
    excludeStateLog: req.excludeStateLog === true,
    inject,
    systemPromptFile,
    bfclPromptsFile,
    onProgress: req.onProgress,
    onRetry: req.onRetry,
    onPlan: req.onPlan,
    now: req.now,
    userSim,
    narrowing: { limit: req.limit, ids: req.ids, category: req.category as RunCategory | undefined },
    dryRun: req.dryRun === true,
  });
  return done.ok ? done.value : refused(req, [...done.problems]);
}
