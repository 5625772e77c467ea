/**
 * `databricks`: BFCL v3's Databricks handler (gone from the current release): every quoted
 * string loses its quotes, indented line breaks are joined, the text is bracketed and
 * parsed with v3's `ast_parse`; when that fails, the untouched text is parsed instead.
 * The calls are rendered with `repr`.
 */
import { PyException } from "../../../python/exception.js";
import type { PyDict } from "../../../python/containers.js";
import type { PyValue } from "../../../python/value.js";
import { defineDecoder } from "../decoder.js";
import { DecodeFailure, guarded, type DecodeOutcome } from "../outcome.js";
import { astParseV3, bracketed, reprExecutionList } from "../prompting-v3.js";
import { needReText } from "../py.js";

/** The text Databricks tries first: `re.sub(r"'([^']*)'", r"\1", …)`, `"\n    "` removed, bracketed, a leading `['` made `[`. */
export function databricksSource(step: PyValue): string {
  let text = bracketed(
    needReText(step)
      .replace(/'([^']*)'/g, "$1")
      .replaceAll("\n    ", ""),
  );
  if (text.startsWith("['")) text = text.replaceAll("['", "[");
  return text;
}

/** Databricks (v3): the rewritten text, else (a bare `except:`) the step itself. */
export function decodeDatabricks(step: PyValue): DecodeOutcome {
  return guarded(() => {
    const text = databricksSource(step);
    let decoded: PyDict[];
    try {
      decoded = astParseV3(text);
    } catch (e) {
      if (!(e instanceof DecodeFailure || e instanceof PyException || e instanceof RangeError)) throw e;
      decoded = astParseV3(step as string);
    }
    return reprExecutionList(decoded);
  });
}

export const decoder = defineDecoder({
  name: "databricks",
  summary: "BFCL v3's Databricks: quotes removed, bracketed, v3's ast_parse (else the text as it is), calls rendered with repr",
  handlers: ["DatabricksHandler (v3)"],
  owners: [{ owner: "DatabricksHandler", revision: "v3" }],
  decode: decodeDatabricks,
  records: false,
  nameKeyed: false,
  tags: [],
  // a v3 registry key's decoder; detection tries the current release's decoders
  detectionRank: null,
  // call extraction reads the text as the model wrote it (its quotes kept)
  pythonSource: (s) => (typeof s === "string" ? s : null),
});
