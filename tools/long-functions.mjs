/**
 * Lists the non-test functions under src/ that run past LIMIT lines and are not on the allow-list below;
 * exits 1 when there is one. A function should be one phase a reader can name, about a screenful
 * (tools/long-functions.test.ts runs this check in the suite).
 *
 *   node tools/long-functions.mjs           offenders only
 *   node tools/long-functions.mjs --all     every function over the limit, allowed ones marked
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const LIMIT = 60;

/**
 * The only functions allowed past LIMIT, by file and name (see functionName for anonymous ones).
 * "table": data written as code, where splitting would only scatter the rows.
 * "hot": a measured inner loop kept inlined on purpose.
 * "recursive": a recursion over nested values whose frames per level are kept few, so deep input meets
 *   CPython's own depth limit (a RecursionError) before JavaScript's stack (a RangeError).
 * "unsplit": logic not yet split into named phases; the entry goes when it is.
 */
export const ALLOWED = [
  { file: "src/simulator/eval-scope.ts", name: "BUILTINS", kind: "table", reason: "Python's builtins, one row per name" },
  { file: "src/simulator/classes/math-api.ts", name: "buildMathMethods", kind: "table", reason: "MathAPI's methods, one row per method" },
  { file: "src/official/metric-names.ts", name: "metricsByName", kind: "table", reason: "the metric catalogue, one row per metric" },
  {
    file: "src/python/json.ts",
    name: "jsonDumps",
    kind: "recursive",
    reason: "one JS frame per nesting level, so CPython's depth limit is met before the JS stack runs out",
  },
  {
    file: "src/python/json.ts",
    name: "enc",
    kind: "recursive",
    reason: "one JS frame per nesting level, so CPython's depth limit is met before the JS stack runs out",
  },
  {
    file: "src/python/json.ts",
    name: "jsonLoadsOrThrow",
    kind: "recursive",
    reason: "its parser takes one JS frame per nesting level, so CPython's depth limit is met before the JS stack runs out",
  },
  {
    file: "src/stats/pcg64.ts",
    name: "fillBoundedSmall",
    kind: "hot",
    reason: "the bootstrap's inner loop: PCG64's state kept in locals, its step and output inlined",
  },
];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A function's name as a reader would look it up: its own name, else the variable, property or
 * parameter it is bound to, else `outer:call` for a callback passed to `call` inside `outer`.
 */
export function functionName(node) {
  if (node.name) return node.name.getText();
  let child = node;
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent)) {
    child = parent;
    parent = parent.parent;
  }
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent) && parent.expression === child) return functionName(parent);
  if (ts.isCallExpression(parent)) {
    const callee = ts.isPropertyAccessExpression(parent.expression) ? parent.expression.name.getText() : parent.expression.getText();
    return `${enclosingName(parent)}:${callee}`;
  }
  return `${enclosingName(parent)}:<anon>`;
}

function enclosingName(node) {
  for (let up = node; up; up = up.parent) {
    if (ts.isFunctionLike(up) && "body" in up && up.body) return functionName(up);
  }
  return "<module>";
}

/** Every function in one source text longer than `limit` lines, outermost first. */
export function longFunctionsIn(file, text, limit = LIMIT) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessor(node) ||
        ts.isSetAccessor(node)) &&
      node.body
    ) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      if (last - first + 1 > limit) found.push({ file, name: functionName(node), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The project's non-test TypeScript sources under src/, tracked or new (not ignored). */
export function sourceFiles() {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "src/**/*.ts"], {
    cwd: root,
    encoding: "utf8",
  });
  return listed.split("\n").filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts"));
}

export function allowance(found) {
  return ALLOWED.find((a) => a.file === found.file && a.name === found.name);
}

/** Every long function in the project, each with its allow-list entry if it has one. */
export function scanProject(limit = LIMIT) {
  return sourceFiles().flatMap((file) =>
    longFunctionsIn(file, readFileSync(join(root, file), "utf8"), limit).map((found) => ({ ...found, allowed: allowance(found) })),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const all = process.argv.includes("--all");
  const found = scanProject();
  const offenders = found.filter((f) => !f.allowed);
  for (const f of all ? found : offenders) {
    const mark = f.allowed ? ` (allowed, ${f.allowed.kind}: ${f.allowed.reason})` : "";
    console.log(`${f.file}:${f.line}: ${f.name} is ${f.lines} lines${mark}`);
  }
  if (offenders.length > 0) {
    console.error(`${offenders.length} function(s) over ${LIMIT} lines outside the allow-list in tools/long-functions.mjs`);
    process.exit(1);
  }
}
