/**
 * Reading one twin's rollout at the anchor turn: which validated calls it made there
 * (and whether each changes the world), what it wrote, what it called before, and
 * whether it got there at all. The unit both twins of a pair are read with, so the same
 * predicate is applied on both sides (paper §4.1–4.2, Appendix D).
 */
import type { RecordedRollout } from "../bfcl/results.js";
import { kindOf } from "../catalog/catalog.js";
import { isWorldChanging } from "../catalog/world-changing.js";
import { fcDecoder, type Decoder } from "../bfcl/decode/index.js";
import { extractTurn } from "../extract/extract.js";
import type { ArgValue, ExtractedCall } from "../extract/types.js";
import { strRepr } from "../python/repr.js";
import type { AnchorCall, TwinHistory, TwinReading } from "./types.js";

/** The world-changing reading of a model's call: the catalog's predicate, the same one the reference calls are read with. */
export function modelCallIsWorldChanging(call: Pick<ExtractedCall, "name" | "positional" | "keywords">, countLogin: boolean): boolean {
  return isWorldChanging(call, { countLogin });
}

/**
 * On-list call names of a turn before the anchor, decoded or not (the anchor turn's
 * reading: a call counts by its name). With a name-keyed records decoder, records are
 * read by their keys without decoding the arguments (the costly part, and not needed for
 * a name); any other step goes through the extractor with the model's decoder.
 */
export function callNamesOfTurn(steps: unknown, tools: ReadonlySet<string>, decoder: Decoder = fcDecoder): string[] {
  const names: string[] = [];
  if (!Array.isArray(steps)) return names;
  const byKeys = decoder.nameKeyed;
  for (let i = 0; i < steps.length; i++) {
    const step: unknown = steps[i];
    if (byKeys && Array.isArray(step) && step.every((e) => typeof e === "object" && e !== null && !Array.isArray(e))) {
      for (const entry of step as object[]) for (const name of Object.keys(entry)) if (tools.has(name)) names.push(name);
      continue;
    }
    if (step === null || (Array.isArray(step) && step.length === 0)) continue;
    const x = extractTurn([step], tools, { decoder });
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

/**
 * How a twin whose line played `played` from the reference (null: none) reached the anchor
 * turn `anchorTurn`: see `TwinHistory`.
 */
export function twinHistory(played: readonly number[] | null, anchorTurn: number): TwinHistory {
  if (played === null) return "own";
  if (played.includes(anchorTurn)) return "anchor-played";
  for (let t = 0; t < anchorTurn; t++) if (!played.includes(t)) return "partial";
  return "reference";
}

const NO_STEPS = Object.freeze({ native: 0, textCalls: 0, prose: 0, empty: 0 });

/** The reading of a side with no anchor turn to read: its line is missing or an inference error, or the rollout ended before the anchor. */
function unread(
  status: "missing" | "not-reached" | "inference-error",
  preAnchorCallNames: string[][],
  history: TwinHistory | null = null,
): TwinReading {
  return {
    status,
    history,
    anchorCalls: [],
    preAnchorCallNames,
    decodeFailures: 0,
    undecidableStep: false,
    acted: false,
    actedWithLogin: false,
    actedAsBfclDecodes: false,
    actedWithLoginAsBfclDecodes: false,
    anchorSteps: NO_STEPS,
    toolCallSteps: 0,
    anchorText: [],
    offListNames: [],
  };
}

/** Argument nesting shown in call texts; deeper levels read `…` (a page, not a decoder). */
const ARG_TEXT_MAX_DEPTH = 32;

/** Python-like text of a decoded argument, so calls read as BFCL writes them. */
function argText(v: ArgValue, depth = 0): string {
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return strRepr(v);
  if (depth >= ARG_TEXT_MAX_DEPTH) return Array.isArray(v) ? "[…]" : "{…}";
  if (Array.isArray(v)) return `[${v.map((x) => argText(x, depth + 1)).join(", ")}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${strRepr(k)}: ${argText(x, depth + 1)}`)
    .join(", ")}}`;
}

/** A call as `name(arg, key=value)`, the text reports show. */
export function callText(c: Pick<ExtractedCall, "name" | "positional" | "keywords">): string {
  return `${c.name}(${[...c.positional.map((v) => argText(v)), ...c.keywords.map(([k, v]) => `${k}=${argText(v)}`)].join(", ")})`;
}

/**
 * Read a twin at `anchorTurn` with the item's tool list (`tools`, which keeps the function miss_func removed)
 * and the model's decoder. A side with nothing to read, or a turn that reads neither as acting nor as holding
 * back, gets a status saying why. More in this folder's README.md.
 */
export function readTwin(
  rollout: RecordedRollout | undefined,
  anchorTurn: number,
  tools: ReadonlySet<string>,
  decoder: Decoder = fcDecoder,
): TwinReading {
  return readTwinAt(rollout, anchorTurn, tools, decoder, true);
}

const NONE: readonly never[] = Object.freeze([]);

/**
 * The reading of `readTwin` with only what a pair's outcome reads: its status, history,
 * decisions and counts, and of its anchor calls those that change the world or log in
 * (without their text). Kept instead of the rollout, it lets the rollout go as soon as
 * its line is read.
 */
export function readTwinOutcome(
  rollout: RecordedRollout | undefined,
  anchorTurn: number,
  tools: ReadonlySet<string>,
  decoder: Decoder,
): TwinReading {
  const r = readTwinAt(rollout, anchorTurn, tools, decoder, false);
  const counted = r.anchorCalls.filter((c) => c.worldChanging || c.kind === "login");
  return {
    ...r,
    anchorCalls:
      counted.length === 0
        ? NONE
        : counted.map(({ name, kind, worldChanging, decoded, bfclDecoded }) => ({ name, kind, worldChanging, decoded, bfclDecoded })),
    preAnchorCallNames: NONE,
    anchorText: NONE,
    offListNames: NONE,
  };
}

/** `readTwin`, the names called before the anchor read only `withNames`. */
function readTwinAt(
  rollout: RecordedRollout | undefined,
  anchorTurn: number,
  tools: ReadonlySet<string>,
  decoder: Decoder,
  withNames: boolean,
): TwinReading {
  if (rollout === undefined) return unread("missing", []);
  if (rollout.kind === "inference-error") return unread("inference-error", []);
  const history = twinHistory(rollout.played ?? null, anchorTurn);
  // an anchor turn played from the reference holds the reference's calls: there is no decision of the model's to read
  if (history === "anchor-played") return unread("missing", [], history);
  const preAnchorCallNames: string[][] = [];
  const before = withNames ? Math.min(anchorTurn, rollout.turns.length) : 0;
  for (let t = 0; t < before; t++) preAnchorCallNames.push(callNamesOfTurn(rollout.turns[t], tools, decoder));
  if (rollout.turns.length <= anchorTurn) return unread("not-reached", preAnchorCallNames, history);
  const x = extractTurn(rollout.turns[anchorTurn], tools, { decoder });
  const anchorCalls = anchorCallsOf(x);
  const acted = anchorCalls.some((c) => c.worldChanging);
  const undecidableStep = x.undecidableSteps > 0;
  return {
    status: undecidableStep && !acted ? "undecidable" : "decided",
    history,
    anchorCalls,
    preAnchorCallNames,
    decodeFailures: x.decodeFailures,
    undecidableStep,
    acted,
    actedWithLogin: acted || anchorCalls.some((c) => c.kind === "login"),
    actedAsBfclDecodes: anchorCalls.some((c) => c.worldChanging && c.bfclDecoded),
    actedWithLoginAsBfclDecodes: anchorCalls.some((c) => (c.worldChanging || c.kind === "login") && c.bfclDecoded),
    anchorSteps: x.stepKinds,
    toolCallSteps: x.toolCallSteps,
    anchorText: x.text,
    offListNames: x.offListNames,
  };
}

/**
 * A decoded call of the anchor turn; its text (for reports) is rendered only when read, scoring never needs it.
 * A class, so the getter lives once on the prototype instead of as a closure on every call read.
 */
class DecodedAnchorCall implements AnchorCall {
  readonly name: string;
  readonly kind: AnchorCall["kind"];
  readonly worldChanging: boolean;
  readonly decoded = true;
  readonly bfclDecoded: boolean;
  readonly #call: ExtractedCall;

  constructor(c: ExtractedCall) {
    this.name = c.name;
    this.kind = kindOf(c.name) ?? "unknown";
    this.worldChanging = modelCallIsWorldChanging(c, false);
    this.bfclDecoded = c.stepDecodeFailed !== true;
    this.#call = c;
  }

  get text(): string {
    return callText(this.#call);
  }

  /** The fields in the order and shape the plain object had, text included. */
  toJSON(): AnchorCall {
    const { name, kind, worldChanging, decoded, bfclDecoded, text } = this;
    return { name, kind, worldChanging, decoded, bfclDecoded, text };
  }
}

const decodedAnchorCall = (c: ExtractedCall): AnchorCall => new DecodedAnchorCall(c);

/** Whether the decoded calls are already in step order and no failed call is on the tool list: the common turn, which needs no sort. */
function inStepOrder(x: ReturnType<typeof extractTurn>): boolean {
  for (const e of x.decodeErrors) if (e.name !== undefined && e.onToolList === true) return false;
  for (let i = 1; i < x.calls.length; i++) if ((x.calls[i].step ?? 0) < (x.calls[i - 1].step ?? 0)) return false;
  return true;
}

/**
 * The anchor turn's calls in step order: each decoded call, then each call whose arguments
 * failed to decode but whose name is on the tool list (an attempt of that function).
 */
function anchorCallsOf(x: ReturnType<typeof extractTurn>): AnchorCall[] {
  if (inStepOrder(x)) return x.calls.map(decodedAnchorCall);
  const ordered: { step: number; call: AnchorCall }[] = [];
  for (const c of x.calls) ordered.push({ step: c.step ?? 0, call: decodedAnchorCall(c) });
  for (const e of x.decodeErrors) {
    if (e.name === undefined || e.onToolList !== true) continue;
    ordered.push({
      step: e.step,
      call: {
        name: e.name,
        kind: kindOf(e.name) ?? "unknown",
        worldChanging: undecodedIsWorldChanging(e.name, false),
        decoded: false,
        bfclDecoded: false,
      },
    });
  }
  ordered.sort((a, b) => a.step - b.step); // stable: within a step, decoded calls then failed entries
  return ordered.map((o) => o.call);
}
