/**
 * Reading one twin's rollout at the anchor turn: which validated calls it made there
 * (and whether each changes the world), what it wrote, what it called before, and
 * whether it got there at all. The unit both twins of a pair are read with, so the same
 * predicate is applied on both sides (paper §4.1–4.2, Appendix D).
 */
import type { RecordedRollout } from "../bfcl/results.js";
import { kindOf } from "../catalog/catalog.js";
import { isWorldChanging } from "../catalog/world-changing.js";
import { extractTurn } from "../extract/extract.js";
import type { ExtractedCall } from "../extract/types.js";
import type { AnchorCall, TwinReading } from "./types.js";

/** The world-changing reading of a model's call: the catalog's predicate, the same one the reference calls are read with. */
export function modelCallIsWorldChanging(
  call: Pick<ExtractedCall, "name" | "positional" | "keywords">,
  countLogin: boolean,
): boolean {
  return isWorldChanging(call, { countLogin });
}

/**
 * On-list call names of a turn before the anchor, decoded or not (the anchor turn's
 * reading: a call counts by its name). Native function-calling records are read by
 * their keys without decoding the arguments (the costly part, and not needed for a
 * name); any other step goes through the extractor.
 */
export function callNamesOfTurn(steps: unknown, tools: ReadonlySet<string>): string[] {
  const names: string[] = [];
  if (!Array.isArray(steps)) return names;
  for (let i = 0; i < steps.length; i++) {
    const step: unknown = steps[i];
    if (Array.isArray(step) && step.every((e) => typeof e === "object" && e !== null && !Array.isArray(e))) {
      for (const entry of step as object[]) for (const name of Object.keys(entry)) if (tools.has(name)) names.push(name);
      continue;
    }
    if (step === null || (Array.isArray(step) && step.length === 0)) continue;
    const x = extractTurn([step], tools);
    for (const c of x.calls) names.push(c.name);
    for (const e of x.decodeErrors) if (e.name !== undefined && e.onToolList === true) names.push(e.name);
  }
  return names;
}

/** A call whose arguments failed to decode still names what the model tried: world-changing by its name alone. */
function undecodedIsWorldChanging(name: string, countLogin: boolean): boolean {
  const kind = kindOf(name);
  return kind === "mutate" || (kind === "login" && countLogin);
}

/** The reading of a rollout that never reached the anchor turn (or whose line is an error). */
function unreached(reach: "short" | "inference-error", preAnchorCallNames: string[][]): TwinReading {
  return { reach, anchorCalls: [], preAnchorCallNames, decodeFailures: 0, anchorText: [], offListNames: [] };
}

/**
 * Read a twin at `anchorTurn` with the item's tool list (`tools`, which keeps the
 * function miss_func removed). A rollout that ended before the anchor, or an
 * inference-error line, is read as no call there. A call whose arguments failed to
 * decode but whose name is on the tool list counts as an attempt of that function.
 */
export function readTwin(rollout: RecordedRollout, anchorTurn: number, tools: ReadonlySet<string>, countLogin: boolean): TwinReading {
  if (rollout.kind === "inference-error") return unreached("inference-error", []);
  const preAnchorCallNames: string[][] = [];
  const before = Math.min(anchorTurn, rollout.turns.length);
  for (let t = 0; t < before; t++) preAnchorCallNames.push(callNamesOfTurn(rollout.turns[t], tools));
  if (rollout.turns.length <= anchorTurn) return unreached("short", preAnchorCallNames);
  const x = extractTurn(rollout.turns[anchorTurn], tools);
  const ordered: { step: number; call: AnchorCall }[] = [];
  for (const c of x.calls) {
    ordered.push({
      step: c.step ?? 0,
      call: { name: c.name, kind: kindOf(c.name) ?? "unknown", worldChanging: modelCallIsWorldChanging(c, countLogin), decoded: true },
    });
  }
  for (const e of x.decodeErrors) {
    if (e.name === undefined || e.onToolList !== true) continue;
    ordered.push({
      step: e.step,
      call: { name: e.name, kind: kindOf(e.name) ?? "unknown", worldChanging: undecodedIsWorldChanging(e.name, countLogin), decoded: false },
    });
  }
  ordered.sort((a, b) => a.step - b.step); // stable: within a step, decoded calls then failed entries
  return {
    reach: "reached",
    anchorCalls: ordered.map((o) => o.call),
    preAnchorCallNames,
    decodeFailures: x.decodeFailures,
    anchorText: x.text,
    offListNames: x.offListNames,
  };
}
