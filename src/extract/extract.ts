/**
 * Call extraction from the recorded steps of one turn, for every step shape BFCL writes
 * (the shapes BFCL writes; paper Appendix D). A call counts only when it parses structurally and
 * its name is on the item's tool list; every call keeps its arguments for the echo rule;
 * a step that fails to decode is counted, never read as holding back.
 *
 * Step shapes:
 * - native function-calling record: a list of single-key objects `{name: "<args JSON>"}`
 *   (OpenAI-style) or `{name: {…args}}` (Claude/Gemini), or one such object bare;
 *   `[]` is an empty step (no call);
 * - text: a string (or null) — `<tool_call>{"name": …, "arguments": …}</tool_call>` blocks
 *   inside it, else Python-call text read like BFCL's prompting decoder, else a JSON call
 *   object or list (JSON-text handlers), else prose.
 *
 * Decode failures follow BFCL: bad argument JSON, arguments that are not an object, an
 * entry that is not an object, a tool-call block that is not a call object, and
 * Python-call text BFCL's decoder rejects. Other entries of such a step that do parse
 * still count as calls (marked `stepDecodeFailed`: the model attempted them, BFCL never
 * ran them), and so do the calls inside a ```python fence that BFCL's default decoder
 * cannot read. Prose that does not look like call syntax (`looksLikeCallText`) is text.
 * The rules are written out in `src/extract/README.md`.
 *
 * Cost: FC records need one `JSON.parse` per argument string (to detect decode failures);
 * the keyword list of each call is built only when read.
 */
import { bfclPromptingSource, decodePythonText, looksLikeCallText } from "./python-text.js";
import { isJsonObject, loadsJson, pyTypeNameOfJson } from "./json-args.js";
import type { ArgValue, CallShape, DecodeError, ExtractedCall, TurnExtraction } from "./types.js";

/** Which text readers apply to string steps. */
export interface ExtractOptions {
  /** Read `<tool_call>` JSON blocks in text steps (default true). */
  readonly toolCallTags?: boolean;
  /** Read Python-call text in text steps, as BFCL's prompting decoder does (default true). */
  readonly pythonText?: boolean;
  /**
   * Rewrite a text step before the Python-call reader sees it — the hook for handlers that
   * pre-process text and then use the same AST path (e.g. `stripToolCodeFence` for Gemini
   * prompting). Default: none.
   */
  readonly preprocessText?: (text: string) => string;
}

/** Gemini prompting's pre-processing: drop a ```` ```tool_code ```` (or any ```` ```lang ````) fence around the text. */
export function stripToolCodeFence(text: string): string {
  const inner = fencedCode(text);
  return inner === null ? text : inner;
}

const NO_POSITIONAL: readonly ArgValue[] = Object.freeze([]);

/** A call read from JSON arguments; its keyword list is built on first access. */
class JsonArgsCall implements ExtractedCall {
  readonly positional = NO_POSITIONAL;
  stepDecodeFailed = false;
  private kw: (readonly [string, ArgValue])[] | undefined;

  constructor(
    readonly name: string,
    private readonly args: { [key: string]: ArgValue },
    readonly shape: CallShape,
    readonly step: number,
  ) {}

  get keywords(): readonly (readonly [string, ArgValue])[] {
    this.kw ??= Object.entries(this.args);
    return this.kw;
  }

  toJSON(): object {
    return { name: this.name, positional: this.positional, keywords: this.keywords, shape: this.shape, step: this.step, stepDecodeFailed: this.stepDecodeFailed };
  }
}

/** Mutable accumulator for one turn. */
class TurnBuilder {
  readonly calls: ExtractedCall[] = [];
  readonly offListNames: string[] = [];
  readonly decodeErrors: DecodeError[] = [];
  readonly text: string[] = [];
  private readonly failedSteps = new Set<number>();

  constructor(readonly tools: ReadonlySet<string>) {}

  fail(step: number, shape: CallShape | "step", message: string, name?: string): void {
    this.failedSteps.add(step);
    const e: DecodeError = name === undefined ? { step, shape, message } : { step, shape, message, name, onToolList: this.tools.has(name) };
    this.decodeErrors.push(e);
  }

  /** Record a structurally parsed call: on the tool list it counts, otherwise its name is kept aside. */
  add(call: ExtractedCall): void {
    if (this.tools.has(call.name)) this.calls.push(call);
    else this.offListNames.push(call.name);
  }

  /** Mark the calls of steps that BFCL's decoder rejects. */
  finish(steps: number): TurnExtraction {
    const calls = this.failedSteps.size === 0 ? this.calls : this.calls.map((c) => markFailed(c, this.failedSteps));
    return {
      calls,
      offListNames: this.offListNames,
      decodeFailures: this.failedSteps.size,
      decodeErrors: this.decodeErrors,
      text: this.text,
      steps,
    };
  }
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
 * Read all steps of one recorded turn (`result[turn]`). `tools` is the item's tool list
 * (including the function miss_func removed). Never throws on any JSON value.
 */
export function extractTurn(steps: unknown, tools: ReadonlySet<string>, options: ExtractOptions = {}): TurnExtraction {
  const b = new TurnBuilder(tools);
  if (!Array.isArray(steps)) {
    b.fail(0, "step", `turn is not a list of steps: '${pyTypeNameOfJson(steps)}'`);
    return b.finish(0);
  }
  for (let i = 0; i < steps.length; i++) readStep(b, steps[i], i, options);
  return b.finish(steps.length);
}

/** The validated (on-list) call names of a turn in step order — the cheap view the scorer needs most. */
export function listCallNames(steps: unknown, tools: ReadonlySet<string>, options: ExtractOptions = {}): string[] {
  return extractTurn(steps, tools, options).calls.map((c) => c.name);
}

function readStep(b: TurnBuilder, step: unknown, i: number, options: ExtractOptions): void {
  if (step === null) return; // text step without text
  if (typeof step === "string") {
    readText(b, step, i, options);
    return;
  }
  if (Array.isArray(step) || isJsonObject(step)) {
    readRecords(b, step, i);
    return;
  }
  b.fail(i, "step", `'${pyTypeNameOfJson(step)}' object is not iterable`);
}

/** Native function-calling records: `[{name: args}, …]` or one `{name: args}`. */
function readRecords(b: TurnBuilder, step: unknown[] | { [key: string]: unknown }, i: number): void {
  const entries: unknown[] = Array.isArray(step) ? step : [step];
  for (const entry of entries) {
    if (!isJsonObject(entry)) {
      b.fail(i, "step", `'${pyTypeNameOfJson(entry)}' object has no attribute 'items'`);
      continue;
    }
    for (const name of Object.keys(entry)) {
      const raw: unknown = entry[name];
      if (typeof raw === "string") {
        const parsed = loadsJson(raw);
        if (!parsed.ok) {
          b.fail(i, "fc-json-string", parsed.message, name);
          continue;
        }
        if (!isJsonObject(parsed.value)) {
          b.fail(i, "fc-json-string", `'${pyTypeNameOfJson(parsed.value)}' object has no attribute 'items'`, name);
          continue;
        }
        b.add(new JsonArgsCall(name, parsed.value, "fc-json-string", i));
      } else if (isJsonObject(raw)) {
        b.add(new JsonArgsCall(name, raw, "fc-object", i));
      } else {
        b.fail(i, "fc-object", `'${pyTypeNameOfJson(raw)}' object has no attribute 'items'`, name);
      }
    }
  }
}

const OPEN_TAG = "<tool_call>";
const CLOSE_TAG = "</tool_call>";

function readText(b: TurnBuilder, text: string, i: number, options: ExtractOptions): void {
  if (options.toolCallTags !== false && text.includes(OPEN_TAG)) {
    readToolCallTags(b, text, i);
    return;
  }
  if (options.pythonText === false) {
    if (text.trim() !== "") b.text.push(text);
    return;
  }
  if (options.preprocessText) text = options.preprocessText(text);
  if (bfclPromptingSource(text) === "[]") return; // empty text or an empty call list: no call
  const decoded = decodePythonText(text);
  if (decoded.failure === null) {
    for (const c of decoded.calls) b.add({ name: c.name, positional: c.positional, keywords: c.keywords, shape: "python-text", step: i });
    return;
  }
  if (decoded.calls.length === 0 && readJsonText(b, text, i)) return;
  let calls = decoded.calls;
  if (calls.length === 0) {
    // BFCL's default decoder fails on a fenced block (```python …```); the calls inside
    // still parse structurally, so they count — flagged, since BFCL never ran them.
    const inner = fencedCode(text);
    if (inner !== null) calls = decodePythonText(inner).calls;
  }
  if (calls.length === 0 && !looksLikeCallText(text, b.tools)) {
    b.text.push(text);
    return;
  }
  b.fail(i, "python-text", decoded.failure);
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

/**
 * A text step that is itself JSON call objects — `{"name": …, "parameters"|"arguments": …}`
 * or a list of them — as BFCL's JSON-text handlers (llama-3.1, salesforce, hammer, …)
 * `json.loads` it. Returns false (nothing recorded) when the text is not such JSON, so
 * the Python-call reading decides.
 */
function readJsonText(b: TurnBuilder, text: string, i: number): boolean {
  const t = text.trim();
  const c = t.charCodeAt(0);
  if (c !== 0x7b && c !== 0x5b) return false;
  const parsed = loadsJson(t);
  if (!parsed.ok) return false;
  const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  if (items.length === 0 || !items.every((x) => isJsonObject(x) && typeof x["name"] === "string")) return false;
  for (const item of items) readCallObject(b, item as { [key: string]: ArgValue }, i, "json-text");
  return true;
}

/**
 * `<tool_call>…</tool_call>` blocks: each holds a JSON object `{"name", "arguments"}` (or a
 * list of them); `arguments` may itself be a JSON string, `parameters` is accepted as its
 * alias and a missing one means no arguments. A block that is not such JSON, or an
 * unterminated last block that does not parse, is a decode failure. Text outside the
 * blocks is kept as text.
 */
function readToolCallTags(b: TurnBuilder, text: string, i: number): void {
  let pos = 0;
  const outside: string[] = [];
  while (pos < text.length) {
    const open = text.indexOf(OPEN_TAG, pos);
    if (open === -1) {
      outside.push(text.slice(pos));
      break;
    }
    outside.push(text.slice(pos, open));
    const bodyStart = open + OPEN_TAG.length;
    const close = text.indexOf(CLOSE_TAG, bodyStart);
    const body = text.slice(bodyStart, close === -1 ? text.length : close);
    pos = close === -1 ? text.length : close + CLOSE_TAG.length;
    readToolCallBlock(b, body, i, close === -1);
  }
  const rest = outside.join("").trim();
  if (rest !== "") b.text.push(rest);
}

function readToolCallBlock(b: TurnBuilder, body: string, i: number, unterminated: boolean): void {
  const parsed = loadsJson(body.trim());
  if (!parsed.ok) {
    b.fail(i, "tool-call-tag", unterminated ? `unterminated <tool_call> block: ${parsed.message}` : parsed.message);
    return;
  }
  const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  for (const item of items) {
    if (!isJsonObject(item) || typeof item["name"] !== "string") {
      b.fail(i, "tool-call-tag", "tool call is not an object with a string \"name\"");
      continue;
    }
    readCallObject(b, item, i, "tool-call-tag");
  }
}

/** One `{"name", "arguments"|"parameters"}` object: arguments may be a JSON string; missing means none. */
function readCallObject(b: TurnBuilder, item: { [key: string]: ArgValue }, i: number, shape: CallShape): void {
  const name = item["name"] as string;
  let args: ArgValue | undefined = item["arguments"] ?? item["parameters"];
  if (args === undefined || args === null) args = {};
  if (typeof args === "string") {
    const inner = loadsJson(args);
    if (!inner.ok) {
      b.fail(i, shape, inner.message, name);
      return;
    }
    args = inner.value;
  }
  if (!isJsonObject(args)) {
    b.fail(i, shape, `'${pyTypeNameOfJson(args)}' object has no attribute 'items'`, name);
    return;
  }
  b.add(new JsonArgsCall(name, args, shape, i));
}
