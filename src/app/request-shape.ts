/**
 * The shape of a library caller's request, checked at the use case's entry: a JavaScript caller can hand in
 * anything, and each wrong field becomes one `bad-argument` problem (exit code 2) rather than a TypeError deep
 * inside. More in this folder's README.md.
 */
import { problem, type Problem } from "../messages/index.js";

/** What a field must hold. */
export type FieldRule =
  /** A list of non-empty strings (folders, names). */
  | "list"
  /** A string (a path, a name, a URL). */
  | "string"
  /** A string or null. */
  | "string-or-null"
  | "number"
  | "boolean"
  | "function"
  /** `{ resamples?: number, seed?: number | bigint }`. */
  | "bootstrap"
  /** An object of string values (`env`). */
  | "strings-by-name";

/** Each field of a request and its rule; `required` fields must be given. */
export type RequestShape = Readonly<Record<string, { readonly rule: FieldRule; readonly required?: boolean }>>;

/** The fields every request has (`RequestContext`). */
const contextShape: RequestShape = { cwd: { rule: "string" }, env: { rule: "strings-by-name" } };

/** What a value is, in a message: its type, and a short rendering of a string or a number. */
function described(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `a string (${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)})`;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return `${typeof value} ${String(value)}`;
  return typeof value === "object" ? "an object" : typeof value;
}

const ruleWords: Record<FieldRule, string> = {
  list: "a list of non-empty strings (string[])",
  string: "a string",
  "string-or-null": "a string or null",
  number: "a number",
  boolean: "true or false",
  function: "a function",
  bootstrap: "an object { resamples?: number, seed?: number }",
  "strings-by-name": "an object of strings",
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Why `value` breaks `rule`, or null when it holds. */
function fieldProblem(name: string, value: unknown, rule: FieldRule): Problem | null {
  const fits = (() => {
    switch (rule) {
      case "list":
        return Array.isArray(value) && value.every((v) => typeof v === "string" && v !== "");
      case "string":
        return typeof value === "string";
      case "string-or-null":
        return value === null || typeof value === "string";
      case "number":
        return typeof value === "number";
      case "boolean":
        return typeof value === "boolean";
      case "function":
        return typeof value === "function";
      case "bootstrap":
        return (
          isPlainObject(value) &&
          (value.resamples === undefined || typeof value.resamples === "number") &&
          (value.seed === undefined || typeof value.seed === "number" || typeof value.seed === "bigint")
        );
      case "strings-by-name":
        return isPlainObject(value) && Object.values(value).every((v) => v === undefined || typeof v === "string");
    }
  })();
  if (fits) return null;
  // a lone string where a list belongs: each character would be taken for an entry
  if (rule === "list" && typeof value === "string")
    return problem("bad-argument", `${name} must be ${ruleWords.list}, not ${described(value)}; give [${JSON.stringify(value)}]`);
  if (rule === "list" && Array.isArray(value))
    return problem("bad-argument", `${name} must be ${ruleWords.list}, not a list with an entry that is not a non-empty string`);
  return problem("bad-argument", `${name} must be ${ruleWords[rule]}, not ${described(value)}`);
}

/**
 * The problems of a request against its shape (the context's `cwd` and `env` included):
 * none when it fits. A request that is not an object at all is one problem.
 */
export function requestShapeProblems(req: unknown, shape: RequestShape, example: string): Problem[] {
  if (!isPlainObject(req)) return [problem("bad-argument", `the request must be an object, e.g. ${example}, not ${described(req)}`)];
  const problems: Problem[] = [];
  for (const [name, { rule, required }] of Object.entries({ ...contextShape, ...shape })) {
    const value = req[name];
    if (value === undefined) {
      if (required === true) problems.push(problem("bad-argument", `${name} is required: ${ruleWords[rule]}`));
      continue;
    }
    const p = fieldProblem(name, value, rule);
    if (p !== null) problems.push(p);
  }
  return problems;
}
