/**
 * `llama-3.1`: Llama 3.1's `{name, parameters}` JSON objects, or a Python literal its
 * handler hands to `eval`. Nothing is evaluated: the text is parsed and its literal value
 * computed as `eval` would; names raise NameError.
 */
import { PyDict } from "../../../python/containers.js";
import { evalLiteral } from "../../../python/literal-eval.js";
import { parseExpression } from "../../../python/parse.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { renderNameArguments } from "../handler-common.js";
import { DecodeFailure, guarded, type DecodeOutcome } from "../outcome.js";
import { iterate, jsonLoads, needStr } from "../py.js";

/**
 * `eval(text)` for the model text llama-3.1 hands it, without running anything: leading
 * spaces and tabs dropped as `eval` does, the text parsed as one expression and its
 * literal value computed; names (JSON's `true`, a function) raise NameError.
 */
function evalText(text: string): PyValue {
  let i = 0;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  const source = text.slice(i);
  const parsed = parseExpression(source, "eval");
  if (!parsed.ok) {
    // too deep for CPython's compiler: a RecursionError or MemoryError, its message alone
    if (parsed.error.type !== undefined) throw new DecodeFailure(`${parsed.error.type}: ${parsed.error.message}`);
    let line = 1;
    for (let k = 0; k < parsed.error.offset && k < source.length; k++) if (source.charCodeAt(k) === 10) line++;
    throw new DecodeFailure(`SyntaxError: ${parsed.error.message} (<string>, line ${line})`);
  }
  return evalLiteral(parsed.expr);
}

/** Llama 3.1: `<|python_tag|>` dropped; with a ";" JSON objects split on it, else `eval` of the text; `{name, parameters}`. */
export function decodeLlama31(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const text = needStr(step, "replace").replaceAll("<|python_tag|>", "");
    let calls: PyValue[];
    if (text.includes(";")) calls = text.split(";").map((part) => jsonLoads(part));
    else {
      const value = evalText(text);
      calls = value instanceof PyDict ? [value] : iterate(value);
    }
    return renderNameArguments(calls, "parameters");
  });
}

export const decoder = defineDecoder({
  name: "llama-3.1",
  summary:
    'text without <|python_tag|>: {"name", "parameters"} JSON objects split on ";", else a Python literal (read as eval would, never run)',
  handlers: ["LlamaHandler_3_1"],
  owners: [{ owner: "LlamaHandler_3_1" }],
  decode: decodeLlama31,
  records: false,
  nameKeyed: false,
  tags: [],
  detectionRank: 70,
});
