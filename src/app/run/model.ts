/**
 * `runModel`, the use case in its phases: validate the request, read the inputs and plan
 * the lines, check the folder (`run.json`, resume), probe the endpoints, record the
 * session, generate, and rewrite the files in BFCL's order.
 */
import { err, ok, problem, pushAll, type Problem, type Result } from "../../messages/index.js";
import type { HistorySource } from "../../bfcl/line-keys.js";
import { modelDirName, type RolloutEntry, type Selection, type SystemPromptBuilder } from "../../rollout/index.js";
import type { RunRecord, RunSettings } from "../../rollout/run-record.js";
import { endpointSecrets } from "../../io/openai-chat.js";
import { staleLockWarning } from "../../io/run-output.js";
import { nodeHost, type Host } from "../../io/host.js";
import { redactorOf } from "../../io/secrets.js";
import { probeEndpoints, watchedEndpoints } from "./endpoint.js";
import { generateAll, type Generated } from "./generate.js";
import { loadReferenceTurns, loadRunEntries, loadSystemPrompt } from "./inputs.js";
import { byIdAndAnchor, finalFiles, rewriteAll, stoppedProblem } from "./output.js";
import { generatedTurns, narrowSelection, type Job, type RunPlan } from "./plan.js";
import { askedSettings, resumeRefusal, runDataSha256, startedRecord } from "./provenance.js";
import { folderRefusal, openOutput, pendingWithoutWriting, splitJobs, type ResumeSplit } from "./resume.js";
import { emptyDocument } from "./document.js";
import { requestProblem } from "./validate.js";
import { DEFAULT_MAX_CONSECUTIVE_ERRORS, type RunDocument, type RunRequest } from "./types.js";

/** What a run works from once its inputs are read: the entries, the lines to write, where they go, and the settings. */
interface RunInputs {
  readonly history: HistorySource;
  readonly entries: ReadonlyMap<string, RolloutEntry>;
  readonly references: ReadonlyMap<string, readonly (readonly string[])[]> | null;
  readonly systemPrompt: SystemPromptBuilder | undefined;
  readonly selection: Selection;
  readonly jobs: readonly Job[];
  readonly pairs: number;
  readonly modelDir: string;
  readonly modelFolder: string;
  readonly folder: string;
  /** The keys, and credentials in the endpoints' query strings, kept out of every line and message. */
  readonly keys: readonly (string | null)[];
  readonly settings: RunSettings;
}

/** Read the BFCL inputs, the system prompt and the selection: the lines to write and the settings that make them. */
function readInputs(req: RunRequest, host: Host): Result<RunInputs> {
  const history: HistorySource = req.history ?? "own";
  const entries = loadRunEntries(req.bfclDataDir, "v4", host);
  if (!entries.ok) return entries;
  const references = history === "reference" ? loadReferenceTurns(req.bfclDataDir, "v4", host) : ok(null);
  if (!references.ok) return references;
  const prompt = loadSystemPrompt(req, host);
  if (!prompt.ok) return prompt;
  // the lines to write: one per id; under --history reference one per id and distinct anchor of its pairs kept; each per trial
  const narrowed = narrowSelection(req.items, req.manifest, [...entries.value.keys()], history, req.narrowing ?? {}, req.trials ?? 1);
  if (!narrowed.ok) return narrowed;
  const only = req.onlyIds ? new Set(req.onlyIds) : null;
  const modelDir = req.modelDir ?? modelDirName(req.model);
  const userSim = req.userSim ?? null;
  return ok({
    history,
    entries: entries.value,
    references: references.value,
    systemPrompt: prompt.value.builder,
    selection: narrowed.value.selection,
    jobs: only === null ? narrowed.value.jobs : narrowed.value.jobs.filter((j) => only.has(j.id)),
    pairs: narrowed.value.pairs,
    modelDir,
    modelFolder: `${req.outDir}/${modelDir}`,
    folder: `${req.outDir}/${modelDir}/multi_turn`,
    keys: [
      req.apiKey,
      userSim?.apiKey ?? null,
      ...(req.chat === undefined ? endpointSecrets(req.endpoint) : []),
      ...(userSim !== null && userSim.chat === undefined ? endpointSecrets(userSim.endpoint) : []),
    ],
    settings: askedSettings({
      ...req,
      history,
      systemPromptText: prompt.value.text,
      userSim: userSim === null ? null : { ...userSim, promptText: userSim.promptText ?? JSON.stringify(userSim.prompt) },
    }),
  });
}

/** What the run will do, given the lines still to generate. */
function planOf(req: RunRequest, inputs: RunInputs, pending: readonly Job[]): RunPlan {
  const { jobs, selection } = inputs;
  const stopAfter = (job: Job): number | null => {
    if (job.anchorTurn !== null) return req.continueAfterAnchor === true ? null : job.anchorTurn;
    return req.untilAnchor ? (selection.lastTurn.get(job.id) ?? null) : null;
  };
  const pairsOfMiss = new Set(req.manifest.pairs.map((p) => p.missId));
  return {
    items: new Set(jobs.map((j) => j.id)).size,
    lines: jobs.length,
    pairs: inputs.pairs,
    resumed: jobs.length - pending.length,
    pending: pending.length,
    minRequests: pending.reduce((n, j) => n + generatedTurns(j, inputs.entries.get(j.id) as RolloutEntry, stopAfter(j)), 0),
    simulatedTurns: req.userSim === null || req.userSim === undefined ? 0 : pending.filter((j) => pairsOfMiss.has(j.id)).length,
    trials: req.trials ?? 1,
  };
}

/** `--dry-run`: the plan from what the output holds, and the resume check a real run would make; nothing sent or written. */
function dryRunOf(req: RunRequest, inputs: RunInputs, record: RunRecord | null, host: Host): Result<RunDocument> {
  const pending = pendingWithoutWriting(
    inputs.jobs,
    inputs.folder,
    req.retryErrors,
    (lines) => resumeRefusal(inputs.modelFolder, record, lines, inputs.settings),
    host,
  );
  if (!pending.ok) return pending;
  const plan = planOf(req, inputs, pending.value);
  req.onPlan?.(plan);
  return ok({
    ...emptyDocument({ model: req.model, mode: req.mode, items: req.items, history: inputs.history }, []),
    exitCode: 0,
    modelDir: inputs.modelDir,
    pairs: plan.pairs,
    selected: plan.lines,
    resumed: plan.resumed,
    plan,
    dryRun: true,
    record,
  });
}

/** Run the request: generate every selected line not already in the output. */
export async function runModel(req: RunRequest): Promise<Result<RunDocument>> {
  const bad = requestProblem(req);
  if (bad !== null) return err(bad);
  const host = req.host ?? nodeHost();
  const read = readInputs(req, host);
  if (!read.ok) return read;
  const inputs = read.value;
  const recorded = host.readRunRecord(inputs.modelFolder);
  if (recorded.problem !== null)
    return err({
      ...recorded.problem,
      message: `${recorded.problem.message}; a resume needs it to know what made the folder (remove it only if the folder's lines are yours to vouch for)`,
    });
  if (req.dryRun === true) return dryRunOf(req, inputs, recorded.record, host);
  const problems: Problem[] = [];
  // before anything is made: a new folder only once the endpoints answered
  const existed = host.files.exists(inputs.modelFolder);
  if (!existed) {
    const probed = await probeEndpoints(req, inputs.keys);
    if (!probed.ok) return probed;
    pushAll(problems, probed.value);
  }
  const locked = host.acquireRunLock(inputs.modelFolder);
  if (!locked.ok) return locked;
  const { lock, staleFrom } = locked.value;
  if (staleFrom !== null) problems.push(staleLockWarning(lock.file, staleFrom));
  // a signal ends the run with the files in their final form: a retried line replaces its error line on disk at once
  lock.onInterrupt(() => rewriteAll(inputs.folder, host, req.fileOps));
  try {
    return await resumeAndGenerate(req, host, inputs, recorded.record, existed, problems);
  } finally {
    lock.release();
  }
}

/** With the folder locked: check what it holds, plan, record the session, generate the missing lines, and finish. */
async function resumeAndGenerate(
  req: RunRequest,
  host: Host,
  inputs: RunInputs,
  previous: RunRecord | null,
  existed: boolean,
  problems: Problem[],
): Promise<Result<RunDocument>> {
  const existing = openOutput(inputs.folder, problems, host);
  if (!existing.ok) return existing;
  // one folder, one set of settings: a resume that asks for others is refused before anything is written
  const refusal = folderRefusal(inputs.folder, inputs.modelFolder, previous, existing.value, inputs.settings, inputs.history);
  if (refusal !== null) return err(refusal);
  const split = splitJobs(inputs.jobs, existing.value, req.retryErrors);
  const plan = planOf(req, inputs, split.pending);
  req.onPlan?.(plan);
  if (existed && split.pending.length > 0) {
    const probed = await probeEndpoints(req, inputs.keys);
    if (!probed.ok) return probed;
    pushAll(problems, probed.value);
  }
  const clock = req.clock ?? (() => new Date());
  let record = previous;
  if (split.pending.length > 0) {
    const session = startSession(req, host, inputs, record, clock());
    if (!session.ok) return session;
    record = session.value;
  }
  const endpoints = watchedEndpoints(req, inputs.keys, req.maxConsecutiveErrors ?? DEFAULT_MAX_CONSECUTIVE_ERRORS);
  const generated = await generateMissing(req, host, inputs, split, endpoints);
  const finished = finish(req, host, inputs, split, generated, endpoints.halt, problems);
  if (record !== null && split.pending.length > 0) {
    // the session's end: a run stopped early keeps endedAt null, so a reader can tell
    record = { ...record, endedAt: finished.halted === null ? clock().toISOString() : null };
    const wrote = host.writeRunRecord(inputs.modelFolder, record);
    if (wrote !== null) problems.push(wrote);
  }
  return ok({ ...finished.document, plan, record });
}

/** A session's start, before any line is generated: the output folder made and the run record written with the session added. */
function startSession(req: RunRequest, host: Host, inputs: RunInputs, previous: RunRecord | null, now: Date): Result<RunRecord> {
  const made = host.makeOutputFolder(inputs.folder);
  if (!made.ok) return made;
  const userEndpoint = req.userSim?.endpoint ?? null;
  const record = startedRecord(
    previous,
    { endpoint: req.endpoint, userEndpoint, manifest: req.manifest, dataSha256: runDataSha256(req.bfclDataDir, host) ?? "unknown" },
    inputs.settings,
    now,
  );
  const wrote = host.writeRunRecord(inputs.modelFolder, record);
  if (wrote !== null) return err(wrote);
  return ok(record);
}

/** Generate the pending lines, reporting progress over the whole selection (resumed lines and kept errors included). */
async function generateMissing(
  req: RunRequest,
  host: Host,
  inputs: RunInputs,
  split: ResumeSplit,
  endpoints: ReturnType<typeof watchedEndpoints>,
): Promise<Generated> {
  const started = Date.now();
  return generateAll(
    {
      req,
      entries: inputs.entries,
      references: inputs.references,
      selection: inputs.selection,
      systemPrompt: inputs.systemPrompt,
      folder: inputs.folder,
      redactor: redactorOf(inputs.keys),
      host,
      fileOps: req.fileOps,
      endpoints,
      pairsByMiss: new Map(req.manifest.pairs.map((p) => [p.missId, p])),
    },
    split.pending,
    (done, g) =>
      req.onProgress?.({
        done: done + split.resumedKeys.size,
        total: inputs.jobs.length,
        requests: g.counts.requests,
        errors: g.errors.length + split.keptErrors.length,
        inputTokens: g.counts.inputTokens,
        outputTokens: g.counts.outputTokens,
        elapsedMs: Date.now() - started,
        simRequests: g.sim.requests,
      }),
  );
}

/** What the simulated user did over the run, or null when the run had none. */
function userSimulatorSummary(req: RunRequest, sim: Generated["sim"]): RunDocument["userSimulator"] {
  const userSim = req.userSim ?? null;
  return userSim === null
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
      };
}

/** The end of a run: the files rewritten in BFCL's order, why it stopped early (if it did), and its document. */
function finish(
  req: RunRequest,
  host: Host,
  inputs: RunInputs,
  split: ResumeSplit,
  g: Generated,
  halt: { stop: Problem | null; write: Problem | null },
  problems: Problem[],
): { document: RunDocument; halted: Problem | null } {
  let files: RunDocument["files"] = [];
  if (halt.write === null) {
    const rewritten = finalFiles(inputs.folder, inputs.jobs, g.generatedKeys, split.resumedKeys, host, req.fileOps);
    files = rewritten.files;
    if (rewritten.failed !== null) halt.write = rewritten.failed;
  }
  g.errors.sort(byIdAndAnchor);
  split.keptErrors.sort(byIdAndAnchor);
  const halted: Problem | null = halt.write ?? halt.stop;
  if (halted !== null && halted === halt.stop) {
    problems.unshift(
      stoppedProblem(
        halted,
        halt.write !== null,
        g.generatedKeys.size,
        split.pending.length,
        inputs.history === "reference" ? "lines" : "items",
        g.errors,
      ),
    );
  } else if (halted !== null) problems.unshift(halted);
  const { counts, sim } = g;
  const document: RunDocument = {
    ...emptyDocument({ model: req.model, mode: req.mode, items: req.items, history: inputs.history }, problems),
    exitCode: halted !== null ? 2 : g.errors.length + split.keptErrors.length > 0 ? 1 : 0,
    modelDir: inputs.modelDir,
    pairs: inputs.pairs,
    selected: inputs.jobs.length,
    generated: g.generatedKeys.size,
    resumed: split.resumedKeys.size,
    requests: counts.requests,
    playedSteps: counts.playedSteps,
    inputTokens: counts.inputTokens,
    outputTokens: counts.outputTokens,
    stoppedAtAnchor: counts.stopped,
    userSimulator: userSimulatorSummary(req, sim),
    files,
    errors: g.errors,
    keptErrors: split.keptErrors,
    halted: halted === null ? null : halted.code,
  };
  return { document, halted };
}
