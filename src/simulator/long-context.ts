/**
 * BFCL's long_context filler (`func_source_code/long_context.py`: module-level constants such as
 * `FILE_CONTENT_EXTENSION` or `CREDIT_CARD_EXTENSION`). More in this folder's README.md.
 */
import { evalLiteral } from "../python/literal-eval.js";
import { parseExpression } from "../python/parse.js";
import { PyException } from "../python/exception.js";
import type { PyValue } from "../python/value.js";
import { err, errAll, ok, problem, type Problem, type Result } from "../messages/index.js";
import type { LongContextData } from "./types.js";

/** The constants the eight classes import; a module missing one cannot drive long_context. */
export const LONG_CONTEXT_NAMES = [
  "WATCH_LIST_EXTENSION",
  "TRANSACTION_HISTORY_EXTENSION",
  "MA_5_EXTENSION",
  "MA_20_EXTENSION",
  "TECHNOLOGY_EXTENSION",
  "AUTOMOBILE_EXTENSION",
  "ORDER_DETAIL_EXTENSION",
  "FILE_CONTENT_EXTENSION",
  "POPULATE_FILE_EXTENSION",
  "CAR_STATUS_METADATA_EXTENSION",
  "LONG_WEATHER_EXTENSION",
  "PARKING_BRAKE_INSTRUCTION",
  "INTERMEDIARY_CITIES",
  "CREDIT_CARD_EXTENSION",
  "BOOKING_RECORD_EXTENSION",
  "FILES_TAIL_USED",
] as const;

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)/;

/**
 * Parse the module text into name → value. Statements start at column 0 with
 * `NAME =`; a statement runs until the next one. Blank and comment-only lines between
 * statements are ignored.
 */
export function parseLongContextModule(text: string, file: string): Result<LongContextData> {
  const lines = text.split(/\r?\n/);
  const starts: { name: string; line: number; rhsStart: string }[] = [];
  lines.forEach((l, i) => {
    const m = ASSIGNMENT.exec(l);
    if (m) starts.push({ name: m[1], line: i, rhsStart: l.slice(m[0].length) });
  });
  const problems: Problem[] = [];
  for (let i = 0; i < (starts[0]?.line ?? lines.length); i++) {
    const t = lines[i].trim();
    if (t !== "" && !t.startsWith("#"))
      problems.push(problem("long-context-syntax", "expected `NAME = value` at the start of the module", { file, line: i + 1 }));
  }
  const values = new Map<string, PyValue>();
  starts.forEach((s, k) => {
    const end = k + 1 < starts.length ? starts[k + 1].line : lines.length;
    const source = [s.rhsStart, ...lines.slice(s.line + 1, end)].join("\n").trimStart();
    const parsed = parseExpression(source);
    if (!parsed.ok) {
      problems.push(problem("long-context-syntax", `${s.name}: ${parsed.error.message}`, { file, line: s.line + 1 }));
      return;
    }
    try {
      values.set(s.name, evalLiteral(parsed.expr));
    } catch (e) {
      if (!(e instanceof PyException)) throw e;
      problems.push(problem("long-context-syntax", `${s.name} is not a literal: ${e.pyType}: ${e.pyMessage}`, { file, line: s.line + 1 }));
    }
  });
  const missing = LONG_CONTEXT_NAMES.filter((n) => !values.has(n));
  if (missing.length > 0) problems.push(problem("long-context-incomplete", `missing constants: ${missing.join(", ")}`, { file }));
  return problems.length > 0 ? errAll(problems) : ok(values);
}
