/**
 * Reading a reference call string (`"echo(content='x', file_name='a.txt')"`) far enough
 * to classify it: the function name and its arguments. The text is parsed with the
 * project's Python expression parser (`src/python/parse.ts`), never evaluated; literal
 * arguments become `ArgValue`s (what the echo rule reads), anything else (a name, an
 * expression) is kept as its source text.
 */
import type { PyExpr } from "../python/ast.js";
import { parseExpression } from "../python/parse.js";
import type { ArgValue, ExtractedCall } from "../extract/types.js";
import { err, ok, problem, type Result } from "../messages/index.js";
import { kindOf } from "./catalog.js";
import type { WorldChangingOptions } from "./types.js";
import { isWorldChanging } from "./world-changing.js";

/** A literal argument as a JSON-like value; non-literals as their source text. */
function argValue(e: PyExpr, source: string): ArgValue {
  switch (e.kind) {
    case "none":
      return null;
    case "bool":
    case "str":
    case "float":
      return e.value;
    case "int":
      return Number(e.value);
    case "unary":
      if (e.op === "-" && (e.operand.kind === "int" || e.operand.kind === "float")) return -Number(e.operand.value);
      break;
    case "list":
    case "tuple":
      return e.elts.map((x) => argValue(x, source));
    case "dict":
      if (e.keys.every((k) => k !== null && k.kind === "str")) {
        const out: { [key: string]: ArgValue } = {};
        e.keys.forEach((k, i) => {
          out[(k as { value: string }).value] = argValue(e.values[i], source);
        });
        return out;
      }
      break;
  }
  return source.slice(e.start, e.end);
}

/**
 * Parse a reference call string into an `ExtractedCall` (shape `python-text`). Text that
 * is not a single call of a bare name comes back as a problem quoting it.
 */
export function parseGoldCall(text: string): Result<ExtractedCall> {
  const quoted = JSON.stringify(text.length > 80 ? text.slice(0, 80) + "…" : text);
  const parsed = parseExpression(text);
  if (!parsed.ok) return err(problem("gold-call", `not a reference call (${parsed.error.message}): ${quoted}`));
  const e = parsed.expr;
  if (e.kind !== "call" || e.func.kind !== "name") return err(problem("gold-call", `not a call of a function name: ${quoted}`));
  if (e.args.some((a) => a.kind === "starred") || e.keywords.some((k) => k.arg === null)) {
    return err(problem("gold-call", `unpacked arguments are not supported: ${quoted}`));
  }
  return ok({
    name: e.func.id,
    positional: e.args.map((a) => argValue(a, text)),
    keywords: e.keywords.map((k) => [k.arg as string, argValue(k.value, text)] as const),
    shape: "python-text",
  });
}

/** How a reference call is classified: by the catalog, with the echo rule applied to its arguments. */
export type GoldCallClass = "world-changing" | "login" | "read" | "unknown";

/**
 * Classify one reference call string. `login` is reported as its own class so the pair
 * builder can tell a login-only anchor turn from a read-only one; under
 * `countLogin` a login is world-changing.
 */
export function classifyGoldCall(text: string, options: WorldChangingOptions = { countLogin: false }): Result<GoldCallClass> {
  const call = parseGoldCall(text);
  if (!call.ok) return call;
  const kind = kindOf(call.value.name);
  if (kind === undefined) return ok("unknown");
  if (isWorldChanging(call.value, options)) return ok("world-changing");
  return ok(kind === "login" ? "login" : "read");
}
