import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as core from "./core.js";
import * as twinscore from "./index.js";
import { projectRoot, rolloutRunDir } from "./testing/shared.js";

/** Every export of an entry file, with the doc comment of what it resolves to. */
function exportsWithDocs(entry: string): { name: string; value: boolean; doc: string }[] {
  const file = join(projectRoot, "src", entry);
  const program = ts.createProgram([file], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const moduleSymbol = checker.getSymbolAtLocation(source)!;
  return checker.getExportsOfModule(moduleSymbol).map((s) => {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    const doc = ts.displayPartsToString(target.getDocumentationComment(checker));
    const tags = target.getJsDocTags(checker).map((t) => `@${t.name} ${ts.displayPartsToString(t.text ?? [])}`);
    return { name: s.name, value: (target.flags & ts.SymbolFlags.Value) !== 0, doc: [doc, ...tags].join("\n") };
  });
}

describe("the library entry points", () => {
  it("twinscore: the use cases with file access, and only them (no internals such as logGamma or seedWords)", () => {
    const values = Object.keys(twinscore).sort();
    expect(values).toEqual(["buildPairs", "buildReport", "checkRuns", "compareArms", "judgeHeldBack", "readRun", "runCommand", "runDemo", "scoreRuns", "verifyExpected"]);
  });

  it("twinscore/core: the pure core, none of it touching files", () => {
    expect(Object.keys(core)).not.toContain("logGamma");
    expect(Object.keys(core)).not.toContain("MAX_INTEGERS_BOUND");
    const manifest = core.parseManifest(readFileSync(join(projectRoot, "data", "manifest.json"), "utf8"));
    expect(manifest.ok).toBe(true);
    if (!manifest.ok) return;
    expect(core.selectPairs(manifest.value, { pairSet: "certified", countLogin: false })).toHaveLength(223);
    expect(core.selectPairs(manifest.value, { pairSet: "certified", countLogin: true })).toHaveLength(225);
    const parsed = core.parseExpression("echo(content='x', file_name='a.txt')");
    expect(parsed.ok).toBe(true);
    expect(core.isWorldChanging({ name: "mv", positional: [], keywords: [] })).toBe(true);
    expect(core.isWorldChanging({ name: "ls", positional: [], keywords: [] })).toBe(false);
    const line = readFileSync(join(rolloutRunDir("2025-11-12-main"), "result", "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_result.json"), "utf8").split("\n")[0];
    const decoded = core.decodeResultLine(line);
    expect("code" in decoded).toBe(false);
    if (!("code" in decoded)) expect([decoded.id, decoded.rollout.kind]).toEqual(["multi_turn_base_0", "turns"]);
  });

  it.each(["index.ts", "core.ts"])("every export of %s has a doc comment, and every function or constant an example", (entry) => {
    const exported = exportsWithDocs(entry);
    expect(exported.length).toBeGreaterThan(5);
    expect(exported.filter((e) => e.doc.trim() === "").map((e) => e.name)).toEqual([]);
    expect(exported.filter((e) => e.value && !/@example/.test(e.doc) && !Array.isArray((core as Record<string, unknown>)[e.name])).map((e) => e.name)).toEqual([]);
  });
  it("exposes the prompt-arm injection check (and the generation loop beside it)", () => {
    const check = core.injectionCheck(new Map([["a", 10], ["b", 3]]), new Map([["a", 25], ["b", 18]]));
    expect(check.mode).toBe(15);
    expect(check.breaks).toEqual([]);
  });
});
