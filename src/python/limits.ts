/**
 * How deep CPython 3.12 (the interpreter of the official BFCL runs) lets input nest before it raises, per
 * operation. More in this folder's README.md.
 */
import { PyException } from "./exception.js";

/** `json.loads`: the deepest array/object nesting that decodes (one more raises RecursionError). */
export const JSON_DECODE_MAX_DEPTH = 1497;

/** `json.dumps`: the deepest list/dict nesting that encodes. */
export const JSON_ENCODE_MAX_DEPTH = 1497;

/** `repr`: the deepest container nesting whose repr is built. */
export const REPR_MAX_DEPTH = 1497;

/** `==` and `<` on containers: the deepest nesting compared. */
export const COMPARE_MAX_DEPTH = 1498;

/** `copy.deepcopy`: the deepest container nesting copied (Python recursion, two frames per level). */
export const DEEPCOPY_MAX_DEPTH = 496;

/**
 * `ast.unparse` as BFCL's prompting decoder calls it: the Python frames its recursion may
 * hold (the interpreter's 1000, less the decoder's own), three per node and a few more for
 * displays, keywords and leaves.
 */
export const UNPARSE_FRAME_BUDGET = 986;

/** The recursion error CPython raises at one of these limits; `where` is its suffix (`" in comparison"`). */
export function recursionError(where = ""): PyException {
  return new PyException("RecursionError", `maximum recursion depth exceeded${where}`);
}
