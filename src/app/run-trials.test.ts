/**
 * Repeated trials end to end on the real BFCL v4 data: a scripted model acting with probability p, run K = 5
 * times with exact twins and scored with `--trials-of`, gets the stdlib-Python reference's numbers. More in
 * this folder's README.md.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scriptedResponder, startPolicyServer } from "../testing/policies.js";
import { inProcessEndpoint } from "../testing/replay.js";
import { realV4RunInputs, serverPool, inProcessRun } from "../testing/run-fixtures.js";
import { trialPolicyBySeed, trialPolicyScript, type TrialPolicy } from "../testing/trial-policy.js";
import { comparable, type ReferenceTrialNumbers } from "../testing/trial-reference.js";
import { runModel, type Narrowing, type RunRequest } from "./run/index.js";
import { scoreRuns } from "./score.js";
import { buildReport } from "./report.js";
import { compareTrials } from "./compare-trials.js";
import { compareArms } from "./compare.js";
import { checkRuns } from "./check.js";
import { bfclDataDir } from "../testing/shared.js";
import type { TrialsSummary } from "./score-trials.js";

const tmp = mkdtempSync(join(tmpdir(), "twinscore-run-trials-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { serve } = serverPool();
const { manifest, entries, references, paramNames } = realV4RunInputs();

interface PolicyVectors {
  seed: number;
  trials: number;
  pBase: number;
  pMiss: number;
  B: number;
  bootstrapSeed: number;
  pairs: { cluster: string; id: string }[];
  expected: ReferenceTrialNumbers;
  oracle: ReferenceTrialNumbers;
}
const vectors = (
  JSON.parse(readFileSync(new URL("../stats/testdata/trial-vectors.json", import.meta.url), "utf8")) as { policy: PolicyVectors }
).policy;

/** K trials of the policy, each its own run folder made by its own endpoint (in process: the transport is not the subject here); the model folders in trial order. */
async function trialRuns(
  name: string,
  policy: Omit<TrialPolicy, "trial">,
  trials: number,
  temperature = 0.001,
  narrowing: Narrowing = {},
): Promise<string[]> {
  const folders: string[] = [];
  for (let trial = 0; trial < trials; trial++) {
    const script = trialPolicyScript(references, manifest.pairs, { ...policy, trial });
    const chat = inProcessEndpoint(scriptedResponder(script, { paramNames }), "scripted/policy");
    const out = join(tmp, `${name}-${trial}`);
    const doc = await runModel(
      inProcessRun({
        model: "scripted/policy",
        outDir: out,
        items: "pairs",
        manifest,
        chat,
        concurrency: 8,
        history: "reference",
        temperature,
        narrowing,
      }),
    );
    if (!doc.ok) throw new Error(doc.problems.map((p) => p.message).join("; "));
    folders.push(join(out, "scripted_policy"));
  }
  return folders;
}

describe("K = 5 trials of a policy that acts with probability p on each side, exact twins, over Table 1's pairs", () => {
  it(`p = ${vectors.pBase} on the base twins, ${vectors.pMiss} on the withheld ones: flip rates, means, spread and interval equal the reference's`, async () => {
    const folders = await trialRuns("sampled", { seed: vectors.seed, pBase: vectors.pBase, pMiss: vectors.pMiss }, vectors.trials);
    const doc = await scoreRuns({ results: [], trialsOf: folders, bootstrap: { resamples: vectors.B, seed: vectors.bootstrapSeed } });
    expect(doc.exitCode).toBe(0);
    const t = doc.trials!;
    expect(t.trials).toBe(5);
    expect(t.pairRows.map((p) => ({ cluster: p.baseId, id: p.missId }))).toEqual(vectors.pairs);
    expect(t.pairRows.every((p) => p.trials === 5)).toBe(true);
    const { ours, reference } = comparable(t, vectors.expected);
    expect(ours).toEqual(reference);
    // the sampling shows: pairs flip, and the interval is wider than a point
    expect(t.meanFlipRate!).toBeGreaterThan(30);
    expect(t.ci95![1] - t.ci95![0]).toBeGreaterThan(1);
  }, 600_000);

  it("the oracle (p = 1 on the base twins, 0 on the withheld ones) never flips: flip rate 0, every pair stable, act = hold = 100", async () => {
    const folders = await trialRuns("oracle", { seed: vectors.seed, pBase: 1, pMiss: 0 }, 3);
    const doc = await scoreRuns({ results: [], trialsOf: folders, bootstrap: { resamples: vectors.B, seed: vectors.bootstrapSeed } });
    const t = doc.trials!;
    expect([t.meanFlipRate, t.stableShare, t.act, t.hold, t.decision, t.decisionSpread]).toEqual([0, 100, 100, 100, 100, 0]);
    expect(t.ci95).toEqual([100, 100]);
    expect([vectors.oracle.meanFlipRate, vectors.oracle.decision95]).toEqual(["0.0", ["100.0", "100.0"]]);
    // a "trial" made with another temperature is no trial of the same thing: its run.json says so
    const warmer = await trialRuns("oracle-warmer", { seed: vectors.seed, pBase: 1, pMiss: 0 }, 1, 0.7);
    const mixed = await scoreRuns({ results: [], trialsOf: [...folders.slice(0, 2), ...warmer], bootstrap: { resamples: 0 } });
    expect(mixed.exitCode).toBe(2);
    expect(mixed.trials).toBeNull();
    expect(mixed.problems.map((p) => p.message).join("\n")).toMatch(
      /--trials-of: .*oracle-warmer-0\/scripted_policy was made with other settings than .*: --temperature \(first trial: temperature 0\.001; now: temperature 0\.7\)/,
    );
  }, 600_000);
});

/** The numbers of a trials summary that do not depend on how its trials were labelled. */
function trialNumbers(t: TrialsSummary | null) {
  if (t === null) throw new Error("no trials summary");
  const { model: _model, runs: _runs, ...numbers } = t;
  return numbers;
}

/** Every result file of a model folder, by name. */
function resultFiles(modelFolder: string): Map<string, string> {
  const dir = join(modelFolder, "multi_turn");
  return new Map(
    readdirSync(dir)
      .filter((n) => n.endsWith("_result.json"))
      .map((n) => [n, readFileSync(join(dir, n), "utf8")]),
  );
}

describe("run --trials K: one folder holds K samples of each line", () => {
  // the first 15 scored pairs of each should-ask category (--limit alone would take miss_func pairs only, and score needs every category's file)
  const scoredPairs = manifest.pairs.filter((p) => p.status === "scored");
  const chosen = ["miss_func", "miss_param"].flatMap((c) =>
    scoredPairs.filter((p) => p.missId.startsWith(`multi_turn_${c}_`)).slice(0, 15),
  );
  const narrowing: Narrowing = { ids: [...new Set(chosen.flatMap((p) => [p.baseId, p.missId]))] };
  const runSeed = 11;
  const bootstrap = { resamples: vectors.B, seed: vectors.bootstrapSeed };
  /** A K-trial run of the policy into `name`, one server answering each trial by the request's seed. */
  async function kTrialRun(name: string, policy: Omit<TrialPolicy, "trial">, trials: number, more: Partial<RunRequest> = {}) {
    const respond = trialPolicyBySeed(references, manifest.pairs, policy, { seed: runSeed, trials }, (script) =>
      scriptedResponder(script, { paramNames }),
    );
    const srv = await serve(startPolicyServer(respond, { maxRequests: 5_000 }));
    const out = join(tmp, name);
    const request = inProcessRun({
      model: "scripted/policy",
      outDir: out,
      items: "pairs",
      manifest,
      endpoint: srv.url,
      chat: undefined,
      concurrency: 8,
      history: "reference",
      narrowing,
      trials,
      seed: runSeed,
      ...more,
    });
    return { doc: await runModel(request), folder: join(out, "scripted_policy"), request };
  }

  it("K = 3 with --ids: the folder scores as three one-trial folders do with --trials-of; the plan counts every trial", async () => {
    const policy = { seed: vectors.seed, pBase: vectors.pBase, pMiss: vectors.pMiss };
    const plans = [];
    for (const trials of [1, 3]) {
      const dry = await kTrialRun(`k-dry-${trials}`, policy, trials, { dryRun: true });
      if (!dry.doc.ok) throw new Error(dry.doc.problems.map((p) => p.message).join("; "));
      plans.push(dry.doc.value.plan!);
    }
    expect(plans[1].lines).toBe(3 * plans[0].lines);
    expect(plans[1].minRequests).toBe(3 * plans[0].minRequests);
    expect([plans[0].trials, plans[1].trials, plans[1].items]).toEqual([1, 3, plans[0].items]);

    const { doc, folder } = await kTrialRun("k3", policy, 3);
    if (!doc.ok) throw new Error(doc.problems.map((p) => p.message).join("; "));
    expect(doc.value.exitCode).toBe(0);
    expect(doc.value.generated).toBe(plans[1].lines);
    expect(doc.value.record!.settings.trials).toBe(3);
    expect(doc.value.record!.settings.sampling.seed).toBe(runSeed);
    // each (id, anchor) three times, trial 0, 1, 2 in order, each line ending with its trial
    for (const text of resultFiles(folder).values()) {
      const lines = text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.length % 3).toBe(0);
      lines.forEach((l, i) => expect([Object.keys(l).at(-1), l.twinscore_trial]).toEqual(["twinscore_trial", i % 3]));
    }

    const separate = await trialRuns("k3-separate", policy, 3, 0.001, narrowing);
    const viaTrialsOf = await scoreRuns({ results: [], trialsOf: [folder], bootstrap, maxUndecided: 100 });
    const viaResults = await scoreRuns({ results: [folder], bootstrap, maxUndecided: 100 });
    const viaFolders = await scoreRuns({ results: [], trialsOf: separate, bootstrap, maxUndecided: 100 });
    expect(viaFolders.exitCode, viaFolders.problems.map((p) => p.message).join("\n")).toBe(0);
    expect(viaTrialsOf.exitCode, viaTrialsOf.problems.map((p) => p.message).join("\n")).toBe(0);
    const t = viaTrialsOf.trials!;
    expect(t.trials).toBe(3);
    expect(t.pairs).toBeGreaterThanOrEqual(chosen.length);
    expect(trialNumbers(t)).toEqual(trialNumbers(viaFolders.trials));
    expect(trialNumbers(viaResults.trials)).toEqual(trialNumbers(viaFolders.trials));
    // report --trials-of reads the K-trial folder as score does
    const report = await buildReport({ results: [], trialsOf: [folder], bootstrap, maxUndecided: 100 });
    expect(report.exitCode, report.problems.map((p) => p.message).join("\n")).toBe(0);
    expect(trialNumbers(report.trials)).toEqual(trialNumbers(viaFolders.trials));
    // the run folder above it reads the same (its one model); beside another model it is refused
    const viaRoot = await scoreRuns({ results: [join(folder, "..")], bootstrap, maxUndecided: 100 });
    expect(trialNumbers(viaRoot.trials)).toEqual(trialNumbers(viaFolders.trials));
    // the policy samples: some pairs flip, and the interval is wider than a point
    expect(t.meanFlipRate!).toBeGreaterThan(10);
    expect(t.ci95![1] - t.ci95![0]).toBeGreaterThan(1);
    // each trial is read from the folder once, as its lines: no trial is read as another's repeat
    expect(viaTrialsOf.models.map((m) => m.model)).toEqual([0, 1, 2].map((t) => `trial-${t}/scripted_policy`));
    expect(viaTrialsOf.problems.filter((p) => p.code === "id-duplicate")).toEqual([]);
    // a K-trial folder beside another --results would read as one sample: refused
    const mixed = await scoreRuns({ results: [folder, separate[0]], bootstrap: { resamples: 0 } });
    expect(mixed.exitCode).toBe(2);
    expect(mixed.problems.map((p) => p.message).join("\n")).toMatch(
      /holds several trials of one model: score it alone \(--results or --trials-of/,
    );

    // compare's paired two-level change reads the folder's trials as the three folders' trials
    const numbersOf = (d: Awaited<ReturnType<typeof compareTrials>>) => ({
      ...d,
      a: trialNumbers(d.a),
      b: trialNumbers(d.b),
    });
    const comparedFolder = await compareTrials({ a: [folder], b: [folder], bootstrap, maxUndecided: 100 });
    const comparedFolders = await compareTrials({ a: separate, b: separate, bootstrap, maxUndecided: 100 });
    expect(comparedFolder.exitCode).toBe(0);
    expect(numbersOf(comparedFolder)).toEqual(numbersOf(comparedFolders));
    expect(comparedFolder.pairs).toBe(t.pairs);
    // as one arm of a plain compare, its trials would be compared as models: refused, naming --trials-a
    const plain = await compareArms({ a: folder, b: separate[0], bootstrap: { resamples: 0 } });
    expect(plain.exitCode).toBe(2);
    expect(plain.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^--a: .* holds 3 trials of one model: compare trials with --trials-a/),
    ]);
    // report: as a --results run it is refused, naming --trials-of; --trials-of with --compare is refused
    const asRun = await buildReport({ results: [folder], bootstrap: { resamples: 0 } });
    expect([asRun.exitCode, asRun.html]).toEqual([2, null]);
    expect(asRun.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^--results: .* holds 3 trials of one model: give it with --trials-of /),
    ]);
    const withCompare = await buildReport({ results: [], trialsOf: [folder], compare: ["a", "b"], bootstrap: { resamples: 0 } });
    expect(withCompare.exitCode).toBe(2);
    expect(withCompare.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^--compare takes two --results runs, and --trials-of reads/),
    ]);
    // the page's pair browser marks the pairs that flip, and its trials filter keeps them
    const unstable = t.pairRows.filter((p) => p.flipRate !== null && p.flipRate > 0).length;
    expect(unstable).toBeGreaterThan(0);
    expect(report.html!.match(/<details class="pair"[^>]* data-unstable=""/g)?.length).toBe(unstable);
    expect(report.html!).toContain(`<option value="unstable">`);
  }, 600_000);

  it("check reads each trial's lines of a K = 2 folder as a file of its own, as it checks that trial's lines alone", async () => {
    const policy = { seed: vectors.seed, pBase: vectors.pBase, pMiss: vectors.pMiss };
    // the model's own history (BFCL's checker leaves out lines played from the reference), two pairs of each category
    const few = ["miss_func", "miss_param"].flatMap((c) => chosen.filter((p) => p.missId.startsWith(`multi_turn_${c}_`)).slice(0, 2));
    const ids = [...new Set(few.flatMap((p) => [p.baseId, p.missId]))];
    const { doc, folder } = await kTrialRun("k2-check", policy, 2, { history: "own", narrowing: { ids } });
    if (!doc.ok) throw new Error(doc.problems.map((p) => p.message).join("; "));
    const checked = await checkRuns({ results: folder, bfclData: bfclDataDir(), threads: 1 });
    expect(checked.exitCode, checked.problems.map((p) => p.message).join("\n")).toBeLessThan(2);
    // each trial's lines written alone into a folder of one trial, by the test's own reading of the lines
    const record = JSON.parse(readFileSync(join(folder, "run.json"), "utf8")) as { settings: { trials: number } };
    const alone = [0, 1].map((trial) => {
      const dir = join(tmp, `k2-check-trial-${trial}`, "scripted_policy");
      mkdirSync(join(dir, "multi_turn"), { recursive: true });
      writeFileSync(join(dir, "run.json"), JSON.stringify({ ...record, settings: { ...record.settings, trials: 1 } }));
      for (const [name, text] of resultFiles(folder)) {
        const lines = text.split("\n").filter((l) => l !== "" && (JSON.parse(l) as { twinscore_trial: number }).twinscore_trial === trial);
        writeFileSync(join(dir, "multi_turn", name), lines.map((l) => `${l}\n`).join(""));
      }
      return dir;
    });
    const verdicts = (files: typeof checked.files) => files.map((f) => [f.category, f.entries, f.correct]);
    for (const trial of [0, 1]) {
      const mine = checked.files.filter((f) => f.trial === trial);
      expect(mine.map((f) => f.folder)).toEqual(mine.map(() => `trial-${trial}/scripted_policy`));
      expect(mine.length).toBe(3);
      const one = await checkRuns({ results: alone[trial], bfclData: bfclDataDir(), threads: 1 });
      expect(verdicts(mine)).toEqual(verdicts(one.files));
      expect(mine.reduce((n, f) => n + f.entries, 0)).toBe(doc.value.generated / 2);
    }
  }, 600_000);

  it("a K = 2 folder with a line of no trial, or of a trial past run.json's count, is not scored: one line with file:line", async () => {
    const policy = { seed: vectors.seed, pBase: vectors.pBase, pMiss: vectors.pMiss };
    const few = ["miss_func", "miss_param"].flatMap((c) => chosen.filter((p) => p.missId.startsWith(`multi_turn_${c}_`)).slice(0, 2));
    const ids = [...new Set(few.flatMap((p) => [p.baseId, p.missId]))];
    const { doc, folder } = await kTrialRun("k2-malformed", policy, 2, { narrowing: { ids } });
    if (!doc.ok) throw new Error(doc.problems.map((p) => p.message).join("; "));
    const file = join(folder, "multi_turn", "BFCL_v4_multi_turn_miss_func_result.json");
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const edited = (line: string) => writeFileSync(file, [lines[0], line, ...lines.slice(2)].map((l) => `${l}\n`).join(""));
    const refusal = async () => {
      const scored = await scoreRuns({ results: [], trialsOf: [folder], bootstrap: { resamples: 0 }, maxUndecided: 100 });
      expect(scored.exitCode).toBe(2);
      return scored.models[0].problems.filter((p) => p.code === "trial-malformed").map((p) => [p.message, p.file, p.line]);
    };
    edited(lines[1].replace(/, "twinscore_trial": \d+\}$/, "}"));
    expect(await refusal()).toEqual([
      [
        expect.stringMatching(/^model scripted_policy: 1 line carries no trial index \(twinscore_trial\) beside \d+ lines that do; /),
        file,
        2,
      ],
    ]);
    edited(lines[1].replace(/"twinscore_trial": \d+\}$/, `"twinscore_trial": 7}`));
    expect(await refusal()).toEqual([[expect.stringMatching(/: a line is of trial 7, past the 2 trials run\.json records; /), file, 2]]);
  }, 600_000);

  it("the oracle run as K = 3 trials in one folder never flips", async () => {
    const { doc, folder } = await kTrialRun("k3-oracle", { seed: vectors.seed, pBase: 1, pMiss: 0 }, 3);
    expect(doc.ok && doc.value.exitCode).toBe(0);
    const t = (await scoreRuns({ results: [], trialsOf: [folder], bootstrap, maxUndecided: 100 })).trials!;
    expect(t.pairs).toBeGreaterThanOrEqual(chosen.length);
    expect([t.trials, t.meanFlipRate, t.stableShare, t.act, t.hold, t.decision, t.decisionSpread]).toEqual([3, 0, 100, 100, 100, 100, 0]);
  }, 600_000);

  it("resume generates only the missing (id, trial) lines; --retry-errors reruns one trial's error line; another --trials is refused", async () => {
    const policy = { seed: vectors.seed, pBase: vectors.pBase, pMiss: vectors.pMiss };
    const first = await kTrialRun("k3-resume", policy, 3);
    if (!first.doc.ok) throw new Error(first.doc.problems.map((p) => p.message).join("; "));
    const whole = resultFiles(first.folder);
    // an interrupted run: some lines of trial 2 (and one of trial 0) never written, one line of trial 1 an error line
    let removed = 0;
    let errorId = "";
    for (const [name, text] of whole) {
      const lines = text.trimEnd().split("\n");
      const kept = lines.filter((l, i) => {
        const trial = (JSON.parse(l) as { twinscore_trial: number }).twinscore_trial;
        const drop = (trial === 2 && i < 15) || i === 3;
        if (drop) removed++;
        return !drop;
      });
      if (errorId === "") {
        const at = kept.findIndex((l) => (JSON.parse(l) as { twinscore_trial: number }).twinscore_trial === 1);
        const line = JSON.parse(kept[at]) as Record<string, unknown>;
        errorId = line.id as string;
        kept[at] = JSON.stringify({ ...line, result: "Error during inference: Connection error." });
      }
      writeFileSync(join(first.folder, "multi_turn", name), kept.map((l) => `${l}\n`).join(""));
    }
    expect(removed).toBeGreaterThan(3);
    const again = await kTrialRun("k3-resume", policy, 3);
    if (!again.doc.ok) throw new Error(again.doc.problems.map((p) => p.message).join("; "));
    expect(again.doc.value.generated).toBe(removed);
    expect(again.doc.value.resumed).toBe(first.doc.value.selected - removed);
    expect(again.doc.value.keptErrors).toEqual([expect.objectContaining({ id: errorId, trial: 1, message: "Connection error." })]);
    expect(again.doc.value.exitCode).toBe(1);
    const retried = await kTrialRun("k3-resume", policy, 3, { retryErrors: true });
    if (!retried.doc.ok) throw new Error(retried.doc.problems.map((p) => p.message).join("; "));
    expect([retried.doc.value.generated, retried.doc.value.exitCode]).toEqual([1, 0]);
    expect(resultFiles(first.folder)).toEqual(whole);
    const other = await kTrialRun("k3-resume", policy, 2);
    expect(other.doc.ok).toBe(false);
    if (!other.doc.ok) expect(other.doc.problems[0].message).toMatch(/--trials \(run\.json: 3; now: 2\)/);
    expect(resultFiles(first.folder)).toEqual(whole);
  }, 600_000);
});
