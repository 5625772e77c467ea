/**
 * Synthetic runs for `twinscore demo`: BFCL-format result files written for built-in
 * reference policies from the manifest's reference anchor calls, so a fresh machine can
 * see the scorer work (and check it) without downloading anything. The policies are the
 * paper's anchors of the scale (§4.1): any policy that ignores the information scores 50.
 */
import { scoredResultCategories, type ScoredResultCategory } from "../bfcl/categories.js";
import { parseGoldCall } from "../catalog/gold-call.js";
import { kindOf } from "../catalog/catalog.js";
import { pushAll, err, errAll, ok, problem, type Problem, type Result } from "../messages/index.js";
import type { ManifestPair, ShouldAskCategory } from "../pairs/types.js";

/** The reference policies and the decision accuracy each must score. */
export const referencePolicies = [
  { name: "always-act", expectedDecision: 50, what: "makes the reference's calls on every anchor turn, complete or not" },
  { name: "never-act", expectedDecision: 50, what: "always asks: writes a question and calls nothing" },
  { name: "oracle", expectedDecision: 100, what: "acts on the complete (base) twin, asks on the incomplete one" },
  { name: "lookups-only", expectedDecision: 50, what: "looks something up on every anchor turn, then asks; never commits" },
] as const;

export type ReferencePolicy = (typeof referencePolicies)[number]["name"];

/** One result file's worth of lines, per category, for one policy. */
export type DemoFiles = Record<ScoredResultCategory, string>;

type Step = unknown[] | string;

const QUESTION = "Before I do that I need one more detail from you: could you tell me what is missing?";

/** FC records `{name: "<arguments JSON>"}` for the reference calls of an anchor turn (as gpt-oss runs store them). */
function goldSteps(pair: ManifestPair): Result<Step[]> {
  const steps: Step[] = [];
  for (const text of pair.goldAnchorCalls) {
    const parsed = parseGoldCall(text);
    if (!parsed.ok) return parsed;
    steps.push([{ [parsed.value.name]: JSON.stringify(Object.fromEntries(parsed.value.keywords)) }]);
  }
  steps.push([]);
  return ok(steps);
}

/** A lookup on the item's tool list (the first read-only function), then a question. */
function lookupSteps(pair: ManifestPair): Step[] {
  const read = pair.tools.find((t) => kindOf(t) === "read");
  return read === undefined ? [QUESTION] : [[{ [read]: "{}" }], QUESTION];
}

function stepsFor(policy: ReferencePolicy, side: "base" | "miss", pair: ManifestPair): Result<Step[]> {
  switch (policy) {
    case "always-act":
      return goldSteps(pair);
    case "never-act":
      return ok([QUESTION]);
    case "oracle":
      return side === "base" ? goldSteps(pair) : ok([QUESTION]);
    case "lookups-only":
      return ok(lookupSteps(pair));
  }
}

function indexOf(id: string): number {
  return Number(id.slice(id.lastIndexOf("_") + 1));
}

/** One result line in BFCL's shape (id and result first, then the per-step counters and a log). */
function resultLine(id: string, turns: Step[][]): string {
  const shape = turns.map((t) => t.map(() => 0));
  return JSON.stringify({
    id,
    result: turns,
    input_token_count: shape,
    output_token_count: shape,
    latency: shape,
    inference_log: [{ role: "handler_log", content: "synthetic rollout written by twinscore demo" }],
  });
}

/**
 * The result files of `policy` for `pairs`: every twin of every pair, with the policy's
 * behaviour on its anchor turn and one empty step (no call) on every other turn.
 */
export function demoFiles(policy: ReferencePolicy, pairs: readonly ManifestPair[]): Result<DemoFiles> {
  const rollouts = Object.fromEntries(scoredResultCategories.map((c) => [c, new Map<string, Step[][]>()])) as Record<
    ScoredResultCategory,
    Map<string, Step[][]>
  >;
  const problems: Problem[] = [];
  const place = (category: "base" | ShouldAskCategory, id: string, turnCount: number, anchor: number, steps: Result<Step[]>) => {
    if (!steps.ok) {
      pushAll(problems, steps.problems);
      return;
    }
    let turns = rollouts[category].get(id);
    if (!turns) {
      turns = Array.from({ length: turnCount }, () => [[]] as Step[]);
      rollouts[category].set(id, turns);
    }
    turns[anchor] = steps.value;
  };
  for (const pair of pairs) {
    place("base", pair.baseId, pair.turnCount.base, pair.anchorTurn, stepsFor(policy, "base", pair));
    place(pair.category, pair.missId, pair.turnCount.miss, pair.anchorTurn, stepsFor(policy, "miss", pair));
  }
  if (problems.length > 0) return errAll(problems);
  const render = (m: Map<string, Step[][]>) =>
    [...m]
      .sort((a, b) => indexOf(a[0]) - indexOf(b[0]))
      .map(([id, turns]) => resultLine(id, turns) + "\n")
      .join("");
  return ok(Object.fromEntries(scoredResultCategories.map((c) => [c, render(rollouts[c])])) as DemoFiles);
}

/** Check a policy's decision against what it must score; a problem sentence when it does not. */
export function checkReferenceDecision(policy: ReferencePolicy, decision: number): Problem | null {
  const expected = referencePolicies.find((p) => p.name === policy)!.expectedDecision;
  return Math.abs(decision - expected) < 1e-9
    ? null
    : problem("demo-mismatch", `reference policy ${policy} scored ${decision}, expected ${expected}: the scorer is broken`);
}
