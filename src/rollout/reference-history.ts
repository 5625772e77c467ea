/**
 * `run --history reference`: the turns before a pair's anchor are played from the reference trajectory instead
 * of generated, so both twins of a pair reach the anchor with the same history and the same world state, and
 * differ only in what the pair withholds. More in this folder's README.md.
 */
import { PyDict } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { jsonDumps } from "../python/json.js";
import { evalLiteral } from "../python/literal-eval.js";
import { parseExpression } from "../python/parse.js";
import { pyRepr } from "../python/repr.js";
import type { PyValue } from "../python/value.js";
import { err, errAll, ok, problem, type Result } from "../messages/index.js";

/** A reference call as a model would send it: the function's name and its arguments by name, in call order. */
export interface ReferenceCall {
  readonly name: string;
  readonly args: PyDict;
}

/** The parameter names of a method in signature order (for arguments passed by position), if the method is known. */
export type ParameterNames = (method: string) => readonly string[] | undefined;

/** Parse one reference call string into its name and named arguments. */
export function parseReferenceCall(call: string, parameterNames: ParameterNames): Result<ReferenceCall> {
  const bad = (why: string) => err(problem("reference-call", `reference call ${JSON.stringify(call)} cannot be played: ${why}`));
  const parsed = parseExpression(call);
  if (!parsed.ok) return bad(parsed.error.message);
  const expr = parsed.expr;
  if (expr.kind !== "call" || expr.func.kind !== "name") return bad("it is not a call of a function by name");
  const name = expr.func.id;
  const args = new PyDict();
  try {
    if (expr.args.length > 0) {
      const names = parameterNames(name);
      if (names === undefined) return bad(`it passes arguments by position and ${name} is not a method of the item's classes`);
      for (let i = 0; i < expr.args.length; i++) {
        if (i >= names.length) return bad(`${name} takes no parameter at position ${i + 1}`);
        args.set(names[i], evalLiteral(expr.args[i]));
      }
    }
    for (const kw of expr.keywords) {
      if (kw.arg === null) return bad("it passes **kwargs");
      args.set(kw.arg, evalLiteral(kw.value));
    }
  } catch (e) {
    if (e instanceof PyException) return bad(e.pyMessage);
    throw e;
  }
  return ok({ name, args });
}

/** The id of the i-th tool call of a played turn: nine letters and digits, which every server's tool-call id check accepts. */
export function playedCallId(turn: number, index: number): string {
  return `ref${String(turn).padStart(3, "0")}${String(index).padStart(3, "0")}`;
}

/** A call as keyword text (`mv(source='a', destination='b')`), the form BFCL's prompting decoder reads. */
export function callText(call: ReferenceCall): string {
  return `${call.name}(${call.args
    .entries()
    .map(([k, v]) => `${String(k)}=${pyRepr(v as PyValue)}`)
    .join(", ")})`;
}

/**
 * The assistant message of a played turn: FC, one tool call per reference call (JSON
 * arguments, no text); prompting, the calls as Python-call text in brackets.
 */
export function playedMessage(mode: "fc" | "prompting", turn: number, calls: readonly ReferenceCall[]): Record<string, unknown> {
  if (mode === "prompting") return { role: "assistant", content: `[${calls.map(callText).join(", ")}]` };
  return {
    role: "assistant",
    content: null,
    tool_calls: calls.map((c, i) => ({
      id: playedCallId(turn, i),
      type: "function",
      function: { name: c.name, arguments: jsonDumps(c.args) },
    })),
  };
}

/** The played prefix of one line: turns `0 … anchorTurn-1`, each one assistant message. */
export interface PlayedHistory {
  readonly anchorTurn: number;
  /** The assistant message standing for the model's one step on played turn `turn`. */
  message(turn: number): Record<string, unknown>;
}

/**
 * The played prefix for an item's anchor turn from its reference (`possible_answer`
 * turns): every reference call of turns before the anchor converted up front, so a call
 * that cannot be played is found before any request is sent.
 */
export function playedHistory(
  mode: "fc" | "prompting",
  reference: readonly (readonly string[])[],
  anchorTurn: number,
  parameterNames: ParameterNames,
): Result<PlayedHistory> {
  if (anchorTurn > reference.length)
    return err(problem("reference-short", `the reference has ${reference.length} turns, fewer than the ${anchorTurn} before the anchor`));
  const messages: Record<string, unknown>[] = [];
  for (let t = 0; t < anchorTurn; t++) {
    const calls: ReferenceCall[] = [];
    for (const c of reference[t]) {
      const parsed = parseReferenceCall(c, parameterNames);
      if (!parsed.ok) return errAll(parsed.problems.map((p) => ({ ...p, message: `turn ${t}: ${p.message}` })));
      calls.push(parsed.value);
    }
    messages.push(playedMessage(mode, t, calls));
  }
  return ok({ anchorTurn, message: (turn) => structuredClone(messages[turn]) });
}
