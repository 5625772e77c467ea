import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answersFile, docFile, multiTurnDocFiles, questionsFile } from "../bfcl/data.js";
import { bfclDataDir, rolloutRunDir } from "../testing/shared.js";
import { checkResultFile, prepareCategory, type CategoryInputs } from "./run-check.js";
import { newEvaluatorProcess } from "./runtime.js";
import { POST_TWEET_DEFAULTS } from "./classes/twitter-api.js";

/**
 * `post_tweet`'s default lists are shared across every call of one Python process, and BFCL writes a file's
 * score lines after its last entry, from live references. These tests build a two-line result file from real
 * gpt-oss lines that shows both. More in this folder's README.md.
 */
const run = rolloutRunDir("2025-11-12-main");
const resultLine = (model: string, id: string): Record<string, unknown> => {
  const path = join(run, "result", model, "multi_turn", "BFCL_v4_multi_turn_base_result.json");
  const line = readFileSync(path, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`{"id": "${id}",`));
  if (line === undefined) throw new Error(`${id} not in ${path}`);
  return JSON.parse(line) as Record<string, unknown>;
};

function baseInputs(): CategoryInputs {
  const data = bfclDataDir();
  const docs = new Map(
    Object.keys(multiTurnDocFiles).map((c) => [c, readFileSync(join(data, docFile(c as keyof typeof multiTurnDocFiles)), "utf8")]),
  );
  const r = prepareCategory(
    readFileSync(join(data, questionsFile("v4", "base")), "utf8"),
    "questions",
    readFileSync(join(data, answersFile("v4", "base")), "utf8"),
    "answers",
    docs,
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.value;
}

/** 20b's base_147 with the mentions of its post_tweet call given by a `mention` step right after it: the tweet gets the shared default list, which that step extends. */
function mentionOnDefaultTweet(): Record<string, unknown> {
  const line = resultLine("openai_gpt-oss-20b", "multi_turn_base_147");
  const steps = (line.result as Record<string, string>[][][])[0];
  const at = steps.findIndex((step) => step.some((call) => "post_tweet" in call));
  const post = steps[at].find((call) => "post_tweet" in call) as Record<string, string>;
  const args = JSON.parse(post.post_tweet) as Record<string, unknown>;
  const mentions = args.mentions;
  delete args.mentions;
  post.post_tweet = JSON.stringify(args);
  steps.splice(at + 1, 0, [{ mention: JSON.stringify({ tweet_id: 1, mentioned_usernames: mentions }) }]);
  return line;
}

const encode = (lines: readonly Record<string, unknown>[]) =>
  new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
const scoreLines = (bytes: Uint8Array | null) =>
  new TextDecoder()
    .decode(bytes ?? new Uint8Array())
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("post_tweet's shared default lists in a check run", () => {
  const inputs = baseInputs();
  const check = (lines: readonly Record<string, unknown>[], seeds?: Parameters<typeof newEvaluatorProcess>[3]) => {
    const r = checkResultFile(encode(lines), "constructed.json", {
      modelName: "openai_gpt-oss-120b",
      testCategory: "multi_turn_base",
      inputs,
      process: newEvaluatorProcess(undefined, false, "v4", seeds),
      renderScore: true,
    });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    return r.value;
  };

  it("writes an earlier error object with what a later entry added to the shared mentions list, as BFCL's end-of-file write does; its call results keep the list as it was when they ran", () => {
    const checked = check([resultLine("openai_gpt-oss-120b", "multi_turn_base_5"), mentionOnDefaultTweet()]);
    const lines = scoreLines(checked.scoreFile);
    expect(lines.map((l) => l.id)).toEqual(["multi_turn_base_5", "multi_turn_base_147"]);
    const error = lines[0].error as {
      details: { ground_truth_instance_state: { tweets: Record<string, { mentions: string[] }> } };
      execution_result: { ground_truth: string[] }[];
    };
    // entry 147's mention step (its tweet's text differs from the reference's, so the checker stops after that turn)
    expect(Object.values(error.details.ground_truth_instance_state.tweets).map((t) => t.mentions)).toEqual([["@industryexperts"]]);
    // the reference's post_tweet result was rendered when it ran, before entry 147 extended the list
    const posted = error.execution_result.flatMap((t) => t.ground_truth).filter((r) => r.includes('"mentions"'));
    expect(posted.length).toBeGreaterThan(0);
    for (const r of posted) expect(JSON.parse(r).mentions).toEqual([]);
    // the verdict text compared with BFCL's is the one written
    expect(JSON.parse(checked.verdicts[0].errorJson as string)).toEqual(lines[0].error);
  });

  it("leaves every line as before when no entry touches the shared list (the real line alone)", () => {
    const alone = check([resultLine("openai_gpt-oss-120b", "multi_turn_base_5")]);
    expect(new TextDecoder().decode(alone.scoreFile ?? new Uint8Array())).not.toContain("technewsworld");
    const stored = readFileSync(join(run, "score", "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_score.json"), "utf8")
      .split("\n")
      .find((l) => l.startsWith('{"id": "multi_turn_base_5",'));
    expect(scoreLines(alone.scoreFile)[0].error).toEqual((JSON.parse(stored as string) as Record<string, unknown>).error);
  });

  it("starts the lists with a seed: what BFCL's process had added before it reached the file", () => {
    const seeded = check(
      [resultLine("openai_gpt-oss-120b", "multi_turn_base_5")],
      new Map([[POST_TWEET_DEFAULTS, { mentions: ["@earlier"] }]]),
    );
    const error = scoreLines(seeded.scoreFile)[0].error as { execution_result: { ground_truth: string[] }[] };
    const posted = error.execution_result.flatMap((t) => t.ground_truth).filter((r) => r.includes('"mentions"'));
    for (const r of posted) expect(JSON.parse(r).mentions).toEqual(["@earlier"]);
  });
});
