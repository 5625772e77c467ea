/**
 * The checks of `run` before any input is read: the flags of the command (each bad one a
 * line of its own), and the request of the use case (one refusal, the first found).
 */
import { problem, type Problem } from "../../messages/index.js";
import { modelDirName, runCategories } from "../../rollout/index.js";
import { MAX_REPLY_BYTES_LIMIT } from "../../io/openai-chat.js";
import { keyFromEnv } from "../../io/secrets.js";
import { endpointArgumentProblem, MAX_TIMEOUT_SECONDS } from "../endpoint-check.js";
import { numberProblem, type Context } from "../common.js";
import type { RunRequest } from "./types.js";
import type { RunCommandRequest } from "./command.js";

/**
 * Why a result folder name cannot be used, or null: it must be one path component, so
 * the files stay inside `--out` (`..`, `a/b` or an absolute path would not).
 */
export function modelDirProblem(name: string, flag: "--model" | "--model-dir"): Problem | null {
  const why =
    name === ""
      ? "is empty"
      : name === "." || name === ".."
        ? `is ${JSON.stringify(name)}`
        : /[/\\]/.test(name)
          ? "holds a path separator"
          : name.includes("\0")
            ? "holds a NUL character"
            : null;
  if (why === null) return null;
  const hint = flag === "--model" ? "; name the folder with --model-dir NAME" : "";
  return problem(
    "bad-argument",
    `${flag} ${JSON.stringify(name)}: the result folder name (OUT/<model-dir>/multi_turn) ${why}, which would put files outside --out${hint}`,
  );
}

/** Why the use case refuses a request before reading anything, or null: the folder name, the endpoint URLs, and the history flags that do not go together. */
export function requestProblem(req: RunRequest): Problem | null {
  const modelDir = req.modelDir ?? modelDirName(req.model);
  const badDir = modelDirProblem(modelDir, req.modelDir !== undefined ? "--model-dir" : "--model");
  if (badDir) return badDir;
  for (const [flag, url, injected] of [
    ["--endpoint", req.endpoint, req.chat !== undefined],
    ["--user-endpoint", req.userSim?.endpoint ?? null, req.userSim?.chat !== undefined],
  ] as const) {
    const bad = url === null || injected ? null : endpointArgumentProblem(url, flag);
    if (bad !== null) return bad;
  }
  const history = req.history ?? "own";
  const continueAfter = req.continueAfterAnchor === true;
  if (history === "reference" && req.items === "all") {
    return problem(
      "bad-argument",
      "--history reference plays the turns before each pair's anchor: it needs --items pairs or all-pairs (an item in no pair has no anchor)",
    );
  }
  if (continueAfter && history !== "reference")
    return problem("bad-argument", "--continue only applies with --history reference (the turns after the anchor)");
  if (continueAfter && req.untilAnchor) return problem("bad-argument", "give --until-anchor or --continue, not both");
  const trials = req.trials ?? 1;
  if (!Number.isInteger(trials) || trials < 1) return problem("bad-argument", `--trials must be an integer >= 1, got ${trials}`);
  return null;
}

/** The keys the command reads from the environment, with a problem for each it cannot find. */
export interface CommandKeys {
  readonly apiKey: string | null;
  readonly userKey: string | null;
}

/** Every bad flag of the command, each its own line (the numbers, the URLs, the folder name, the selection, the simulated user's flags), and the keys read. */
export function commandProblems(req: RunCommandRequest, ctx: Context): { problems: Problem[]; keys: CommandKeys } {
  const bad: Problem[] = [];
  for (const p of [
    numberProblem(req.temperature, "--temperature", 0, false),
    numberProblem(req.concurrency, "--concurrency", 1, true),
    numberProblem(req.timeoutSeconds, "--timeout", 0.001, false, MAX_TIMEOUT_SECONDS),
    numberProblem(req.retries, "--retries", 0, true),
    numberProblem(req.maxReplyBytes, "--max-reply-bytes", 1024, true, MAX_REPLY_BYTES_LIMIT),
    numberProblem(req.maxConsecutiveErrors, "--max-consecutive-errors", 0, true),
    numberProblem(req.limit, "--limit", 1, true),
    numberProblem(req.trials, "--trials", 1, true),
    numberProblem(req.seed, "--sampling-seed", 0, true),
  ]) {
    if (p) bad.push(p);
  }
  const badUrl = endpointArgumentProblem(req.endpoint, "--endpoint");
  if (badUrl !== null) bad.push(badUrl);
  const dir = modelDirProblem(req.modelDir ?? modelDirName(req.model), req.modelDir !== undefined ? "--model-dir" : "--model");
  if (dir) bad.push(dir);
  if (req.inject !== undefined && req.injectFile !== undefined)
    bad.push(problem("bad-argument", "give --inject or --inject-file, not both"));
  if (req.category !== undefined && !(runCategories as readonly string[]).includes(req.category))
    bad.push(problem("bad-argument", `--category must be one of ${runCategories.join(", ")}, got ${JSON.stringify(req.category)}`));
  if (req.ids !== undefined && req.ids.length === 0) bad.push(problem("bad-argument", "--ids needs at least one id"));
  let apiKey: string | null = null;
  if (req.keyEnv !== undefined) {
    const found = keyFromEnv(ctx.env, req.keyEnv, "--key-env");
    apiKey = found.key;
    if (found.problem) bad.push(found.problem);
  }
  pushAllOf(bad, userSimProblems(req));
  const interactive = req.userSim === "llm";
  let userKey: string | null = null;
  if (interactive && req.userKeyEnv !== undefined) {
    const found = keyFromEnv(ctx.env, req.userKeyEnv, "--user-key-env");
    userKey = found.key;
    if (found.problem) bad.push(found.problem);
  }
  return { problems: bad, keys: { apiKey, userKey } };
}

function pushAllOf(into: Problem[], more: readonly Problem[]): void {
  for (const p of more) into.push(p);
}

/** The simulated user's flags: required with `--user-sim llm`, refused without it. */
function userSimProblems(req: RunCommandRequest): Problem[] {
  const bad: Problem[] = [];
  if (req.userSim !== undefined && req.userSim !== "scripted" && req.userSim !== "llm")
    bad.push(problem("bad-argument", `--user-sim must be scripted or llm, got ${String(req.userSim)}`));
  if (req.userSim === "llm") {
    if (!req.userEndpoint)
      bad.push(problem("bad-argument", "--user-sim llm needs --user-endpoint URL (the simulated user's OpenAI-compatible endpoint)"));
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
  return bad;
}
