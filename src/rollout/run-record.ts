/**
 * `run.json`, what a model folder records of how its lines were made: the versions and digests of the code and
 * data, and every setting that changes what a line means. More in this folder's README.md.
 */
import { createHash } from "node:crypto";
import type { RunMode, HistorySource } from "../bfcl/line-keys.js";

/** The name of the record in a model folder (beside `multi_turn/`). */
export const RUN_RECORD_FILE = "run.json";

/** The layout version of `run.json`. */
export const RUN_RECORD_SCHEMA_VERSION = 1;

/** How many characters of an injected block or a system prompt the record keeps beside its digest. */
export const TEXT_HEAD_CHARS = 80;

/** A text setting (an injected block, a system prompt): its sha256, its length, its first characters. */
export interface TextSetting {
  readonly sha256: string;
  readonly chars: number;
  readonly head: string;
}

/** A text as the record keeps it: digest, length, first characters. */
export function textSetting(text: string): TextSetting {
  return { sha256: createHash("sha256").update(text, "utf8").digest("hex"), chars: text.length, head: text.slice(0, TEXT_HEAD_CHARS) };
}

/** An endpoint URL as the record keeps it: scheme, host, port and path; never a user, password, query string or fragment (where keys hide). */
export function endpointOrigin(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/** The simulated user of an interactive run. */
export interface UserSimulatorSetting {
  readonly model: string;
  readonly maxClarifications: number;
  readonly prompt: TextSetting;
}

/** What must stay the same across the sessions that write one folder. */
export interface RunSettings {
  /** The model name sent in each request. */
  readonly model: string;
  readonly mode: RunMode;
  readonly history: HistorySource;
  readonly untilAnchor: boolean;
  readonly continueAfterAnchor: boolean;
  /** The sampling settings sent with each request. */
  readonly sampling: { readonly temperature: number; readonly seed: number | null };
  readonly inject: TextSetting | null;
  /** Prompting mode: the system prompt file's text, or `bfcl` for BFCL's own prompt module; null in FC mode. */
  readonly systemPrompt: TextSetting | "bfcl" | null;
  readonly excludeStateLog: boolean;
  readonly userSimulator: UserSimulatorSetting | null;
  readonly trials: number;
}

/** `run.json`. */
export interface RunRecord {
  readonly schemaVersion: typeof RUN_RECORD_SCHEMA_VERSION;
  readonly twinscoreVersion: string;
  readonly bfcl: { readonly version: "v4"; readonly dataSha256: string };
  readonly manifestSha256: string;
  /** The endpoint's origin (scheme, host, port) and path: never its key, user, password or query string. */
  readonly endpoint: string;
  /** The simulated user's endpoint, kept as `endpoint` is (null for a scripted run); like it, free to change between sessions. */
  readonly userEndpoint: string | null;
  readonly settings: RunSettings;
  /** ISO times: the first session's start, the last session's start and end (null while it runs or when it stopped without ending). */
  readonly startedAt: string;
  readonly lastStartedAt: string;
  readonly endedAt: string | null;
  /** Sessions that wrote this folder (1 for a run never resumed). */
  readonly sessions: number;
}

/** The flag each setting comes from, for the line that names what differs. */
const SETTING_FLAGS: Readonly<Record<keyof RunSettings, string>> = {
  model: "--model",
  mode: "--mode",
  history: "--history",
  untilAnchor: "--until-anchor",
  continueAfterAnchor: "--continue",
  sampling: "--temperature",
  inject: "--inject",
  systemPrompt: "--system-prompt",
  excludeStateLog: "--exclude-state-log",
  userSimulator: "--user-sim",
  trials: "--trials",
};

/** How a setting reads in a message. */
function shown(key: keyof RunSettings, value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "on" : "off";
  if (key === "sampling") {
    const s = value as RunSettings["sampling"];
    return `temperature ${s.temperature}${s.seed === null ? "" : `, seed ${s.seed}`}`;
  }
  if (key === "userSimulator") {
    const u = value as UserSimulatorSetting;
    return `llm ${u.model}, ${u.maxClarifications} clarifications, prompt ${u.prompt.sha256.slice(0, 12)}`;
  }
  if (typeof value === "object") {
    const t = value as TextSetting;
    return `${JSON.stringify(t.head.length < t.chars ? `${t.head}…` : t.head)} (sha256 ${t.sha256.slice(0, 12)})`;
  }
  return String(value);
}

/** A setting that differs between a folder and a resume: which flag, what the folder holds, what was asked. */
export interface SettingDifference {
  readonly flag: string;
  readonly recorded: string;
  readonly asked: string;
}

/** The settings that differ, each named by its flag, in a fixed order. */
export function settingDifferences(recorded: RunSettings, asked: RunSettings): SettingDifference[] {
  const out: SettingDifference[] = [];
  for (const key of Object.keys(SETTING_FLAGS) as (keyof RunSettings)[]) {
    if (JSON.stringify(recorded[key] ?? null) === JSON.stringify(asked[key] ?? null)) continue;
    out.push({ flag: SETTING_FLAGS[key], recorded: shown(key, recorded[key]), asked: shown(key, asked[key]) });
  }
  return out;
}

/** One line naming each differing setting. */
export function differencesText(differences: readonly SettingDifference[], source: string): string {
  return differences.map((d) => `${d.flag} (${source}: ${d.recorded}; now: ${d.asked})`).join(", ");
}

/** What a run is, in a few words, for a command's title: `fc, reference history, injected "…"`. */
export function describeRun(record: RunRecord): string {
  const s = record.settings;
  const parts: string[] = [`${s.model} via run, ${s.mode}`];
  parts.push(s.history === "reference" ? `reference history${s.continueAfterAnchor ? " (continued)" : ""}` : "own history");
  if (s.untilAnchor) parts.push("until the anchor");
  parts.push(`temperature ${s.sampling.temperature}`);
  if (s.inject !== null) parts.push(`injected ${shown("inject", s.inject)}`);
  if (s.systemPrompt !== null && s.systemPrompt !== "bfcl") parts.push(`system prompt ${shown("systemPrompt", s.systemPrompt)}`);
  if (s.userSimulator !== null) parts.push(`simulated user ${s.userSimulator.model}`);
  if (s.trials !== 1) parts.push(`${s.trials} trials`);
  return parts.join(", ");
}

function isText(v: unknown): v is TextSetting {
  return (
    v !== null &&
    typeof v === "object" &&
    typeof (v as TextSetting).sha256 === "string" &&
    typeof (v as TextSetting).chars === "number" &&
    typeof (v as TextSetting).head === "string"
  );
}

/** Why a parsed `run.json` is not a record this version reads, or null. */
function recordProblem(v: unknown): string | null {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "not a JSON object";
  const r = v as Record<string, unknown>;
  if (r.schemaVersion !== RUN_RECORD_SCHEMA_VERSION)
    return `schemaVersion ${JSON.stringify(r.schemaVersion)} is not ${RUN_RECORD_SCHEMA_VERSION}`;
  const s = r.settings as Record<string, unknown> | undefined;
  if (s === null || typeof s !== "object") return "no settings";
  if (s.mode !== "fc" && s.mode !== "prompting") return "settings.mode is neither fc nor prompting";
  if (s.history !== "own" && s.history !== "reference") return "settings.history is neither own nor reference";
  if (typeof s.model !== "string") return "settings.model is not a string";
  for (const k of ["untilAnchor", "continueAfterAnchor", "excludeStateLog"])
    if (typeof s[k] !== "boolean") return `settings.${k} is not true or false`;
  const sampling = s.sampling as Record<string, unknown> | undefined;
  if (sampling === null || typeof sampling !== "object" || typeof sampling.temperature !== "number")
    return "settings.sampling.temperature is not a number";
  if (s.inject !== null && !isText(s.inject)) return "settings.inject is malformed";
  if (s.systemPrompt !== null && s.systemPrompt !== "bfcl" && !isText(s.systemPrompt)) return "settings.systemPrompt is malformed";
  if (!Number.isInteger(s.trials) || (s.trials as number) < 1) return "settings.trials is not a positive integer";
  for (const k of ["twinscoreVersion", "manifestSha256", "endpoint", "startedAt", "lastStartedAt"])
    if (typeof r[k] !== "string") return `${k} is not a string`;
  if (!Number.isInteger(r.sessions)) return "sessions is not an integer";
  return null;
}

/** Read a `run.json` text: the record, or why it cannot be read. */
export function parseRunRecord(text: string): { ok: true; record: RunRecord } | { ok: false; why: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, why: `not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const why = recordProblem(v);
  return why === null ? { ok: true, record: v as RunRecord } : { ok: false, why };
}

/** The record as written: two-space JSON and a newline. */
export function renderRunRecord(record: RunRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
