/**
 * `judge`, the use case: label what models wrote on the turns where they held back, with a
 * judge model behind an OpenAI-compatible endpoint. Optional: no number of `score`
 * depends on it. Labels are appended to a JSON Lines file as they arrive, so an
 * interrupted run resumes; a dry run lists the requests and sends nothing.
 */
import { readingById, selectUnder } from "../decision/readings.js";
import { summarizeLabels, type JudgeSummary } from "../judge/aggregate.js";
import { buildJudgeRequest, parsePromptFile, type JudgePrompt } from "../judge/prompt.js";
import { heldBackTurns } from "../judge/turns.js";
import { isSilent, type HeldBackTurn } from "../judge/types.js";
import { pushAll, problem, type Problem } from "../messages/index.js";
import { readLabelsFile, runJudge, type JudgeRunReport } from "./judge-run.js";
import type { RetryInfo } from "../io/openai-chat.js";
import { resolvePath } from "../io/paths.js";
import { keyFromEnv, keyProblemText } from "../io/secrets.js";
import {
  badArgument,
  contextOf,
  numberProblem,
  type Context,
  strictExitCode,
  type ExitCode,
  type RequestContext,
  type ModelsOption,
  type ManifestOption,
  type DecoderOption,
} from "./common.js";
import { readModels } from "./pipeline.js";
import { checkEndpoints, endpointArgumentProblem, HTTP_CLIENT_DEFAULTS, MAX_TIMEOUT_SECONDS } from "./endpoint-check.js";
import { requestShapeProblems, type RequestShape } from "./request-shape.js";

/** What to judge, and with what. */
export interface JudgeRequest extends RequestContext, ModelsOption, ManifestOption, DecoderOption {
  readonly results: readonly string[];
  /** OpenAI-compatible base URL (required unless `dryRun`). */
  readonly endpoint?: string;
  /** The judge model's name at the endpoint (required unless `dryRun`). */
  readonly judgeModel?: string;
  /**
   * The environment variable holding the API key (`--key-env`): it must be set, to a key an
   * HTTP header can carry. Absent: no key is sent (a local server needs none), as `run`
   * does. Never written anywhere.
   */
  readonly keyEnv?: string;
  /** The API key itself, for a library caller (instead of `keyEnv`; may be empty for a local server); checked as `keyEnv`'s. Never written anywhere. */
  readonly apiKey?: string;
  /** Prompt file instead of the package's data/judge-prompt.md. */
  readonly prompt?: string;
  /** JSON Lines file labels are appended to and resumed from (default `twinscore-labels.jsonl`). */
  readonly labels?: string;
  /** Response cache folder; null: none (default: `<labels>.cache`). */
  readonly cache?: string | null;
  readonly concurrency?: number;
  readonly timeoutSeconds?: number;
  readonly retries?: number;
  /** List the requests, send nothing. */
  readonly dryRun?: boolean;
  /** Also send turns on which the model wrote no text. */
  readonly includeSilent?: boolean;
  readonly onProgress?: (done: number, total: number) => void;
  /** Told about each retry (a `Retry-After` cut to the cap included: `retryAfterCappedFromMs`). */
  readonly onRetry?: (info: RetryInfo) => void;
  /** Count every problem as a finding (exit 1). */
  readonly strict?: boolean;
}

/** What a library caller's judge request must hold (see `request-shape.ts`). */
const judgeShape: RequestShape = {
  results: { rule: "list", required: true },
  models: { rule: "list" },
  endpoint: { rule: "string" },
  judgeModel: { rule: "string" },
  keyEnv: { rule: "string" },
  apiKey: { rule: "string" },
  prompt: { rule: "string" },
  labels: { rule: "string" },
  cache: { rule: "string-or-null" },
  concurrency: { rule: "number" },
  timeoutSeconds: { rule: "number" },
  retries: { rule: "number" },
  dryRun: { rule: "boolean" },
  includeSilent: { rule: "boolean" },
  onProgress: { rule: "function" },
  onRetry: { rule: "function" },
  manifest: { rule: "string" },
  decoder: { rule: "string" },
  strict: { rule: "boolean" },
};

/** What was judged (or, in a dry run, would be). */
export interface JudgeDocument {
  readonly command: "judge";
  /** The labels file (absolute), null in a dry run. */
  readonly labelsFile: string | null;
  /** Per model: held-back turns, silent ones, labels and their shares. */
  readonly summaries: readonly JudgeSummary[];
  /** A dry run's requests, and the turns left out. */
  readonly dryRun: {
    readonly requests: readonly { readonly model: string; readonly missId: string; readonly request: unknown }[];
    readonly silent: number;
    readonly notReached: number;
    readonly silentIncluded: boolean;
  } | null;
  /** What the run did: labelled now, resumed, from cache, requested, failed. */
  readonly run: JudgeRunReport | null;
  /** Each model read and the result files it was read from (its problems are located in them). */
  readonly modelFiles: readonly { readonly model: string; readonly files: readonly string[] }[];
  readonly problems: readonly Problem[];
  readonly exitCode: ExitCode;
}

/** The arguments checked before any input is read: the key to send (none: empty), the prompt, or the problems. */
function checkArguments(
  req: JudgeRequest,
  ctx: Context,
): { apiKey: string; prompt: ReturnType<typeof parsePromptFile> | null; bad: Problem[] } {
  const bad: Problem[] = [];
  if (req.results.length === 0) bad.push(badArgument("give at least one --results DIR (a BFCL result tree)"));
  if (!req.dryRun && (!req.endpoint || !req.judgeModel))
    bad.push(badArgument("--endpoint and --judge-model are required (or use --dry-run)"));
  // the URL checked as run checks it, before any input is read (a dry run sends nothing)
  const badUrl = req.dryRun || !req.endpoint ? null : endpointArgumentProblem(req.endpoint, "--endpoint");
  if (badUrl !== null) bad.push(badUrl);
  for (const p of [
    numberProblem(req.concurrency, "--concurrency", 1, true),
    numberProblem(req.timeoutSeconds, "--timeout", 0.001, false, MAX_TIMEOUT_SECONDS),
    numberProblem(req.retries, "--retries", 0, true),
  ]) {
    if (p !== null) bad.push(p);
  }
  const apiKey = req.dryRun ? "" : keyToSend(req, ctx, bad);
  const promptPath = req.prompt !== undefined ? resolvePath(ctx.cwd, req.prompt) : ctx.host.committedDataPath("judge-prompt.md");
  const promptText = ctx.host.readTextIfFile(promptPath);
  const prompt = promptText === null ? null : parsePromptFile(promptText);
  if (promptText === null) bad.push(problem("file-missing", "cannot read the prompt file", { file: promptPath }));
  else if (prompt !== null && !prompt.ok) bad.push(problem("prompt-malformed", prompt.message, { file: promptPath }));
  // the labels are read and appended to: a FIFO would hang the read, a device fill the memory
  const labelsPath = resolvePath(ctx.cwd, req.labels ?? "twinscore-labels.jsonl");
  const labelsSpecial = req.dryRun ? null : ctx.host.notRegularFile(labelsPath, "--labels");
  if (labelsSpecial !== null) bad.push(labelsSpecial);
  pushAll(
    bad,
    ctx.host.walkBfclTree(req.results, ctx.cwd, "result").problems.filter((p) => p.severity === "error"),
  );
  return { apiKey, prompt, bad };
}

/** The key a request sends: only one named (`keyEnv`) or given (`apiKey`), never both; empty when none. */
function keyToSend(req: JudgeRequest, ctx: Context, bad: Problem[]): string {
  if (req.keyEnv !== undefined && req.apiKey !== undefined) {
    bad.push(badArgument("give keyEnv or apiKey, not both"));
    return "";
  }
  if (req.apiKey !== undefined) {
    const why = keyProblemText(req.apiKey, "apiKey", "(given)");
    if (why === null) return req.apiKey;
    bad.push(problem("key-unusable", why));
    return "";
  }
  if (req.keyEnv === undefined) return "";
  // a key only where one is named: an endpoint never receives a key it was not meant to
  const found = keyFromEnv(ctx.env, req.keyEnv, "--key-env");
  if (found.problem !== null) bad.push(found.problem);
  return found.key ?? "";
}

/** Per model: its held-back turns, those not reached, the silent ones, and the miss ids sent. */
type HeldBackCounts = Map<string, { heldBack: number; notReached: number; silent: number; missIds: Set<string> }>;

/** The held-back turns of every model, read on the pairs Table 1 scores; the problems met when the models cannot be read. */
function selectHeldBack(req: JudgeRequest, ctx: Context) {
  // each model on the pairs of the BFCL version its files name, its rollouts checked against that data
  const table1 = readingById("table-1")!;
  const perModel: HeldBackCounts = new Map();
  const toSend: HeldBackTurn[] = [];
  const modelFiles: { model: string; files: string[] }[] = [];
  const read = readModels(
    {
      ctx,
      results: req.results,
      models: req.models,
      manifest: req.manifest,
      decoder: req.decoder,
      pairs: { headline: table1 },
      keep: "all",
      needs: { openings: true },
      hints: { force: "name the result files after the BFCL version they were generated on" },
    },
    (m) => {
      modelFiles.push({ model: m.model, files: Object.values(m.filesUsed).map((f) => f.file) });
      if (m.score === null) return m.problems;
      // the held-back turns of the pairs Table 1 scores (decided on both twins); interactive runs give
      // the anchor reply the simulated user answered, for turns whose steps kept no text
      const scored = selectUnder(m.score.records, m.manifest, table1, "decided").scored.map((x) => x.record);
      const sel = heldBackTurns(m.model, scored, new Map(m.manifest.pairs.map((p) => [p.missId, p])), m.openings ?? undefined);
      perModel.set(m.model, {
        heldBack: sel.turns.length + sel.notReached,
        notReached: sel.notReached,
        silent: sel.silent,
        missIds: new Set(sel.turns.map((t) => t.missId)),
      });
      pushAll(
        toSend,
        sel.turns.filter((t) => req.includeSilent || !isSilent(t)),
      );
      return m.problems;
    },
  );
  if (!read.ok) return read;
  return { ok: true as const, perModel, toSend, modelFiles, problems: [...read.value.problems, ...read.value.outputs.flat()] };
}

/** What a dry run lists: each request as it would be sent, and the turns left out. */
function dryRunOf(
  req: JudgeRequest,
  toSend: readonly HeldBackTurn[],
  perModel: HeldBackCounts,
  prompt: JudgePrompt,
): JudgeDocument["dryRun"] {
  const judgeModel = req.judgeModel || "<judge-model>";
  const sum = (k: "silent" | "notReached") => [...perModel.values()].reduce((a, m) => a + m[k], 0);
  const requests = toSend.map((t) => ({ model: t.model, missId: t.missId, request: buildJudgeRequest(t, prompt, judgeModel).body }));
  return { requests, silent: sum("silent"), notReached: sum("notReached"), silentIncluded: Boolean(req.includeSilent) };
}

/** The probe of the judge's endpoint and model, sent through the context's host: a refusal, or the notes it made. */
function probeJudge(req: JudgeRequest, apiKey: string, timeoutMs: number, ctx: Context): ReturnType<typeof checkEndpoints> {
  const target = { flag: "--endpoint", endpoint: req.endpoint!, model: req.judgeModel!, apiKey: apiKey === "" ? null : apiKey };
  return checkEndpoints([target], { otherKeys: [], timeoutMs, transport: ctx.host.http }, "nothing was judged");
}

/** Judge the held-back turns. Never throws on bad input: problems are in the document.
 *
 * @example
 * import { judgeHeldBack } from "twinscore";
 * const doc = await judgeHeldBack({ results: ["runs/main"], endpoint: "http://127.0.0.1:8000/v1", judgeModel: "judge", apiKey: process.env.OPENAI_API_KEY });
 * console.log(doc.summaries.map((s) => [s.model, s.shares.asks_removed]));
 */
export async function judgeHeldBack(req: JudgeRequest): Promise<JudgeDocument> {
  const shape = requestShapeProblems(
    req,
    judgeShape,
    '{ results: ["runs/main"], endpoint: "http://127.0.0.1:8000/v1", judgeModel: "judge" }',
  );
  if (shape.length > 0)
    return { command: "judge", labelsFile: null, summaries: [], dryRun: null, run: null, modelFiles: [], problems: shape, exitCode: 2 };
  const ctx = contextOf(req);
  const done = (problems: Problem[], rest: Partial<JudgeDocument> = {}): JudgeDocument => {
    const doc: JudgeDocument = {
      command: "judge",
      labelsFile: null,
      summaries: [],
      dryRun: null,
      run: null,
      modelFiles: [],
      problems,
      exitCode: 2,
      ...rest,
    };
    return { ...doc, exitCode: strictExitCode(doc.exitCode, problems, req.strict) };
  };
  // every argument before any input is read
  const { apiKey, prompt, bad } = checkArguments(req, ctx);
  if (bad.length > 0 || prompt === null || !prompt.ok) return done(bad);
  const selected = selectHeldBack(req, ctx);
  if (!selected.ok) return done([...selected.problems]);
  const { perModel, toSend, modelFiles, problems } = selected;
  if (perModel.size === 0)
    return done([...problems, problem("nothing-scored", "no model could be scored, so there is nothing to judge")], { modelFiles });
  if (req.dryRun) return done(problems, { dryRun: dryRunOf(req, toSend, perModel, prompt.prompt), modelFiles, exitCode: 0 });
  const labels = req.labels ?? "twinscore-labels.jsonl";
  const labelsFile = resolvePath(ctx.cwd, labels);
  const timeoutMs = Math.round((req.timeoutSeconds ?? HTTP_CLIENT_DEFAULTS.timeoutSeconds) * 1000);
  // before the first request is spent: the endpoint answers and serves the judge model (nothing to send, nothing to check)
  if (toSend.length > 0) {
    const checked = await probeJudge(req, apiKey, timeoutMs, ctx);
    // one line, as run refuses: the warnings of reading the files would only bury it
    if (!checked.ok) return done([...checked.problems], { modelFiles });
    problems.push(...checked.value);
  }
  const report = await runJudge(toSend, {
    endpoint: req.endpoint!,
    judgeModel: req.judgeModel!,
    apiKey,
    prompt: prompt.prompt,
    labelsFile,
    cacheDir: req.cache === null ? null : resolvePath(ctx.cwd, req.cache ?? `${labels}.cache`),
    concurrency: req.concurrency ?? HTTP_CLIENT_DEFAULTS.concurrency,
    timeoutMs,
    retries: req.retries ?? HTTP_CLIENT_DEFAULTS.retries,
    backoffMs: 1000,
    onProgress: req.onProgress,
    onRetry: req.onRetry,
    host: ctx.host,
  });
  const summaries = summarizeLabels(perModel, readLabelsFile(labelsFile, ctx.host));
  return done(problems, { labelsFile, summaries, run: report, modelFiles, exitCode: report.failures.length > 0 ? 1 : 0 });
}
