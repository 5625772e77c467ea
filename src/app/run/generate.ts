/**
 * Generation: the workers that take the pending lines one by one, run each through BFCL's
 * loop (`rollout/`) against the watched endpoints, append it to its category file, and
 * count what it took. A run of several trials sends each trial's seed (`trialSeed`).
 */
import { bfclDefaultDecoder } from "../../bfcl/decode/index.js";
import type { Manifest } from "../../pairs/types.js";
import { PyDict } from "../../python/containers.js";
import type { Selection } from "../../rollout/index.js";
import {
  errorLine,
  methodParameterNames,
  playedHistory,
  processExecutor,
  resultFileName,
  runEntry,
  withPlayedKeys,
  STOPPED_AFTER_TURN_KEY,
  USER_SIMULATOR_KEY,
  type PlayedHistory,
  type RolloutEntry,
  type RunCategory,
  type SystemPromptBuilder,
} from "../../rollout/index.js";
import { newEvaluatorProcess } from "../../simulator/runtime.js";
import type { ResultFileOps } from "../../io/run-output.js";
import type { Host } from "../../io/host.js";
import type { Redactor } from "../../io/secrets.js";
import { interactiveUserFor, type WatchedEndpoints } from "./endpoint.js";
import { errorNote, writableLine } from "./output.js";
import { categoryOfId, type Job } from "./plan.js";
import type { ErrorLineNote, RunProgress, RunRequest } from "./types.js";

/** The seed a trial sends: none without `--sampling-seed` in a run of one; else the run's seed (0 when none is given) plus the trial. */
export function trialSeed(seed: number | null, trial: number | null): number | null {
  if (trial === null) return seed;
  return (seed ?? 0) + trial;
}

/** What a run's generation reads: the request, its inputs, where lines go, and the endpoints. */
export interface GenerationSetup {
  readonly req: RunRequest;
  readonly entries: ReadonlyMap<string, RolloutEntry>;
  readonly references: ReadonlyMap<string, readonly (readonly string[])[]> | null;
  readonly selection: Selection;
  readonly systemPrompt: SystemPromptBuilder | undefined;
  readonly folder: string;
  readonly redactor: Redactor;
  /** Where the lines are appended, and the write call (undefined: the host's). */
  readonly host: Host;
  readonly fileOps: ResultFileOps | undefined;
  readonly endpoints: WatchedEndpoints;
  /** The manifest's pairs by their should-ask id (the items an interactive run simulates a user for). */
  readonly pairsByMiss: ReadonlyMap<string, Manifest["pairs"][number]>;
}

/** What generation did: the lines written (by key), the error lines, and the counts. */
export interface Generated {
  readonly generatedKeys: Set<string>;
  readonly errors: ErrorLineNote[];
  readonly counts: { requests: number; playedSteps: number; inputTokens: number; outputTokens: number; stopped: number };
  readonly sim: {
    items: number;
    answered: number;
    noQuestion: number;
    silent: number;
    clarifications: number;
    requests: number;
    inputTokens: number;
    outputTokens: number;
  };
}

/** A line as generated, or as refused before any request (a reference that cannot be played: no stats). */
type Outcome = Awaited<ReturnType<typeof runEntry>> | { readonly line: PyDict; readonly error: string; readonly stats: null };

/** Generate one line: the reference played up to its anchor (a line of its own process), then BFCL's loop on the rest. */
async function generateLine(setup: GenerationSetup, job: Job, shared: ReturnType<typeof newEvaluatorProcess>): Promise<Outcome> {
  const { req, selection, endpoints } = setup;
  const id = job.id;
  const entry = setup.entries.get(id) as RolloutEntry;
  const userSim = req.userSim ?? null;
  const interactive =
    userSim !== null && endpoints.sim !== null ? interactiveUserFor(entry, setup.pairsByMiss, userSim, endpoints.sim) : null;
  // a reference-history line stops after its own anchor (unless --continue); an own-history one after its latest under --until-anchor
  const anchorStop = job.anchorTurn ?? selection.lastTurn.get(id) ?? null;
  const stopHere = job.anchorTurn !== null ? req.continueAfterAnchor !== true : req.untilAnchor;
  // a reference-history line runs alone in its process: its world is the reference's, whatever other lines do
  const lineProcess = job.anchorTurn !== null ? newEvaluatorProcess(undefined, true) : shared;
  let played: PlayedHistory | null = null;
  if (job.anchorTurn !== null) {
    const built = playedHistory(
      req.mode,
      setup.references?.get(id) ?? [],
      job.anchorTurn,
      methodParameterNames(lineProcess, entry.involvedClasses),
    );
    if (!built.ok) {
      const playError = built.problems.map((p) => p.message).join("; ");
      return {
        line: withPlayedKeys(
          errorLine(id, playError, "twinscore run: the reference could not be played (no request was sent)"),
          job.anchorTurn,
        ),
        error: playError,
        stats: null,
      };
    }
    played = built.value;
  }
  return runEntry(entry, {
    mode: req.mode,
    chat: endpoints.chatOf(trialSeed(req.seed ?? null, job.trial)),
    now: req.now ?? (() => performance.timeOrigin / 1000 + performance.now() / 1000),
    executor: processExecutor(lineProcess, entry, req.model),
    // BFCL's default decoder of the mode: the one place that says which decoder a mode uses
    decode: bfclDefaultDecoder(req.mode === "fc" ? "records" : "text").decode,
    systemPrompt: setup.systemPrompt,
    inject: req.inject,
    excludeStateLog: req.excludeStateLog === true,
    // interactive should-ask items run through their answer turn, where "asked, then did it" is read
    lastTurn: stopHere && anchorStop !== null ? (interactive !== null ? Math.max(anchorStop, interactive.answerTurn) : anchorStop) : null,
    interactive,
    played,
  });
}

/** Count what one written line took: requests, tokens, played steps, a stop at the anchor, the simulated user's part. */
function countLine(done: Generated, outcome: Outcome, writeError: string | null): void {
  const { counts, sim } = done;
  if (writeError === null && outcome.line.has(STOPPED_AFTER_TURN_KEY)) counts.stopped++;
  if (outcome.stats !== null) {
    counts.requests += outcome.stats.requests;
    counts.playedSteps += outcome.stats.playedSteps;
    counts.inputTokens += outcome.stats.inputTokens;
    counts.outputTokens += outcome.stats.outputTokens;
    sim.requests += outcome.stats.simRequests;
    sim.inputTokens += outcome.stats.simInputTokens;
    sim.outputTokens += outcome.stats.simOutputTokens;
  }
  const summary = writeError === null ? outcome.line.get(USER_SIMULATOR_KEY) : undefined;
  if (summary instanceof PyDict) {
    sim.items++;
    const opened = summary.get("opening");
    if (opened === "answered") sim.answered++;
    else if (opened === "no-question") sim.noQuestion++;
    else sim.silent++;
    sim.clarifications += Number(summary.get("clarifications") ?? 0n);
  }
}

/** Run the pending jobs with `concurrency` workers until done or halted; `progress` is told after each line (and once before the first). */
export async function generateAll(
  setup: GenerationSetup,
  pending: readonly Job[],
  progress: (done: number, g: Generated) => void,
): Promise<Generated> {
  const { req, endpoints } = setup;
  const { halt } = endpoints;
  const done: Generated = {
    generatedKeys: new Set<string>(),
    errors: [],
    counts: { requests: 0, playedSteps: 0, inputTokens: 0, outputTokens: 0, stopped: 0 },
    sim: { items: 0, answered: 0, noQuestion: 0, silent: 0, clarifications: 0, requests: 0, inputTokens: 0, outputTokens: 0 },
  };
  const shared = newEvaluatorProcess(undefined, true);
  let lines = 0;
  progress(lines, done);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pending.length && halt.stop === null && halt.write === null) {
      const job = pending[next++];
      const outcome = await generateLine(setup, job, shared);
      const written = writableLine(job, outcome.line, setup.redactor, req.mode);
      if (halt.write !== null) break;
      const appended = setup.host.appendLine(
        `${setup.folder}/${resultFileName(categoryOfId(job.id) as RunCategory)}`,
        written.text,
        setup.fileOps,
      );
      if (!appended.ok) {
        halt.write = appended.problems[0];
        break;
      }
      done.generatedKeys.add(job.key);
      countLine(done, outcome, written.error);
      const error = written.error ?? outcome.error;
      if (error !== null) done.errors.push(errorNote(job, error));
      lines++;
      progress(lines, done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(req.concurrency, pending.length)) }, worker));
  return done;
}
