/**
 * The decoders by name: one per distinct `decode_execute` behaviour among BFCL's model
 * handlers (bfcl_eval 2026.3.23), with the handlers that share it. The names are what
 * `--decoder` takes and what every output reports, so they never change meaning.
 */
import type { PyValue } from "../../python/value.js";
import { PyException } from "../../python/exception.js";
import { decodeFcStep, decodeFcStepPlain, plainToPy } from "./fc.js";
import {
  decodeBitAgent,
  decodeCohere,
  decodeFalcon,
  decodeFcDictList,
  decodeFcList,
  decodeFunctionGemma,
  decodeGeminiFc,
  decodeGeminiPrompting,
  decodeGlm,
  decodeGorilla,
  decodeGranite,
  decodeHammer,
  decodeLlama31,
  decodeMiniCpmFc,
  decodeMining,
  decodeNemotron,
  decodeNexus,
  decodePhi,
  decodeThinkAgent,
  decodeToolCall,
  decodeXlam,
  geminiPromptingSource,
  nemotronSource,
  phiSource,
} from "./handlers.js";
import { decodeFailure, type DecodeOutcome } from "./outcome.js";
import { decodePromptingStep } from "./prompting.js";

/** Every decoder name, in the order `--help` lists them. */
export const DECODER_NAMES = [
  "fc",
  "fc-list",
  "fc-dict-list",
  "gemini-fc",
  "cohere",
  "mining",
  "prompting",
  "gemini-prompting",
  "phi",
  "nemotron",
  "xlam",
  "llama-3.1",
  "bitagent",
  "tool-call",
  "granite",
  "glm",
  "falcon",
  "minicpm-fc",
  "functiongemma",
  "think-agent",
  "gorilla",
  "nexus",
  "hammer",
] as const;

/** A decoder's name. */
export type DecoderName = (typeof DECODER_NAMES)[number];

/** One decoder: how BFCL decodes a step for the handlers that share this behaviour. */
export interface Decoder {
  readonly name: DecoderName;
  /** What the step looks like and what the decoder does, in one line (for `--help` and the README). */
  readonly summary: string;
  /** BFCL handler classes whose `decode_execute` behaves like this (with the mode, for handlers that have both). */
  readonly handlers: readonly string[];
  /** BFCL's `decode_execute` on one step. */
  readonly decode: (step: PyValue) => DecodeOutcome;
  /**
   * For the decoders that end in BFCL's default prompting decoder: the text they hand it
   * (null: no text, the step decodes to no call). Lets call extraction read the same text
   * with the Python grammar and keep what BFCL drops (positional arguments).
   */
  readonly pythonSource?: (step: PyValue) => string | null;
  /** True when the model's steps are structured records (lists/dicts) rather than text. */
  readonly records: boolean;
}

function decoder(
  name: DecoderName,
  summary: string,
  handlers: string[],
  decode: (step: PyValue) => DecodeOutcome,
  extra: { records?: boolean; pythonSource?: (step: PyValue) => string | null } = {},
): Decoder {
  return { name, summary, handlers, decode, records: extra.records ?? false, ...(extra.pythonSource ? { pythonSource: extra.pythonSource } : {}) };
}

const asText = (step: PyValue): string | null => (typeof step === "string" ? step : null);

const ALL: readonly Decoder[] = [
  decoder(
    "fc",
    "function-calling records [{name: arguments-JSON}] (convert_to_function_call)",
    [
      "OpenAICompletionsHandler (FC) and its subclasses: DeepSeek, Fireworks, Functionary, GLM API, Grok, Kimi, Ling, Nanbeige API, Novita, Qwen API/Agent, Writer",
      "OpenAIResponsesHandler (FC)",
      "ClaudeHandler (FC)",
      "MistralHandler (FC)",
    ],
    decodeFcStep,
    { records: true },
  ),
  decoder("fc-list", "records as fc, but a step that is not a list raises ValueError", ["NovaHandler", "MistralFCHandler"], decodeFcList, { records: true }),
  decoder("fc-dict-list", "records as fc, but only a list of dicts is accepted (else ValueError)", ["ArchHandler", "Granite3FCHandler", "PhiFCHandler"], decodeFcDictList, { records: true }),
  decoder("gemini-fc", "records [{name: {arguments}}], arguments already objects (no json.loads)", ["GeminiHandler (FC)"], decodeGeminiFc, { records: true }),
  decoder("cohere", "records [{tool_name, parameters}]; a step that is not a list is no call", ["CohereHandler"], decodeCohere, { records: true }),
  decoder("mining", "records [{name, arguments}] (non-dict entries skipped)", ["MiningHandler", "DMCitoHandler"], decodeMining, { records: true }),
  decoder(
    "prompting",
    "Python call text [f(a=1), g(b=2)] (default_decode_execute_prompting)",
    [
      "OSSHandler and the local handlers that keep its decoder: Bielik, DeepseekReasoning, Gemma, Llama, MiniCPM, QuickTestingOSS, Qwen",
      "OpenAICompletionsHandler (prompting) and its subclasses; GoGoAgentHandler",
      "OpenAIResponsesHandler, ClaudeHandler, MistralHandler (prompting)",
      "NvidiaHandler",
    ],
    decodePromptingStep,
    { pythonSource: asText },
  ),
  decoder("gemini-prompting", "Python call text after removing ```tool_code fences", ["GeminiHandler (prompting)"], decodeGeminiPrompting, {
    pythonSource: (s) => (typeof s === "string" ? geminiPromptingSource(s) : null),
  }),
  decoder("phi", "Python call text after cutting a leading ```json or ```python", ["PhiHandler"], decodePhi, {
    pythonSource: (s) => (typeof s === "string" ? phiSource(s) : null),
  }),
  decoder("nemotron", "Python call text inside <TOOLCALL>…</TOOLCALL>; no tag is no call", ["NemotronHandler"], decodeNemotron, {
    pythonSource: (s) => (typeof s === "string" ? nemotronSource(s) : null),
  }),
  decoder("xlam", 'JSON [{"name", "arguments"}] text, else objects split on ";"', ["SalesforceLlamaHandler", "SalesforceQwenHandler"], decodeXlam),
  decoder(
    "llama-3.1",
    'text without <|python_tag|>: {"name", "parameters"} JSON objects split on ";", else a Python literal (read as eval would, never run)',
    ["LlamaHandler_3_1"],
    decodeLlama31,
  ),
  decoder("bitagent", 'JSON [{"name", "arguments"}] text (no ";" fallback)', ["BitAgentHandler"], decodeBitAgent),
  decoder(
    "tool-call",
    '<tool_call>\\n{"name", "arguments"}\\n</tool_call> blocks (blocks that are not JSON are dropped)',
    ["QwenFCHandler", "Granite4FCHandler", "NanbeigeFCHandler", "PelicanVLFCHandler"],
    decodeToolCall,
  ),
  decoder("granite", '<function_call> {"name", "arguments"} parts; a part that is not JSON is kept as it is', ["GraniteFunctionCallingHandler"], decodeGranite),
  decoder("glm", "first line the function name, second line its JSON arguments", ["GLMHandler"], decodeGlm),
  decoder("falcon", 'the first <tool_call> block as JSON {"name", "arguments"} (or a list)', ["Falcon3FCHandler"], decodeFalcon),
  decoder("minicpm-fc", "Python call statements between <|tool_call_start|> and <|tool_call_end|>", ["MiniCPMFCHandler"], decodeMiniCpmFc),
  decoder("functiongemma", "<start_function_call>call:name{…}<end_function_call> blocks", ["FunctionGemmaHandler"], decodeFunctionGemma),
  decoder("think-agent", "JSON after </think>; BFCL's code raises on any call", ["ThinkAgentHandler"], decodeThinkAgent),
  decoder("gorilla", 'BFCL passes the tool-call flag as the language: every text raises "Unsupported language: False"', ["GorillaHandler"], decodeGorilla),
  decoder("nexus", 'as gorilla after ";" handling: every text raises "Unsupported language: False"', ["NexusHandler"], decodeNexus),
  decoder("hammer", 'JSON [{"name", "arguments"}] (or {"tool_calls": […]}) after removing ``` fences; unreadable text is no call', ["HammerHandler"], decodeHammer),
];

const BY_NAME = new Map<string, Decoder>(ALL.map((d) => [d.name, d]));

/** All decoders, in `DECODER_NAMES` order. */
export const decoders: readonly Decoder[] = DECODER_NAMES.map((n) => BY_NAME.get(n) as Decoder);

/** The decoder of a name, or undefined for a name that is not one. */
export function decoderByName(name: string): Decoder | undefined {
  return BY_NAME.get(name);
}

/** BFCL's FC decoder, the one for native function-calling runs. */
export const fcDecoder: Decoder = BY_NAME.get("fc") as Decoder;

/** BFCL's default prompting decoder, the one most prompting handlers keep. */
export const promptingDecoder: Decoder = BY_NAME.get("prompting") as Decoder;

/**
 * A decoder on a step as `JSON.parse` gave it (objects plain, numbers JavaScript's). The
 * FC decoder reads such values directly; the others get Python values, and a step too
 * deeply nested to become one fails as Python's json.loads would (RecursionError).
 */
export function decodePlainStep(decoder: Decoder, step: unknown): DecodeOutcome {
  if (decoder.name === "fc") return decodeFcStepPlain(step);
  let value: PyValue;
  try {
    value = plainToPy(step);
  } catch (e) {
    if (e instanceof PyException) return decodeFailure(e.pyType, e.pyMessage);
    throw e;
  }
  return decoder.decode(value);
}
