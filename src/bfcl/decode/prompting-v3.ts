/**
 * BFCL v3's (Gorilla cd9429cc) Python-text decoding, where it differs from the current release's
 * (`prompting.ts`): how `ast_parse` strips the text, and the handlers that render the parsed calls themselves.
 * More in this folder's README.md.
 */
import { PyDict } from "../../python/containers.js";
import { pyTypeName } from "../../python/kinds.js";
import { pyRepr, pyStr } from "../../python/repr.js";
import type { PyValue } from "../../python/value.js";
import { guarded, type DecodeOutcome } from "./outcome.js";
import { astParseCalls, executionList, stripChars } from "./prompting.js";

/** v3's `ast_parse(text)` (Python): the text stripped of `[`, `]` and `'` at both ends, parsed and resolved as calls. */
export function astParseV3(text: string): PyDict[] {
  return astParseCalls(stripChars(text, "[]'"));
}

/** `text` wrapped in `[…]` where a bracket is missing, as the v3 handlers do before `ast_parse`. */
export function bracketed(text: string): string {
  let s = text;
  if (!s.startsWith("[")) s = "[" + s;
  if (!s.endsWith("]")) s = s + "]";
  return s;
}

/** v3's `default_decode_execute_prompting`: stripped of backticks, newlines and spaces, bracketed, `ast_parse`d, `parse_nested_value` rendering. */
export function decodePromptingTextV3(text: string): DecodeOutcome {
  return guarded(() => executionList(astParseV3(bracketed(stripChars(text, "`\n ")))));
}

/** v3's `default_decode_execute_prompting` on a step (`result.strip` needs text). */
export function decodePromptingStepV3(step: PyValue): DecodeOutcome {
  if (typeof step !== "string") return { ok: false, error: `AttributeError: '${pyTypeName(step)}' object has no attribute 'strip'` };
  return decodePromptingTextV3(step);
}

/**
 * The rendering the v3 Claude, Mistral, Nvidia, Gorilla, Nexus and Databricks handlers
 * write themselves: `f"{key}({','.join(f'{k}={repr(v)}' for k, v in value.items())})"`
 * for each parsed call.
 */
export function reprExecutionList(decoded: readonly PyDict[]): string[] {
  const out: string[] = [];
  for (const resolved of decoded)
    for (const [name, args] of resolved.entries())
      out.push(
        `${pyStr(name)}(${(args as PyDict)
          .entries()
          .map(([k, v]) => `${pyStr(k)}=${pyRepr(v)}`)
          .join(",")})`,
      );
  return out;
}

/**
 * A v3 handler that rewrites the step into text for `ast_parse` and renders the calls with
 * `repr`: the rewrite's own exception (the step is not text), else the parse.
 */
export function viaAstParseV3(step: PyValue, source: (step: PyValue) => string): DecodeOutcome {
  return guarded(() => reprExecutionList(astParseV3(source(step))));
}
