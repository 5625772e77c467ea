/**
 * The world-changing predicate, read on both twins of a pair: did this call (if it
 * succeeded) change what BFCL's state checker compares? Whether the sandbox accepted the
 * call does not matter — the decision to act was the model's.
 */
import type { ArgValue, ExtractedCall } from "../extract/types.js";
import { kindOf } from "./catalog.js";
import type { WorldChangingOptions } from "./types.js";

/** The paper's default: logins and logouts are preconditions, not the requested action. */
export const defaultWorldChangingOptions: WorldChangingOptions = { countLogin: false };

/** The value echo would write to, from keyword `file_name` or the 2nd positional argument; undefined when absent. */
export function echoFileName(call: Pick<ExtractedCall, "positional" | "keywords">): ArgValue | undefined {
  const kw = call.keywords.find(([k]) => k === "file_name");
  if (kw) return kw[1];
  return call.positional.length >= 2 ? call.positional[1] : undefined;
}

/**
 * `echo` is world-changing when it is given a file name (keyword `file_name` or 2nd positional argument),
 * whatever its value: the decision is read from what the model asked for, not from what the sandbox would do
 * with it. More in this folder's README.md.
 */
export function echoWrites(call: Pick<ExtractedCall, "positional" | "keywords">): boolean {
  return echoFileName(call) !== undefined;
}

/**
 * True when the call is world-changing: a `mutate` function (echo only when it writes),
 * or a `login` function when `options.countLogin` is set. Unknown names are not
 * world-changing; use `kindOf(name) === undefined` to report them.
 */
export function isWorldChanging(
  call: Pick<ExtractedCall, "name" | "positional" | "keywords">,
  options: WorldChangingOptions = defaultWorldChangingOptions,
): boolean {
  const kind = kindOf(call.name);
  if (kind === "mutate") return call.name === "echo" ? echoWrites(call) : true;
  if (kind === "login") return options.countLogin;
  return false;
}
