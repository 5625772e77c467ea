/**
 * A function is one phase a reader can name, about a screenful: no non-test function under src/ runs past
 * LIMIT lines unless tools/long-functions.mjs allows it by name, with a reason.
 */
import { describe, expect, it } from "vitest";
import { ALLOWED, LIMIT, longFunctionsIn, scanProject } from "./long-functions.mjs";

function body(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `  total += ${i};`).join("\n");
}

describe("the long-function guard", () => {
  it("finds no function over the limit outside the allow-list", () => {
    const offenders = scanProject()
      .filter((f) => !f.allowed)
      .map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(offenders).toEqual([]);
  });

  it("keeps every entry of the allow-list long, so a stale entry is removed", () => {
    const long = new Set(scanProject().map((f) => `${f.file}#${f.name}`));
    const stale = ALLOWED.filter((a) => !long.has(`${a.file}#${a.name}`));
    expect(stale).toEqual([]);
  });

  it("gives every allow-list entry a one-line reason", () => {
    for (const a of ALLOWED) {
      expect(a.reason.length, `${a.file}#${a.name}`).toBeGreaterThan(0);
      expect(a.reason).not.toContain("\n");
    }
  });

  it("measures declarations, arrows, methods and callbacks, and names each as a reader would look it up", () => {
    const source = [
      `export function declared(total: number) {\n${body(LIMIT - 2)}\n}`,
      `function short(total: number) {\n${body(LIMIT - 3)}\n}`,
      `const arrow = (total: number) => {\n${body(LIMIT)}\n};`,
      `class Counter {\n  method(total: number) {\n${body(LIMIT)}\n  }\n}`,
      `function register(program: { action(f: () => void): void }) {\n  program.action(() => {\n  let total = 0;\n${body(LIMIT)}\n  });\n}`,
      `const TABLE = (() => {\n  let total = 0;\n${body(LIMIT)}\n  return total;\n})();`,
    ].join("\n");
    const found = longFunctionsIn("planted.ts", source).map((f) => [f.name, f.lines]);
    expect(found).toEqual([
      ["arrow", LIMIT + 2],
      ["method", LIMIT + 2],
      ["register", LIMIT + 5],
      ["register:action", LIMIT + 3],
      ["TABLE", LIMIT + 4],
    ]);
    expect(longFunctionsIn("planted.ts", `function declared(total: number) {\n${body(LIMIT - 2)}\n}`)).toEqual([]);
    expect(longFunctionsIn("planted.ts", `function declared(total: number) {\n${body(LIMIT - 1)}\n}`)).toHaveLength(1);
  });
});
