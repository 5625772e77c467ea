/**
 * Options that mean the same thing in every command that takes them, declared once as groups: each group adds
 * its flags to a command and reads them back into the request's fields, so a flag cannot drift between
 * commands. More in this folder's README.md.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { DECODER_NAMES, type DecoderName } from "../bfcl/decode/index.js";
import { DEFAULT_MAX_UNDECIDED } from "../decision/readings.js";
import { sideRules, type PairSet, type SideRule } from "../decision/types.js";
import { outputFormats, type OutputFormat } from "../report/printout.js";
import { DEFAULT_BOOTSTRAP, MAX_BOOTSTRAP_RESAMPLES, type BootstrapOptions } from "../stats/index.js";
import { HTTP_CLIENT_DEFAULTS, MAX_TIMEOUT_SECONDS } from "../app/endpoint-check.js";
import { collect, integerOption, numberOption } from "./options.js";

/** The parsed flags of a command, as commander hands them over. */
export type ParsedOptions = Record<string, unknown>;

/** A group of flags: how to add them to a command, and how to read what was given. */
export interface OptionGroup<T> {
  readonly add: (cmd: Command) => Command;
  readonly read: (opts: ParsedOptions) => T;
}

/** Add every group's flags to a command, in the order given (the order `--help` lists them). */
export function withGroups(cmd: Command, ...groups: readonly OptionGroup<unknown>[]): Command {
  for (const g of groups) g.add(cmd);
  return cmd;
}

/** What a group reads. */
type ReadOf<G> = G extends OptionGroup<infer T> ? T : never;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** Read every group's fields into one object (the part of a request the groups give). */
export function readGroups<const G extends readonly OptionGroup<object>[]>(
  opts: ParsedOptions,
  ...groups: G
): Intersection<ReadOf<G[number]>> {
  return Object.assign({}, ...groups.map((g) => g.read(opts))) as Intersection<ReadOf<G[number]>>;
}

const texts = (opts: ParsedOptions, key: string): string[] => (opts[key] as string[] | undefined) ?? [];
const text = (opts: ParsedOptions, key: string): string | undefined => opts[key] as string | undefined;

/** `--results`: the BFCL result trees to read (repeatable). */
export const resultsGroup: OptionGroup<{ results: string[] }> = {
  add: (cmd) =>
    cmd.option(
      "--results <dir>",
      "a BFCL result tree (repeatable): a model folder, a result root, a run, or a folder of runs (twinscore help layouts)",
      collect,
    ),
  read: (opts) => ({ results: texts(opts, "results") }),
};

/** `--scores`: the BFCL score trees whose verdicts are read beside the rollouts (repeatable). */
export const scoresGroup: OptionGroup<{ scores: string[] }> = {
  add: (cmd) =>
    cmd.option(
      "--scores <dir>",
      "a BFCL score tree (repeatable), found as --results are: adds BFCL's own verdicts on the same items",
      collect,
    ),
  read: (opts) => ({ scores: texts(opts, "scores") }),
};

/** `--model`: keep only these models (repeatable). */
export const modelsGroup: OptionGroup<{ models: string[] }> = {
  add: (cmd) =>
    cmd.option(
      "--model <name>",
      "only this model: its folder name, <run>/<model>, or BFCL's model name (openai/gpt-oss-120b) (repeatable; default: every model found)",
      collect,
    ),
  read: (opts) => ({ models: texts(opts, "model") }),
};

/**
 * A `--decoder` value: a decoder's name, refused as commander refuses a choice outside
 * `.choices()` — whose list of every name would fill every command's help.
 */
function decoderName(value: string): string {
  if (!(DECODER_NAMES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`Allowed choices are ${DECODER_NAMES.join(", ")}.`);
  return value;
}

/** `--decoder`: one BFCL handler decoder for every model's steps. */
export const decoderGroup: OptionGroup<{ decoder?: DecoderName }> = {
  add: (cmd) =>
    cmd.addOption(
      new Option(
        "--decoder <name>",
        "decode every model's steps with this BFCL handler decoder, one of those twinscore help decoders lists; default: each model folder's own",
      ).argParser(decoderName),
    ),
  read: (opts) => (opts.decoder === undefined ? {} : { decoder: opts.decoder as DecoderName }),
};

/** `--bootstrap` and `--seed`: the cluster-bootstrap intervals. */
export const bootstrapGroup: OptionGroup<{ bootstrap: Partial<BootstrapOptions> }> = {
  add: (cmd) =>
    cmd
      .option(
        "--bootstrap <n>",
        `resamples of every 95% cluster-bootstrap interval, an integer (0: no interval; at most ${MAX_BOOTSTRAP_RESAMPLES})`,
        String(DEFAULT_BOOTSTRAP.resamples),
      )
      .option(
        "--seed <s>",
        "seed of NumPy's default_rng for the intervals: an integer >= 0 (the paper's 20260612)",
        String(DEFAULT_BOOTSTRAP.seed),
      ),
  read: (opts) => ({
    bootstrap: {
      resamples: integerOption(text(opts, "bootstrap") ?? String(DEFAULT_BOOTSTRAP.resamples)),
      seed: integerOption(text(opts, "seed") ?? String(DEFAULT_BOOTSTRAP.seed)),
    },
  }),
};

/** `--format`: how stdout is printed (the choices a command offers; every command offers table and json). */
export function formatGroup<F extends string = OutputFormat>(
  choices: readonly F[] = outputFormats as unknown as readonly F[],
  help = "output format: table, json (the whole document), csv, markdown, latex (twinscore help formats)",
): OptionGroup<{ format: F }> {
  return {
    add: (cmd) => cmd.addOption(new Option("--format <format>", help).choices(choices).default("table")),
    read: (opts) => ({ format: ((opts.format as F | undefined) ?? "table") as F }),
  };
}

/** `--manifest`: one pair manifest for every model. */
export const manifestGroup: OptionGroup<{ manifest?: string }> = {
  add: (cmd) =>
    cmd.option(
      "--manifest <file>",
      "pair manifest for every model (default: the package's manifest of the BFCL version the result file names say; rollouts generated on other data stop the command, and --manifest forces it)",
    ),
  read: (opts) => (opts.manifest === undefined ? {} : { manifest: text(opts, "manifest") }),
};

/** `--strict`: any problem is a finding. */
export const strictGroup: OptionGroup<{ strict: boolean }> = {
  add: (cmd) => cmd.option("--strict", "exit 1 on any problem met (a malformed line, an inference error, a missing category, …)"),
  read: (opts) => ({ strict: opts.strict === true }),
};

/** `--verbose`: every warning in full. */
export const verboseGroup: OptionGroup<{ verbose: boolean }> = {
  add: (cmd) =>
    cmd
      .option("--verbose", "list every warning with its file:line (default: one summary line per model) and every file read")
      .option("--quiet", "on stderr only the errors: no warnings, notes or progress lines (stdout is unchanged)"),
  read: (opts) => ({ verbose: opts.verbose === true }),
};

/** `--threads`: worker threads for the files. */
export const threadsGroup: OptionGroup<{ threads?: number }> = {
  add: (cmd) =>
    cmd.option(
      "--threads <n>",
      "threads in all, an integer >= 1: this one plus n-1 workers reading model folders (the defaults, and when more pay: twinscore help speed)",
    ),
  read: (opts) => (opts.threads === undefined ? {} : { threads: integerOption(text(opts, "threads")) }),
};

/** `--reading`: how sides that are not decisions are read. */
export const readingGroup: OptionGroup<{ reading: SideRule }> = {
  add: (cmd) =>
    cmd.addOption(
      new Option(
        "--reading <rule>",
        "decided: score only pairs decided on both twins; release: read inference errors and rollouts that ended before the anchor as no call, as the paper's released scorer (twinscore help readings)",
      )
        .choices(sideRules)
        .default("decided"),
    ),
  read: (opts) => ({ reading: (opts.reading as SideRule | undefined) ?? "decided" }),
};

/** `--max-undecided`: when a model gets no headline (the commands that print one). */
export const maxUndecidedGroup: OptionGroup<{ maxUndecided: number | undefined }> = {
  add: (cmd) =>
    cmd.option(
      "--max-undecided <pct>",
      "no act/hold/decision for a model with more than this % of its pairs undecided: a decimal number from 0 to 100",
      String(DEFAULT_MAX_UNDECIDED),
    ),
  read: (opts) => ({ maxUndecided: numberOption(opts.maxUndecided as string | undefined) }),
};

/** `--count-login`, `--uncertified`, `--all-pairs`: which pairs are scored (a message when two sets are asked for). */
export const pairSetGroup: OptionGroup<{ pairSet: PairSet; countLogin: boolean } | string> = {
  add: (cmd) =>
    cmd
      .option(
        "--count-login",
        "count login/logout as world-changing; the 2 login-only pairs join (223 -> 225 on BFCL v4, 234 -> 236 on v3)",
      )
      .option("--uncertified", "score the gold world-changing pairs before hand certification (231 on BFCL v4, 237 on v3)")
      .option("--all-pairs", "score all content-verified pairs, read-only anchors included (365 on BFCL v4, 368 on v3)"),
  read: (opts) => {
    if (opts.uncertified === true && opts.allPairs === true) return "--uncertified and --all-pairs cannot be combined";
    return {
      pairSet: opts.allPairs === true ? "all" : opts.uncertified === true ? "uncertified" : "certified",
      countLogin: opts.countLogin === true,
    };
  },
};

/** `--trials-of`: folders read as repeated trials of one model, in place of `--results`. */
export const trialsOfGroup: OptionGroup<{ trialsOf?: string[] }> = {
  add: (cmd) =>
    cmd.option(
      "--trials-of <dir...>",
      "read these folders (each one model; a folder of run --trials K counts as K) as repeated trials of one model instead of --results: means over trials, an interval over base twins and trials, flip rates per pair",
    ),
  read: (opts) => (opts.trialsOf === undefined ? {} : { trialsOf: opts.trialsOf as string[] }),
};

/** `--sensitivity`: the table under each sensitivity reading. */
export const sensitivityGroup: OptionGroup<{ sensitivity: boolean }> = {
  add: (cmd) => cmd.option("--sensitivity", "also print the table under each sensitivity reading (Appendix F; twinscore help readings)"),
  read: (opts) => ({ sensitivity: opts.sensitivity === true }),
};

/** What `--bfcl-data` gave (the same in every command). */
function readBfclData(opts: ParsedOptions): { bfclData?: string } {
  return opts.bfclData === undefined ? {} : { bfclData: text(opts, "bfclData") };
}

/**
 * `--bfcl-data`: the BFCL data folder. What it adds (or what needs it) differs by command,
 * so each command says that part; the flag, its reading and its value are the same.
 */
export function bfclDataGroup(what: string): OptionGroup<{ bfclData?: string }> {
  return { add: (cmd) => cmd.option("--bfcl-data <dir>", `BFCL data directory: ${what}`), read: readBfclData };
}

/** What the HTTP-client flags give a request (the numbers as given, for the use case to check). */
export interface HttpClientFlags {
  endpoint?: string;
  keyEnv?: string;
  concurrency: number | undefined;
  timeoutSeconds: number | undefined;
  retries: number | undefined;
}

/**
 * `--endpoint`, `--key-env`, `--concurrency`, `--timeout`, `--retries`: the HTTP client of
 * every command that sends requests, with one default and one help text each. A key is
 * sent only when `--key-env` names its variable. `run` requires the endpoint; `judge`
 * does not (a dry run sends nothing).
 */
export function httpClientGroup(endpoint: "required"): OptionGroup<HttpClientFlags & { endpoint: string }>;
export function httpClientGroup(endpoint: "optional"): OptionGroup<HttpClientFlags>;
export function httpClientGroup(endpoint: "required" | "optional"): OptionGroup<HttpClientFlags> {
  const endpointOption = new Option("--endpoint <url>", "OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1");
  if (endpoint === "required") endpointOption.makeOptionMandatory();
  return {
    add: (cmd) =>
      cmd
        .addOption(endpointOption)
        .option("--key-env <var>", "environment variable holding the API key (none: no Authorization header)")
        .option("--concurrency <n>", "items in flight at once: an integer >= 1", String(HTTP_CLIENT_DEFAULTS.concurrency))
        .option(
          "--timeout <seconds>",
          `per-request deadline, body included: a decimal from 0.001 to ${MAX_TIMEOUT_SECONDS} (Node's timer limit)`,
          String(HTTP_CLIENT_DEFAULTS.timeoutSeconds),
        )
        .option(
          "--retries <n>",
          "retries per request on 429, 5xx, timeouts and network errors: an integer >= 0",
          String(HTTP_CLIENT_DEFAULTS.retries),
        ),
    read: (opts) => ({
      ...(opts.endpoint === undefined ? {} : { endpoint: opts.endpoint as string }),
      ...(opts.keyEnv === undefined ? {} : { keyEnv: opts.keyEnv as string }),
      concurrency: integerOption(text(opts, "concurrency")),
      timeoutSeconds: numberOption(text(opts, "timeout")),
      retries: integerOption(text(opts, "retries")),
    }),
  };
}
