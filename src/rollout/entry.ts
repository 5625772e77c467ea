/**
 * A multi-turn test entry prepared the way `bfcl generate` prepares it before the loop starts (its classes'
 * docs, miss_func's held-back docs kept for their turn, the language hint), and BFCL's conversion of docs into
 * OpenAI tools. More in this folder's README.md.
 */
import { PyDict } from "../python/containers.js";
import { PyException } from "../python/exception.js";
import { pyDeepCopy } from "../python/copy.js";
import type { PyValue } from "../python/value.js";
import { err, ok, problem, type Result } from "../messages/index.js";

/** The hint BFCL appends to every Python-category doc description (it starts with a space). */
export const PYTHON_HINT = " Note that the provided function is in Python 3 syntax.";

/** BFCL's `GORILLA_TO_OPENAPI`: doc type names to JSON-schema type names. */
export const GORILLA_TO_OPENAPI: Readonly<Record<string, string>> = {
  integer: "integer",
  number: "number",
  float: "number",
  string: "string",
  boolean: "boolean",
  bool: "boolean",
  array: "array",
  list: "array",
  dict: "object",
  object: "object",
  tuple: "array",
  any: "string",
  byte: "integer",
  short: "integer",
  long: "integer",
  double: "number",
  char: "string",
  ArrayList: "array",
  Array: "array",
  HashMap: "object",
  Hashtable: "object",
  Queue: "array",
  Stack: "array",
  Any: "string",
  String: "string",
  Bigint: "integer",
};

/** One entry, ready for the generation loop. */
export interface RolloutEntry {
  readonly id: string;
  /** `id.rsplit("_", 1)[0]`, e.g. `multi_turn_miss_func`. */
  readonly testCategory: string;
  /** The question's turns, each a list of message dicts, as in the data file. */
  readonly turns: readonly (readonly PyDict[])[];
  readonly initialConfig: PyDict;
  readonly involvedClasses: readonly string[];
  /** The docs offered from the first turn on (hint appended), in BFCL order. */
  readonly functions: readonly PyDict[];
  /** miss_func: the turn key (as written in the data, e.g. `"3"`) → docs handed back on that turn, without the hint. */
  readonly heldBack: ReadonlyMap<string, readonly PyDict[]>;
  /** `long_context` or `composite` in the category: the executor loads the long scenario. */
  readonly longContext: boolean;
}

/**
 * Prepare one question line (parsed with Python JSON semantics) against the docs of every
 * class (class name → docs in file order).
 */
export function prepareEntry(
  question: PyValue,
  docsByClass: ReadonlyMap<string, readonly PyDict[]>,
  where: { file: string; line: number },
): Result<RolloutEntry> {
  const bad = (msg: string) => err(problem("question-malformed", msg, where));
  if (!(question instanceof PyDict)) return bad("a question line must be an object");
  const id = question.get("id");
  if (typeof id !== "string") return bad("question without an id");
  const involved = question.get("involved_classes");
  if (!Array.isArray(involved) || !involved.every((c): c is string => typeof c === "string" && docsByClass.has(c))) {
    return bad(`${id}: involved_classes must list known classes`);
  }
  const rawTurns = question.get("question");
  if (!Array.isArray(rawTurns) || !rawTurns.every((t) => Array.isArray(t) && t.every((m) => m instanceof PyDict))) {
    return bad(`${id}: question must be a list of turns of message objects`);
  }
  const config = question.get("initial_config") ?? new PyDict();
  if (!(config instanceof PyDict)) return bad(`${id}: initial_config must be an object`);
  const pool: PyDict[] = [];
  for (const cls of involved) for (const d of docsByClass.get(cls) ?? []) pool.push(pyDeepCopy(d));
  const heldBack = new Map<string, PyDict[]>();
  const missed = question.get("missed_function");
  if (missed instanceof PyDict) {
    for (const [turn, names] of missed.entries()) {
      const docs: PyDict[] = [];
      for (const name of Array.isArray(names) ? names : []) {
        const i = pool.findIndex((d) => d.get("name") === name);
        if (i >= 0) docs.push(pool.splice(i, 1)[0]);
      }
      heldBack.set(typeof turn === "string" ? turn : String(turn), docs);
    }
  }
  for (const d of pool) {
    const desc = d.get("description");
    d.set("description", (typeof desc === "string" ? desc : "") + PYTHON_HINT);
  }
  const cut = id.lastIndexOf("_");
  const testCategory = cut < 0 ? id : id.slice(0, cut);
  return ok({
    id,
    testCategory,
    turns: rawTurns as PyDict[][],
    initialConfig: config,
    involvedClasses: involved,
    functions: pool,
    heldBack,
    longContext: testCategory.includes("long_context") || testCategory.includes("composite"),
  });
}

function mapType(t: PyValue): string {
  if (typeof t !== "string") throw new PyException("TypeError", `unhashable type: '${Array.isArray(t) ? "list" : "dict"}'`);
  const m = GORILLA_TO_OPENAPI[t];
  if (m === undefined) throw new PyException("KeyError", `'${t}'`);
  return m;
}

/** BFCL's `_cast_to_openai_type`, in place on a copied `properties` dict. */
function castProperties(properties: PyDict): PyDict {
  for (const [, value] of properties.entries()) {
    if (!(value instanceof PyDict)) continue;
    if (!value.has("type")) value.set("type", "string");
    else {
      const t = value.get("type");
      if (t === "float") {
        value.set("format", "float");
        const desc = value.get("description");
        if (typeof desc !== "string") throw new PyException("KeyError", "'description'");
        value.set("description", desc + " This is a float type value.");
      }
      value.set("type", typeof t === "string" && GORILLA_TO_OPENAPI[t] !== undefined ? GORILLA_TO_OPENAPI[t] : "string");
    }
    const type = value.get("type");
    if (type !== "array" && type !== "object") continue;
    const props = value.get("properties");
    const items = value.get("items");
    if (props instanceof PyDict) value.set("properties", castProperties(props));
    else if (items instanceof PyDict) {
      items.set("type", mapType(items.get("type") ?? null));
      const inner = items.get("items");
      const innerProps = items.get("properties");
      if (items.get("type") === "array" && inner instanceof PyDict) inner.set("type", mapType(inner.get("type") ?? null));
      else if (items.get("type") === "object" && innerProps instanceof PyDict) items.set("properties", castProperties(innerProps));
    }
  }
  return properties;
}

/**
 * BFCL's `convert_to_tool(functions, GORILLA_TO_OPENAPI, OPENAI_COMPLETIONS)`: each doc
 * (deep-copied) gets `.` → `_` in its name, `parameters.type = "object"` and its
 * properties cast; `response` stays as a non-standard key. Throws PyException where
 * BFCL's conversion raises (an unknown item type), which ends the entry as an error line.
 */
export function convertToTools(functions: readonly PyDict[]): PyDict[] {
  return functions.map((doc) => {
    const item = pyDeepCopy(doc);
    const name = item.get("name");
    if (typeof name === "string" && name.includes(".")) item.set("name", name.replace(/\./g, "_"));
    const params = item.get("parameters");
    if (!(params instanceof PyDict)) throw new PyException("TypeError", "'NoneType' object is not subscriptable");
    params.set("type", "object");
    const props = params.get("properties");
    if (!(props instanceof PyDict)) throw new PyException("KeyError", "'properties'");
    params.set("properties", castProperties(props));
    return new PyDict([
      ["type", "function"],
      ["function", item],
    ]);
  });
}
