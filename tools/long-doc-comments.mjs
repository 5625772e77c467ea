/**
 * Lists the doc comments (`/** … *\/`) under src/, test files included, whose text runs past LIMIT
 * characters and are not on the allow-list below; exits 1 when there is one. A doc comment says why in
 * a sentence or two; the long explanation goes to the folder's README.md or a `help` topic
 * (tools/long-doc-comments.test.ts runs this check in the suite).
 *
 *   node tools/long-doc-comments.mjs           offenders only
 *   node tools/long-doc-comments.mjs --all     every doc comment over the limit, allowed ones marked
 *   node tools/long-doc-comments.mjs --count   how many doc comments there are, and how many are long
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const LIMIT = 400;

/**
 * The only doc comments allowed past LIMIT, by file and the name of what they document (`<file>` for a
 * header; see documentedName), each with a one-line reason. None at present.
 */
export const ALLOWED = [];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The text a reader reads: the comment without its `/**`, `*\/`, indentation and leading `*`, each run
 * of white space counted as one character, so the measure does not change when Prettier rewraps it.
 */
export function commentText(comment) {
  return comment
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\*?/, ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The name of the declaration a comment stands before, or `<file>` for a header, `<inline>` otherwise. */
function documentedName(token, source) {
  for (let node = token; node && node !== source; node = node.parent) {
    if (node.getFullStart() !== token.getFullStart()) break;
    if (ts.isVariableStatement(node)) return node.declarationList.declarations[0].name.getText(source);
    if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) {
      return node.name.getText(source);
    }
  }
  return token.getFullStart() === 0 ? "<file>" : "<inline>";
}

/**
 * Every doc comment in one source text longer than `limit` characters, in file order. A file is parsed only
 * when a plain text search finds a long candidate: a `/**` inside a string can only make a candidate longer,
 * never hide one, and the parse then keeps only real comments.
 */
export function longDocCommentsIn(file, text, limit = LIMIT) {
  const candidate = (text.match(/\/\*\*[\s\S]*?\*\//g) ?? []).some((c) => commentText(c).length > limit);
  return candidate ? docCommentsIn(file, text).filter((c) => c.length > limit) : [];
}

/** Every doc comment in one source text, with its line, length and the name it documents. */
export function docCommentsIn(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Set();
  const found = [];
  const note = (range, name) => {
    const comment = text.slice(range.pos, range.end);
    if (seen.has(range.pos) || !comment.startsWith("/**") || comment === "/**/") return;
    seen.add(range.pos);
    const line = source.getLineAndCharacterOfPosition(range.pos).line + 1;
    found.push({ file, name, line, length: commentText(comment).length });
  };
  // First the comments before a node, named after it; then those after a node's last token (before a closing brace).
  const before = (node) => {
    for (const range of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []) note(range, documentedName(node, source));
    ts.forEachChild(node, before);
  };
  const after = (node) => {
    for (const range of ts.getLeadingCommentRanges(text, node.end) ?? []) note(range, "<inline>");
    ts.forEachChild(node, after);
  };
  before(source);
  after(source);
  return found.sort((a, b) => a.line - b.line);
}

/** The project's TypeScript sources under src/, test files included, tracked or new (not ignored). */
export function sourceFiles() {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "src/**/*.ts"], {
    cwd: root,
    encoding: "utf8",
  });
  return listed.split("\n").filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
}

export function allowance(found) {
  return ALLOWED.find((a) => a.file === found.file && a.name === found.name);
}

/** Every doc comment in the project over LIMIT, each with its allow-list entry if it has one. */
export function scanProject() {
  return sourceFiles().flatMap((file) =>
    longDocCommentsIn(file, readFileSync(join(root, file), "utf8")).map((found) => ({ ...found, allowed: allowance(found) })),
  );
}

/** Every doc comment in the project, long or not (slower: every file is parsed). */
export function allDocComments() {
  return sourceFiles().flatMap((file) => docCommentsIn(file, readFileSync(join(root, file), "utf8")));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const long = scanProject();
  const offenders = long.filter((f) => !f.allowed);
  if (process.argv.includes("--count")) {
    const found = allDocComments();
    const isTest = (f) => f.file.endsWith(".test.ts");
    for (const [label, pick] of [
      ["source files", (f) => !isTest(f)],
      ["test files", isTest],
    ]) {
      const all = found.filter(pick);
      console.log(`${label}: ${all.length} doc comments, ${all.filter((f) => f.length > LIMIT).length} over ${LIMIT} characters`);
    }
  } else {
    for (const f of process.argv.includes("--all") ? long : offenders) {
      const mark = f.allowed ? ` (allowed: ${f.allowed.reason})` : "";
      console.log(`${f.file}:${f.line}: ${f.name} has ${f.length} characters${mark}`);
    }
  }
  if (offenders.length > 0) {
    console.error(`${offenders.length} doc comment(s) over ${LIMIT} characters outside the allow-list in tools/long-doc-comments.mjs`);
    process.exit(1);
  }
}
