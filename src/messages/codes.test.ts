/**
 * The code union and the source agree both ways: the type makes every code a problem is
 * built with a member of the union; this test makes every member one the source still
 * names outside the list, so the union does not keep codes nothing reports any more.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../testing/shared.js";
import { problemCodes } from "./codes.js";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === "testing" ? [] : sources(p);
    return p.endsWith(".ts") && !p.endsWith(".test.ts") && !p.endsWith(join("messages", "codes.ts")) ? [p] : [];
  });
}

/** The codes of `codes` the source text never names. */
function unusedCodes(codes: readonly string[], text: string): string[] {
  return codes.filter((code) => !text.includes(`"${code}"`));
}

describe("problem codes", () => {
  const text = sources(join(projectRoot, "src"))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");

  it("each code of the union is named in the source outside the list", () => {
    expect(unusedCodes(problemCodes, text)).toEqual([]);
  });

  it("the list holds each code once, in order, each a lowercase dashed word", () => {
    expect([...problemCodes]).toEqual([...new Set(problemCodes)].sort());
    for (const code of problemCodes) expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("the check can fail: a code only the list names is found unused", () => {
    expect(unusedCodes([...problemCodes, "no-such-code-anywhere"], text)).toEqual(["no-such-code-anywhere"]);
  });
});
