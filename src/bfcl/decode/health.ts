/**
 * How well a file's steps decode with the chosen decoder. A wrong decoder does not fail
 * loudly by itself — every step just fails to decode and the file scores 0 % — so each
 * file's tool-call attempts are counted, and a file where more than 5 % of them fail is
 * reported.
 */

/** Share of a file's tool-looking steps that may fail to decode before the file is reported. */
export const DECODE_FAILURE_LIMIT = 0.05;

const MARKERS = [
  "<tool_call>",
  "<TOOLCALL>",
  "<function_call>",
  "<start_function_call>",
  "<|tool_call_start|>",
  "<|python_tag|>",
  "```tool_code",
];

/** The first key of a JSON call object in the formats BFCL's handlers read. */
const CALL_KEYS = ["name", "arguments", "parameters", "tool_name", "function"];

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 46;
}

/**
 * Whether a step looks like an attempt to call a tool, whatever the format; prose, empty text and empty lists
 * do not. Works on values from `JSON.parse` and from Python's `json.loads` alike. What counts as an attempt:
 * this folder's README.md.
 */
export function looksLikeToolCall(step: unknown): boolean {
  if (step === null || step === undefined) return false;
  // a list is an attempt when an entry is: a record is; a text entry (how Claude, Nova and
  // Gemini store a reply without calls) only when its text looks like a call
  if (Array.isArray(step)) return step.some((e) => (typeof e === "string" ? looksLikeToolCall(e) : e !== null && e !== undefined));
  if (typeof step === "object") return true;
  if (typeof step !== "string") return false;
  for (const m of MARKERS) if (step.includes(m)) return true;
  let i = 0;
  const skip = (chars: string): void => {
    while (i < step.length && chars.includes(step[i])) i++;
  };
  skip(" \t\r\n`");
  if (step.startsWith("json", i) || step.startsWith("python", i)) {
    i += step.startsWith("json", i) ? 4 : 6;
    skip(" \t\r\n");
  }
  skip("[ \t\r\n");
  if (step[i] === "{") {
    i++;
    skip(" \t\r\n");
    return CALL_KEYS.some((k) => step.startsWith(`"${k}"`, i) || step.startsWith(`'${k}'`, i));
  }
  if (i >= step.length || !isIdentStart(step.charCodeAt(i))) return false;
  while (i < step.length && isIdentChar(step.charCodeAt(i))) i++;
  return step[i] === "(";
}

/** A file's decode counts. */
export interface DecodeHealth {
  /** Steps read. */
  steps: number;
  /** Tool-call attempts: steps that look like tool calls, or failed to decode as one (the extractor's `toolCallSteps`). */
  toolLooking: number;
  /** Attempts that failed to decode (the extractor's `decodeFailures`). */
  failed: number;
  /** The first such failure's text, to show with the count. */
  firstError: string | null;
}

/** An empty tally. */
export function newDecodeHealth(): DecodeHealth {
  return { steps: 0, toolLooking: 0, failed: 0, firstError: null };
}

/**
 * Count one turn as the call extractor read it. Whether a step is a tool-call attempt and
 * whether it decoded is the extractor's to say (`extractTurn`, with the item's tool
 * list): score and check count the same steps the same way.
 */
export function countTurn(
  health: DecodeHealth,
  turn: {
    readonly steps: number;
    readonly toolCallSteps: number;
    readonly decodeFailures: number;
    readonly firstDecodeFailure?: string | null;
  },
): void {
  health.steps += turn.steps;
  health.toolLooking += turn.toolCallSteps;
  health.failed += turn.decodeFailures;
  health.firstError ??= turn.firstDecodeFailure ?? null;
}

/** True when more than `DECODE_FAILURE_LIMIT` of a file's tool-looking steps failed to decode. */
export function tooManyDecodeFailures(health: DecodeHealth): boolean {
  return health.failed > 0 && health.failed > DECODE_FAILURE_LIMIT * health.toolLooking;
}

/** How the decoder was chosen, as far as the decode-failure line needs it. */
export interface DecoderChosen {
  readonly name: string;
  /** `registry`: BFCL's registry names the model's handler, so its decoder is BFCL's own. */
  readonly source: "flag" | "run" | "registry" | "detected";
  /** The choice in words (the registry key and handler, for a registry choice). */
  readonly reason: string;
}

/**
 * The one line a file with too many decode failures gets (null when it has not): how many, with which decoder,
 * the first error, and what it means, which depends on how the decoder was chosen. More in this folder's
 * README.md.
 */
export function decodeFailureMessage(health: DecodeHealth, decoder: string | DecoderChosen, what = "tool-call steps"): string | null {
  if (!tooManyDecodeFailures(health)) return null;
  const chosen: DecoderChosen = typeof decoder === "string" ? { name: decoder, source: "detected", reason: "" } : decoder;
  const pct = ((100 * health.failed) / health.toolLooking).toFixed(1);
  const first =
    health.firstError === null
      ? ""
      : ` (first: ${health.firstError.length > 120 ? health.firstError.slice(0, 120) + "…" : health.firstError})`;
  const head = `${health.failed} of ${health.toolLooking} ${what} (${pct} %) fail to decode with decoder ${chosen.name}${first}`;
  if (chosen.source === "registry")
    return `${head}; it is the decoder of ${chosen.reason}, so BFCL decoded these steps the same way and executed no call there`;
  return `${head}; the steps may need another decoder: pass --decoder NAME (see --help)`;
}
