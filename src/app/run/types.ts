/**
 * The shapes of `twinscore run`: the request the use case takes (already validated), the
 * progress it reports, and the document it returns.
 */
import type { Problem } from "../../messages/index.js";
import type { Manifest } from "../../pairs/types.js";
import type { HistorySource } from "../../bfcl/line-keys.js";
import type { ChatEndpoint, ItemSelection, RunCategory, UserSimEndpoint, UserSimPrompt } from "../../rollout/index.js";
import type { RetryInfo } from "../../io/openai-chat.js";
import type { HttpTransport } from "../../io/http-transport.js";
import type { ResultFileOps } from "../../io/run-output.js";
import type { Host } from "../../io/host.js";
import type { RunRecord } from "../../rollout/run-record.js";
import type { ExitCode } from "../common.js";
import type { Narrowing, RunPlan } from "./plan.js";

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
  /** Independent samples of each line (default 1: one, no trial index on the lines). */
  readonly trials?: number;
  /** The sampling seed sent with each request (default none); with several trials each trial sends its own, derived from it (`trialSeed`). */
  readonly seed?: number | null;
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
  /** How the client's HTTP requests are sent: the context's host's (default node's sockets). */
  readonly http?: HttpTransport;
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
  /** The files the run reads and writes (default: the real ones, `nodeHost()`; a test gives an in-memory one). */
  readonly host?: Host;
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

/** An error line of a run: its id, its anchor turn for a `--history reference` line, and BFCL's message. */
export interface ErrorLineNote {
  readonly id: string;
  readonly anchorTurn?: number;
  /** The trial of the line, in a run of several (0 to K − 1). */
  readonly trial?: number;
  readonly message: string;
}
