/**
 * How deep CPython 3.12 (the interpreter of the official BFCL runs) lets input nest
 * before it raises, per operation. A model's output can nest brackets or operators
 * arbitrarily deep; BFCL's stages then fail with these errors (and drop the step, or
 * record `Error during execution: …`), so the emulation fails at the same depths with the
 * same messages instead of overflowing the JavaScript stack. Measured from a script's top
 * level by `tools/gen-nesting-vectors.py` (vectors in `vectors/nesting.json`); inside
 * BFCL's deeper call stack each limit sits a few levels lower, which no real output reaches.
 *
 * - C recursion (3.12's `Py_C_RECURSION_LIMIT` of 1500, less what the caller holds):
 *   `json.loads`, `json.dumps`, `repr` and container comparison;
 * - Python recursion (`sys.getrecursionlimit()` of 1000, two frames per level):
 *   `copy.deepcopy`, and BFCL's `ast.unparse` (three frames per level);
 * - the compiler: the tokenizer's 200 open brackets, AST construction and compilation
 *   (3000 levels at two per C level), and the PEG parser's stack of 6000 rule calls.
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
