/**
 * The provenance phases of `run`: the settings a run asks for, its record (`run.json`), and the check that a
 * resume does not mix settings into one folder, so no folder reads as one model and holds two. More in this
 * folder's README.md.
 */
import { docFile, multiTurnDocFiles, questionsFile, digestTexts, type MultiTurnClass } from "../../bfcl/data.js";
import type { RunMode } from "../../bfcl/line-keys.js";
import { problem, type Problem } from "../../messages/index.js";
import { TWINSCORE_VERSION } from "../../messages/version.js";
import { manifestSha256 } from "../../pairs/digest.js";
import type { Manifest } from "../../pairs/types.js";
import {
  differencesText,
  endpointOrigin,
  runCategories,
  RUN_RECORD_FILE,
  RUN_RECORD_SCHEMA_VERSION,
  settingDifferences,
  textSetting,
  type LineReading,
  type RunRecord,
  type RunSettings,
  type SettingDifference,
} from "../../rollout/index.js";
import type { Host } from "../../io/host.js";

/** What of a run request its settings are made from. */
export interface SettingsSource {
  readonly model: string;
  readonly mode: RunMode;
  readonly history?: "own" | "reference";
  readonly untilAnchor: boolean;
  readonly continueAfterAnchor?: boolean;
  readonly temperature: number;
  readonly inject: string | null;
  readonly systemPromptText: string | null;
  readonly excludeStateLog?: boolean;
  readonly trials?: number;
  readonly seed?: number | null;
  readonly userSim?: {
    readonly model: string;
    readonly endpoint: string;
    readonly maxClarifications: number;
    readonly promptText: string;
  } | null;
}

/** The settings a run asks for, as `run.json` records them. */
export function askedSettings(s: SettingsSource): RunSettings {
  return {
    model: s.model,
    mode: s.mode,
    history: s.history ?? "own",
    untilAnchor: s.untilAnchor,
    continueAfterAnchor: s.continueAfterAnchor === true,
    sampling: { temperature: s.temperature, seed: s.seed ?? null },
    inject: s.inject === null ? null : textSetting(s.inject),
    systemPrompt: s.mode === "fc" ? null : s.systemPromptText === null ? "bfcl" : textSetting(s.systemPromptText),
    excludeStateLog: s.excludeStateLog === true,
    userSimulator:
      s.userSim === null || s.userSim === undefined
        ? null
        : { model: s.userSim.model, maxClarifications: s.userSim.maxClarifications, prompt: textSetting(s.userSim.promptText) },
    trials: s.trials ?? 1,
  };
}

/** sha256 over the BFCL files `run` reads (the function docs and the questions of the run categories), or null when one cannot be read. */
export function runDataSha256(dataDir: string, host: Host): string | null {
  const files = [
    ...(Object.keys(multiTurnDocFiles) as MultiTurnClass[]).map((c) => docFile(c)),
    ...runCategories.map((c) => questionsFile("v4", c)),
  ];
  const texts: { file: string; text: string }[] = [];
  for (const file of files) {
    const text = host.readTextIfFile(`${dataDir}/${file}`);
    if (text === null) return null;
    texts.push({ file, text });
  }
  return digestTexts(texts);
}

/** The record of a session starting: a new one, or the folder's record carried on (its first start kept, one more session). */
export function startedRecord(
  previous: RunRecord | null,
  req: { endpoint: string; userEndpoint: string | null; manifest: Manifest; dataSha256: string },
  settings: RunSettings,
  now: Date,
): RunRecord {
  const at = now.toISOString();
  return {
    schemaVersion: RUN_RECORD_SCHEMA_VERSION,
    twinscoreVersion: TWINSCORE_VERSION,
    bfcl: { version: "v4", dataSha256: req.dataSha256 },
    manifestSha256: manifestSha256(req.manifest),
    endpoint: endpointOrigin(req.endpoint),
    userEndpoint: req.userEndpoint === null ? null : endpointOrigin(req.userEndpoint),
    settings,
    startedAt: previous?.startedAt ?? at,
    lastStartedAt: at,
    endedAt: null,
    sessions: (previous?.sessions ?? 0) + 1,
  };
}

/** The settings a folder's lines show that differ from the asked ones (a folder with no record). */
export function lineDifferences(lines: readonly LineReading[], asked: RunSettings): SettingDifference[] {
  const modes = new Set<RunMode>();
  const injected = new Set<string | null>();
  let ownStopped = false;
  let referenceStopped = false;
  let referenceContinued = false;
  for (const l of lines) {
    if (l.kind !== "result" || l.made === undefined) continue;
    const m = l.made;
    const mode = m.mode ?? m.stepsShow;
    if (mode !== null) modes.add(mode);
    if (!l.isError) injected.add(m.injected);
    if (l.anchorTurn === undefined) ownStopped ||= m.stopped;
    else if (m.stopped) referenceStopped = true;
    else if (!l.isError && m.turns > l.anchorTurn + 1) referenceContinued = true;
  }
  const out: SettingDifference[] = [];
  const other = [...modes].filter((m) => m !== asked.mode);
  if (other.length > 0) out.push({ flag: "--mode", recorded: [...modes].join(" and "), asked: asked.mode });
  const otherBlocks = [...injected].filter((t) =>
    t === null ? asked.inject !== null : asked.inject === null || textSetting(t).sha256 !== asked.inject.sha256,
  );
  if (otherBlocks.length > 0) {
    const say = (t: string | null) => (t === null ? "none" : JSON.stringify(t.length > 40 ? `${t.slice(0, 40)}…` : t));
    out.push({
      flag: "--inject",
      recorded: [...injected].map(say).join(" and "),
      asked: asked.inject === null ? "none" : say(asked.inject.head),
    });
  }
  if (ownStopped && !asked.untilAnchor && asked.history === "own")
    out.push({ flag: "--until-anchor", recorded: "on (lines stopped after their anchor)", asked: "off" });
  if (asked.history === "reference") {
    if (referenceStopped && asked.continueAfterAnchor)
      out.push({ flag: "--continue", recorded: "off (lines stopped after their anchor)", asked: "on" });
    if (referenceContinued && !asked.continueAfterAnchor)
      out.push({ flag: "--continue", recorded: "on (lines run past their anchor)", asked: "off" });
  }
  return out;
}

/**
 * Why a resume into this folder is refused, or null: each setting that differs from the
 * folder's record (or, without one, from what its lines show), in one line.
 */
export function resumeRefusal(
  modelFolder: string,
  record: RunRecord | null,
  lines: readonly LineReading[],
  asked: RunSettings,
): Problem | null {
  const recorded = record === null ? null : settingDifferences(record.settings, asked);
  const differences = recorded ?? lineDifferences(lines, asked);
  if (differences.length === 0) return null;
  const source = record === null ? "the lines" : RUN_RECORD_FILE;
  return problem(
    "settings-differ",
    `the output was made with other settings: ${differencesText(differences, source)}; a resume must ask for what made the folder, or write to another --out or --model-dir (nothing was written)`,
    { file: record === null ? modelFolder : `${modelFolder}/${RUN_RECORD_FILE}` },
  );
}
