/**
 * `--trials-of DIR…` as `score` and `report` read it: the folders are K trials of one
 * model, and they combine only when every trial is that model, has a headline, is on the
 * same pairs and was made alike; otherwise one line says why. The numbers themselves are
 * `trialsSummary`'s (`score-trials.ts`), so both commands give the same ones.
 */
import type { Headline } from "../decision/readings.js";
import { err, ok, problem, type Result } from "../messages/index.js";
import { differencesText, settingDifferences, type RunRecord } from "../rollout/run-record.js";
import type { BootstrapOptions } from "../stats/index.js";
import { badArgument } from "./common.js";
import { trialsSummary, type TrialsSummary } from "./score-trials.js";

/** One trial as a command read it: the model's name (`<run>/<model>` with several), its headline, and how it was made where `run` recorded it. */
export interface TrialRead {
  readonly model: string;
  readonly headline: Pick<Headline, "selection" | "numbers" | "noHeadline"> | null;
  readonly record: RunRecord | null;
}

/** Combine the trials of `--trials-of` (`manifests`: how many pair manifests they were read on). */
export function combineTrialReads(trials: readonly TrialRead[], manifests: number, bootstrap: BootstrapOptions): Result<TrialsSummary> {
  const names = [...new Set(trials.map((t) => baseName(t.model)))];
  if (names.length > 1) return err(badArgument(`--trials-of takes the trials of one model; found ${names.join(", ")}`));
  const without = trials.filter((t) => t.headline === null || t.headline.noHeadline !== null).map((t) => t.model);
  if (without.length > 0)
    return err(problem("trials-no-headline", `--trials-of: no decision for ${without.join(", ")}, so the trials cannot be combined`));
  if (manifests > 1) return err(badArgument("--trials-of: the trials were made on different BFCL versions (different pairs)"));
  if (trials.length === 0) return err(problem("results-empty", "--trials-of: no model found"));
  const differing = trialSettingsDiffer(trials);
  if (differing !== null) return err(badArgument(differing));
  const scored = trials.map((t) => ({ label: t.model, selection: t.headline!.selection, decision: t.headline!.numbers.decision }));
  return ok(trialsSummary(names[0], scored, bootstrap));
}

/**
 * Trials must be made alike: where the folders record how they were made (`run.json`), a
 * trial whose settings differ from the first's, other than the seed and the folder's trial count, is no trial of the
 * same thing; the line names each differing setting. Null when they agree.
 */
function trialSettingsDiffer(trials: readonly TrialRead[]): string | null {
  const first = trials[0]?.record ?? null;
  if (first === null) return null;
  // the seed varies by trial, and a folder of K trials holds trials as a folder of one does
  const sameSeed = (r: RunRecord) => ({ ...r.settings, trials: 1, sampling: { ...r.settings.sampling, seed: null } });
  for (let i = 1; i < trials.length; i++) {
    const r = trials[i].record;
    if (r === null) continue;
    const differences = settingDifferences(sameSeed(first), sameSeed(r));
    if (differences.length > 0)
      return `--trials-of: ${trials[i].model} was made with other settings than ${trials[0].model}: ${differencesText(differences, "first trial")}`;
  }
  return null;
}

/** A model's folder name, without the `<run>/` several runs give it. */
function baseName(model: string): string {
  return model.slice(model.lastIndexOf("/") + 1);
}
