/**
 * A doc comment says why in a sentence or two; the long explanation lives in the folder's README.md or a
 * `help` topic. No doc comment under src/ (test files included) runs past LIMIT characters of text unless
 * tools/long-doc-comments.mjs allows it by name, with a reason.
 */
import { describe, expect, it } from "vitest";
import { ALLOWED, LIMIT, commentText, docCommentsIn, longDocCommentsIn, scanProject, sourceFiles } from "./long-doc-comments.mjs";

const words = (chars: number): string => `${"word ".repeat(Math.ceil(chars / 5)).slice(0, chars - 1)}.`;

/** A doc comment whose text is exactly `chars` characters, wrapped at 80 columns with `indent` before each line. */
function planted(chars: number, indent = ""): string {
  const lines = words(chars).match(/.{1,80}(\s|$)/g) ?? [];
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l.trim()}`), `${indent} */`].join("\n");
}

describe("the long-doc-comment guard", () => {
  const project = scanProject();

  it("finds no doc comment over the limit outside the allow-list", () => {
    const offenders = project
      .filter((f) => f.length > LIMIT && !f.allowed)
      .map((f) => `${f.file}:${f.line} ${f.name} (${f.length} characters)`);
    expect(offenders).toEqual([]);
  });

  it("keeps every entry of the allow-list long, so a stale entry is removed", () => {
    const long = new Set(project.map((f) => `${f.file}#${f.name}`));
    expect(ALLOWED.filter((a) => !long.has(`${a.file}#${a.name}`))).toEqual([]);
  });

  it("gives every allow-list entry a one-line reason", () => {
    for (const a of ALLOWED) {
      expect(a.reason.length, `${a.file}#${a.name}`).toBeGreaterThan(0);
      expect(a.reason).not.toContain("\n");
    }
  });

  it("reads the whole of src/, test files included", () => {
    const files = sourceFiles();
    expect(files.some((f) => f.endsWith(".test.ts"))).toBe(true);
    expect(files.filter((f) => !f.startsWith("src/"))).toEqual([]);
    expect(files.length).toBeGreaterThan(500);
  });

  it("measures the text a reader reads, whatever the wrapping or indentation", () => {
    expect(commentText("/**\n   * Two words.\n   *\n   * More   here.\n   */")).toBe("Two words. More here.");
    expect(commentText("/** One line. */")).toBe("One line.");
    for (const indent of ["", "    "]) {
      const at = (chars: number) => docCommentsIn("planted.ts", `const w = 0;\n${planted(chars, indent)}\nexport const x = 1;\n`)[0];
      expect(at(LIMIT)).toMatchObject({ name: "x", line: 2, length: LIMIT });
      expect(longDocCommentsIn("planted.ts", `${planted(LIMIT, indent)}\nexport const x = 1;\n`)).toEqual([]);
      expect(longDocCommentsIn("planted.ts", `${planted(LIMIT + 1, indent)}\nexport const x = 1;\n`)).toHaveLength(1);
    }
  });

  it("finds headers, members and comments before a closing brace, names what each documents, and skips look-alikes", () => {
    const long = planted(LIMIT + 1);
    const source = [
      `${long}\nimport { a } from "./a.js";`,
      `${long}\nexport function declared(): void {}`,
      `class Counter {\n${planted(LIMIT + 1, "  ")}\n  count = 0;\n}`,
      `function closing(): void {\n  const y = 1;\n${planted(LIMIT + 1, "  ")}\n}`,
      `const text = "/** ${words(LIMIT + 1)} */";`,
      `/* ${words(LIMIT + 1)} */\nconst plain = 1;`,
      `const opener = "/**";\n${long}\nconst afterString = 1;`,
    ].join("\n");
    const found = longDocCommentsIn("planted.ts", source).map((f) => f.name);
    expect(found).toEqual(["<file>", "declared", "count", "<inline>", "afterString"]);
    // a file with no long candidate is not parsed, and has none
    expect(longDocCommentsIn("planted.ts", `const text = "/** short */";\n${planted(LIMIT)}\nconst x = 1;`)).toEqual([]);
  });
});
