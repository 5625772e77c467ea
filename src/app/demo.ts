/**
 * `demo`, the use case: write BFCL-format runs of four reference policies (built from the
 * manifest's reference calls; nothing is downloaded), score them through exactly
 * `scoreRuns`, and check that they land where the measure says they must: 50 / 50 / 100 /
 * 50 on the certified pairs.
 */
import { fcDecoder } from "../bfcl/decode/index.js";
import { checkReferenceDecision, demoFiles, referencePolicies } from "../decision/demo.js";
import { everyReadingPair, readingPairs } from "../decision/readings.js";
import type { Problem } from "../messages/index.js";
import { resolvePath } from "../io/paths.js";
import { contextOf, manifestOf, type ExitCode } from "./common.js";
import { scoreRuns, type ScoreDocument, type ScoreRequest } from "./score.js";

/** What the demo runs: the score options, and a folder to keep the synthetic runs in (default: a temporary one, removed). */
export interface DemoRequest extends Omit<ScoreRequest, "results" | "models" | "scores" | "bfclData" | "perItem"> {
  readonly keep?: string;
}

/** One reference policy: what it must score and what it scored. */
export interface DemoPolicy {
  readonly name: string;
  readonly what: string;
  readonly expectedDecision: number;
  /** Decision accuracy, %, or null when it could not be scored. */
  readonly decision: number | null;
}

/** The demo's outcome: the score document of the four policies and whether each scored as it must. */
export interface DemoDocument {
  readonly command: "demo";
  /** Pairs scored (of the pair set asked for). */
  readonly pairs: number;
  readonly policies: readonly DemoPolicy[];
  /** False on `--all-pairs`, where read-only anchors make 50 / 100 impossible (so nothing is checked). */
  readonly checked: boolean;
  /** The folder the runs are kept in, or null when they were removed. */
  readonly kept: string | null;
  readonly score: ScoreDocument | null;
  /** Policies that did not score as they must, and anything that stopped the demo. */
  readonly problems: readonly Problem[];
  readonly exitCode: ExitCode;
}

/** The document of a demo stopped before anything was scored. */
function stoppedDemo(problems: Problem[]): DemoDocument {
  return {
    command: "demo",
    pairs: 0,
    policies: [],
    checked: false,
    kept: null,
    score: null,
    problems,
    exitCode: 2,
  };
}

/** What each reference policy scored, and a problem for each that did not land where it must (only when `checked`). */
function policyOutcomes(score: ScoreDocument, checked: boolean): { policies: DemoPolicy[]; problems: Problem[] } {
  const policies = referencePolicies.map((p) => {
    const m = score.models.find((x) => x.model === p.name);
    return { name: p.name, what: p.what, expectedDecision: p.expectedDecision, decision: m?.numbers?.decision ?? null };
  });
  const problems = checked
    ? policies.flatMap((p) => {
        const m = p.decision === null ? null : checkReferenceDecision(p.name as (typeof referencePolicies)[number]["name"], p.decision);
        return m ? [m] : [];
      })
    : [];
  return { policies, problems };
}

/** Write the synthetic runs, score them, and check the policies.
 *
 * @example
 * import { runDemo } from "twinscore";
 * const doc = await runDemo({});
 * console.log(doc.policies.map((p) => `${p.name} ${p.decision}`));
 */
export async function runDemo(req: DemoRequest): Promise<DemoDocument> {
  const ctx = contextOf(req);
  const manifest = manifestOf(req.manifest, ctx);
  if (!manifest.ok) return stoppedDemo([...manifest.problems]);
  const options = { pairSet: req.pairSet ?? "certified", countLogin: Boolean(req.countLogin) } as const;
  const pairs = readingPairs(manifest.value, options);
  // the sensitivity readings go beyond the pair set (uncertified, all, restored pairs): the runs hold every pair any reading reads, so none is missing
  const written = req.sensitivity === true ? everyReadingPair(manifest.value) : pairs;
  const made = ctx.host.makeDemoDir(req.keep === undefined ? null : resolvePath(ctx.cwd, req.keep));
  if (!made.ok) return stoppedDemo([...made.problems]);
  const dir = made.value;
  try {
    for (const policy of referencePolicies) {
      const files = demoFiles(policy.name, written);
      const wrote = files.ok ? ctx.host.writeDemoRun(dir, policy.name, files.value) : files;
      if (!wrote.ok) return stoppedDemo([...wrote.problems]);
    }
    const score = await scoreRuns({
      ...req,
      cwd: ctx.cwd,
      env: ctx.env,
      host: ctx.host,
      results: [dir],
      models: referencePolicies.map((p) => p.name),
      // Table F1 needs BFCL data and a while; the demo shows it only for runs it keeps
      bfclData: req.keep !== undefined ? undefined : null,
      // the reference policies write native function-calling records: BFCL's FC decoder unless asked otherwise
      decoder: req.decoder ?? fcDecoder.name,
    });
    // On all 365 pairs the read-only anchors hold no world-changing reference call, so the
    // policies cannot land on 50 / 100 there: that is why those pairs are not scored.
    const checked = options.pairSet !== "all";
    const { policies, problems } = policyOutcomes(score, checked);
    return {
      command: "demo",
      pairs: pairs.length,
      policies,
      checked,
      kept: req.keep !== undefined ? dir : null,
      score,
      problems,
      exitCode: problems.length > 0 ? 1 : score.exitCode,
    };
  } finally {
    if (req.keep === undefined) ctx.host.removeDemoDir(dir);
  }
}
