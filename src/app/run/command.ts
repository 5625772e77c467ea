/**
 * `twinscore run` as a command: the flags as given, checked (every bad one named), the
 * BFCL data folder, the keys, the injected block, the simulated user's prompt and the
 * prompting system prompt resolved, then the use case (`runModel`).
 */
import { problem, type Problem } from "../../messages/index.js";
import type { HistorySource } from "../../bfcl/line-keys.js";
import { parseUserSimPrompt, type ItemSelection, type RunCategory } from "../../rollout/index.js";
import type { RetryInfo } from "../../io/openai-chat.js";
import { resolvePath } from "../../io/paths.js";
import { contextOf, type Context, type RequestContext } from "../common.js";
import { emptyDocument } from "./document.js";
import { runModel } from "./model.js";
import type { RunPlan } from "./plan.js";
import { commandProblems } from "./validate.js";
import type { RunDocument, RunProgress, UserSimSetup } from "./types.js";
import { HTTP_CLIENT_DEFAULTS } from "../endpoint-check.js";
import { requestShapeProblems, type RequestShape } from "../request-shape.js";

/** What a library caller's run request must hold (see `request-shape.ts`); the values are checked after. */
const runShape: RequestShape = {
  endpoint: { rule: "string", required: true },
  model: { rule: "string", required: true },
  out: { rule: "string", required: true },
  ...fields("string", ["modelDir", "items", "mode", "keyEnv", "bfclData", "history", "inject", "injectFile", "systemPrompt"]),
  ...fields("string", ["userSim", "userEndpoint", "userModel", "userKeyEnv", "userPrompt", "category"]),
  ...fields("number", ["temperature", "concurrency", "timeoutSeconds", "retries", "maxReplyBytes", "maxConsecutiveErrors"]),
  ...fields("number", ["maxClarifications", "limit", "trials", "seed"]),
  ...fields("boolean", ["untilAnchor", "continueAfterAnchor", "retryErrors", "excludeStateLog", "dryRun"]),
  ...fields("function", ["now", "onProgress", "onRetry", "onPlan"]),
  ids: { rule: "list" },
};

function fields(rule: RequestShape[string]["rule"], names: readonly string[]): RequestShape {
  return Object.fromEntries(names.map((n) => [n, { rule }]));
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
  /** `--trials K`: K independent samples of each line (default 1). */
  readonly trials?: number;
  /** `--sampling-seed N`: the seed sent with each request (several trials: N + the trial); default none (0 + the trial with several). */
  readonly seed?: number;
  /** Seconds, for the latency lists (default the wall clock; tests inject a fake for byte-equal files). */
  readonly now?: () => number;
  readonly onProgress?: (p: RunProgress) => void;
  readonly onRetry?: (info: RetryInfo) => void;
  /** Called with the plan before the first request. */
  readonly onPlan?: (plan: RunPlan) => void;
}

/** The simulated user of an interactive run (null for a scripted one): its prompt file read and parsed. */
function userSimOf(req: RunCommandRequest, ctx: Context, userKey: string | null): { setup: UserSimSetup | null } | { problem: Problem } {
  if (req.userSim !== "llm") return { setup: null };
  const file = req.userPrompt !== undefined ? resolvePath(ctx.cwd, req.userPrompt) : ctx.host.committedDataPath("user-sim-prompt.md");
  const text = ctx.host.readTextIfFile(file);
  if (text === null) return { problem: problem("file-missing", "cannot read the user-simulator prompt file", { file }) };
  const parsed = parseUserSimPrompt(text);
  if (!parsed.ok) return { problem: problem("prompt-malformed", parsed.message, { file }) };
  return {
    setup: {
      endpoint: req.userEndpoint as string,
      model: req.userModel as string,
      apiKey: userKey,
      maxClarifications: req.maxClarifications ?? 2,
      prompt: parsed.prompt,
      promptText: text,
    },
  };
}

/** The injected block: `--inject` as given, or the text of `--inject-file`; null when neither. */
function injectOf(req: RunCommandRequest, ctx: Context): { text: string | null } | { problem: Problem } {
  if (req.injectFile === undefined) return { text: req.inject ?? null };
  const file = resolvePath(ctx.cwd, req.injectFile);
  const text = ctx.host.readTextIfFile(file);
  return text === null ? { problem: problem("file-missing", "cannot read the injection file", { file }) } : { text };
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
  const shape = requestShapeProblems(req, runShape, '{ endpoint: "http://127.0.0.1:8000/v1", model: "my-model", out: "runs/mine" }');
  if (shape.length > 0) return emptyDocument({ model: typeof req?.model === "string" ? req.model : "" }, shape);
  const ctx = contextOf(req);
  const checked = commandProblems(req, ctx);
  if (checked.problems.length > 0) return emptyDocument(req, checked.problems);
  const userSim = userSimOf(req, ctx, checked.keys.userKey);
  if ("problem" in userSim) return emptyDocument(req, [userSim.problem]);
  const inject = injectOf(req, ctx);
  if ("problem" in inject) return emptyDocument(req, [inject.problem]);
  const location = ctx.host.resolveBfclDataDir({ flag: req.bfclData, env: { ...ctx.env }, cwd: ctx.cwd });
  if (!location)
    return emptyDocument(req, [problem("bfcl-data-missing", "run needs the BFCL data: pass --bfcl-data DIR or set BFCL_DATA_DIR")]);
  const systemPromptFile = req.systemPrompt !== undefined ? resolvePath(ctx.cwd, req.systemPrompt) : null;
  const bfclPromptsFile =
    req.mode === "prompting" && systemPromptFile === null ? ctx.host.findBfclPromptsFile(ctx.env.TWINSCORE_PYTHON || "python3") : null;
  const manifest = ctx.host.loadManifest();
  if (!manifest.ok) return emptyDocument(req, [...manifest.problems]);
  const done = await runModel({
    endpoint: req.endpoint,
    model: req.model,
    outDir: resolvePath(ctx.cwd, req.out),
    modelDir: req.modelDir,
    items: req.items ?? "pairs",
    mode: req.mode ?? "fc",
    temperature: req.temperature ?? 0.001,
    concurrency: req.concurrency ?? HTTP_CLIENT_DEFAULTS.concurrency,
    timeoutMs: Math.round((req.timeoutSeconds ?? HTTP_CLIENT_DEFAULTS.timeoutSeconds) * 1000),
    retries: req.retries ?? HTTP_CLIENT_DEFAULTS.retries,
    maxReplyBytes: req.maxReplyBytes,
    maxConsecutiveErrors: req.maxConsecutiveErrors,
    apiKey: checked.keys.apiKey,
    bfclDataDir: location.dir,
    manifest: manifest.value,
    untilAnchor: req.untilAnchor === true,
    history: req.history ?? "own",
    continueAfterAnchor: req.continueAfterAnchor === true,
    retryErrors: req.retryErrors === true,
    excludeStateLog: req.excludeStateLog === true,
    inject: inject.text,
    systemPromptFile,
    bfclPromptsFile,
    onProgress: req.onProgress,
    onRetry: req.onRetry,
    onPlan: req.onPlan,
    now: req.now,
    http: ctx.host.http,
    host: ctx.host,
    userSim: userSim.setup,
    narrowing: { limit: req.limit, ids: req.ids, category: req.category as RunCategory | undefined },
    dryRun: req.dryRun === true,
    trials: req.trials ?? 1,
    seed: req.seed ?? null,
  });
  return done.ok ? done.value : emptyDocument(req, [...done.problems]);
}
