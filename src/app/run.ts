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
 */
import { docFile, multiTurnDocFiles, questionsFile, type MultiTurnClass } from "../bfcl/data.js";
import { err, ok, problem, type Problem, type Result } from "../messages/index.js";
import type { Manifest } from "../pairs/types.js";
import { PyDict } from "../python/containers.js";
import type { PyValue } from "../python/value.js";
import { decodeFcStep, decodePromptingStep } from "../bfcl/decode/index.js";
import { parsePyJsonLines } from "../simulator/run-check.js";
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
  sortedFileText,
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
} from "../rollout/index.js";
import { createChatClient, type RetryInfo } from "../io/openai-chat.js";
import { appendLine, findBfclPromptsFile, openResultFile, readTextIfFile, writeFileAtomic } from "../io/run-output.js";
import { resolveBfclDataDir } from "../io/bfcl-data.js";
import { committedDataPath, loadManifest } from "../io/manifest.js";
import { resolvePath } from "../io/paths.js";
import { contextOf, type ExitCode, type RequestContext } from "./common.js";

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
  readonly retryErrors: boolean;
  readonly inject: string | null;
  /** Leave the state snapshots out of `inference_log`, as `bfcl generate --exclude-state-log` does (default: BFCL's default run, with them). */
  readonly excludeStateLog?: boolean;
  /** Prompting: a system prompt file of the user's (`{functions}` marks the docs), or BFCL's prompt module. */
  readonly systemPromptFile?: string | null;
  readonly bfclPromptsFile?: string | null;
  /** Only these ids (tests and partial reruns); default every selected id. */
  readonly onlyIds?: readonly string[];
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
}

/** The simulated user of an interactive run: its endpoint and model, the bound on extra rounds, the prompt. */
export interface UserSimSetup {
  readonly endpoint: string;
  readonly model: string;
  readonly apiKey: string | null;
  /** Extra rounds inside the answer turn when the model asks again. */
  readonly maxClarifications: number;
  readonly prompt: UserSimPrompt;
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
  readonly lines: number;
  readonly generated: number;
  readonly resumed: number;
  readonly errors: number;
}

/** What a run did. */
export interface RunDocument {
  readonly command: "run";
  /** 0 every line generated; 1 done, with inference-error lines; 2 bad arguments or input (nothing generated). */
  readonly exitCode: ExitCode;
  readonly model: string;
  readonly modelDir: string;
  readonly mode: "fc" | "prompting";
  readonly items: ItemSelection;
  readonly selected: number;
  readonly generated: number;
  readonly resumed: number;
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Lines that stopped after their anchor turn (`--until-anchor`; interactive should-ask items after their answer turn). */
  readonly stoppedAtAnchor: number;
  /** Interactive mode: what the simulated user did; null for a scripted run. */
  readonly userSimulator: UserSimSummary | null;
  readonly files: readonly RunFileSummary[];
  /** Error lines written by this run: id and BFCL's message. */
  readonly errors: readonly { readonly id: string; readonly message: string }[];
  readonly problems: readonly Problem[];
}

function categoryOf(id: string): RunCategory | null {
  for (const c of runCategories) if (new RegExp(`^multi_turn_${c}_\\d+$`).test(id)) return c;
  return null;
}

/** Read the docs and the entries of the run categories from a BFCL data folder. */
export function loadRunEntries(dataDir: string): Result<Map<string, RolloutEntry>> {
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
    const file = `${dataDir}/${questionsFile("v4", category)}`;
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

/** The chat endpoint the loop talks to: the body BFCL's handler sends, through the project's client. */
export function endpointFor(req: Pick<RunRequest, "endpoint" | "model" | "temperature" | "timeoutMs" | "retries" | "apiKey" | "backoffMs" | "retryAfterCapMs" | "onRetry">): ChatEndpoint {
  const client = createChatClient({
    endpoint: req.endpoint,
    apiKey: req.apiKey,
    timeoutMs: req.timeoutMs,
    retries: req.retries,
    backoffMs: req.backoffMs,
    retryAfterCapMs: req.retryAfterCapMs,
    onRetry: req.onRetry,
  });
  return async (chat) => {
    const body: Record<string, unknown> = { messages: chat.messages, model: req.model, temperature: req.temperature, store: false };
    if (chat.tools !== null && chat.tools.length > 0) body.tools = chat.tools;
    const out = await client(body, chat.itemId);
    if (!out.ok) return { ok: false, error: out.error };
    const choices = out.completion.choices;
    const first = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : undefined;
    if (first === undefined) return { ok: false, error: Array.isArray(choices) ? "list index out of range" : "'NoneType' object is not subscriptable" };
    const message = first.message;
    if (message === null || typeof message !== "object") return { ok: false, error: "'NoneType' object has no attribute 'tool_calls'" };
    return { ok: true, message: message as Record<string, unknown>, usage: out.completion.usage };
  };
}

/** The simulated user's endpoint: the simulator's request through the project's client, the reply's text. */
export function userSimEndpointFor(
  setup: Pick<UserSimSetup, "endpoint" | "model" | "apiKey">,
  client: Pick<RunRequest, "timeoutMs" | "retries" | "backoffMs" | "retryAfterCapMs" | "onRetry">,
): UserSimEndpoint {
  const post = createChatClient({
    endpoint: setup.endpoint,
    apiKey: setup.apiKey,
    timeoutMs: client.timeoutMs,
    retries: client.retries,
    backoffMs: client.backoffMs,
    retryAfterCapMs: client.retryAfterCapMs,
    onRetry: client.onRetry ? (info) => client.onRetry?.({ ...info, reason: `user simulator: ${info.reason}` }) : undefined,
  });
  return async (ask) => {
    const out = await post({ model: setup.model, messages: ask.messages, temperature: 0 }, ask.itemId);
    if (!out.ok) return { ok: false, error: out.error };
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

/** Run the request: generate every selected id not already in the output. */
export async function runModel(req: RunRequest): Promise<Result<RunDocument>> {
  const entries = loadRunEntries(req.bfclDataDir);
  if (!entries.ok) return entries;
  let systemPrompt: SystemPromptBuilder | undefined;
  if (req.mode === "prompting") {
    if (req.systemPromptFile) {
      const text = readTextIfFile(req.systemPromptFile);
      if (text === null) return err(problem("file-missing", "cannot read the system prompt file", { file: req.systemPromptFile }));
      systemPrompt = systemPromptFromFile(text);
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
  const selection = selectItems(req.items, req.manifest.pairs, [...entries.value.keys()]);
  const only = req.onlyIds ? new Set(req.onlyIds) : null;
  const ids = selection.ids.filter((id) => entries.value.has(id) && (only === null || only.has(id)));
  const modelDir = req.modelDir ?? modelDirName(req.model);
  const folder = `${req.outDir}/${modelDir}/multi_turn`;

  // resume: what each category file already holds
  const problems: Problem[] = [];
  const existing = new Map<RunCategory, Map<string, { text: string; isError: boolean }>>();
  for (const c of runCategories) {
    const path = `${folder}/${resultFileName(c)}`;
    const opened = openResultFile(path);
    if (!opened.ok) return opened;
    for (const n of opened.value.malformed) problems.push(problem("line-malformed", "not a result line; kept as it is", { file: path, line: n }));
    existing.set(c, opened.value.lines);
  }
  const pending: string[] = [];
  let resumed = 0;
  for (const id of ids) {
    const old = existing.get(categoryOf(id) as RunCategory)?.get(id);
    if (old && !(req.retryErrors && old.isError)) resumed++;
    else pending.push(id);
  }

  const process = newEvaluatorProcess(undefined, true);
  const chat = req.chat ?? endpointFor(req);
  const userSim = req.userSim ?? null;
  const simEndpoint = userSim === null ? null : (userSim.chat ?? userSimEndpointFor(userSim, req));
  const pairsByMiss = new Map(req.manifest.pairs.map((p) => [p.missId, p]));
  const sim = { items: 0, answered: 0, noQuestion: 0, silent: 0, clarifications: 0, requests: 0, inputTokens: 0, outputTokens: 0 };
  const now = req.now ?? (() => performance.timeOrigin / 1000 + performance.now() / 1000);
  const written = new Map<RunCategory, Map<string, string>>(runCategories.map((c) => [c, new Map()]));
  const errors: { id: string; message: string }[] = [];
  const counts = { requests: 0, inputTokens: 0, outputTokens: 0, stopped: 0 };
  const started = Date.now();
  let done = 0;
  const progress = () =>
    req.onProgress?.({ done: done + resumed, total: ids.length, requests: counts.requests, errors: errors.length, inputTokens: counts.inputTokens, outputTokens: counts.outputTokens, elapsedMs: Date.now() - started, simRequests: sim.requests });
  progress();

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pending.length) {
      const id = pending[next++];
      const entry = entries.value.get(id) as RolloutEntry;
      const interactive = userSim !== null && simEndpoint !== null ? interactiveUserFor(entry, pairsByMiss, userSim, simEndpoint) : null;
      const anchorStop = selection.lastTurn.get(id) ?? null;
      const outcome = await runEntry(entry, {
        mode: req.mode,
        chat,
        now,
        executor: processExecutor(process, entry, req.model),
        decode: req.mode === "fc" ? decodeFcStep : (step: PyValue) => decodePromptingStep(step),
        systemPrompt,
        inject: req.inject,
        excludeStateLog: req.excludeStateLog === true,
        // interactive should-ask items run through their answer turn, where "asked, then did it" is read
        lastTurn: req.untilAnchor && anchorStop !== null ? (interactive !== null ? Math.max(anchorStop, interactive.answerTurn) : anchorStop) : null,
        interactive,
      });
      const text = renderLine(outcome.line);
      const category = categoryOf(id) as RunCategory;
      appendLine(`${folder}/${resultFileName(category)}`, text);
      written.get(category)?.set(id, text);
      counts.requests += outcome.stats.requests;
      counts.inputTokens += outcome.stats.inputTokens;
      counts.outputTokens += outcome.stats.outputTokens;
      if (outcome.line.has(STOPPED_AFTER_TURN_KEY)) counts.stopped++;
      sim.requests += outcome.stats.simRequests;
      sim.inputTokens += outcome.stats.simInputTokens;
      sim.outputTokens += outcome.stats.simOutputTokens;
      const summary = outcome.line.get(USER_SIMULATOR_KEY);
      if (summary instanceof PyDict) {
        sim.items++;
        const opened = summary.get("opening");
        if (opened === "answered") sim.answered++;
        else if (opened === "no-question") sim.noQuestion++;
        else sim.silent++;
        sim.clarifications += Number(summary.get("clarifications") ?? 0n);
      }
      if (outcome.error !== null) errors.push({ id, message: outcome.error });
      done++;
      progress();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(req.concurrency, pending.length)) }, worker));

  // the final order: BFCL's sort, every line once (a retried error line replaced by its rerun)
  const files: RunFileSummary[] = [];
  for (const c of runCategories) {
    const path = `${folder}/${resultFileName(c)}`;
    const merged = new Map<string, string>();
    for (const [id, l] of existing.get(c) ?? []) merged.set(id, l.text);
    const fresh = written.get(c) ?? new Map<string, string>();
    for (const [id, text] of fresh) merged.set(id, text);
    if (merged.size === 0) continue;
    const w = writeFileAtomic(path, sortedFileText([...merged].map(([id, text]) => ({ id, text }))));
    if (!w.ok) return w;
    files.push({
      category: c,
      path,
      lines: merged.size,
      generated: fresh.size,
      resumed: ids.filter((id) => categoryOf(id) === c && !fresh.has(id) && merged.has(id)).length,
      errors: errors.filter((e) => categoryOf(e.id) === c).length,
    });
  }
  errors.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return ok({
    command: "run",
    exitCode: errors.length > 0 ? 1 : 0,
    model: req.model,
    modelDir,
    mode: req.mode,
    items: req.items,
    selected: ids.length,
    generated: pending.length,
    resumed,
    requests: counts.requests,
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
    problems,
  });
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
  readonly timeoutSeconds?: number;
  readonly retries?: number;
  /** Name of the environment variable holding the key; none: no Authorization header. */
  readonly keyEnv?: string;
  readonly bfclData?: string;
  readonly untilAnchor?: boolean;
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
  /** Seconds, for the latency lists (default the wall clock; tests inject a fake for byte-equal files). */
  readonly now?: () => number;
  readonly onProgress?: (p: RunProgress) => void;
  readonly onRetry?: (info: RetryInfo) => void;
}

/** The document of a run that stopped before generating anything. */
function refused(req: Pick<RunCommandRequest, "model" | "mode" | "items">, problems: Problem[]): RunDocument {
  return {
    command: "run",
    exitCode: 2,
    model: req.model,
    modelDir: modelDirName(req.model),
    mode: req.mode ?? "fc",
    items: req.items ?? "pairs",
    selected: 0,
    generated: 0,
    resumed: 0,
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    stoppedAtAnchor: 0,
    userSimulator: null,
    files: [],
    errors: [],
    problems,
  };
}

function numberProblem(value: number | undefined, flag: string, min: number, integer: boolean): Problem | null {
  if (value === undefined) return null;
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    return problem("bad-argument", `${flag} must be ${integer ? "an integer" : "a number"} >= ${min}${Number.isNaN(value) ? " (got text that is not a number)" : `, got ${value}`}`);
  }
  return null;
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
    numberProblem(req.timeoutSeconds, "--timeout", 0.001, false),
    numberProblem(req.retries, "--retries", 0, true),
  ]) {
    if (p) bad.push(p);
  }
  if (req.inject !== undefined && req.injectFile !== undefined) bad.push(problem("bad-argument", "give --inject or --inject-file, not both"));
  let apiKey: string | null = null;
  if (req.keyEnv !== undefined) {
    apiKey = ctx.env[req.keyEnv] ?? null;
    if (!apiKey) bad.push(problem("key-missing", `--key-env ${req.keyEnv}: that environment variable is not set or empty`));
  }
  const interactive = req.userSim === "llm";
  if (req.userSim !== undefined && req.userSim !== "scripted" && req.userSim !== "llm") bad.push(problem("bad-argument", `--user-sim must be scripted or llm, got ${String(req.userSim)}`));
  if (interactive) {
    if (!req.userEndpoint) bad.push(problem("bad-argument", "--user-sim llm needs --user-endpoint URL (the simulated user's OpenAI-compatible endpoint)"));
    if (!req.userModel) bad.push(problem("bad-argument", "--user-sim llm needs --user-model NAME (the model that plays the user)"));
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
    userKey = ctx.env[req.userKeyEnv] ?? null;
    if (!userKey) bad.push(problem("key-missing", `--user-key-env ${req.userKeyEnv}: that environment variable is not set or empty`));
  }
  if (bad.length > 0) return refused(req, bad);
  let userSim: UserSimSetup | null = null;
  if (interactive) {
    const file = req.userPrompt !== undefined ? resolvePath(ctx.cwd, req.userPrompt) : committedDataPath("user-sim-prompt.md");
    const text = readTextIfFile(file);
    if (text === null) return refused(req, [problem("file-missing", "cannot read the user-simulator prompt file", { file })]);
    const parsed = parseUserSimPrompt(text);
    if (!parsed.ok) return refused(req, [problem("prompt-malformed", parsed.message, { file })]);
    userSim = { endpoint: req.userEndpoint as string, model: req.userModel as string, apiKey: userKey, maxClarifications: req.maxClarifications ?? 2, prompt: parsed.prompt };
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
    apiKey,
    bfclDataDir: location.dir,
    manifest: manifest.value,
    untilAnchor: req.untilAnchor === true,
    retryErrors: req.retryErrors === true,
    excludeStateLog: req.excludeStateLog === true,
    inject,
    systemPromptFile,
    bfclPromptsFile,
    onProgress: req.onProgress,
    onRetry: req.onRetry,
    now: req.now,
    userSim,
  });
  return done.ok ? done.value : refused(req, [...done.problems]);
}
