/**
 * Call extraction from the recorded steps of one turn, on top of the model's BFCL decoder (`src/bfcl/decode`),
 * with extraction's own rules (paper Appendix D): a call counts only when its name is on the item's tool list,
 * and a step that fails to decode is never read as holding back. The rules per step are in this folder's
 * README.md.
 */
import {
  decodePlainStep,
  promptingSource,
  fcDecoder,
  looksLikeToolCall,
  failureMessage,
  toolCallTags,
  type DecodeOutcome,
  type Decoder,
} from "../bfcl/decode/index.js";
import { parseExpression } from "../python/parse.js";
import { resolveValue, unparse } from "../python/literal.js";
import type { PyExpr } from "../python/ast.js";
import { decodePythonText, looksLikeCallText } from "./python-text.js";
import { isJsonObject, loadsJson, pyTypeNameOfJson } from "./json-args.js";
import type { ArgValue, CallShape, DecodeError, ExtractedCall, TurnExtraction } from "./types.js";

/** How the steps are decoded. */
export interface ExtractOptions {
  /** The model's decoder (BFCL's FC decoder when not given). */
  readonly decoder?: Decoder;
}

const NO_POSITIONAL: readonly ArgValue[] = Object.freeze([]);

/**
 * A call read from JSON arguments (an object, or the argument text the decoder already
 * accepted); its keyword list is built on first access.
 */
class JsonArgsCall implements ExtractedCall {
  readonly positional = NO_POSITIONAL;
  stepDecodeFailed = false;
  private kw: (readonly [string, ArgValue])[] | undefined;

  constructor(
    readonly name: string,
    private readonly args: { [key: string]: ArgValue } | string,
    readonly shape: CallShape,
    readonly step: number,
  ) {}

  get keywords(): readonly (readonly [string, ArgValue])[] {
    if (this.kw === undefined) {
      let args = this.args;
      if (typeof args === "string") {
        const parsed = loadsJson(args);
        args = parsed.ok && isJsonObject(parsed.value) ? parsed.value : {};
      }
      this.kw = Object.entries(args);
    }
    return this.kw;
  }

  toJSON(): object {
    return {
      name: this.name,
      positional: this.positional,
      keywords: this.keywords,
      shape: this.shape,
      step: this.step,
      stepDecodeFailed: this.stepDecodeFailed,
    };
  }
}

/** Mutable accumulator for one turn. */
class TurnBuilder {
  readonly calls: ExtractedCall[] = [];
  readonly offListNames: string[] = [];
  readonly decodeErrors: DecodeError[] = [];
  readonly text: string[] = [];
  // the step sets are made when a step first enters one: most turns leave all three empty
  private failedSteps: Set<number> | null = null;
  private undecidable: Set<number> | null = null;
  /** Steps that look like tool calls. */
  private toolLooking: Set<number> | null = null;
  /** The decoder's own error on the step being read (type included), when it raised. */
  stepError: string | null = null;
  private firstFailure: string | null = null;
  private readonly kinds = { native: 0, textCalls: 0, prose: 0, empty: 0 };
  /** Calls and off-list names read before the current step (to tell whether it gave any). */
  private namesBefore = 0;

  constructor(readonly tools: ReadonlySet<string>) {}

  /** Start reading step `i`. */
  begin(i: number, step: unknown): void {
    this.stepError = null;
    this.namesBefore = this.calls.length + this.offListNames.length;
    if (looksLikeToolCall(step)) (this.toolLooking ??= new Set()).add(i);
  }

  /**
   * Step `i` read: count it by kind. Records are native calls whether or not BFCL could
   * decode their arguments; text (or a list holding only text) is native when the decoder
   * decoded calls out of it, a text call when it failed or looks like a call, else prose.
   */
  end(i: number, step: unknown): void {
    if (step === null || (Array.isArray(step) && step.length === 0) || (typeof step === "string" && step.trim() === "")) this.kinds.empty++;
    else if (!isTextual(step)) this.kinds.native++;
    else if (this.failedSteps?.has(i) !== true && this.calls.length + this.offListNames.length > this.namesBefore) this.kinds.native++;
    else if (this.failedSteps?.has(i) === true || this.toolLooking?.has(i) === true) this.kinds.textCalls++;
    else this.kinds.prose++;
  }

  /**
   * The one definition of a tool-call attempt, which score's reading and check's decode
   * health both count by: a step that looks like a tool call, or that failed to decode as
   * one (a tool-list name in call position, a record BFCL rejects …). It decoded unless it
   * failed; prose that names no tool is no attempt.
   */
  private counts(): { attempts: number; failed: number } {
    let attempts = this.toolLooking?.size ?? 0;
    if (this.failedSteps !== null) for (const i of this.failedSteps) if (this.toolLooking?.has(i) !== true) attempts++;
    return { attempts, failed: this.failedSteps?.size ?? 0 };
  }

  fail(step: number, shape: CallShape | "step", message: string, name?: string): void {
    (this.failedSteps ??= new Set()).add(step);
    this.firstFailure ??= this.stepError ?? message;
    const e: DecodeError = name === undefined ? { step, shape, message } : { step, shape, message, name, onToolList: this.tools.has(name) };
    this.decodeErrors.push(e);
  }

  /** A failed step that names no function: the model's intent cannot be read. */
  failUndecidable(step: number, shape: CallShape | "step", message: string): void {
    this.fail(step, shape, message);
    (this.undecidable ??= new Set()).add(step);
  }

  /** Record a structurally parsed call: on the tool list it counts, otherwise its name is kept aside. */
  add(call: ExtractedCall): void {
    if (this.tools.has(call.name)) this.calls.push(call);
    else this.offListNames.push(call.name);
  }

  /** Mark the calls of steps that BFCL's decoder rejects. */
  finish(steps: number): TurnExtraction {
    const failedSteps = this.failedSteps;
    const calls = failedSteps === null ? this.calls : this.calls.map((c) => markFailed(c, failedSteps));
    const { attempts, failed } = this.counts();
    return {
      calls,
      offListNames: this.offListNames,
      decodeFailures: failed,
      decodeErrors: this.decodeErrors,
      undecidableSteps: this.undecidable?.size ?? 0,
      toolCallSteps: attempts,
      firstDecodeFailure: this.firstFailure,
      text: this.text,
      steps,
      stepKinds: { ...this.kinds },
    };
  }
}

/** Text, or a list holding only text: what a server returns when it did not parse a call into records. */
function isTextual(step: unknown): boolean {
  return typeof step === "string" || (Array.isArray(step) && step.every((e) => typeof e === "string"));
}

function markFailed(c: ExtractedCall, failed: ReadonlySet<number>): ExtractedCall {
  if (c.step === undefined || !failed.has(c.step)) return c;
  if (c instanceof JsonArgsCall) {
    c.stepDecodeFailed = true;
    return c;
  }
  return { ...c, stepDecodeFailed: true };
}

/**
 * Read all steps of one recorded turn (`result[turn]`, as `JSON.parse` gives it) with the
 * model's decoder. `tools` is the item's tool list (including the function miss_func
 * removed). Never throws on any JSON value.
 */
export function extractTurn(steps: unknown, tools: ReadonlySet<string>, options: ExtractOptions = {}): TurnExtraction {
  const b = new TurnBuilder(tools);
  if (!Array.isArray(steps)) {
    b.failUndecidable(0, "step", `turn is not a list of steps: '${pyTypeNameOfJson(steps)}'`);
    return b.finish(0);
  }
  const decoder = options.decoder ?? fcDecoder;
  for (let i = 0; i < steps.length; i++) {
    b.begin(i, steps[i]);
    readStep(b, steps[i], i, decoder);
    b.end(i, steps[i]);
  }
  return b.finish(steps.length);
}

/** The validated (on-list) call names of a turn in step order — the cheap view the scorer needs most. */
export function listCallNames(steps: unknown, tools: ReadonlySet<string>, options: ExtractOptions = {}): string[] {
  return extractTurn(steps, tools, options).calls.map((c) => c.name);
}

/** The shape a decoder's calls are reported under. */
function shapeOf(decoder: Decoder, step: unknown): CallShape {
  if (decoder.records) {
    if (Array.isArray(step) && step.some((e) => isJsonObject(e) && Object.values(e).some((v) => typeof v === "string")))
      return "fc-json-string";
    return "fc-object";
  }
  if (decoder.pythonSource) return "python-text";
  return toolCallTags.some(([open]) => typeof step === "string" && step.includes(open)) ? "tool-call-tag" : "json-text";
}

function readStep(b: TurnBuilder, step: unknown, i: number, decoder: Decoder): void {
  if (step === null || (Array.isArray(step) && step.length === 0)) return;
  if (typeof step === "string") {
    if (step.trim() === "") return;
    if (decoder.pythonSource) {
      readPythonText(b, step, i, decoder);
      return;
    }
  }
  const shape = shapeOf(decoder, step);
  const out = decodePlain(decoder, step);
  if (!out.ok) b.stepError = out.error;
  if (out.ok) {
    if (decoder.nameKeyed && (Array.isArray(step) || isJsonObject(step))) readNameKeyed(b, step, i, shape);
    else for (const s of out.calls) addCallString(b, s, i, shape);
    if (typeof step === "string") {
      if (out.calls.length === 0) {
        readUndecoded(b, step, i, shape, "decoded to no call");
        return;
      }
      const prose = outsideTags(step);
      if (prose !== "" && toolCallTags.some(([open]) => step.includes(open))) b.text.push(prose);
    }
    return;
  }
  const message = failureMessage(out) ?? out.error;
  if (Array.isArray(step) && step.length > 1 && decoder.records) {
    // one entry's failure fails the step; the entries that decode alone still name what the model did
    for (const entry of step) {
      const alone = decodePlain(decoder, [entry]);
      if (alone.ok) {
        if (decoder.nameKeyed) readNameKeyed(b, [entry], i, shape);
        else for (const s of alone.calls) addCallString(b, s, i, shape);
      } else readFailedRecord(b, entry, i, shape, failureMessage(alone) ?? alone.error);
    }
    return;
  }
  if (Array.isArray(step) || isJsonObject(step)) {
    const entries = Array.isArray(step) ? step : [step];
    for (const entry of entries) readFailedRecord(b, entry, i, shape, message);
    return;
  }
  if (typeof step === "string") {
    readUndecoded(b, step, i, shape, message);
    return;
  }
  b.failUndecidable(i, "step", message);
}

/**
 * The decoder on a step as `JSON.parse` gave it. A name-keyed decoder with a plain path
 * (BFCL's FC decoder: the common case, and the scorer's hot path) is only asked whether it
 * accepts the step; the others decode it.
 */
function decodePlain(decoder: Decoder, step: unknown): DecodeOutcome {
  if (decoder.plain === undefined || !decoder.nameKeyed) return decodePlainStep(decoder, step);
  // the records are read by their keys (readNameKeyed): only whether BFCL accepts the step matters
  const error = decoder.plain.stepError(step);
  return error === null ? ACCEPTED : { ok: false, error };
}

/** An accepted record step (its calls are read from the records, not from rendered strings). */
const ACCEPTED: DecodeOutcome = Object.freeze({ ok: true, calls: Object.freeze([]) as unknown as string[] });

/** `{name: arguments}` records the decoder accepted: names and arguments from the JSON it rendered. */
function readNameKeyed(b: TurnBuilder, step: unknown[] | { [key: string]: unknown }, i: number, shape: CallShape): void {
  const entries = Array.isArray(step) ? step : [step];
  for (const entry of entries) {
    if (!isJsonObject(entry)) continue;
    for (const name of Object.keys(entry)) {
      const raw: unknown = entry[name];
      b.add(new JsonArgsCall(name, typeof raw === "string" ? raw : isJsonObject(raw) ? raw : {}, shape, i));
    }
  }
}

/**
 * One entry of a record step that failed: its name (a key, or a `name`/`tool_name` member)
 * is what the model tried. A text entry is read as text is (handlers that keep a reply's
 * text blocks store it as a list of strings, which BFCL's record decoders reject): prose
 * is the model's words, call text an attempt.
 */
function readFailedRecord(b: TurnBuilder, entry: unknown, i: number, shape: CallShape, message: string): void {
  if (typeof entry === "string") {
    if (entry.trim() !== "") readUndecoded(b, entry, i, shape, message);
    return;
  }
  if (!isJsonObject(entry)) {
    b.failUndecidable(i, "step", message);
    return;
  }
  const member = typeof entry["name"] === "string" ? entry["name"] : typeof entry["tool_name"] === "string" ? entry["tool_name"] : null;
  const names = member !== null ? [member] : Object.keys(entry);
  if (names.length === 0) {
    b.failUndecidable(i, shape, message);
    return;
  }
  for (const name of names) b.fail(i, shape, message, name);
}

/**
 * A BFCL call string `name(k=v, …)` read back into a call. The name is everything before
 * the first `(` (leaked chat tokens included, as BFCL keeps them); the arguments are read
 * with the Python grammar. Text that is not a call string (a handler that passes prose
 * through) is kept as text.
 */
function addCallString(b: TurnBuilder, s: string, i: number, shape: CallShape): void {
  const open = s.indexOf("(");
  if (open <= 0 || !s.endsWith(")") || /\s/.test(s.slice(0, open))) {
    if (shape === "json-text" || shape === "tool-call-tag") b.text.push(s);
    return;
  }
  const name = s.slice(0, open);
  const parsed = parseExpression("f" + s.slice(open));
  const positional: ArgValue[] = [];
  const keywords: (readonly [string, ArgValue])[] = [];
  if (parsed.ok && parsed.expr.kind === "call") {
    for (const a of parsed.expr.args) positional.push(valueOf(a));
    for (const kw of parsed.expr.keywords) keywords.push([kw.arg ?? "**", valueOf(kw.value)]);
  }
  b.add({ name, positional, keywords, shape, step: i });
}

function valueOf(e: PyExpr): ArgValue {
  const r = resolveValue(e);
  return r.ok ? r.value : unparse(e);
}

/** The text of a tagged step outside its call tags. */
function outsideTags(text: string): string {
  let rest = text;
  for (const [open, close] of toolCallTags) {
    let out = "";
    let pos = 0;
    for (;;) {
      const a = rest.indexOf(open, pos);
      if (a < 0) {
        out += rest.slice(pos);
        break;
      }
      out += rest.slice(pos, a);
      const z = rest.indexOf(close, a + open.length);
      pos = z < 0 ? rest.length : z + close.length;
    }
    rest = out;
  }
  return rest.trim();
}

/**
 * A text step whose decode gave no call, or failed. The tool-list names it writes in call
 * position are attempts (reported undecoded). Otherwise text that does not look like a
 * call is prose; call-like text naming only functions off the tool list is kept aside like
 * a decoded off-list call; and call-like text naming no function at all is undecidable.
 */
function readUndecoded(b: TurnBuilder, text: string, i: number, shape: CallShape, message: string): void {
  const named = namesInCallPosition(text, b.tools);
  if (named.onList.length > 0) {
    for (const name of named.onList) b.fail(i, shape, message, name);
    return;
  }
  if (!looksLikeToolCall(text) && !looksLikeCallText(text, b.tools)) {
    b.text.push(text);
    return;
  }
  if (named.offList.length > 0) {
    b.offListNames.push(...named.offList);
    b.fail(i, shape, message);
    return;
  }
  b.failUndecidable(i, shape, message);
}

function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * The function names a text writes in call position: a name immediately followed by `(`
 * or by a leaked `<|` token, a JSON/Python member `"name": "…"`, or FunctionGemma's
 * `call:name`. Split by whether the name is on the tool list; each name once, in order.
 */
export function namesInCallPosition(text: string, tools: ReadonlySet<string>): { onList: string[]; offList: string[] } {
  const onList: string[] = [];
  const offList: string[] = [];
  const note = (name: string): void => {
    if (name === "") return;
    const list = tools.has(name) ? onList : offList;
    if (!list.includes(name)) list.push(name);
  };
  const identBefore = (p: number): string => {
    let q = p;
    while (q > 0 && isIdentChar(text.charCodeAt(q - 1))) q--;
    if (q < p && text.charCodeAt(q) >= 48 && text.charCodeAt(q) <= 57) return "";
    return text.slice(q, p);
  };
  for (let p = text.indexOf("("); p !== -1; p = text.indexOf("(", p + 1)) note(identBefore(p));
  for (let p = text.indexOf("<|"); p !== -1; p = text.indexOf("<|", p + 2)) {
    const name = identBefore(p);
    if (tools.has(name)) note(name);
  }
  const member = /["']name["']\s*:\s*["']([^"'\\]{1,200})["']/g;
  for (let m = member.exec(text); m !== null; m = member.exec(text)) note(m[1]);
  const gemma = /call:([A-Za-z_][\w.]*)/g;
  for (let m = gemma.exec(text); m !== null; m = gemma.exec(text)) note(m[1]);
  return { onList, offList };
}

/**
 * A text step of a decoder that ends in BFCL's default prompting decoder: read with the
 * Python grammar (positional arguments kept), the decoder's own outcome deciding whether
 * BFCL accepted it.
 */
function readPythonText(b: TurnBuilder, step: string, i: number, decoder: Decoder): void {
  const out = decoder.decode(step);
  if (!out.ok) b.stepError = out.error;
  const source = decoder.pythonSource!(step);
  if (source === null) {
    readUndecoded(b, step, i, "python-text", "decoded to no call");
    return;
  }
  if (promptingSource(source) === "[]") return; // an empty call list: no call
  const decoded = decodePythonText(source);
  if (out.ok) {
    for (const c of decoded.calls) b.add({ name: c.name, positional: c.positional, keywords: c.keywords, shape: "python-text", step: i });
    return;
  }
  let calls = decoded.calls;
  if (calls.length === 0) {
    // BFCL's default decoder fails on a fenced block (```python …```); the calls inside
    // still parse structurally, so they count — flagged, since BFCL never ran them.
    const inner = fencedCode(source);
    if (inner !== null) calls = decodePythonText(inner).calls;
  }
  const message = failureMessage(out) ?? out.error;
  if (calls.length === 0) {
    readUndecoded(b, step, i, "python-text", message);
    return;
  }
  b.fail(i, "python-text", message);
  for (const c of calls) b.add({ name: c.name, positional: c.positional, keywords: c.keywords, shape: "python-text", step: i });
}

/** The content of the first ``` fence (its language tag line dropped), or null when there is none. */
function fencedCode(text: string): string | null {
  const open = text.indexOf("```");
  if (open === -1) return null;
  let start = open + 3;
  let p = start;
  while (p < text.length) {
    const c = text.charCodeAt(p);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45) p++;
    else break;
  }
  if (text.charCodeAt(p) === 10 || text.charCodeAt(p) === 13) start = p;
  const close = text.indexOf("```", start);
  return text.slice(start, close === -1 ? text.length : close);
}
