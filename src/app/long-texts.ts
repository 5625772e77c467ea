/**
 * Cutting a rollout's long texts as its line is read, for a command that shows texts (the report), so a run
 * whose turns hold millions of characters does not keep them all until the model is scored. A text is cut only
 * where every reading of the line stays as it was. More in this folder's README.md.
 */
import type { RecordedRollout } from "../bfcl/results.js";
import { fcDecoder, promptingDecoder, type Decoder } from "../bfcl/decode/index.js";
import type { RunMode } from "../bfcl/line-keys.js";
import { readTwin } from "../decision/read-twin.js";
import type { TwinReading } from "../decision/types.js";
import { pairsOfTwins, toolSetOf, type KeptLine } from "../decision/score.js";
import type { ManifestPair } from "../pairs/types.js";
import { boundedText } from "../report/bounded-text.js";

/** What of a decoded rollout to keep, given its line's id. */
export type RolloutKeeper = (id: string, rollout: RecordedRollout) => KeptLine;

/**
 * Keeps the lines it is given in a form that holds only under one decoder (texts cut
 * where no reading changes, or only the readings): a model whose lines turn out to need
 * another decoder must be read again with its rollouts whole.
 */
export interface LineKeeper {
  readonly keep: RolloutKeeper;
  /** The decoder every kept line was read under. */
  readonly decoder: Decoder;
  /** Lines kept in a form that holds only under `decoder`, so far. */
  tiedLines(): number;
}

/** Cuts the long texts of the lines it is given, and counts the lines it cut. */
export interface TextCutter extends LineKeeper {
  readonly keep: (id: string, rollout: RecordedRollout) => RecordedRollout;
}

/**
 * The decoder a model's lines will be read with, as far as it is known before they are
 * read: the one given, or the one its `run.json` mode names, else the one chosen from its
 * files' heads (a mode recorded on its lines, known only after the pass, may name another).
 */
export function decoderExpected(chosen: Decoder, given: boolean, recordMode: RunMode | null): Decoder {
  if (given || recordMode === null) return chosen;
  return recordMode === "fc" ? fcDecoder : promptingDecoder;
}

/** Keeps each rollout with its text steps over `limit` characters cut, where the cut changes no reading of it on `pairs` under `decoder`. */
export function longTextCutter(pairs: readonly ManifestPair[], decoder: Decoder, limit: number): TextCutter {
  const pairsOf = pairsOfTwins(pairs);
  let cutLines = 0;
  const keep = (id: string, rollout: RecordedRollout): RecordedRollout => {
    const cut = withTextStepsCut(rollout, limit);
    if (cut === rollout) return rollout;
    for (const p of pairsOf.get(id) ?? []) {
      const whole = readTwin(rollout, p.anchorTurn, toolSetOf(p), decoder);
      const shown = readTwin(cut, p.anchorTurn, toolSetOf(p), decoder);
      if (readingKey(whole, (t) => boundedText(t, limit)) !== readingKey(shown, (t) => t)) return rollout;
    }
    cutLines++;
    return cut;
  };
  return { keep, decoder, tiedLines: () => cutLines };
}

/** The rollout with every text step longer than `limit` cut (`boundedText`); the same object when none is. */
export function withTextStepsCut(rollout: RecordedRollout, limit: number): RecordedRollout {
  if (rollout.kind !== "turns") return rollout;
  const long = (step: unknown) => typeof step === "string" && step.length > limit;
  if (!rollout.turns.some((turn) => Array.isArray(turn) && turn.some(long))) return rollout;
  const turns = rollout.turns.map((turn) =>
    Array.isArray(turn) && turn.some(long) ? turn.map((step: unknown) => (long(step) ? boundedText(step as string, limit) : step)) : turn,
  );
  return { ...rollout, turns };
}

/** Everything a reading says, as one string (its anchor text through `text`): two readings are the same when their keys are. */
function readingKey(r: TwinReading, text: (t: string) => string): string {
  return JSON.stringify({
    ...r,
    anchorCalls: r.anchorCalls.map((c) => [c.name, c.kind, c.worldChanging, c.decoded, c.bfclDecoded, c.text ?? null]),
    anchorText: r.anchorText.map(text),
  });
}
