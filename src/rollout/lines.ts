/**
 * Result files as BFCL lays them out and orders them: one file per category
 * (`BFCL_v4_multi_turn_<category>_result.json`), lines sorted by BFCL's `sort_key`
 * (category, then the integer index), each line `json.dumps` of the entry. Also how
 * resume reads a line: which id it holds and whether it is an error line (the file side,
 * torn lines and the final rewrite, is `io/run-output.ts`).
 */
import { bfclFileName, sortIndexOfId, type MultiTurnCategory } from "../bfcl/categories.js";
import { jsonDumps, jsonLoads } from "../python/json.js";
import { PyDict } from "../python/containers.js";
import { makeJsonSerializable } from "./serialize.js";
import {
  HISTORY_KEY,
  INJECTED_KEY,
  MODE_KEY,
  PLAYED_TURNS_KEY,
  TRIAL_KEY,
  REFERENCE_HISTORY,
  STOPPED_AFTER_TURN_KEY,
  historyKeysProblem,
  referenceAnchorOf,
  type RunMode,
} from "../bfcl/line-keys.js";
import { decodePromptingStep } from "../bfcl/decode/index.js";
import { anchoredKey } from "../bfcl/results.js";

/** The result file name of a category, as BFCL names it. */
export function resultFileName(category: MultiTurnCategory): string {
  return bfclFileName("v4", category, "result");
}

/** The result folder name of a model: the name with `/` → `_`, as BFCL names result folders. */
export function modelDirName(model: string): string {
  return model.replace(/\//g, "_");
}

/** BFCL's `sort_key` for multi-turn ids: category, then the integer index (`_12` after `_9`). */
export function compareIds(a: string, b: string): number {
  const prefix = (id: string): string => {
    const base = id.split(":")[0];
    return base.slice(0, base.lastIndexOf("_"));
  };
  const [ca, cb] = [prefix(a), prefix(b)];
  if (ca !== cb) return ca < cb ? -1 : 1;
  const [ia, ib] = [sortIndexOfId(a), sortIndexOfId(b)];
  if (ia !== ib) return ia - ib;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * One line of a result file: `json.dumps(make_json_serializable(entry))` and a newline, but a float JSON cannot
 * write (inf, nan) is written as null: Python's bare `Infinity` token would make strict readers, resume
 * included, refuse the line. More in this folder's README.md.
 */
export function renderLine(line: PyDict): string {
  return `${jsonDumps(makeJsonSerializable(line, { nonFiniteAsNull: true }))}\n`;
}

/** What resume reads of one complete line of a result file. */
export type LineReading =
  | {
      readonly kind: "result";
      readonly id: string;
      /** An inference-error line (`result` is not a list): skipped on resume unless asked to retry error lines. */
      readonly isError: boolean;
      /** An error line's `result` text without BFCL's `Error during inference: ` prefix; null otherwise. */
      readonly errorMessage: string | null;
      /** Set when the line is read as Python reads it but is not plain JSON: why it may trouble other readers. */
      readonly note: string | null;
      /** A `--history reference` line: the anchor turn it was generated for (its played-turn count); absent on a line of the ordinary loop. */
      readonly anchorTurn?: number;
      /** The line's trial (`twinscore_trial`) in a run of several trials; absent on a run of one. */
      readonly trial?: number;
      /** Set when the line's history keys are malformed (neither history can be told): what is wrong with them. */
      readonly historyProblem?: string;
      /** What the line records of the settings that made it (absent for a line too long to parse whole). */
      readonly made?: LineSettings;
    }
  | { readonly kind: "other" };

/**
 * The settings a line shows, for the resume check of a folder (a folder made before
 * `run.json` was written has only its lines to say how it was made).
 */
export interface LineSettings {
  /** `twinscore_mode`, or null on a line made before the key was written. */
  readonly mode: RunMode | null;
  /**
   * The mode the steps show when no key says it: `fc` for a step of tool-call records,
   * `prompting` for a text step that decodes to calls; null when the steps cannot tell
   * (text-only steps read the same under both decoders).
   */
  readonly stepsShow: RunMode | null;
  /** The injected block's text, or null (a line with turns and no block; always null on an error line). */
  readonly injected: string | null;
  /** Whether it carries `twinscore_stopped_after_turn` (stopped by --until-anchor, or a reference line without --continue). */
  readonly stopped: boolean;
  /** Turns in `result` (0 for an error line). */
  readonly turns: number;
}

/**
 * What identifies a line of a run's output: its id, for a `--history reference` line
 * also its anchor turn (a base item has one line per distinct anchor of its pairs), and
 * in a run of several trials its trial. Without a trial, the same key the readers keep a
 * line under (`anchoredKey`), so resume and score agree.
 */
export function lineKey(id: string, anchorTurn: number | null | undefined, trial: number | null | undefined = null): string {
  const key = anchorTurn === null || anchorTurn === undefined ? id : anchoredKey(id, anchorTurn);
  return trial === null || trial === undefined ? key : `${key}#${trial}`;
}

/** The key of a line as resume reads it (`lineKey` of its id, anchor and trial). */
export function lineKeyOf(reading: Extract<LineReading, { kind: "result" }>): string {
  return lineKey(reading.id, reading.anchorTurn, reading.trial);
}

const ERROR_PREFIX = "Error during inference: ";

function readingOf(value: unknown, note: string | null): LineReading {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { kind: "other" };
  const v = value as Record<string, unknown>;
  if (typeof v.id !== "string") return { kind: "other" };
  const isError = !Array.isArray(v.result);
  const errorMessage = isError
    ? typeof v.result === "string"
      ? v.result.startsWith(ERROR_PREFIX)
        ? v.result.slice(ERROR_PREFIX.length)
        : v.result
      : String(v.result)
    : null;
  const anchorTurn = referenceAnchorOf(v);
  const made = settingsOf(v);
  const historyProblem = historyKeysProblem(v);
  const trial = trialOf(v[TRIAL_KEY]);
  const withTrial = trial === null ? {} : { trial };
  if (historyProblem !== null) return { kind: "result", id: v.id, isError, errorMessage, note, historyProblem, made, ...withTrial };
  return anchorTurn === null
    ? { kind: "result", id: v.id, isError, errorMessage, note, made, ...withTrial }
    : { kind: "result", id: v.id, isError, errorMessage, note, anchorTurn, made, ...withTrial };
}

/** A trial index as a line holds it (a whole number >= 0), else null. */
function trialOf(value: unknown): number | null {
  const n = typeof value === "bigint" ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** What a parsed line records of how it was made. */
function settingsOf(v: Record<string, unknown>): LineSettings {
  const mode = v[MODE_KEY] === "fc" || v[MODE_KEY] === "prompting" ? v[MODE_KEY] : null;
  const block = v[INJECTED_KEY];
  const text =
    block !== null && typeof block === "object" && !(block instanceof PyDict)
      ? (block as Record<string, unknown>).text
      : block instanceof PyDict
        ? block.get("text")
        : undefined;
  const turns = Array.isArray(v.result) ? v.result : [];
  return {
    mode,
    stepsShow: mode === null ? modeTheStepsShow(turns) : null,
    injected: Array.isArray(v.result) ? (typeof text === "string" ? text : null) : null,
    stopped: v[STOPPED_AFTER_TURN_KEY] !== undefined,
    turns: turns.length,
  };
}

/** `fc` when a step is a list of tool-call records, `prompting` when a text step decodes to calls, else null. */
function modeTheStepsShow(turns: readonly unknown[]): RunMode | null {
  let text = false;
  for (const turn of turns) {
    if (!Array.isArray(turn)) continue;
    for (const step of turn) {
      if (Array.isArray(step) && step.some((s) => s !== null && typeof s === "object" && !Array.isArray(s))) return "fc";
      if (!text && typeof step === "string" && step.trim() !== "") {
        const decoded = decodePromptingStep(step);
        if (decoded.ok && decoded.calls.length > 0) text = true;
      }
    }
  }
  return text ? "prompting" : null;
}

/**
 * Read one complete line (newline cut off) for resume: a JSON object with a string `id`
 * is that id's line. Read as Python's `json.loads` reads it — `NaN` and `Infinity` are
 * accepted — and past a leading byte-order mark (as `utf-8-sig` reads it), so such a line
 * is kept and its id not generated again; anything else is not a result line.
 */
export function readResultLine(text: string): LineReading {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  const bomNote = bom ? "starts with a byte-order mark (BFCL's json.loads refuses such a line)" : null;
  try {
    return readingOf(JSON.parse(body), bomNote);
  } catch {
    // not strict JSON: Python's reader may still take it (NaN, Infinity)
  }
  if (!/NaN|Infinity/.test(body)) return { kind: "other" };
  const parsed = jsonLoads(body);
  if (!parsed.ok || !(parsed.value instanceof PyDict)) return { kind: "other" };
  const d = parsed.value;
  const result = d.get("result");
  const played = d.get(PLAYED_TURNS_KEY);
  const plain = {
    id: d.get("id"),
    result,
    [HISTORY_KEY]: d.get(HISTORY_KEY),
    [PLAYED_TURNS_KEY]: Array.isArray(played) ? played.map((t) => (typeof t === "bigint" ? Number(t) : t)) : played,
    [MODE_KEY]: d.get(MODE_KEY),
    [INJECTED_KEY]: d.get(INJECTED_KEY),
    [STOPPED_AFTER_TURN_KEY]: d.get(STOPPED_AFTER_TURN_KEY),
    [TRIAL_KEY]: d.get(TRIAL_KEY),
  };
  return readingOf(
    plain,
    [bomNote, "holds NaN or Infinity, which Python reads and strict JSON readers refuse"].filter((x) => x !== null).join("; "),
  );
}

/** The played turns as the writer renders them (`withPlayedKeys`); bare quotes, so never inside a JSON string. */
const PLAYED_KEYS = new RegExp(
  `, ${JSON.stringify(HISTORY_KEY)}: ${JSON.stringify(REFERENCE_HISTORY)}, ${JSON.stringify(PLAYED_TURNS_KEY)}: \\[((?:\\d+(?:, \\d+)*)?)\\]`,
  "g",
);

/** The trial key as the writer renders it, the line's last key. */
const TRIAL_KEYS = new RegExp(`, ${JSON.stringify(TRIAL_KEY)}: (\\d+)\\}$`, "g");

/**
 * The same reading from the start of a line too long to parse whole (resume copies such a
 * line byte for byte): the `{"id": "…", "result": ` head BFCL's writer puts first, and
 * from its last bytes (`tail`) the played turns of a `--history reference` line.
 */
export function sniffResultLine(head: string, tail = ""): LineReading {
  const m = /^\uFEFF?\{"id": ("(?:[^"\\]|\\.)*"), "result": (\[|")/.exec(head);
  if (!m) return { kind: "other" };
  let id: unknown;
  try {
    id = JSON.parse(m[1]);
  } catch {
    return { kind: "other" };
  }
  if (typeof id !== "string") return { kind: "other" };
  const isError = m[2] === '"';
  const trialKey = [...tail.matchAll(TRIAL_KEYS)].at(-1);
  const reading = {
    kind: "result" as const,
    id,
    isError,
    errorMessage: isError ? "(the line is too long to read its message)" : null,
    note: null,
    ...(trialKey === undefined ? {} : { trial: Number(trialKey[1]) }),
  };
  const played = [...tail.matchAll(PLAYED_KEYS)].at(-1);
  if (played === undefined) return reading;
  const turns = played[1] === "" ? [] : played[1].split(", ").map(Number);
  const anchorTurn = referenceAnchorOf({ [HISTORY_KEY]: REFERENCE_HISTORY, [PLAYED_TURNS_KEY]: turns });
  return anchorTurn === null ? reading : { ...reading, anchorTurn };
}
