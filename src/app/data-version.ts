/**
 * Which pairs a model is scored on: BFCL v3 and v4 put other data under the same item ids, so each model gets
 * the manifest of the version its result files name, and its rollouts are checked against that data first. More
 * in this folder's README.md.
 */
import type { BfclVersion } from "../bfcl/categories.js";
import { scoredResultCategories } from "../bfcl/categories.js";
import { err, errAll, ok, problem, type Problem, type Result } from "../messages/index.js";
import { dataCandidate, dataVerdict, type DataCandidate, type RolloutDataCheck } from "../pairs/rollout-data.js";
import type { Manifest } from "../pairs/types.js";
import type { ManifestSource } from "../io/rollout-data.js";
import { checkRecordedTurns } from "./recorded-turns.js";
import type { TreeModel } from "../io/tree.js";
import { manifestOf, type Context } from "./common.js";

/** The manifest of each model, and what was found on the way. */
export interface ModelManifests {
  /** By model name (as commands print it): the manifest it is scored on. Models that must not be scored are absent. */
  readonly manifestOf: ReadonlyMap<string, Manifest>;
  /** By model name: the BFCL version its result files name. */
  readonly versionOf: ReadonlyMap<string, BfclVersion>;
  /** Whether `--manifest` forced one manifest for every model. */
  readonly forced: boolean;
  /** Errors (a model's rollouts were generated on other data, mixed versions, no manifest for a version) and warnings. */
  readonly problems: readonly Problem[];
}

/** The BFCL versions a model's scored result files name, in version order. */
export function versionsOfModel(model: TreeModel): BfclVersion[] {
  const found = new Set(scoredResultCategories.flatMap((c) => (model.files[c] ?? []).map((f) => f.version)));
  return [...found].sort();
}

/** `v3 (a, b); v4 (c)`: models by version, for messages. */
export function versionsText(versionOf: ReadonlyMap<string, BfclVersion>): string {
  const byVersion = new Map<BfclVersion, string[]>();
  for (const [model, v] of versionOf) byVersion.set(v, [...(byVersion.get(v) ?? []), model]);
  return [...byVersion]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([v, ms]) => `${v} (${ms.join(", ")})`)
    .join("; ");
}

/** How `manifestsForModels` decides, beyond the file names. */
export interface ManifestChoice {
  /** The manifests to choose from by version (default: the package's). */
  readonly committed?: ReadonlyMap<BfclVersion, Manifest>;
  /** The version every model is taken to be (a command's own flag), instead of its file names'. */
  readonly version?: BfclVersion;
  /** What the mismatch line tells the user to do (default: `pass --manifest to force`). */
  readonly forceHint?: string;
  /** What the missing-manifest line tells the user to do once a manifest is built (default: `pass --manifest FILE`, for commands that take it). */
  readonly missingHint?: string;
  /**
   * `defer`: leave the rollouts unchecked (no file is read), for a scorer that checks
   * them in its own pass and calls again with `checks`; the problems are then only those
   * of the file names.
   */
  readonly rollouts?: "check" | "defer";
  /** By model name: the check against its manifest's data, already made (`checkRecordedTurns` with that one candidate). */
  readonly checks?: ReadonlyMap<string, RolloutDataCheck>;
  /** The package's manifests to read from (default: a fresh `committedManifestSource()`), so two calls read them once. */
  readonly source?: ManifestSource;
}

/**
 * The manifest of every model: the one `--manifest` names (forced), else the package's
 * manifest of the version its files name; then the rollouts are checked against it. Fails
 * only when the forced manifest cannot be read.
 */
export function manifestsForModels(
  models: readonly TreeModel[],
  manifestFlag: string | undefined,
  ctx: Context,
  choice: ManifestChoice = {},
): Result<ModelManifests> {
  const given = choice.committed;
  const committed: ManifestSource = given
    ? { get: (v) => given.get(v) ?? null, all: () => new Map(given) }
    : (choice.source ?? ctx.host.committedManifestSource());
  const forced = manifestFlag !== undefined;
  let forcedManifest: Manifest | null = null;
  if (forced) {
    const loaded = manifestOf(manifestFlag, ctx);
    if (!loaded.ok) return loaded;
    forcedManifest = loaded.value;
  }
  const candidates = dataCandidates(committed, forcedManifest);
  const manifests = new Map<string, Manifest>();
  const versionOf = new Map<string, BfclVersion>();
  const problems: Problem[] = [];
  for (const model of models) {
    const version = versionOfModel(model, choice, problems);
    if (version === null) continue;
    versionOf.set(model.name, version);
    const manifest = forcedManifest ?? committed.get(version);
    if (manifest === null) {
      problems.push(
        problem(
          "manifest-missing",
          `model ${model.name} holds BFCL ${version} results and the package has no ${version} pair manifest (${ctx.host.committedManifestPath(version)}); build one with twinscore pairs --bfcl-data DIR --write-manifest FILE and ${choice.missingHint ?? "pass --manifest FILE"}`,
        ),
      );
      continue;
    }
    // a file that cannot be read is the scorer's to report, once, and only that model goes
    // unscored: it must not stop the other models (a failed read never poisons the rest)
    if (choice.rollouts === "defer" || rolloutsFitManifest(model, manifest, forced, choice, candidates, problems))
      manifests.set(model.name, manifest);
  }
  return ok({ manifestOf: manifests, versionOf, forced, problems });
}

/** The data a model's rollouts may have been generated on: each manifest's, made once; every version's (the forced manifest for its own version) made only when asked for. */
interface DataCandidates {
  readonly of: (m: Manifest) => DataCandidate;
  readonly all: () => DataCandidate[];
}

function dataCandidates(committed: ManifestSource, forcedManifest: Manifest | null): DataCandidates {
  const candidateOf = new Map<Manifest, DataCandidate>();
  const candidate = (m: Manifest) => candidateOf.get(m) ?? candidateOf.set(m, dataCandidate(m)).get(m)!;
  let everyCandidate: DataCandidate[] | null = null;
  const allCandidates = (): DataCandidate[] => {
    if (everyCandidate === null) {
      const byVersion = committed.all();
      if (forcedManifest !== null) byVersion.set(forcedManifest.source.bfclVersion, forcedManifest);
      everyCandidate = [...byVersion.values()].map(candidate);
    }
    return everyCandidate;
  };
  return { of: candidate, all: allCandidates };
}

/** The one BFCL version a model is checked as (the chosen one, else its files'), or null: no scored file, or files of several versions (reported). */
function versionOfModel(model: TreeModel, choice: ManifestChoice, problems: Problem[]): BfclVersion | null {
  const versions = choice.version !== undefined ? [choice.version] : versionsOfModel(model);
  if (versions.length === 0) return null; // no scored file: the scorer reports the missing categories
  if (versions.length > 1) {
    problems.push(
      problem(
        "bfcl-version-mixed",
        `model ${model.name} mixes BFCL ${versions.join(" and ")} result files; keep one version in a model folder`,
        { file: model.dir },
      ),
    );
    return null;
  }
  return versions[0];
}

/** Whether a model's rollouts may be scored on the manifest: they follow its data, or it was forced; what was found is reported. */
function rolloutsFitManifest(
  model: TreeModel,
  manifest: Manifest,
  forced: boolean,
  choice: ManifestChoice,
  candidates: DataCandidates,
  problems: Problem[],
): boolean {
  // against the expected data first, streamed (or made by the scorer); only when that fails
  // are the files read again against every version's data, to name the one they look like
  let check = choice.checks?.get(model.name) ?? checkRecordedTurns(model, [candidates.of(manifest)]);
  if (!check.byVersion[0].fitsAsNow && check.byVersion[0].compared > 0) {
    // against every version's data also when only older revisions make the rollouts fit: another version's may fit closer;
    // the expected data's own outcome stays the one made (the scorer's also read the score files' prompts)
    const own = check.byVersion[0];
    const every = checkRecordedTurns(model, candidates.all());
    check = { ...every, byVersion: every.byVersion.map((v) => (v.version === own.version ? own : v)) };
  }
  const verdict = dataVerdict(check, manifest.source.bfclVersion, `model ${model.name}`);
  if (!verdict.ok && !forced) {
    const line = choice.forceHint === undefined ? verdict.line! : verdict.line!.replace(/pass --manifest to force$/, choice.forceHint);
    problems.push(problem("rollouts-other-data", line, { file: model.dir }));
    return false;
  }
  // rollouts without any inference_log (other tools' files) cannot be checked: nothing to say
  if (!verdict.ok) {
    const line = verdict.line!.replace(/; pass --manifest to force$/, "; scored on the --manifest given anyway");
    problems.push(problem("rollouts-other-data", line, { file: model.dir, severity: "warning" }));
  } else if (verdict.olderData !== null) {
    problems.push(problem("rollouts-older-data", verdict.olderData, { file: model.dir, severity: "warning" }));
  }
  return true;
}

/**
 * For commands that put every model on one manifest (report, compare, verify): the one
 * manifest of all the models, or the problems that stop the command — a model generated
 * on other data, or models of several versions without `--manifest`.
 */
export function oneManifestForModels(
  models: readonly TreeModel[],
  manifestFlag: string | undefined,
  ctx: Context,
  command: string,
): Result<{ manifest: Manifest; versionOf: ReadonlyMap<string, BfclVersion>; warnings: readonly Problem[] }> {
  const found = manifestsForModels(models, manifestFlag, ctx);
  if (!found.ok) return found;
  const { manifestOf: byModel, versionOf, problems } = found.value;
  const errors = problems.filter((p) => p.severity === "error");
  if (errors.length > 0) return errAll(errors);
  const distinct = [...new Set(byModel.values())];
  if (distinct.length > 1) {
    return err(
      problem(
        "bfcl-version-mixed",
        `${command} puts every model on one pair manifest, and these result files are of several BFCL versions: ${versionsText(versionOf)}; give one version's runs, or --manifest FILE to force one`,
      ),
    );
  }
  if (distinct.length === 0) {
    // nothing found to decide by: the package's default manifest, as before (the command reports what is missing)
    const loaded = manifestOf(manifestFlag, ctx);
    return loaded.ok ? ok({ manifest: loaded.value, versionOf, warnings: problems }) : loaded;
  }
  return ok({ manifest: distinct[0], versionOf, warnings: problems });
}
